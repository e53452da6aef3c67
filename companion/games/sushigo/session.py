"""Game sessions: a game plus its journal, so nothing a player did is lost.

Two kinds: a practice game (every card known, bots at the table) and a
table game (real cards, followed by the tracker from what is entered).

Every accepted action is checked against the rules first, then written to
the journal (on disk when :meth:`PracticeSession.choose` returns), then
applied. Resuming replays the journal; undo removes its last event and
replays the rest. A practice game is seeded, so replaying its choices gives
back exactly the same game.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.games.saved import Saved
from companion.games.sushigo.bots import BOTS, Bot
from companion.games.sushigo.cards import CARDS, MAX_PLAYERS, MIN_PLAYERS, ROUNDS, Card
from companion.games.sushigo.draft import Choice, Game, Variant
from companion.games.sushigo.draft import Event as GameEvent
from companion.games.sushigo.tracker import (
    Concern,
    Entry,
    EntryKind,
    ImpossibleEntry,
    Tracker,
    Warning,
)
from companion.journal import Event, Journal, transaction
from companion.records import (
    Check,
    Field,
    Fields,
    Flag,
    Kind,
    ListOf,
    Maybe,
    OneOf,
    Records,
    Whole,
    Words,
    optional,
    refusals,
    replay,
)

#: The game's name in journal headers.
GAME = "sushigo"
PRACTICE = "practice"
TABLE = "table"
FORMAT = 1

# -- what is saved, checked before it is used ------------------------------------------------

#: The most soy sauce cards a variant adds (the box has 3; ``simulate`` takes more).
SOY_SAUCE_MOST = 100
#: The most cards one table entry holds (a whole tableau, as entered).
ENTRY_CARDS_MOST = 120
#: The longest choice saved (``t+w2/o3`` is seven characters).
CHOICE_LONGEST = 40


def _dummy(header: Mapping[str, Any]) -> bool:
    return bool(header["variant"].get("dummy", False))


def _players(header: Mapping[str, Any]) -> int:
    """Players of a practice game (the dummy is not one)."""
    return len(header["names"])


def _seats(header: Mapping[str, Any]) -> int:
    """Seats of a table game (its names: the dummy's included)."""
    return len(header["names"])


def _last_seat(header: Mapping[str, Any]) -> int:
    return _seats(header) - 1


def _turns(header: Mapping[str, Any]) -> int:
    return {2: 10, 3: 9, 4: 8, 5: 7}.get(_seats(header), 10)


def _steps(header: Mapping[str, Any]) -> tuple[str | int, ...]:
    """What a table game's skipped question may be: the hand, a pick, a seat's
    reveal, a seat's whole table (``table-2``)."""
    seats = range(_seats(header))
    return ("hand", "pick", *seats, *(f"table-{seat}" for seat in seats))


_VARIANT = Fields({
    "pass_both_ways": optional(Flag()),
    "dummy": optional(Flag()),
    "soy_sauce": optional(Whole(0, SOY_SAUCE_MOST)),
})
_END = Kind({
    "totals": optional(ListOf(Whole(-1000, 1000), 0, MAX_PLAYERS + 1)),
    "discarded": optional(Flag()),
})
_ENTRY: dict[str, Check | Field] = {
    "kind": OneOf(tuple(kind.value for kind in EntryKind)),
    "cards": ListOf(OneOf(tuple(card.id for card in CARDS)), 0, ENTRY_CARDS_MOST),
    "seat": Maybe(Whole(0, _last_seat)),
    "round": Maybe(Whole(1, ROUNDS)),
    "turn": Maybe(Whole(1, _turns)),
}
_INDEX = Whole(0, 100_000)

#: Every kind of record a Sushi Go! game saves: its practice and table
#: headers, and the events of each.
RECORDS = Records(
    GAME,
    headers={
        PRACTICE: Kind({
            "format": optional(Whole(FORMAT, FORMAT)),
            "variant": _VARIANT,
            "names": ListOf(Words(), lambda h: 2 if _dummy(h) else MIN_PLAYERS,
                            lambda h: 2 if _dummy(h) else MAX_PLAYERS),
            "bots": ListOf(Maybe(OneOf(tuple(BOTS))), _players, _players),
            "seed": Whole(0, 2**64 - 1),
        }),
        TABLE: Kind({
            "format": optional(Whole(FORMAT, FORMAT)),
            "variant": _VARIANT,
            # with the dummy, its seat is the last name
            "names": ListOf(Words(), lambda h: 3 if _dummy(h) else MIN_PLAYERS,
                            lambda h: 3 if _dummy(h) else MAX_PLAYERS),
            "you": Whole(0, lambda h: _seats(h) - 1 - _dummy(h)),
            "first_controller": optional(Whole(0, 1)),
        }),
    },
    events={
        PRACTICE: {
            "choose": Kind({"seat": Whole(0, lambda h: _players(h) - 1),
                            "choice": Words(CHOICE_LONGEST)}),
            "end": _END,
        },
        TABLE: {
            "entry": Kind(_ENTRY),
            "replace": Kind({**_ENTRY, "index": _INDEX}),
            "remove": Kind({"index": _INDEX}),
            "skip": Kind({"step": OneOf(_steps)}),
            # the note a table journals in place of a fact the rules refuse,
            # taken out as the game resumed
            "refused": Kind({
                "concern": OneOf(tuple(concern.value for concern in Concern)),
                "seat": Maybe(Whole(0, _last_seat)),
                "card": Maybe(OneOf(tuple(card.id for card in CARDS))),
                "count": Whole(0, ENTRY_CARDS_MOST),
                "limit": Whole(0, ENTRY_CARDS_MOST),
                "later": _INDEX,
                "told": Flag(),
            }),
            "end": _END,
        },
    },
)


def _variant_json(variant: Variant) -> dict[str, Any]:
    return {
        "pass_both_ways": variant.pass_both_ways,
        "dummy": variant.dummy,
        "soy_sauce": variant.soy_sauce,
    }


def _variant_from(data: dict[str, Any]) -> Variant:
    return Variant(
        pass_both_ways=bool(data.get("pass_both_ways", False)),
        dummy=bool(data.get("dummy", False)),
        soy_sauce=int(data.get("soy_sauce", 0)),
    )


@dataclass
class PracticeSession(Saved):
    """A practice game against bots (or several people at one keyboard).

    ``names`` are the players in table order (the dummy excluded), ``bots``
    the bot playing each seat (``None`` for a person).
    """

    KIND = PRACTICE
    WHAT = "practice game"

    journal: Journal
    game: Game
    names: list[str]
    bots: list[str | None]

    @classmethod
    def start(
        cls,
        names: list[str],
        bots: list[str | None],
        *,
        variant: Variant = Variant(),  # noqa: B008 - frozen dataclass
        seed: int | None = None,
        directory: Path | None = None,
    ) -> PracticeSession:
        if len(bots) != len(names):
            raise ValueError("give a bot (or None for a person) for every player")
        for bot in bots:
            if bot is not None and bot not in BOTS:
                raise ValueError(f"no bot called {bot!r}")
        seed = random.SystemRandom().randrange(2**63) if seed is None else seed
        game = Game(len(names), rng=random.Random(seed), variant=variant)
        header = {
            "type": PRACTICE,
            "game": GAME,
            "format": FORMAT,
            "names": list(names),
            "bots": list(bots),
            "variant": _variant_json(variant),
            "seed": seed,
        }
        journal = Journal.create(header, directory)
        return cls(journal, game, list(names), list(bots))

    @classmethod
    def from_journal(cls, journal: Journal) -> PracticeSession:
        """The game of a journal, its records checked first; raises
        :class:`~companion.records.Damaged` for one that cannot be trusted
        (a field of a wrong type or out of range, a choice the rules refuse)."""
        header = journal.header
        cls.check(journal, RECORDS)
        session = cls(
            journal,
            cls._new_game(header),
            list(header["names"]),
            list(header["bots"]),
        )
        session.game = cls._new_game(header)
        replay(journal.ref.name, journal.events, session._apply)
        if session.game.over and not session.ended:
            # stopped between the last choice and its end mark
            session.finish(totals=list(session.game.totals))
        return session

    @staticmethod
    def _new_game(header: Event) -> Game:
        variant = _variant_from(header["variant"])
        return Game(len(header["names"]), rng=random.Random(header["seed"]), variant=variant)

    def _replay(self) -> None:
        self.game = self._new_game(self.journal.header)
        for event in self.journal.events:
            self._apply(event)

    def _apply(self, event: Mapping[str, Any]) -> None:
        if event["type"] == "choose":
            self.game.choose(event["seat"], event["choice"])

    def choose(self, seat: int, choice: Choice | str) -> tuple[GameEvent, ...]:
        """Check, journal, then take a seat's choice; the game's events."""
        checked = self.game.check(seat, choice)
        self.journal.append({"type": "choose", "seat": seat, "choice": str(checked)})
        events = self.game.choose(seat, checked)
        if self.game.over:
            self.finish(totals=list(self.game.totals))
        return events

    def play_bots(self, rng: random.Random) -> list[GameEvent]:
        """Let every bot that has to choose this turn choose."""
        events: list[GameEvent] = []
        for seat in self.game.waiting_for():
            name = self.bots[seat] if seat < len(self.bots) else None
            if name is None:
                continue
            bot: Bot = BOTS[name]()
            choice = bot.choose(self.game.view(seat), self.game.legal_choices(seat), rng)
            events.extend(self.choose(seat, choice))
        return events

    def undo_last_of(self, seat: int) -> bool:
        """Take back a seat's last choice and everything chosen after it (the
        bots' answers); False if that seat has chosen nothing."""
        events = self.journal.events
        if not any(e["type"] == "choose" and e["seat"] == seat for e in events):
            return False
        with transaction():  # the whole undo saved at once, or none of it
            while True:
                removed = self.undo()
                if removed is None or (removed["type"] == "choose" and removed["seat"] == seat):
                    return True

    def undo(self) -> Event | None:
        """Take back the last choice (a finished game is reopened); ``None`` if none."""
        with transaction():
            if self.ended:
                self.journal.undo()
            removed = self.journal.undo()
        self._replay()
        return removed


def _entry_json(entry: Entry) -> dict[str, Any]:
    return {
        "type": "entry",
        "kind": entry.kind.value,
        "cards": [card.id for card in entry.cards],
        "seat": entry.seat,
        "round": entry.round,
        "turn": entry.turn,
    }


def _entry_from(data: Mapping[str, Any]) -> Entry:
    return Entry(
        EntryKind(data["kind"]),
        tuple(Card.from_id(c) for c in data["cards"]),
        data["seat"],
        data["round"],
        data["turn"],
    )


#: The journal's note of an entry taken out when the game was resumed.
REFUSED = "refused"


@dataclass(frozen=True, slots=True)
class Refused:
    """A fact of a saved game against what the rules force (an older version
    kept it), and why: the game resumed just before it, and it and the
    ``later`` facts after it were taken out of the journal; ``told`` once the
    player heard it."""

    warning: Warning
    later: int
    told: bool = False

    def json(self) -> dict[str, Any]:
        w = self.warning
        return {"type": REFUSED, "concern": w.concern.value, "seat": w.seat,
                "card": w.card.id if w.card is not None else None, "count": w.count,
                "limit": w.limit, "later": self.later, "told": self.told}

    @classmethod
    def of(cls, data: Event) -> Refused:
        card = data["card"]
        warning = Warning(Concern(data["concern"]), 0, data["seat"],
                          Card.from_id(card) if card is not None else None,
                          int(data["count"]), int(data["limit"]))
        return cls(warning, int(data["later"]), bool(data["told"]))


@dataclass
class TableSession(Saved):
    """A real game at a real table, followed by the tracker, every fact journaled.
    A game saved with a fact against what the rules force (an older version
    kept some) resumes just before it: that fact and those after it are
    taken out of the journal (kept in a copy beside the store), and a note
    journaled in their place is said once (:meth:`refused`)."""

    KIND = TABLE
    WHAT = "table game"

    journal: Journal
    tracker: Tracker

    @classmethod
    def start(
        cls,
        names: list[str],
        you: int,
        *,
        variant: Variant = Variant(),  # noqa: B008 - frozen dataclass
        first_controller: int = 0,
        directory: Path | None = None,
    ) -> TableSession:
        tracker = Tracker(names, you, variant, first_controller)
        header = {
            "type": TABLE,
            "game": GAME,
            "format": FORMAT,
            "names": list(names),
            "you": you,
            "variant": _variant_json(variant),
            "first_controller": first_controller,
        }
        return cls(Journal.create(header, directory), tracker)

    @classmethod
    def from_journal(cls, journal: Journal) -> TableSession:
        """The game of a journal, its records checked first; raises
        :class:`~companion.records.Damaged` for one that cannot be trusted."""
        cls.check(journal, RECORDS)
        session = cls(journal, cls._new_tracker(journal.header))
        with refusals(journal.ref.name):
            session._replay()
        return session

    @staticmethod
    def _new_tracker(header: Event) -> Tracker:
        return Tracker(
            header["names"], header["you"], _variant_from(header["variant"]),
            header.get("first_controller", 0),
        )

    def _replay(self) -> None:
        self.tracker = self._new_tracker(self.journal.header)
        for index, event in enumerate(self.journal.events):
            try:
                if event["type"] == "entry":
                    self.tracker.add(_entry_from(event))
                elif event["type"] == "replace":
                    self.tracker.replace(event["index"], _entry_from(event))
                elif event["type"] == "remove":
                    self.tracker.remove(event["index"])
            except ImpossibleEntry as error:
                self._cut(index, error.warning)
                self._replay()
                return

    def _cut(self, index: int, warning: Warning) -> None:
        """Take the refused fact (event ``index``) and every event after it
        out of the journal (kept in a copy beside the store), and note it."""
        taken = self.journal.events[index:]
        self.journal.ref.keep_copy("".join(
            json.dumps(event, ensure_ascii=False) + "\n" for event in taken).encode())
        with transaction():  # all of it or none, whenever the app is stopped
            while len(self.journal.events) > index:
                self.journal.undo()
            later = sum(e["type"] in ("entry", "replace", "remove") for e in taken[1:])
            self.journal.append(Refused(warning, later).json())

    def refused(self) -> Refused | None:
        """The fact taken out when the game was resumed, if it is not told yet."""
        note = self.untold(REFUSED)
        return None if note is None else Refused.of(note)

    def told_refused(self) -> None:
        """The fact taken out has been said: not again."""
        note = self.refused()
        if note is not None:
            self.mark_told(Refused(note.warning, note.later, told=True).json())

    def add(self, entry: Entry) -> list[Warning]:
        """Keep a fact, then journal it; the concerns it raises. A fact that
        cannot mean anything, or is against what the rules force, is refused
        (:class:`~companion.games.sushigo.tracker.TrackerError`) before
        anything is written."""
        placed = self.tracker.place(entry)
        warnings = self.tracker.add(placed)
        self.journal.append(_entry_json(placed))
        return warnings

    def replace(self, index: int, entry: Entry) -> list[Warning]:
        """Correct an earlier fact (journaled like any other action)."""
        old = self.tracker.entries[index]
        placed = self.tracker.place(
            Entry(entry.kind, entry.cards, entry.seat,
                  entry.round or old.round, entry.turn or old.turn)
        )
        warnings = self.tracker.replace(index, placed)
        self.journal.append({**_entry_json(placed), "type": "replace", "index": index})
        return warnings

    def remove(self, index: int) -> Entry:
        """Drop an earlier fact altogether (journaled like any other action)."""
        entry = self.tracker.entries[index]
        self.journal.append({"type": "remove", "index": index})
        self.tracker.remove(index)
        return entry

    def undo(self) -> Event | None:
        """Take back the last action (an entry, a correction or a removal)."""
        removed = self.journal.undo()
        self._replay()
        return removed

    def skip(self, step: str | int) -> None:
        """Journal a question answered with an empty line this turn (``hand``,
        or a seat whose reveal was skipped), so a resumed game does not ask it
        again. The tracker has no use for it."""
        self.journal.append({"type": "skip", "step": step})

    def skips(self) -> list[str | int]:
        """The questions skipped since play last moved to a new turn."""
        skipped: list[str | int] = []
        for event in self.journal.events:
            if event["type"] == "entry" and event["kind"] == EntryKind.NEXT.value:
                skipped.clear()
            elif event["type"] == "skip":
                skipped.append(event["step"])
        return skipped

    def take_back(self) -> Entry | None:
        """Take back the last fact entered, with the skips and the move to a
        new turn that came after it (those questions are asked again): the
        entry taken back, if any."""
        if not self.tracker.entries:
            return None  # nothing to take back: the skips stay
        with transaction():  # the whole undo saved at once, or none of it
            while (last := self.last_event()) is not None and (
                    last["type"] in ("skip", REFUSED)
                    or last.get("kind") == EntryKind.NEXT.value):
                self.undo()
            entries = self.tracker.entries
            if not entries:
                return None
            taken = entries[-1]
            self.undo()
            return taken
