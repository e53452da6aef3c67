"""No saved game can stop a start: every record is checked by its game's
schema, and a game that cannot be trusted is set aside, said, and kept.

Real games of both games (practice and table) are played through their
sessions into a real store; one field of one record is then damaged (a
wrong type, or out of range), as a disk or an older version could, and
the real app is started on it: in plain mode in this process for every
field of every kind of record, and as the real command in a process of
its own for the three cases the issue reported. Each time the start goes
on, the damaged game is named with its field and set aside (kept in the
store, listed by ``companion games``, exported on request), and another
good game is still offered.
"""

from __future__ import annotations

import io
import json
import random
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.app import run_plain
from companion.contract.events import Verbosity
from companion.games.micimaki.rules import CHOOSE, Game
from companion.games.micimaki.session import PracticeSession as MiciPractice
from companion.games.sushigo.cards import Card
from companion.games.sushigo.session import PracticeSession, TableSession
from companion.games.sushigo.tracker import Entry
from companion.journal import GameRef, Journal, transaction
from companion.notices import take_notices
from companion.records import Damaged, Problem
from companion.settings import Settings
from companion.store import STORE_NAME, Record, Store
from tests.companion.damage import App
from tests.companion.games.micimaki.test_play import Mirror

Event = dict[str, Any]

#: The good game beside every damaged one: a Sushi Go! table game, offered
#: with this player's name when it is resumed.
GOOD = "Goodgame"


@pytest.fixture(autouse=True)
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("COMPANION_SPEECH", "none")  # written only: hundreds of starts
    Store.forget()
    take_notices()
    yield
    Store.forget()
    take_notices()


# -- real saved games ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Saved:
    """A game as the store holds it: its header and events."""

    label: str
    header: Event
    events: list[Event]


def _stored(journal: Journal) -> tuple[Event, list[Event]]:
    return json.loads(json.dumps(journal.header)), json.loads(json.dumps(journal.events))


def sushigo_practice(folder: Path, *, to_the_end: bool = False) -> Saved:
    """A Sushi Go! practice game with the dummy and soy sauce; to its end
    (its result not said yet), or a few turns in."""
    from companion.games.sushigo.draft import Variant  # noqa: PLC0415

    rng = random.Random(7)
    session = PracticeSession.start(["You", "Bot 1"], [None, "greedy"],
                                    variant=Variant(dummy=True, soy_sauce=3), seed=11,
                                    directory=folder)
    turns = 0
    while not session.game.over and (to_the_end or turns < 4):
        for seat in session.game.waiting_for():
            session.choose(seat, session.game.legal_choices(seat).sample(rng))
        turns += 1
    header, events = _stored(session.journal)
    session.journal.close()
    return Saved("sushigo practice, ended" if to_the_end else "sushigo practice", header, events)


def sushigo_table(folder: Path) -> Saved:
    """A Sushi Go! table game with every kind of event: entries of each
    kind, a question skipped, a correction and a removal."""
    session = TableSession.start(["Ana", "Ben", "Cyril"], 0, directory=folder)
    session.add(Entry.hand([Card.WASABI, Card.SQUID, *[Card.SASHIMI] * 7]))
    session.add(Entry.pick(0, [Card.WASABI]))
    session.add(Entry.pick(1, [Card.SALMON]))
    session.skip(2)
    session.add(Entry.next_turn())
    session.add(Entry.pick(2, [Card.EGG]))
    session.replace(2, Entry.pick(1, [Card.SQUID]))
    session.remove(4)
    session.add(Entry.tableau(2, [Card.EGG, Card.TEMPURA]))
    header, events = _stored(session.journal)
    session.journal.close()
    return Saved("sushigo table", header, events)


