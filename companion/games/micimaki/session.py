"""Mici Maki game sessions: a game plus its journal, so nothing a player
did is lost.

Two kinds, as for every game: a practice game (the engine, every card
known, bots at the other seats) and a table game (a real game followed by
the :class:`~companion.games.micimaki.tracker.Tracker` from what is
entered). Every move or entry is checked first, then journaled (on disk
when the method returns), then applied. Resuming replays the journal; undo
removes its last events and replays the rest. A table game saved with an
entry the rules refuse (an older version let some through) resumes just
before it: that entry and those after it are taken out of the journal
(kept in a copy beside the store), and a note of it is journaled in their
place, to be said once (:meth:`TableSession.refused`). A practice game is seeded,
so replaying its moves gives back exactly the same game.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> game = PracticeSession.start(["You", "Bot 1", "Bot 2"], [None, "cautious", "random"],
...                              seed=4, directory=folder)
>>> move = game.game.legal_moves()[0]
>>> _ = game.move(move)
>>> again = PracticeSession.from_journal(Journal.open(game.journal.ref)[0])
>>> again.game.view(0) == game.game.view(0)
True
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.games.micimaki.bots import NAMES as BOT_NAMES
from companion.games.micimaki.bots import Bot, bot
from companion.games.micimaki.rules import (
    ACTIONS,
    CARDS,
    CHOOSE,
    EAT,
    FOODS,
    OVEREATING,
    PLAY,
    SERVE,
    SKIP,
    START,
    Event,
    Game,
    IllegalMove,
    Move,
    Refusal,
    Setup,
)
from companion.games.micimaki.tracker import Tracker
from companion.games.micimaki.vocabulary import GAME
from companion.games.saved import Saved
from companion.journal import Event as JournalEvent
from companion.journal import Journal, JournalError, transaction
from companion.records import (
    Fields,
    Flag,
    Kind,
    ListOf,
    MapOf,
    Maybe,
    OneOf,
    Records,
    Whole,
    Words,
    optional,
    refusals,
    replay,
)

#: The game's name in journal headers (and the registry's).
PRACTICE = "practice"
TABLE = "table"
FORMAT = 1


def setup_json(setup: Setup) -> dict[str, int]:
    return {"players": setup.players, "plus": setup.plus, "reverse": setup.reverse,
            "choose": setup.choose}


def setup_from(data: dict[str, Any]) -> Setup:
    return Setup(players=int(data["players"]), plus=int(data["plus"]),
                 reverse=int(data["reverse"]), choose=int(data["choose"]))


@dataclass
class PracticeSession(Saved):
    """A practice game: you at seat 0, bots at the others."""

    KIND = PRACTICE
    WHAT = "Mici Maki practice game"

    journal: Journal
    game: Game
    names: list[str]
    bots: list[str | None]

    @classmethod
    def start(cls, names: list[str], bots: list[str | None], *, setup: Setup | None = None,
              seed: int | None = None, directory: Path | None = None) -> PracticeSession:
        setup = setup or Setup(players=len(names))
        if len(bots) != len(names) or setup.players != len(names):
            raise ValueError("give a bot (or None for a person) for every player")
        for name in bots:
            if name is not None and name not in BOT_NAMES:
                raise ValueError(f"no bot called {name!r}")
        seed = random.SystemRandom().randrange(2**63) if seed is None else seed
        game = Game(setup, random.Random(seed))
        header = {"type": PRACTICE, "game": GAME, "format": FORMAT, "names": list(names),
                  "bots": list(bots), "setup": setup_json(setup), "seed": seed}
        return cls(Journal.create(header, directory), game, list(names), list(bots))

    @classmethod
    def from_journal(cls, journal: Journal) -> PracticeSession:
        """The game of a journal, its records checked first; raises
        :class:`~companion.records.Damaged` for one that cannot be trusted
        (a field of a wrong type or out of range, a move the rules refuse)."""
        header = journal.header
        cls.check(journal, RECORDS)
        session = cls(journal, cls._new_game(header), list(header["names"]),
                      list(header["bots"]))
        replay(journal.ref.name, journal.events, session._apply)
        return session

    @staticmethod
    def _new_game(header: JournalEvent) -> Game:
        return Game(setup_from(header["setup"]), random.Random(header["seed"]))

    def _replay(self) -> None:
        self.game = self._new_game(self.journal.header)
        for event in self.journal.events:
            self._apply(event)

    def _apply(self, event: Mapping[str, Any]) -> None:
        if event["type"] == "move":
            kind, argument = event["move"]
            self.game.play((int(kind), int(argument)))

    def move(self, move: Move) -> list[Event]:
        """Check, journal, then make the move of the seat to play; what happened."""
        refusal = self.game.refusal(move)
        if refusal is not None:
            raise IllegalMove(refusal)
        self.journal.append({"type": "move", "seat": self.game.turn, "move": list(move)})
        self.game.apply(move)
        return list(self.game.events)

    def choosing(self) -> None:
        """You gave "choose the next player": whom is asked next (journaled,
        so a resumed game asks it)."""
        self.journal.append({"type": "pending", "card": CHOOSE})

    def pending(self) -> bool:
        """Whether you gave "choose the next player" and whom is asked."""
        events = self.journal.events
        return bool(events) and events[-1]["type"] == "pending"

    def bot_of(self, seat: int) -> Bot | None:
        name = self.bots[seat]
        return bot(name) if name is not None else None

    def undo_yours(self) -> bool:
        """Take back your last move and every move after it (the bots');
        False if you have made none."""
        with transaction():  # all of it or none, whenever the app is stopped
            if self.pending():
                self.journal.undo()  # "choose the next player" given, whom not yet
                return True
            events = self.journal.events
            if not any(e["type"] == "move" and e["seat"] == 0 for e in events):
                return False
            while self.journal.events:
                removed = self.journal.undo()
                if removed is not None and removed["type"] == "move" and removed["seat"] == 0:
                    break
            self._replay()
            return True


#: What a table entry is, as journaled.
ENTRIES = ("start", "serve", "action", "skip", "eat", "ate", "drew", "overate", "passed",
           "add", "hand", "pending")


@dataclass(frozen=True, slots=True)
class Entry:
    """One fact entered at the table, as the journal keeps it.

    ``what``: ``start``, ``serve``, ``action``, ``skip`` (``card``);
    ``eat`` (your own: ``cards`` turned up); ``ate`` (another player's:
    ``card`` overeating cards turned up); ``drew`` (``cards`` for yours, ``count`` for
    another's); ``overate`` (another player turned one up drawing);
    ``passed``; ``add`` (``card`` 1 or 0: one more overeating card or
    none); ``hand`` (your hand entered again: ``cards``); ``pending``
    (a move begun whose rest is asked next: ``card`` :data:`EAT`, you eat
    and the cards you turned up are asked; :data:`CHOOSE`, "choose the next
    player" and whom is asked)."""

    what: str
    seat: int
    card: int = 0
    cards: tuple[int, ...] = ()
    count: int = 0
    chosen: int | None = None

    def json(self) -> dict[str, Any]:
        return {"type": "entry", "what": self.what, "seat": self.seat, "card": self.card,
                "cards": list(self.cards), "count": self.count, "chosen": self.chosen}

    @classmethod
    def of(cls, data: JournalEvent) -> Entry:
        if data.get("what") not in ENTRIES:
            raise JournalError(f"unknown entry {data.get('what')!r}")
        chosen = data.get("chosen")
        return cls(str(data["what"]), int(data["seat"]), int(data.get("card", 0)),
                   tuple(int(c) for c in data.get("cards", ())), int(data.get("count", 0)),
                   None if chosen is None else int(chosen))

    def apply(self, tracker: Tracker) -> None:
        """Enter it; raises :class:`IllegalMove` (changing nothing) if it cannot be."""
        what, seat = self.what, self.seat
        if what == "start":
            tracker.start(seat, self.card)
        elif what == "serve":
            tracker.serve(seat, self.card)
        elif what == "action":
            tracker.action(seat, self.card, self.chosen)
        elif what == "skip":
            tracker.skip(seat, self.card)
        elif what == "eat":
            tracker.eat(seat, self.cards)
        elif what == "ate":
            tracker.ate(seat, overate=self.card)
        elif what == "drew" and self.cards:
            tracker.drew(seat, list(self.cards))
        elif what == "drew" and self.card == OVEREATING:
            # another player's draw: the cards before the overeating card unseen
            tracker.drew(seat, self.count, overate=True)
        elif what == "drew":
            tracker.drew(seat, self.count)
        elif what == "overate":
            tracker.overate(seat)
        elif what == "passed":
            tracker.passed(seat)
        elif what == "add":
            tracker.add_overeating(bool(self.card))
        elif what == "hand":
            tracker.correct_hand(self.cards)
        elif what == "pending":
            _can_begin(tracker, seat, self.card)


def _can_begin(tracker: Tracker, seat: int, card: int) -> None:
    """Whether ``seat`` may begin eating (``card`` :data:`EAT`, only you:
    the cards come next) or playing "choose the next player"."""
    if card not in (EAT, CHOOSE):
        raise IllegalMove(Refusal("phase"))
    problem = tracker.problem(seat, EAT) if card == EAT else tracker.problem(seat, PLAY, CHOOSE)
    if problem is None and card == EAT and seat != tracker.you:
        problem = Refusal("phase")  # another player's eat is entered at once
    if problem is not None:
        raise IllegalMove(problem)


def entry_of_move(seat: int, move: Move) -> Entry:
    """The entry of a move made with cards: start, serve, an action, a skip."""
    kind, argument = move
    what = {START: "start", SERVE: "serve", PLAY: "action", SKIP: "skip"}.get(kind)
    if kind == CHOOSE:
        return Entry("action", seat, CHOOSE, chosen=argument)
    if what is None:
        raise ValueError(f"no entry for the move {move!r}")
    return Entry(what, seat, argument)


#: The journal's note of an entry taken out when the game was resumed.
REFUSED = "refused"
#: The note a table journals when the dealt hand is taken back (undo with
#: nothing entered since the deal): the hand is asked again, after a restart too.
DEALING = "dealing"


@dataclass(frozen=True, slots=True)
class Refused:
    """An entry of a saved game that the rules refuse (an older version
    accepted it), and why: the game resumed just before it, and it and the
    ``later`` entries after it were taken out of the journal; ``told``
    once the player heard it."""

    entry: Entry
    refusal: Refusal
    later: int
    told: bool = False

    def json(self) -> dict[str, Any]:
        return {"type": REFUSED, "entry": self.entry.json(), "code": self.refusal.code,
                "params": dict(self.refusal.params), "later": self.later, "told": self.told}

    @classmethod
    def of(cls, data: JournalEvent) -> Refused:
        return cls(Entry.of(data["entry"]), Refusal(str(data["code"]), {
            str(key): int(value) for key, value in data["params"].items()}),
            int(data["later"]), bool(data["told"]))


@dataclass
class TableSession(Saved):
    """A real Mici Maki game, followed by the tracker, every entry journaled."""

    KIND = TABLE
    WHAT = "Mici Maki table game"

    journal: Journal
    tracker: Tracker

    @classmethod
    def start(cls, names: Sequence[str], you: int, hand: Sequence[int], *,
              setup: Setup | None = None, first: int = 0,
              directory: Path | None = None) -> TableSession:
        setup = setup or Setup(players=len(names))
        tracker = Tracker(len(names), you, hand=hand, setup=setup, first=first)
        header = {"type": TABLE, "game": GAME, "format": FORMAT, "names": list(names),
                  "you": you, "hand": list(hand), "setup": setup_json(setup), "first": first}
        return cls(Journal.create(header, directory), tracker)

    @classmethod
    def from_journal(cls, journal: Journal) -> TableSession:
        header = journal.header
        cls.check(journal, RECORDS)
        session = cls(journal, cls._new_tracker(header))
        with refusals(journal.ref.name):
            session._replay()
        return session

    @staticmethod
    def _new_tracker(header: JournalEvent) -> Tracker:
        setup = setup_from(header["setup"])
        return Tracker(setup.players, int(header["you"]),
                       hand=[int(card) for card in header["hand"]], setup=setup,
                       first=int(header["first"]))

    @property
    def names(self) -> list[str]:
        return list(self.journal.header["names"])

    def _replay(self) -> None:
        self.tracker = self._new_tracker(self.journal.header)
        for index, event in enumerate(self.journal.events):
            if event["type"] != "entry":
                continue
            entry = Entry.of(event)
            try:
                entry.apply(self.tracker)
            except IllegalMove as error:
                self._cut(index, entry, error.refusal)
                self._replay()
                return

    def _cut(self, index: int, entry: Entry, refusal: Refusal) -> None:
        """Take the refused entry (event ``index``) and every event after it
        out of the journal (kept in a copy beside the store), and note it."""
        taken = self.journal.events[index:]
        self.journal.ref.keep_copy("".join(
            json.dumps(event, ensure_ascii=False) + "\n" for event in taken).encode())
        with transaction():  # all of it or none, whenever the app is stopped
            while len(self.journal.events) > index:
                self.journal.undo()
            self.journal.append(Refused(
                entry, refusal, sum(e["type"] == "entry" for e in taken[1:])).json())

    def refused(self) -> Refused | None:
        """The entry taken out when the game was resumed, if it is not told yet."""
        note = self.untold(REFUSED)
        return None if note is None else Refused.of(note)

    def told_refused(self) -> None:
        """The entry taken out has been said: not again."""
        note = self.refused()
        if note is not None:
            self.mark_told(Refused(note.entry, note.refusal, note.later, told=True).json())

    def _last(self) -> JournalEvent | None:
        """The last event, notes aside."""
        return next((event for event in reversed(self.journal.events)
                     if event["type"] not in (REFUSED, DEALING)), None)

    @property
    def dealing(self) -> bool:
        """Whether the dealt hand is to be entered: taken back, or never
        given (a seat of a table shared between devices starts so)."""
        events = self.journal.events
        return self._noted_dealing() or (not self.journal.header["hand"] and not any(
            event["type"] == "entry" and event["what"] == "hand" for event in events))

    def _noted_dealing(self) -> bool:
        return any(event["type"] == DEALING for event in self.journal.events)

    def deal_again(self) -> None:
        """The dealt hand taken back (nothing entered since the deal): journaled."""
        self.journal.append({"type": DEALING})

    def dealt(self, entry: Entry) -> None:
        """The dealt hand entered again, in place of the one taken back: the
        note goes, the entry comes, together (raises as :meth:`add` does,
        changing nothing)."""
        entry.apply(copy.deepcopy(self.tracker))
        with transaction():  # all of it or none, whenever the app is stopped
            while self._noted_dealing():
                self._undo_note(DEALING)
            self.journal.append(entry.json())
        entry.apply(self.tracker)

    def _undo_note(self, kind: str) -> None:
        """Take the last note of ``kind`` out (the events after it kept)."""
        events = self.journal.events
        index = max(i for i, event in enumerate(events) if event["type"] == kind)
        later = events[index + 1:]
        for _ in range(len(events) - index):
            self.journal.undo()
        for event in later:
            self.journal.append(event)

    def _undo_entry(self) -> JournalEvent | None:
        """Remove the last event, notes after it with it."""
        while self.journal.events and self.journal.events[-1]["type"] == REFUSED:
            self.journal.undo()
        return self.journal.undo()

    def add(self, entry: Entry) -> None:
        """Check an entry on a copy of the state, journal it, then keep it."""
        entry.apply(copy.deepcopy(self.tracker))
        self.journal.append(entry.json())
        entry.apply(self.tracker)

    def entries(self) -> list[Entry]:
        return [Entry.of(event) for event in self.journal.events if event["type"] == "entry"]

    def pending(self) -> Entry | None:
        """The move begun whose rest is asked now (see :class:`Entry`), if any."""
        last = self._last()
        if last is not None and last["type"] == "entry" and last["what"] == "pending":
            return Entry.of(last)
        return None

    def take_back(self) -> Entry | None:
        """Take back the last entry (with the move it completed, begun
        before); the entry, if there was one."""
        last = self._last()
        if last is None or last["type"] != "entry":
            return None
        with transaction():  # all of it or none, whenever the app is stopped
            removed = self._undo_entry()
            if self.pending() is not None:
                self._undo_entry()
        self._replay()
        return Entry.of(removed) if removed is not None else None


# -- what is saved, checked before it is used ------------------------------------------------

#: The most action cards of one kind a set-up has (the table's set-up asks 0 to 20).
ACTIONS_MOST = 20
#: The most cards or draws one table entry counts.
ENTRY_CARDS_MOST = 200


def _players(header: Mapping[str, Any]) -> int:
    return int(header["setup"]["players"])


def _last_seat(header: Mapping[str, Any]) -> int:
    return _players(header) - 1


_SETUP = Fields({
    "players": Whole(3, 7),
    "plus": Whole(0, ACTIONS_MOST),
    "reverse": Whole(0, ACTIONS_MOST),
    "choose": Whole(0, ACTIONS_MOST),
})
_SEAT = Whole(0, _last_seat)
_END = Kind({"discarded": optional(Flag())})
_ENTRY = Kind({
    "what": OneOf(ENTRIES),
    "seat": _SEAT,
    "card": optional(Whole(0, OVEREATING)),
    "cards": optional(ListOf(OneOf(CARDS), 0, ENTRY_CARDS_MOST)),
    "count": optional(Whole(0, ENTRY_CARDS_MOST)),
    "chosen": optional(Maybe(_SEAT)),
})

#: Every kind of record a Mici Maki game saves: its practice and table
#: headers, and the events of each.
RECORDS = Records(
    GAME,
    headers={
        PRACTICE: Kind({
            "format": Whole(FORMAT, FORMAT),
            "setup": _SETUP,
            "names": ListOf(Words(), _players, _players),
            "bots": ListOf(Maybe(OneOf(BOT_NAMES)), _players, _players),
            "seed": Whole(0, 2**64 - 1),
        }),
        TABLE: Kind({
            "format": Whole(FORMAT, FORMAT),
            "setup": _SETUP,
            "names": ListOf(Words(), _players, _players),
            "you": _SEAT,
            "hand": ListOf(OneOf((*FOODS, *ACTIONS)), 0, Setup(players=3).hand),
            "first": _SEAT,
        }),
    },
    events={
        PRACTICE: {
            "move": Kind({"seat": _SEAT, "move": ListOf(Whole(0, OVEREATING), 2, 2)}),
            "pending": Kind({"card": OneOf((CHOOSE,))}),
            "end": _END,
        },
        TABLE: {
            "entry": _ENTRY,
            # the note a table journals in place of an entry the rules refuse,
            # taken out as the game resumed
            "refused": Kind({
                "entry": _ENTRY,
                "code": Words(40),
                "params": MapOf(Whole(-ENTRY_CARDS_MOST, ENTRY_CARDS_MOST)),
                "later": Whole(0, 100_000),
                "told": Flag(),
            }),
            # the dealt hand taken back, to be entered again
            DEALING: Kind({}),
            "end": _END,
        },
    },
)
