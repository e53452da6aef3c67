"""The journal keeps every acknowledged action through crashes, damage and
other windows: the game store under it, and its journals of earlier versions."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import signal
import sqlite3
import stat
import subprocess
import sys
import zlib
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import pytest

from companion.app import run_plain
from companion.games.sushigo.cards import Card
from companion.games.sushigo.draft import Variant
from companion.games.sushigo.session import PracticeSession, TableSession
from companion.games.sushigo.tracker import Entry, TrackerError
from companion.journal import (
    GameRef,
    Journal,
    export,
    import_journal,
    journals,
    load,
    transaction,
    unfinished,
)
from companion.notices import Notice, take_notices
from companion.settings import Settings
from companion.store import SCHEMA, STORE_NAME, Store, encode_line
from tests.fuzz import examples


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    """Each test opens its stores afresh and hears only its own notices."""
    Store.forget()
    take_notices()
    yield
    Store.forget()
    take_notices()


def test_events_round_trip_and_the_store_is_private(tmp_path: Path) -> None:
    journal = Journal.create({"type": "test", "name": "Zoë"}, tmp_path)
    journal.append({"type": "choose", "seat": 0, "choice": "w2"})
    journal.append({"type": "choose", "seat": 1, "choice": "t+w3"})
    journal.close()
    loaded = load(journal.ref)
    assert loaded.header == {"type": "test", "name": "Zoë"}
    assert [e["choice"] for e in loaded.events] == ["w2", "t+w3"]
    assert not loaded.damaged
    for name in (STORE_NAME, STORE_NAME + "-wal"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600, name
    with sqlite3.connect(tmp_path / STORE_NAME) as database:
        assert database.execute("PRAGMA user_version").fetchone()[0] == SCHEMA
        assert database.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_undo_removes_the_last_event_only(tmp_path: Path) -> None:
    journal = Journal.create({"type": "test"}, tmp_path)
    journal.append({"type": "step", "n": 0})
    journal.append({"type": "step", "n": 1})
    assert journal.undo() == {"type": "step", "n": 1}
    journal.append({"type": "step", "n": 2})
    journal.close()
    assert [e["n"] for e in load(journal.ref).events] == [0, 2]
    assert journal.undo() == {"type": "step", "n": 2}
    assert journal.undo() == {"type": "step", "n": 0}
    assert journal.undo() is None
    assert load(journal.ref).events == []


def test_a_transaction_saves_all_of_its_block_at_its_end(tmp_path: Path) -> None:
    journal = Journal.create({"type": "test"}, tmp_path)
    journal.append({"type": "step", "n": 0})
    with transaction():
        journal.append({"type": "step", "n": 1})
        journal.undo()
        journal.undo()
        journal.append({"type": "step", "n": 2})
        assert [e["n"] for e in load(journal.ref).events] == [0], "nothing saved mid-block"
    assert [e["n"] for e in load(journal.ref).events] == [2]


def test_a_block_cut_by_control_c_saves_none_of_it_and_memory_is_as_on_disk(
        tmp_path: Path) -> None:
    journal = Journal.create({"type": "test"}, tmp_path)
    journal.append({"type": "step", "n": 0})
    journal.append({"type": "step", "n": 1})
    with contextlib.suppress(KeyboardInterrupt), transaction():
        journal.undo()  # half an undo of two events, then Control C
        raise KeyboardInterrupt
    assert [e["n"] for e in load(journal.ref).events] == [0, 1], "nothing of the block saved"
    assert [e["n"] for e in journal.events] == [0, 1], "memory is what the disk holds"
    journal.append({"type": "step", "n": 2})
    assert [e["n"] for e in load(journal.ref).events] == [0, 1, 2]
    with contextlib.suppress(RuntimeError), transaction():
        journal.append({"type": "step", "n": 3})
        with transaction():
            journal.undo()
            journal.undo()
        raise RuntimeError("cut")
    assert [e["n"] for e in load(journal.ref).events] == [0, 1, 2]
    assert [e["n"] for e in journal.events] == [0, 1, 2]


def test_a_second_window_is_refused_the_game_it_has_open(tmp_path: Path) -> None:
    first = Journal.create({"type": "test"}, tmp_path)
    first.append({"type": "step"})
    child = subprocess.run(
        [sys.executable, "-c", "import sys; from pathlib import Path\n"
         "from companion.journal import GameInUse, GameRef, Journal\n"
         "try:\n    Journal.open(GameRef(Path(sys.argv[1]), sys.argv[2]))\n"
         "except GameInUse:\n    sys.exit(3)\n",
         str(first.ref.folder), first.ref.name], check=False, timeout=60)
    assert child.returncode == 3, "another process opened a game this window holds"
    first.close()
    again, _ = Journal.open(first.ref)
    assert again.events == [{"type": "step"}]
    again.close()


def old_journal(folder: Path, name: str, events: Sequence[Mapping[str, object]]) -> Path:
    """A journal file as versions before the store wrote them."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.jsonl"
    path.write_bytes(b"".join(encode_line(n, e) for n, e in enumerate(events)))
    return path


