"""A real Sushi Go! table shared between devices: one device per seat.

Each seat follows the game from its own place, as the table companion
does (:class:`SeatGame`, a :class:`~companion.games.sushigo.table.TableGame`
of that seat, journaled as a game of its own): its hand, its pick, its
hints and what it traced of the hands round the table stay on that seat.
What the table sees is shared through the :class:`Table`: when every seat
has picked, the picks are revealed to every seat at once (as the real
cards are turned over together), and each seat's game takes them as the
other seats' reveals, so nobody types another player's cards.

The host (:class:`HostGame`) follows only what is public: who took a
seat, the reveals, the scores; it can say them aloud for the whole table.

Threads: each seat's game runs in its own thread and alone touches its
session; the table is shared, behind its lock, and tells a seat that the
game moved on (``news``) without touching its game.

>>> table = Table(["Ann", "Ben"], Variant(), lambda seat: None)
>>> table.pick(0, 1, 1, (Card.TEMPURA,))
False
>>> table.waiting(1, 1)
(1,)
>>> table.withdraw(0, 1, 1)
True
>>> table.pick(0, 1, 1, (Card.TEMPURA,)), table.pick(1, 1, 1, (Card.SQUID,))
(False, True)
>>> table.withdraw(1, 1, 1)  # revealed: too late
False
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.contract.events import (
    Announcement,
    Conversation,
    Menu,
    Number,
    Text,
    Verbosity,
    YesNo,
    event,
    info,
    reply,
    result,
)
from companion.contract.game import (
    TABLE,
    Step,
    WordReply,
    in_steps,
    set_up_menu,
)
from companion.games.sharing import Ended, Joined, News, TableBase
from companion.games.sushigo.cards import ROUNDS, Card
from companion.games.sushigo.draft import Variant
from companion.games.sushigo.narration import pick_text, taken_back_text
from companion.games.sushigo.practice import variant_of, variants
from companion.games.sushigo.session import TableSession
from companion.games.sushigo.table import PICK, TableGame, ask_table_names, this_turn
from companion.games.sushigo.telling import Teller
from companion.games.sushigo.tracker import (
    Entry,
    EntryKind,
    ImpossibleEntry,
    Tracker,
    TrackerError,
)

#: A turn of the game: (round, turn).
When = tuple[int, int]

__all__ = ["HostGame", "SeatGame", "Table", "set_up"]


@dataclass(frozen=True, slots=True)
class Revealed:
    """Every seat's pick of a turn, turned over together."""

    when: When
    picks: tuple[tuple[Card, ...], ...]


class Table(TableBase):
    """What the seats of a shared table share: the picks of the turn (each
    kept on its seat until all are in), revealed together (a
    :class:`Revealed` fact among the public ones). A seat is told only of a
    reveal and the end."""

    def __init__(self, names: Sequence[str], variant: Variant, news: News) -> None:
        super().__init__(names, news)
        self.variant = variant
        self._picks: dict[When, dict[int, tuple[Card, ...]]] = {}
        #: The public game, as the host follows it: every reveal, no hand.
        self._tracker = Tracker(list(names), 0, variant)

    # -- what the seats do --------------------------------------------------------------------

    def pick(self, seat: int, round_: int, turn: int, cards: tuple[Card, ...]) -> bool:
        """A seat's pick of a turn, kept on it until every seat has picked;
        whether this one revealed the turn."""
        with self._lock:
            if self._revealed((round_, turn)) is not None:
                return False
            picks = self._picks.setdefault((round_, turn), {})
            picks[seat] = cards
            if len(picks) < self.seats:
                done = False
            else:
                revealed = Revealed((round_, turn), tuple(picks[s] for s in range(self.seats)))
                self._public.append(revealed)
                try:
                    for s, taken in enumerate(revealed.picks):
                        self._tracker.add(Entry.pick(s, taken))
                except TrackerError:  # (each seat's game took its own pick: not met)
                    pass
                self._tracker.add(Entry.next_turn())
                done = True
        if done:
            self._tell(seats=True, but=seat)
        return done

    def withdraw(self, seat: int, round_: int, turn: int) -> bool:
        """A pick taken back (undo): whether it could be, not yet revealed."""
        with self._lock:
            if self._revealed((round_, turn)) is not None:
                return False
            self._picks.get((round_, turn), {}).pop(seat, None)
        return True

    # -- what the seats read --------------------------------------------------------------------

    def _revealed(self, when: When) -> Revealed | None:
        return next((p for p in self._public if isinstance(p, Revealed) and p.when == when),
                    None)

    def revealed(self, round_: int, turn: int) -> Revealed | None:
        with self._lock:
            return self._revealed((round_, turn))

    def waiting(self, round_: int, turn: int) -> tuple[int, ...]:
        """The seats whose pick of the turn is not in yet."""
        with self._lock:
            if self._revealed((round_, turn)) is not None:
                return ()
            picked = self._picks.get((round_, turn), {})
            return tuple(s for s in range(self.seats) if s not in picked)

    def _finished(self) -> bool:
        revealed = sum(isinstance(p, Revealed) for p in self._public)
        return revealed >= ROUNDS * self._tracker.hand_size

    def tracker(self) -> Tracker:
        """The public game (a copy, to read in peace, made outside the lock)."""
        with self._lock:
            entries = self._tracker.entries
        copy = Tracker(list(self.names), 0, self.variant)
        for entry in entries:
            copy.add(entry)
        return copy

    # -- the faces of the table ----------------------------------------------------------------

    def seat(self, seat: int, language: str, verbosity: Verbosity) -> SeatGame:
        """Seat ``seat``'s game (a new saved game of its own)."""
        session = TableSession.start(list(self.names), seat, variant=self.variant)
        return SeatGame(session, language, verbosity, self, seat)

    def host(self, language: str, verbosity: Verbosity) -> HostGame:
        return HostGame(self, language, verbosity)