def mici_practice(folder: Path) -> Saved:
    """A Mici Maki practice game, its last event "choose the next player"
    begun (whom is asked next)."""
    for seed in range(200):
        rng = random.Random(seed)
        session = MiciPractice.start(["You", "Bot 1", "Bot 2"], [None, "cautious", "random"],
                                     seed=seed, directory=folder)
        game: Game = session.game
        for _ in range(60):
            if game.over:
                break
            moves = game.legal_moves()
            if game.turn == 0 and any(kind == CHOOSE for kind, _ in moves):
                session.choosing()
                header, events = _stored(session.journal)
                session.journal.close()
                return Saved("mici-maki practice", header, events)
            session.move(moves[rng.randrange(len(moves))])
        session.discard()
    raise AssertionError("no practice game came to a choose card")


def mici_table(folder: Path) -> Saved:
    """A Mici Maki table game entered through the table companion's own
    questions, from an engine game."""
    mirror = Mirror(4, 3, you=1)
    for _ in range(40):
        if not mirror.step():
            break
    header, events = _stored(mirror.session.journal)
    mirror.session.close()
    return Saved("mici-maki table", header, events)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[Saved]:
    folder = tmp_path_factory.mktemp("corpus")
    import os  # noqa: PLC0415 - the module's games go to their own folder

    before = os.environ.get("COMPANION_DATA_DIR")
    os.environ["COMPANION_DATA_DIR"] = str(folder / "data")
    try:
        with transaction():  # saved once each, not move by move: quicker on a busy disk
            games = [sushigo_practice(folder), sushigo_practice(folder, to_the_end=True),
                     sushigo_table(folder), mici_practice(folder), mici_table(folder)]
    finally:
        if before is None:
            del os.environ["COMPANION_DATA_DIR"]
        else:
            os.environ["COMPANION_DATA_DIR"] = before
        Store.forget()
    return games


def test_the_games_saved_hold_every_kind_of_record(corpus: list[Saved]) -> None:
    kinds = {(saved.header["game"], saved.header["type"], event["type"])
             for saved in corpus for event in saved.events}
    assert kinds >= {
        ("sushigo", "practice", "choose"), ("sushigo", "practice", "end"),
        *(("sushigo", "table", kind) for kind in ("entry", "replace", "remove", "skip")),
        ("mici-maki", "practice", "move"), ("mici-maki", "practice", "pending"),
        ("mici-maki", "table", "entry")}
    entries = {event["kind"] for saved in corpus for event in saved.events
               if event["type"] == "entry" and "kind" in event}
    assert entries == {"hand", "pick", "next", "tableau"}
    said = {event["what"] for saved in corpus for event in saved.events if "what" in event}
    assert len(said) >= 5, said


# -- damage, one field at a time ------------------------------------------------------------------


@dataclass(frozen=True)
class Damage:
    """One field of one record of a saved game, changed."""

    saved: Saved
    record: int  # 0: the header, else the event's number (from 1)
    path: tuple[str | int, ...]
    value: Any
    how: str

    @property
    def field(self) -> str:
        """The field as a problem names it: ``variant.dummy``, ``names[0]``."""
        text = ""
        for part in self.path:
            text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
        return text

    def applied(self) -> tuple[Event, list[Event]]:
        header = json.loads(json.dumps(self.saved.header))
        events = json.loads(json.dumps(self.saved.events))
        target: Any = header if self.record == 0 else events[self.record - 1]
        for part in self.path[:-1]:
            target = target[part]
        target[self.path[-1]] = self.value
        return header, events

    def __str__(self) -> str:
        where = "header" if self.record == 0 else f"event {self.record}"
        return f"{self.saved.label}, {where}, {self.field}, {self.how}"


def wrong_type(value: object) -> object:
    """A value of another type than ``value``'s."""
    if isinstance(value, bool):
        return "yes"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return 5
    if isinstance(value, list):
        return {"a": 1}
    if isinstance(value, dict):
        return [1]
    return []  # null where a value may be missing: a list is never one