def test_old_journals_are_imported_once_and_their_files_kept(tmp_path: Path) -> None:
    header = {"type": "practice", "game": "sushigo"}
    going = old_journal(tmp_path, "20260101-100000-aaaaaa", [header, {"type": "x"}])
    ended = old_journal(tmp_path, "20260101-090000-bbbbbb", [header, {"type": "end"}])
    torn = old_journal(tmp_path, "20260101-080000-cccccc", [header, {"type": "y"}])
    torn.write_bytes(torn.read_bytes() + b'{"n": 2, "event": {"ty')
    (tmp_path / "20260101-070000-dddddd.jsonl").write_bytes(b"not a journal\n")
    for age, path in enumerate((going, ended, torn)):  # written last first
        os.utime(path, (1e9 - age, 1e9 - age))
    kept = {path: path.read_bytes() for path in tmp_path.iterdir()}
    assert [game.name for game in unfinished(tmp_path)] == [
        "20260101-100000-aaaaaa", "20260101-080000-cccccc"]
    assert {path: path.read_bytes() for path in kept} == kept, "the files are kept as they were"
    assert set(take_notices()) == {Notice.GAME_DAMAGED, Notice.GAME_UNREADABLE}
    assert load(GameRef(tmp_path, "20260101-080000-cccccc")).events == [{"type": "y"}]
    assert len(journals(tmp_path)) == 3
    Store.forget()
    going.unlink()  # imported once: the store has it, the file is not read again
    ended.unlink()
    assert len(journals(tmp_path)) == 3
    assert take_notices() == []


def test_a_game_exports_and_imports_as_json_lines(tmp_path: Path) -> None:
    journal = Journal.create({"type": "test", "name": "Ana"}, tmp_path / "a")
    journal.append({"type": "step", "n": 1})
    journal.close()
    data = export(journal.ref)
    lines = [json.loads(line) for line in data.splitlines()]
    assert [line["n"] for line in lines] == [0, 1] and lines[1]["event"]["n"] == 1
    file = tmp_path / "shared.jsonl"
    file.write_bytes(data)
    copied = import_journal(file, tmp_path / "b")
    assert load(copied).header == {"type": "test", "name": "Ana"}
    assert load(copied).events == [{"type": "step", "n": 1}]


def test_a_game_ends_as_every_version_saved_its_end(tmp_path: Path) -> None:
    """The ends the sessions write are the rows every version wrote (a game
    played out; one thrown away), and an old journal's end reads as one."""
    played = TableSession.start(["A", "B", "C"], 0, directory=tmp_path)
    played.finish()
    played.close()
    thrown = TableSession.start(["A", "B", "C"], 0, directory=tmp_path)
    thrown.discard()
    with sqlite3.connect(tmp_path / STORE_NAME) as database:
        rows = dict(database.execute(
            "SELECT games.name, events.event FROM games JOIN events ON events.game = games.id"))
    assert rows == {played.journal.ref.name: '{"type": "end"}',
                    thrown.journal.ref.name: '{"discarded": true, "type": "end"}'}
    assert (played.ended, played.discarded, thrown.ended, thrown.discarded) == (
        True, False, True, True)
    header = {"type": "table", "game": "sushigo"}
    old_journal(tmp_path / "old", "20240101-000000-abcdef",
                [header, {"type": "end", "discarded": True}])
    (old,) = journals(tmp_path / "old")
    journal, _ = Journal.open(old)
    assert (journal.ended, journal.discarded) == (True, True)
    journal.close()