def set_up(conversation: Conversation, news: News) -> Table:
    """Ask the host how many seats, their names and the variant (Back in
    the variant's menu asks the last name again); the table, with no seat
    taken yet. The dummy variant is for one device: not offered."""
    teller = Teller(conversation.language, conversation.verbosity)
    count = pick = 0
    names: list[str] = []

    def seats() -> None:
        nonlocal count
        count = conversation.ask(Number(teller.text(
            "How many players at the table, each with a device? 2 to 5:"), 2, 5)) or 2

    def named() -> None:
        nonlocal names
        names = ask_table_names(conversation, teller, count, names)

    def variant() -> None:
        nonlocal pick
        pick = set_up_menu(conversation, teller.text("Variant:"), variants(teller, 3),
                           teller.text("Back."))

    in_steps((seats, named, variant))
    return Table(names, variant_of(pick), news)


#: The seat's question while the others pick.
WAIT = "wait"


class SeatGame(TableGame):
    """One seat's game at a shared table: its own hand and pick, asked as
    the table companion asks them; the other seats' picks come from the
    table when all are in, said as the reveal."""

    def __init__(self, session: TableSession, language: str, verbosity: Verbosity,
                 table: Table, seat: int) -> None:
        super().__init__(session, language, verbosity)
        self.table = table
        self.seat = seat
        self._public = 0

    def _news(self) -> list[Announcement]:
        """Seats taken since last said; then, if the turn is revealed, the
        reveal, taken into this seat's game."""
        said: list[Announcement] = []
        news, self._public = self.table.public(self._public)
        for fact in news:
            if isinstance(fact, Joined) and fact.seat != self.seat:
                said.append(event(self.text("%(player)s took a seat.",
                                            player=self.names[fact.seat])))
        tracker = self.tracker
        revealed = self.table.revealed(tracker.round, tracker.turn)
        known = {e.seat for e in this_turn(tracker) if e.kind is EntryKind.PICK}
        if revealed is None or known >= set(range(tracker.seats)):
            return said
        said.append(event(self.text("Revealed:")))
        for seat, cards in enumerate(revealed.picks):
            if seat not in known:
                try:
                    said += self._concerns(self.session.add(Entry.pick(seat, cards)))
                except ImpossibleEntry:  # (the same tables as the seat's own: not met)
                    continue
            said.append(event(pick_text(self.teller.catalog, self.names[seat], cards)))
        return said

    def advance(self) -> Step | None:
        news = self._news()  # (a reveal that came before the end is kept too)
        if self.table.ended and not self.session.ended:
            if self._ended:
                return None
            self._ended = True
            return Step(None, (*news, result(self.text(
                "The host ended the table. Your game is saved: the table companion's "
                "Resume goes on with it."))))
        step = super().advance()
        if step is None:
            return None
        if isinstance(step.key, int):  # another seat's reveal: the table brings it
            step = Step(self._waiting(), step.before, WAIT)
        return Step(step.question, (*news, *step.before), step.key)

    def _waiting(self) -> Text:
        tracker = self.tracker
        names = [self.names[s] for s in self.table.waiting(tracker.round, tracker.turn)]
        return Text(self.text("Waiting for %(players)s to pick. A word, or Enter:",
                              players=", ".join(names)), allow_empty=True)

    def take(self, step: Step, answer: object) -> Sequence[Announcement]:
        if step.key == WAIT:
            tracker = self.tracker
            names = [self.names[s] for s in self.table.waiting(tracker.round, tracker.turn)]
            return [reply(self.text("Still waiting for %(players)s.",
                                    players=", ".join(names)))]
        tracker = self.tracker
        when = (tracker.round, tracker.turn)
        before = len(tracker.entries)
        said = list(super().take(step, answer))
        after = self.tracker
        if step.key == PICK and len(after.entries) > before:
            self.table.pick(self.seat, *when, after.entries[-1].cards)
        return said

    def command(self, name: str, argument: str) -> WordReply | None:
        if name != "undo":
            return super().command(name, argument)
        tracker = self.tracker
        turn = this_turn(tracker)
        last = turn[-1] if turn else None
        mine = last is not None and (last.kind is EntryKind.HAND or (
            last.kind is EntryKind.PICK and last.seat == self.seat))
        if not mine or (last is not None and last.kind is EntryKind.PICK and (
                not self.table.withdraw(self.seat, tracker.round, tracker.turn))):
            return WordReply((reply(self.text(
                "Nothing to take back: only your own hand and pick, before they are "
                "revealed.")),))
        taken = self.session.take_back()
        assert taken is not None
        return WordReply((reply(taken_back_text(self.teller.catalog, taken, self.names,
                                                self.seat), important=True),), changed=True)