def out_of_range(value: object) -> object | None:
    """A value of ``value``'s type that no record may hold (None: there is none)."""
    if isinstance(value, bool) or value is None or isinstance(value, dict):
        return None
    if isinstance(value, int):
        return -(10**30)
    if isinstance(value, str):
        return "x" * 5000
    assert isinstance(value, list)
    return [value[0] if value else 0] * 1000


def fields(value: object, path: tuple[str | int, ...]) -> Iterator[tuple[tuple[str | int, ...],
                                                                        object]]:
    """Every field of a record: its own, those of its groups, and a list's first item."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield (*path, key), inner
            if isinstance(inner, dict):
                yield from fields(inner, (*path, key))
            elif isinstance(inner, list) and inner:
                yield (*path, key, 0), inner[0]


def records(saved: Saved) -> Iterator[tuple[int, Event]]:
    """The header and one event of each kind (each kind of entry)."""
    yield 0, saved.header
    seen = set()
    for number, event in enumerate(saved.events, 1):
        kind = (event["type"], event.get("kind"), event.get("what"))
        if kind not in seen:
            seen.add(kind)
            yield number, event


def damages(corpus: list[Saved]) -> Iterator[Damage]:
    for saved in corpus:
        for number, record in records(saved):
            for path, value in fields(record, ()):
                if path == ("game",):
                    continue  # a game's name no game has: a test of its own below
                yield Damage(saved, number, path, wrong_type(value), "wrong type")
                far = out_of_range(value)
                if far is not None:
                    yield Damage(saved, number, path, far, "out of range")


OLDER, NEWER = "20261201-090000-aaaaaa", "20261203-101500-ab12cd"


def store_with(folder: Path, damage: Damage | None, *, name: str = NEWER) -> None:
    """A store holding a good table game and, written after it, the damaged one."""
    good = sushigo_table_saved(folder)
    store = Store.at(folder)
    store.save(Record(OLDER, good.header), good.events)
    if damage is not None:
        header, events = damage.applied()
        store.save(Record(name, header), events)


def sushigo_table_saved(folder: Path) -> Saved:
    header = {"type": "table", "game": "sushigo", "format": 1, "names": ["Ana", GOOD],
              "you": 0, "variant": {}, "first_controller": 0}
    hand = {"type": "entry", "kind": "hand", "seat": None, "round": 1, "turn": 1,
            "cards": ["wasabi", "squid", *["sashimi"] * 8]}
    return Saved("good", header, [hand])


def start(typed: str = "") -> str:
    """The app started in plain mode on the store, ``typed`` given; what it wrote."""
    out = io.StringIO()
    assert run_plain(io.StringIO(typed), out, Settings(speech="none")) == 0
    Store.forget()
    return out.getvalue()


def journals(tmp_path: Path) -> Path:
    return tmp_path / "data" / "journals"


@pytest.mark.slow
def test_every_field_damaged_sets_its_game_aside_and_the_good_one_is_offered(
        tmp_path: Path, corpus: list[Saved], monkeypatch: pytest.MonkeyPatch) -> None:
    cases = list(damages(corpus))
    assert len(cases) > 120
    failures = []
    for number, damage in enumerate(cases):
        folder = tmp_path / f"case{number}"
        monkeypatch.setenv("COMPANION_DATA_DIR", str(folder))
        store_with(folder / "journals", damage)
        try:
            said = start("1\n")  # resume what is offered
        except Exception as error:
            failures.append(f"{damage}: the start failed: {error!r}")
            continue
        where = "At its start" if damage.record == 0 else f"At step {damage.record}"
        expected = ["is damaged: it is set aside, kept, and no longer offered.",
                    f"{where}, field {damage.field}: expected",
                    f"companion games --export {NEWER} FILE",
                    f"Table game: Ana, {GOOD}."]
        if damage.path == ("type",) and damage.how == "wrong type":
            # a record's type is the store's: a header with none is no game to
            # it, an event with none is where its whole events end
            if damage.record == 0:
                expected[1] = f"It could not be resumed: JournalError: {NEWER}"
            else:
                expected = ["The end of the saved game was damaged; a copy was kept."]
        missing = [text for text in expected if text not in said]
        if missing:
            failures.append(f"{damage}: {missing} not said; said {said[:600]!r}")
            continue
        kept = Store.at(folder / "journals")
        if NEWER not in kept.names() or (
                len(expected) > 1 and NEWER not in kept.aside()):
            failures.append(f"{damage}: not kept aside")
        Store.forget()
    assert not failures, "\n".join(failures[:20]) + f"\n({len(failures)} of {len(cases)})"


def test_every_game_of_the_corpus_resumes_as_it_was_saved(
        tmp_path: Path, corpus: list[Saved]) -> None:
    """The games damaged above are good games before the damage."""
    for saved in corpus:
        folder = tmp_path / saved.label.replace(" ", "-").replace(",", "")
        store = Store.at(folder)
        store.save(Record(NEWER, saved.header), saved.events)
        journal, _ = Journal.open(GameRef(folder, NEWER))
        from companion.games import games  # noqa: PLC0415

        play = games()[saved.header["game"]].resume(journal, random.Random(1), "en",
                                                   Verbosity.NORMAL)
        play.close()


def test_a_set_aside_game_is_said_once_and_the_next_start_offers_the_good_one(
        tmp_path: Path, corpus: list[Saved]) -> None:
    damage = Damage(corpus[0], 1, ("choice",), 5, "wrong type")
    store_with(journals(tmp_path), damage)
    first = start()
    assert "At step 1, field choice: expected text of 1 to 40 characters, found a whole number." \
        in first
    second = start()
    assert second.startswith("An unfinished table game was found.\n"), second[:300]


def test_a_game_of_a_game_not_installed_is_kept_and_not_offered(
        tmp_path: Path, corpus: list[Saved]) -> None:
    saved = Saved("another", {**corpus[0].header, "game": "checkers"}, corpus[0].events)
    store_with(journals(tmp_path), Damage(saved, 0, ("game",), "checkers", "not installed"))
    said = start()
    assert "damaged" not in said
    assert "An unfinished table game was found." in said
    assert Store.at(journals(tmp_path)).aside() == {}


def test_a_game_named_by_something_that_is_no_name_is_set_aside(
        tmp_path: Path, corpus: list[Saved]) -> None:
    store_with(journals(tmp_path), Damage(corpus[0], 0, ("game",), [], "wrong type"))
    said = start()
    assert "At its start, field game: expected one of: " in said
    assert "found a list." in said
    assert "An unfinished table game was found." in said


@pytest.mark.parametrize("label, event, change", [
    ("sushigo practice", 1, {"choice": "zz"}),  # no such card
    ("sushigo practice", 2, {"seat": 0}),  # the same seat twice in a turn
    ("sushigo table", 7, {"index": 40}),  # a correction of no entry
    ("sushigo table", 2, {"cards": ["egg", "egg", "egg"]}),  # a pick of three cards
    ("mici-maki practice", 1, {"move": [5, 1]}),  # an extra card at the start
])
def test_an_event_the_rules_refuse_sets_its_game_aside(
        tmp_path: Path, corpus: list[Saved], label: str, event: int,
        change: dict[str, object]) -> None:
    (saved,) = [saved for saved in corpus if saved.label == label]
    events = [dict(e) for e in saved.events]
    events[event - 1].update(change)
    damaged = Saved(label, saved.header, events)
    store_with(journals(tmp_path), Damage(damaged, 0, ("type",), saved.header["type"], "same"))
    said = start()
    # a practice game replays move by move; a table game as a whole
    assert (f"At step {event}, the rules refuse what was saved." if "practice" in label
            else "The rules refuse one of the steps saved.") in said, said[:400]
    assert "An unfinished table game was found." in said


def test_a_resume_that_fails_in_any_way_sets_the_game_aside(
        tmp_path: Path, corpus: list[Saved], monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever escapes a resume (here a bug, as a test makes one) ends in a
    sentence and the game set aside, never a traceback."""
    from companion.games.micimaki.plugin import MiciMaki  # noqa: PLC0415

    def broken(*_: object) -> object:
        raise IndexError("list index out of range")

    monkeypatch.setattr(MiciMaki, "resume", broken)
    (saved,) = [saved for saved in corpus if saved.label == "mici-maki table"]
    store_with(journals(tmp_path), Damage(saved, 0, ("type",), "table", "same"))
    said = start()
    assert "The Mici Maki table game of 2026-12-03 10:15 is damaged" in said
    assert "It could not be resumed: IndexError: list index out of range." in said
    assert "An unfinished table game was found." in said