def test_a_store_of_a_newer_version_is_read_never_written(tmp_path: Path) -> None:
    journal = Journal.create({"type": "test"}, tmp_path)
    journal.append({"type": "step"})
    journal.close()
    Store.forget()
    with sqlite3.connect(tmp_path / STORE_NAME) as database:
        database.execute(f"PRAGMA user_version = {SCHEMA + 1}")
    before = (tmp_path / STORE_NAME).read_bytes()
    again, _ = Journal.open(journal.ref)
    assert again.events == [{"type": "step"}]
    again.append({"type": "more"})  # played on, not saved
    again.close()
    assert take_notices() == [Notice.STORE_NEWER]
    assert (tmp_path / STORE_NAME).read_bytes() == before


def test_a_store_that_is_not_one_is_kept_aside_and_begun_again(tmp_path: Path) -> None:
    old_journal(tmp_path, "20260101-100000-aaaaaa", [{"type": "practice"}, {"type": "x"}])
    (tmp_path / STORE_NAME).write_bytes(b"SQLite? no: " + os.urandom(3000))
    assert [game.name for game in unfinished(tmp_path)] == ["20260101-100000-aaaaaa"]
    assert take_notices() == [Notice.STORE_DAMAGED]
    (copy,) = tmp_path.glob(STORE_NAME + ".damaged-*")
    assert copy.read_bytes().startswith(b"SQLite? no: ")


def test_damaged_events_at_the_end_are_dropped_said_and_kept(tmp_path: Path) -> None:
    journal = Journal.create({"type": "test"}, tmp_path)
    for n in range(4):
        journal.append({"type": "step", "n": n})
    journal.close()
    Store.forget()
    with sqlite3.connect(tmp_path / STORE_NAME) as database:
        database.execute("UPDATE events SET event = '{\"type\": 7}' WHERE n = 3")
    again, loaded = Journal.open(journal.ref)
    assert [e["n"] for e in again.events] == [0, 1]
    assert loaded.damaged and loaded.dropped_lines == 2
    assert loaded.kept_copy is not None and b'"type": 7' in loaded.kept_copy.read_bytes()
    again.append({"type": "step", "n": 9})
    again.close()
    assert [e["n"] for e in load(journal.ref).events] == [0, 1, 9]


def test_start_up_reads_no_finished_game(tmp_path: Path) -> None:
    """Finished games are kept but never read at start: the offer's query
    walks the index of games not yet told, whatever their number."""
    journal = Journal.create({"type": "test"}, tmp_path)
    journal.close()
    with sqlite3.connect(tmp_path / STORE_NAME) as database:
        database.executemany(
            "INSERT INTO games (name, header, finished, told, written) VALUES (?, '{}', 1, 1, ?)",
            [(f"old-{n}", n) for n in range(5000)])
        plan = database.execute("EXPLAIN QUERY PLAN SELECT name FROM games WHERE told = 0 "
                                "ORDER BY written DESC").fetchall()
    assert any("games_untold" in str(row) for row in plan), plan
    assert unfinished(tmp_path) == [journal.ref]


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
    resumed, loaded = PracticeSession.resume(session.journal.ref)
    assert not loaded.damaged
    assert resumed.game.view(0) == view
    assert resumed.names == ["Ana", "Ben", "Cyril"]
    assert unfinished(tmp_path) == [session.journal.ref]


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
    resumed, _ = PracticeSession.resume(session.journal.ref)
    assert resumed.game.view(0) == before


