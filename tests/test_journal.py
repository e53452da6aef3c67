"""The journal keeps every acknowledged action through crashes and damage."""

from __future__ import annotations

import io
import json
import os
import random
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.faces.plain import run_plain
from companion.games.sushigo.cards import Card
from companion.games.sushigo.draft import Game, Variant
from companion.games.sushigo.session import PracticeSession, TableSession
from companion.games.sushigo.tracker import Entry, TrackerError
from companion.journal import Journal, JournalError, load, unfinished
from companion.settings import Settings


def test_events_round_trip_and_files_are_private(tmp_path: Path) -> None:
    journal = Journal.create({"type": "test", "name": "Zoë"}, tmp_path)
    journal.append({"type": "choose", "seat": 0, "choice": "w2"})
    journal.append({"type": "choose", "seat": 1, "choice": "t+w3"})
    journal.close()
    loaded = load(journal.path)
    assert loaded.header == {"type": "test", "name": "Zoë"}
    assert [e["choice"] for e in loaded.events] == ["w2", "t+w3"]
    assert not loaded.damaged
    assert stat.S_IMODE(journal.path.stat().st_mode) == 0o600


def test_a_torn_last_line_is_dropped_said_and_kept(tmp_path: Path) -> None:
    journal = Journal.create({"type": "test"}, tmp_path)
    for n in range(3):
        journal.append({"type": "step", "n": n})
    journal.close()
    whole = journal.path.read_bytes()
    journal.path.write_bytes(whole + b'{"n": 4, "event": {"ty')
    loaded = load(journal.path)
    assert [e["n"] for e in loaded.events] == [0, 1, 2]
    assert loaded.dropped_lines == 1 and loaded.problem == "the last line was cut short"
    assert loaded.kept_copy is not None and loaded.kept_copy.read_bytes().endswith(b'"ty')
    assert journal.path.read_bytes() == whole
    # appending goes on after the last whole event
    again, _ = Journal.open(journal.path)
    again.append({"type": "step", "n": 3})
    again.close()
    assert [e["n"] for e in load(journal.path).events] == [0, 1, 2, 3]


def test_a_garbled_line_stops_the_load_there(tmp_path: Path) -> None:
    journal = Journal.create({"type": "test"}, tmp_path)
    for n in range(4):
        journal.append({"type": "step", "n": n})
    journal.close()
    lines = journal.path.read_bytes().splitlines(keepends=True)
    lines[2] = lines[2].replace(b'"event": {"n": 1,', b'"event": {"n": 7,')  # not its CRC
    journal.path.write_bytes(b"".join(lines))
    loaded = load(journal.path)
    assert [e["n"] for e in loaded.events] == [0]
    assert loaded.dropped_lines == 3 and "damaged" in loaded.problem


def test_a_journal_without_a_header_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"not json\n")
    with pytest.raises(JournalError):
        load(path)


def test_undo_removes_the_last_event_only(tmp_path: Path) -> None:
    journal = Journal.create({"type": "test"}, tmp_path)
    journal.append({"type": "step", "n": 0})
    journal.append({"type": "step", "n": 1})
    assert journal.undo() == {"type": "step", "n": 1}
    journal.append({"type": "step", "n": 2})
    journal.close()
    assert [e["n"] for e in load(journal.path).events] == [0, 2]
    assert journal.undo() == {"type": "step", "n": 2}
    assert journal.undo() == {"type": "step", "n": 0}
    assert journal.undo() is None


def play_some(session: PracticeSession, turns: int, rng: random.Random) -> None:
    for _ in range(turns):
        session.play_bots(rng)
        for seat in session.game.waiting_for():
            session.choose(seat, session.game.legal_choices(seat).sample(rng))


def test_a_practice_game_resumes_exactly(tmp_path: Path) -> None:
    session = PracticeSession.start(
        ["Ana", "Ben", "Cyril"], [None, "greedy", "random"],
        variant=Variant(pass_both_ways=True, soy_sauce=2), seed=5, directory=tmp_path,
    )
    play_some(session, 13, random.Random(1))
    view = session.game.view(0)
    session.close()
    resumed, loaded = PracticeSession.resume(session.journal.path)
    assert not loaded.damaged
    assert resumed.game.view(0) == view
    assert resumed.names == ["Ana", "Ben", "Cyril"]
    assert unfinished(tmp_path) == [session.journal.path]


def test_undo_takes_back_the_last_choice(tmp_path: Path) -> None:
    session = PracticeSession.start(["Ana", "Ben"], [None, None], seed=3, directory=tmp_path)
    rng = random.Random(2)
    play_some(session, 3, rng)
    before = session.game.view(0)
    session.choose(0, session.game.legal_choices(0).sample(rng))
    session.choose(1, session.game.legal_choices(1).sample(rng))  # the reveal
    assert session.game.view(0) != before
    session.undo()
    session.undo()
    assert session.game.view(0) == before
    resumed, _ = PracticeSession.resume(session.journal.path)
    assert resumed.game.view(0) == before