def test_the_checked_loaders_say_the_game_and_field() -> None:
    header = {"type": "practice", "game": "sushigo", "format": 1, "names": ["A", "B"],
              "bots": [None, "greedy"], "variant": [], "seed": 3}
    from companion.games.sushigo.session import RECORDS  # noqa: PLC0415

    with pytest.raises(Damaged) as raised:
        RECORDS.check("20261203-101500-ab12cd", header, [])
    assert str(raised.value) == ("game 20261203-101500-ab12cd, header, field variant: "
                                 "expected a group of fields, found a list")
    problem = raised.value.problem
    assert Problem.of(problem.json(), problem.game) == problem


# -- the real command, in a process of its own -----------------------------------------------------


def home_of(tmp_path: Path) -> Path:
    (tmp_path / "config").mkdir(exist_ok=True)
    (tmp_path / "config" / "settings.toml").write_text(
        'language = "en"\nspeech = "none"\nverbosity = "normal"\n')
    return tmp_path


def damage_in_store(tmp_path: Path, name: str, sql: str, *values: object) -> None:
    Store.forget()
    with sqlite3.connect(journals(tmp_path) / STORE_NAME) as database:
        row = database.execute("SELECT id FROM games WHERE name = ?", (name,)).fetchone()[0]
        database.execute(sql, (*values, row))
    database.close()