def test_a_finished_game_is_not_offered_for_resume(tmp_path: Path) -> None:
    session = PracticeSession.start(["A", "B"], ["random", "random"], seed=1, directory=tmp_path)
    rng = random.Random(0)
    while not session.game.over:
        session.play_bots(rng)
    assert unfinished(tmp_path) == [session.journal.ref], "its result is not said yet"
    session.close()  # the result said
    assert unfinished(tmp_path) == []
    session.undo()
    assert not session.game.over
    assert unfinished(tmp_path) == [session.journal.ref]



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
    resumed, loaded = TableSession.resume(session.journal.ref)
    assert not loaded.damaged
    assert resumed.tracker.entries == session.tracker.entries
    assert resumed.tracker.table(1) == (Card.SQUID,)
    assert resumed.tracker.table(2) == ()
    assert (resumed.tracker.round, resumed.tracker.turn) == (1, 2)
    resumed.undo()  # the removal
    assert resumed.tracker.table(2) == (Card.EGG,)
    resumed.undo()  # the correction
    assert resumed.tracker.table(1) == (Card.SALMON,)


def test_a_damaged_old_table_journal_is_imported_and_the_damage_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    header = {"type": "table", "game": "sushigo", "format": 1, "names": ["Ana", "Ben"],
              "you": 0, "variant": {}, "first_controller": 0}
    hand = {"type": "entry", "kind": "hand", "seat": 0, "round": 1, "turn": 1,
            "cards": ["wasabi", "squid", *["sashimi"] * 8]}
    path = old_journal(tmp_path / "data" / "journals", "20260101-100000-aaaaaa",
                       [header, hand])
    path.write_bytes(path.read_bytes() + b'{"crc": 1, "event": {"type": "ent')  # pulled plug
    out = io.StringIO()
    run_plain(io.StringIO("2\n6\n"), out, Settings(speech="none"))
    lines = out.getvalue().splitlines()
    assert lines[0] == "The end of the saved game was damaged; a copy was kept."
    assert lines[1] == "An unfinished table game was found."
    assert path.read_bytes().endswith(b'"type": "ent'), "the file is kept as it was"


def test_a_game_killed_before_its_result_was_said_says_it_next_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    # the last pick saved, then killed: the result was never said
    child = subprocess.run([sys.executable, "-c", KILLED_AT_THE_END], check=False, timeout=120)
    assert child.returncode == -signal.SIGKILL
    (path,) = unfinished()
    out = io.StringIO()
    run_plain(io.StringIO("6\n"), out, Settings(speech="none"))
    text = out.getvalue()
    assert "Final scores." in text and "An unfinished" not in text
    assert text.index("Final scores.") < text.index("Main menu.")
    assert unfinished() == [], "said once: not again at the next start"
    assert load(path).events[-1]["type"] == "end"


KILLED_AT_THE_END = """
import os, random, signal
from companion.games.sushigo.cards import CARDS
from companion.games.sushigo.session import PracticeSession, TableSession
from companion.games.sushigo.tracker import Entry, TrackerError
session = PracticeSession.start(["Ana", "Ben"], [None, "greedy"], seed=4)
rng = random.Random(4)
while not session.game.over:
    session.choose(0, session.game.legal_choices(0).sample(rng))
    session.play_bots(rng)
os.kill(os.getpid(), signal.SIGKILL)
"""


# -- the kill test --------------------------------------------------------------------------------