class HostGame:
    """The host's page of a shared table: only what is public (seats taken,
    reveals, scores), said as it comes, for the host to follow or to have
    said aloud. A :class:`~companion.contract.game.Play`."""

    kind = TABLE
    actions = ("where", "tables")

    def __init__(self, table: Table, language: str, verbosity: Verbosity) -> None:
        self.table = table
        self.teller = Teller(language, verbosity)
        self._public = 0
        self._done = False
        #: "End the table" chosen: asked to be sure.
        self._ending = False

    def text(self, message: str, **params: object) -> str:
        return self.teller.text(message, **params)

    def advance(self) -> Step | None:
        if self._done:
            return None
        names = self.table.names
        said: list[Announcement] = []
        news, self._public = self.table.public(self._public)
        tracker = self.table.tracker()
        for fact in news:
            if isinstance(fact, Joined):
                said.append(event(self.text("%(player)s took a seat.",
                                            player=names[fact.seat])))
            elif isinstance(fact, Revealed):
                round_, turn = fact.when
                said.append(event(self.text("Round %(round)d, turn %(turn)d, revealed:",
                                            round=round_, turn=turn)))
                said += [event(pick_text(self.teller.catalog, names[s], cards))
                         for s, cards in enumerate(fact.picks)]
                if turn == tracker.hand_size:
                    said += self.teller.round_scores(round_, tracker.round_score(round_), names)
                    if round_ == ROUNDS:
                        said += self.teller.final(tracker.score(), names)
                        self._done = True
            elif isinstance(fact, Ended):
                said.append(result(self.text("The table is ended. Each seat's game is saved.")))
                self._done = True
        if self._done:
            return Step(None, tuple(said))
        if self._ending:
            return Step(YesNo(self.text(
                "End the table for every seat? Each seat's game stays saved."),
                self.text("No, go on."), self.text("Yes, end it.")), tuple(said), "end")
        question = Menu(self.text("The shared table:"), (
            self.text("Who is still to pick"), self.text("End the table")))
        return Step(question, tuple(said), "menu")

    def take(self, step: Step, answer: object) -> Sequence[Announcement]:
        tracker = self.table.tracker()
        if step.key == "end":
            self._ending = False
            if answer is True:
                self.table.end()
                return []
            return [reply(self.text("The table goes on."))]
        if answer == 0:
            names = self.table.names
            seated = self.table.seated()
            waiting = self.table.waiting(tracker.round, tracker.turn)
            absent = [names[s] for s in range(self.table.seats) if s not in seated]
            said = [reply(self.text("Round %(round)d, turn %(turn)d. Still to pick: "
                                    "%(players)s.", round=tracker.round, turn=tracker.turn,
                                    players=", ".join(names[s] for s in waiting)))]
            if absent:
                said.append(info(self.text("No device yet: %(players)s.",
                                           players=", ".join(absent))))
            return said
        self._ending = True
        return []

    def command(self, name: str, argument: str) -> WordReply | None:
        tracker = self.table.tracker()
        names = self.table.names
        if name == "where":
            return WordReply((self.teller.where(tracker.round, tracker.turn, names,
                                                tracker.score().totals),))
        if name == "tables":
            return WordReply(tuple(self.teller.tables(
                names, [tracker.table(s) for s in range(tracker.seats)], argument)))
        return None

    def facts(self) -> str:
        tracker = self.table.tracker()
        seated = len(self.table.seated())
        return self.text("Round %(round)d, turn %(turn)d; %(seated)d of %(seats)d seats taken",
                         round=tracker.round, turn=tracker.turn, seated=seated,
                         seats=self.table.seats)

    def discard(self) -> None:
        self.close()

    def close(self) -> None:
        pass