def companion(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    import os  # noqa: PLC0415

    env = {**os.environ, "COMPANION_DATA_DIR": str(tmp_path / "data"),
           "COMPANION_CONFIG_DIR": str(tmp_path / "config"), "LANG": "en_GB.UTF-8"}
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                          text=True, env=env, timeout=120, check=False)


def good_and_damaged(tmp_path: Path, damaged: Saved) -> str:
    """A good game and, after it, the one to damage; the damaged one's name."""
    good = sushigo_table_saved(journals(tmp_path))
    Store.at(journals(tmp_path)).save(Record(OLDER, good.header), good.events)
    Store.at(journals(tmp_path)).save(Record(NEWER, damaged.header), damaged.events)
    Store.forget()
    return NEWER


def said_at_start(tmp_path: Path) -> list[str]:
    """The real app started: the good game is offered (and left for now);
    the lines said until then."""
    app = App(tmp_path)
    app.answer("An unfinished table game was found.", "2")
    app.until("Main menu.")
    app.ended_well()
    return app.lines


@dataclass(frozen=True)
class Issue:
    """A game of the issue: which corpus game, the damage (SQL on its row), and why it is said."""

    case: str
    sql: str
    value: object
    why: str


@pytest.mark.sampled
@pytest.mark.parametrize("issue", [
    Issue("sushigo practice", "UPDATE games SET header = json_set(header, '$.variant', "
          "json(?)) WHERE id = ?", "[]",
          "At its start, field variant: expected a group of fields, found a list."),
    Issue("sushigo practice", "UPDATE events SET event = json_set(event, '$.choice', ?) "
          "WHERE n = 1 AND game = ?", 5,
          "At step 1, field choice: expected text of 1 to 40 characters, found a whole "
          "number."),
    Issue("mici-maki table", "UPDATE games SET header = json_set(header, '$.names', json(?)) "
          "WHERE id = ?", "[]",
          "At its start, field names: expected a list of 4 items, found a list of 0 items."),
], ids=["Sushi Go! variant []", "Sushi Go! choice 5", "Mici Maki names []"])
def test_the_issue_s_three_games_are_set_aside_and_every_start_goes_on(
        tmp_path: Path, corpus: list[Saved], issue: Issue) -> None:
    case, sql, value, why = issue.case, issue.sql, issue.value, issue.why
    home = home_of(tmp_path)
    (saved,) = [saved for saved in corpus if saved.label == case]
    name = good_and_damaged(home, saved)
    damage_in_store(home, name, sql, value)
    kind = "practice" if "practice" in case else "table"
    title = "Sushi Go!" if "sushigo" in case else "Mici Maki"
    lines = said_at_start(home)
    assert lines[:3] == [
        f"The {title} {kind} game of 2026-12-03 10:15 is damaged: it is set aside, kept, "
        "and no longer offered.", why,
        f"To copy it to a file: companion games --export {name} FILE"], lines[:6]
    again = said_at_start(home)
    assert not [line for line in again if "damaged" in line], "said once"

    listed = companion(home, "games")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines() == [
        f"{name} ({title}, {kind} game): damaged and set aside. {why}",
        f"{OLDER} (Sushi Go!, table game): unfinished, 1 step saved.",
        "To copy a game to a file: companion games --export NAME FILE"]

    copy = home / "copy.jsonl"
    exported = companion(home, "games", "--export", name, str(copy))
    assert exported.returncode == 0, exported.stderr
    assert exported.stdout == f"{name} copied to {copy}.\n"
    lines_kept = [json.loads(line)["event"] for line in copy.read_text().splitlines()]
    assert len(lines_kept) == 1 + len(saved.events), "the whole game, its damage with it"
    again_exported = companion(home, "games", "--export", name, str(copy))
    assert again_exported.returncode == 2
    assert again_exported.stderr == (
        f"companion games: {copy} exists already: give the name of a new file.\n")
    assert len(copy.read_text().splitlines()) == len(lines_kept), "never written over"
    unknown = companion(home, "games", "--export", "no-such-game", str(home / "other"))
    assert unknown.returncode == 2
    assert "There is no saved game called no-such-game" in unknown.stderr
    assert not (home / "other").exists()