#: A process kept ready (imports done) that forks a player on each ``run``:
#: the player resumes the newest unfinished practice game (or starts one)
#: and plays it, its picks and undos (a fifth of its moves) each in one
#: transaction, as the app does. Once a game is open it says so (``game``,
#: ``new`` or ``resumed``) with the state it has on disk; before each commit
#: it says the state the game will have (``will``), after it the state it
#: has (``ack``): the number of events and a CRC of them. Every line ends in
#: " ." so that a line cut by the kill is known. When a game ends the next
#: begins in the same run: a kill can come while it is being made, before
#: its first line.
PLAYER = r"""
import json, os, random, signal, sys, threading, zlib
from pathlib import Path
from companion.journal import transaction, unfinished
from companion.games.sushigo.cards import CARDS
from companion.games.sushigo.session import PracticeSession, TableSession
from companion.games.sushigo.tracker import Entry, TrackerError

def state(word, session):
    events = session.journal.events
    crc = zlib.crc32(json.dumps(events, sort_keys=True).encode())
    os.write(1, f"{word} {len(events)} {crc} .\n".encode())

def opened(session, how):
    events = session.journal.events
    crc = zlib.crc32(json.dumps(events, sort_keys=True).encode())
    os.write(1, f"game {how} {session.journal.ref.name} {len(events)} {crc} .\n".encode())

def fall(rng):  # killed from within, a few milliseconds on: in a commit's midst
    threading.Timer(rng.uniform(0, 0.004), os.kill, (os.getpid(), signal.SIGKILL)).start()

def play(folder, seed, fall_at):
    rng = random.Random(seed)
    commits = 0
    while True:
        found = unfinished(folder)
        if found:
            session, _ = PracticeSession.resume(found[0])
            opened(session, "resumed")
        else:
            session = PracticeSession.start(["A", "B", "C"], [None, "greedy", "random"],
                                            seed=rng.randrange(2**32), directory=folder)
            opened(session, "new")
        while not session.game.over:
            with transaction():
                if rng.random() < 0.2 and session.undo_last_of(0):
                    pass
                else:
                    session.choose(0, session.game.legal_choices(0).sample(rng))
                    session.play_bots(rng)
                state("will", session)
                commits += 1
                if commits == fall_at:
                    fall(rng)
            state("ack", session)
        session.close()

def follow(folder, seed, fall_at):
    # a table game: picks, reveals, skips and new turns entered, and the last
    # fact taken back (with the skips and new turn after it) a fifth of the
    # time; after 40 events it ends, and another begins
    rng = random.Random(seed)
    commits = 0
    while True:
        found = unfinished(folder)
        if found:
            session, _ = TableSession.resume(found[0])
            opened(session, "resumed")
        else:
            session = TableSession.start(["A", "B", "C"], 0, directory=folder)
            opened(session, "new")
        while not session.ended:
            with transaction():
                roll = rng.random()
                try:
                    if len(session.journal.events) >= 40:
                        session.finish()
                    elif roll < 0.2:
                        session.take_back()
                    elif roll < 0.4:
                        session.add(Entry.pick(0, [rng.choice(CARDS)]))
                    elif roll < 0.6:
                        session.add(Entry.pick(rng.choice((1, 2)), [rng.choice(CARDS)]))
                    elif roll < 0.75:
                        session.skip(rng.choice(("hand", 1, 2)))
                    else:
                        session.add(Entry.next_turn())
                except TrackerError:
                    pass  # refused before anything was written
                state("will", session)
                commits += 1
                if commits == fall_at:
                    fall(rng)
            state("ack", session)
        session.close()

folder = Path(sys.argv[1])
player = {"practice": play, "table": follow}[sys.argv[2]]
for line in sys.stdin:
    seed, fall_at = map(int, line.split())
    pid = os.fork()
    if pid == 0:
        try:
            player(folder, seed, fall_at)
        finally:
            os._exit(1)
    os.write(1, f"pid {pid} .\n".encode())
    os.waitpid(pid, 0)
    os.write(1, b"\ndone .\n")
"""

#: Kills of a practice game's player, and of a table game's (a tenth of them
#: but in the full command: tests/fuzz.py).
KILLS = {"practice": examples(210), "table": examples(120)}