def test_a_finished_game_is_not_offered_for_resume(tmp_path: Path) -> None:
    session = PracticeSession.start(["A", "B"], ["random", "random"], seed=1, directory=tmp_path)
    rng = random.Random(0)
    while not session.game.over:
        session.play_bots(rng)
    assert unfinished(tmp_path) == []
    session.undo()
    assert not session.game.over
    assert unfinished(tmp_path) == [session.journal.path]


CHILD = """
import random, sys
from pathlib import Path
from companion.games.sushigo.session import PracticeSession
seed = int(sys.argv[2])
rng = random.Random(seed)
while True:  # game after game, until killed
    session = PracticeSession.start(
        ["A", "B", "C", "D"], ["greedy", "random", "greedy", "random"],
        seed=seed, directory=Path(sys.argv[1]),
    )
    print("game", session.journal.path, flush=True)
    while not session.game.over:
        session.play_bots(rng)
        print("ack", len(session.journal.events), flush=True)
    session.close()
"""


@pytest.mark.parametrize("seed", range(8))
def test_kill_9_at_any_moment_loses_nothing_acknowledged(tmp_path: Path, seed: int) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(tmp_path), str(seed)],
        stdout=subprocess.PIPE, text=True,
    )
    assert child.stdout is not None
    assert child.stdout.readline().startswith("game ")  # running
    time.sleep(random.Random(seed).uniform(0.01, 0.3))
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=30)
    path, acknowledged = None, 0
    for line in child.stdout.read().splitlines():
        word, _, value = line.partition(" ")
        if word == "game" and value.endswith(".jsonl"):
            path, acknowledged = Path(value), 0
        elif word == "ack" and value.isdigit():
            acknowledged = int(value)
        # the last line may have been cut by the kill: it acknowledged nothing
    newest = path or max(tmp_path.glob("*.jsonl"), key=lambda p: p.stat().st_mtime)
    resumed, loaded = PracticeSession.resume(newest)
    events = resumed.journal.events
    assert len(events) >= acknowledged
    assert loaded.dropped_lines <= 1
    # the resumed game is the one the journal describes, and it plays on to the end
    replay = Game(4, rng=random.Random(seed))
    for event in events:
        if event["type"] == "choose":
            replay.choose(event["seat"], event["choice"])
    assert resumed.game.view(0) == replay.view(0)
    rng = random.Random(99)
    while not resumed.game.over:
        resumed.play_bots(rng)
    assert json.loads(newest.read_bytes().splitlines()[-1])["event"]["type"] == "end"


def test_a_table_game_resumes_with_its_corrections(tmp_path: Path) -> None:
    session = TableSession.start(["Ana", "Ben", "Cyril"], 0, directory=tmp_path)
    hand = [Card.WASABI, Card.SQUID, *[Card.SASHIMI] * 7]
    session.add(Entry.hand(hand))
    session.add(Entry.pick(0, [Card.WASABI]))
    session.add(Entry.pick(1, [Card.SALMON]))
    session.add(Entry.pick(2, [Card.EGG]))
    session.add(Entry.next_turn())
    session.replace(2, Entry.pick(1, [Card.SQUID]))
    session.remove(3)
    with pytest.raises(TrackerError):
        session.add(Entry.pick(7, [Card.EGG]))
    session.close()
    resumed, loaded = TableSession.resume(session.journal.path)
    assert not loaded.damaged
    assert resumed.tracker.entries == session.tracker.entries
    assert resumed.tracker.table(1) == (Card.SQUID,)
    assert resumed.tracker.table(2) == ()
    assert (resumed.tracker.round, resumed.tracker.turn) == (1, 2)
    resumed.undo()  # the removal
    assert resumed.tracker.table(2) == (Card.EGG,)
    resumed.undo()  # the correction
    assert resumed.tracker.table(1) == (Card.SALMON,)


def test_a_damaged_table_journal_is_resumed_once_and_the_damage_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    session = TableSession.start(["Ana", "Ben"], 0)
    session.add(Entry.hand([Card.WASABI, Card.SQUID, *[Card.SASHIMI] * 8]))
    session.add(Entry.pick(0, [Card.WASABI]))
    session.close()
    path = session.journal.path
    with path.open("ab") as file:
        file.write(b'{"crc": 1, "event": {"type": "ent')  # the plug was pulled here
    resumed, loaded = TableSession.resume(path)
    assert loaded.damaged
    assert resumed.tracker.table(0) == (Card.WASABI,)
    resumed.close()
    path.write_bytes(path.read_bytes() + b"torn")
    out = io.StringIO()
    run_plain(io.StringIO("2\n6\n"), out, Settings(speech="none"))
    lines = out.getvalue().splitlines()
    assert lines[0] == "The end of the saved game was damaged; a copy was kept."
    assert lines[1] == "An unfinished table game was found."
    assert len(list(path.parent.glob(path.name + ".damaged-*"))) >= 1