def test_a_table_s_note_of_an_entry_the_rules_refuse_is_a_record_it_may_hold(
        corpus: list[Saved]) -> None:
    """The note a table game journals in place of an entry the rules refuse
    (taken out as it resumed) is one of its kinds of event, checked too."""
    from companion.games.micimaki.session import RECORDS as MICI  # noqa: PLC0415
    from companion.games.sushigo.session import RECORDS as SUSHI  # noqa: PLC0415

    (sushi,) = [saved for saved in corpus if saved.label == "sushigo table"]
    note = {"type": "refused", "concern": "too-many", "seat": 1, "card": "egg", "count": 5,
            "limit": 4, "later": 0, "told": False}
    assert SUSHI.problem(NEWER, sushi.header, [*sushi.events, note]) is None
    wrong = SUSHI.problem(NEWER, sushi.header, [*sushi.events, {**note, "seat": 9}])
    assert str(wrong) == (f"game {NEWER}, event {len(sushi.events) + 1}, field seat: "
                          "expected a whole number from 0 to 2, found 9")
    (mici,) = [saved for saved in corpus if saved.label == "mici-maki table"]
    note = {"type": "refused", "entry": mici.events[0], "code": "count",
            "params": {"cards": 3}, "later": 2, "told": True}
    assert MICI.problem(NEWER, mici.header, [*mici.events, note]) is None
    wrong = MICI.problem(NEWER, mici.header, [*mici.events, {**note, "params": {"cards": "3"}}])
    assert wrong is not None and wrong.field == "params.cards"