@pytest.mark.sampled
@pytest.mark.fuzz
@pytest.mark.parametrize("kind", KILLS)
def test_kill_9_at_any_moment_loses_nothing_doubles_nothing_halves_no_undo(
        tmp_path: Path, kind: str) -> None:
    """330 kills of a player in the middle of its game (practice: picks, the
    bots' answers and undos; table: facts, skips, new turns and take-backs):
    after each, the game on disk is the last state acknowledged, or the one
    being committed when the kill came; never one answer less, one more, or
    part of an undo. A game is acknowledged as it stood on disk when it was
    opened; one whose making a kill cut (a new game begins when one ends) is
    either not in the store or is there with nothing answered, and is
    resumed so."""
    rng = random.Random(13)
    kills = KILLS[kind]
    zygote = subprocess.Popen([sys.executable, "-c", PLAYER, str(tmp_path), kind],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    assert zygote.stdin is not None and zygote.stdout is not None
    tally = {"between moves": 0, "before a commit's end": 0, "after a commit": 0}
    nothing = (0, zlib.crc32(b"[]"))  # a game with nothing answered
    known: set[GameRef] = set()  # every game opened so far
    pid = 0
    try:
        for kill in range(kills):
            # half the kills come from within, a few milliseconds into a commit
            fall_at = rng.randrange(1, 12) if kill % 2 else 0
            zygote.stdin.write(f"{kill} {fall_at}\n".encode())
            lines: list[str] = []
            # the player is playing: its game open (its line may come before its pid's)
            while not {"pid", "game"} <= {(line.split() or [""])[0] for line in lines}:
                line = zygote.stdout.readline().decode()
                assert line, f"the player ended: {lines}"
                lines.append(line.strip())
            pid = next(int(line.split()[1]) for line in lines if line.startswith("pid "))
            # a kill after some moves: just after a commit began (a "will"), or
            # after one ended (an "ack", the game opened one too), or as soon as
            # the game is opened
            moves, when = rng.randrange(12), rng.choice(("will ", "ack "))
            acks = ("ack ", "game ") if when == "ack " else (when,)
            while not fall_at and moves and sum(
                    line.startswith(acks) for line in lines) <= moves:
                lines.append(zygote.stdout.readline().decode().strip())
            if not fall_at:
                os.kill(pid, signal.SIGKILL)
            while lines[-1] != "done .":
                line = zygote.stdout.readline().decode()
                assert line, "the player's process ended"
                lines.extend(line.strip().split("\n"))
            game, acked, coming = None, None, None
            for line in lines:
                word, *values = line.split() or [""]
                if not values or values[-1] != ".":
                    continue  # cut by the kill: says nothing
                if word == "game":
                    how, name, count, crc = values[:4]
                    game, acked, coming = GameRef(tmp_path, name), (int(count), int(crc)), None
                    if how == "new" or game not in known:  # made, its making maybe cut
                        assert acked == nothing, f"kill {kill}: {line}: answers in a new game"
                    known.add(game)
                elif word == "ack":
                    acked, coming = (int(values[0]), int(values[1])), None
                elif word == "will":
                    coming = (int(values[0]), int(values[1]))
            assert game is not None and acked is not None
            events = load(game).events
            on_disk = (len(events), zlib.crc32(json.dumps(events, sort_keys=True).encode()))
            assert on_disk in (acked, coming), (
                f"kill {kill}: on disk {on_disk}, acknowledged {acked}, committing {coming}")
            tally["between moves" if coming is None else "before a commit's end"
                  if on_disk == acked else "after a commit"] += 1
    finally:
        if pid:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        zygote.kill()
        zygote.wait(timeout=30)
    assert sum(tally.values()) == kills
    print(f"{kind}: {kills} kills: {tally}")


def test_a_table_game_resumed_after_its_end_says_its_result_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table game played to its end, its window killed before the result
    was said (the journal never closed): resumed, it says the final scores."""
    from companion.contract.events import Verbosity  # noqa: PLC0415
    from companion.games.sushigo.plugin import PLUGIN  # noqa: PLC0415
    from tests.companion.games.test_contract import Scripted, play  # noqa: PLC0415

    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    rng = random.Random(3)
    conversation = Scripted(PLUGIN, rng, skips=0.2)
    played = PLUGIN.table(conversation, lambda: None)()
    play(played, conversation)
    (path,) = unfinished()
    assert load(path).events[-1] == {"type": "end"}
    journal, _ = Journal.open(path)
    game = PLUGIN.resume(journal, rng, "en", Verbosity.NORMAL)
    step = game.advance()
    assert step is not None and step.question is None
    assert any(said.text == "Final scores." for said in step.before), step.before
    assert game.advance() is None, "said once"
    game.close()
    assert unfinished() == []
