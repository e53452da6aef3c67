"""A real Mici Maki table shared between devices: one device per seat.

Each seat follows the game from its own place, as the table companion
does (:class:`SeatGame`, a :class:`~companion.games.micimaki.table.TableGame`
of that seat, journaled as a game of its own): its hand, its hints, the
cards it draws stay on that seat. On its turn it enters its own move; the
move goes to the :class:`Table` in the form everyone at the table sees it
(the cards turned up when eating are shown to all; the cards drawn at the
start of a turn are not, only how many and an overeating card among
them), and every other seat's game takes it from there as that player's
entry, so nobody types another player's move.

The host (:class:`HostGame`) follows only what is public: who took a
seat, every move, the tokens; it can say them aloud for the whole table.

A move taken back (undo) by its player before the next player's reaches
the table is taken back at every seat.

Threads: each seat's game runs in its own thread and alone touches its
session; the table is shared, behind its lock, and tells a seat that the
game moved on (``news``) without touching its game.

>>> table = Table(["Ann", "Ben", "Cat"], Setup(players=3), 0, lambda seat: None)
>>> table.post(0, 0, Entry("start", 0, 5)), table.post(2, 1, Entry("serve", 2, 5))
(True, False)
>>> table.withdraw(0, 0), table.moves()
(True, [])
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence

from companion.contract.events import (
    Announcement,
    Conversation,
    Menu,
    Text,
    Verbosity,
    YesNo,
    event,
    info,
    reply,
    result,
    warning,
)
from companion.contract.game import TABLE, Step, WordReply
from companion.games.micimaki import narration
from companion.games.micimaki.risk import RiskInputError
from companion.games.micimaki.rules import OVEREATING, IllegalMove, Setup, hand_cards
from companion.games.micimaki.session import Entry, TableSession
from companion.games.micimaki.table import DEALT, Before, TableGame, said_back
from companion.games.micimaki.table import set_up as set_up_table
from companion.games.micimaki.telling import Teller
from companion.games.micimaki.tracker import WATCHING, Tracker
from companion.games.micimaki.vocabulary import Word
from companion.games.sharing import Ended, Joined, News, TableBase

__all__ = ["HostGame", "SeatGame", "Table", "public_form", "set_up"]

#: The entries that stay on their seat: a hand entered, a move begun.
PRIVATE = ("hand", "pending")


def public_form(entry: Entry) -> Entry:
    """An entry as the rest of the table sees it: cards drawn at the start
    of a turn are hidden (how many, and an overeating card that ended the
    draw, are not); every other move is played face up, the cards turned
    up when eating included.

    >>> public_form(Entry("drew", 1, cards=(9, 2, OVEREATING)))
    Entry(what='drew', seat=1, card=11, cards=(), count=3, chosen=None)
    >>> public_form(Entry("eat", 1, cards=(2, 3)))
    Entry(what='eat', seat=1, card=0, cards=(2, 3), count=0, chosen=None)
    """
    if entry.what == "drew" and entry.cards:
        overate = entry.cards[-1] == OVEREATING
        return Entry("drew", entry.seat, card=OVEREATING if overate else 0,
                     count=len(entry.cards))
    return entry


def published(entries: Iterable[Entry]) -> list[Entry]:
    """The entries of a seat's game that are the table's moves (its own and
    the others'), in order."""
    return [entry for entry in entries if entry.what not in PRIVATE]


class Table(TableBase):
    """What the seats of a shared table share: the moves made, in order,
    each in its public form. Every seat is told of each move."""

    def __init__(self, names: Sequence[str], setup: Setup, first: int, news: News) -> None:
        super().__init__(names, news)
        self.setup = setup
        self.first = first
        self._moves: list[Entry] = []
        #: The public game, as the host follows it: every move, no hand.
        self._tracker = self.watching(())

    def watching(self, moves: Iterable[Entry]) -> Tracker:
        """The public game after ``moves`` (which the table took: they stand)."""
        tracker = Tracker(self.seats, WATCHING, setup=self.setup, first=self.first)
        for move in moves:
            move.apply(tracker)
        return tracker

    def _finished(self) -> bool:
        return bool(self._tracker.winners)

    # -- what the seats do --------------------------------------------------------------------

    def post(self, seat: int, index: int, entry: Entry) -> bool:
        """``seat``'s entry as move ``index`` of the table (the number of
        moves it knew of): whether the table took it; not when the table
        moved on meanwhile (a move taken back), is over, or the rules
        refuse it there."""
        public = public_form(entry)
        with self._lock:
            if self._over() or index != len(self._moves) or public.seat != seat:
                return False
            trial = copy.deepcopy(self._tracker)
            try:
                public.apply(trial)
            except IllegalMove:
                return False
            self._tracker = trial
            self._moves.append(public)
        self._tell(but=seat)
        return True

    def withdraw(self, seat: int, index: int) -> bool:
        """``seat`` takes back its move ``index``: whether it could (the
        table's last move, and the table not over)."""
        with self._lock:
            if (self._over() or index != len(self._moves) - 1
                    or self._moves[index].seat != seat):
                return False
            self._moves.pop()
            self._tracker = self.watching(self._moves)
        self._tell(but=seat)
        return True

    # -- what the seats read --------------------------------------------------------------------

    def moves(self) -> list[Entry]:
        """The table's moves, in order, each in its public form."""
        with self._lock:
            return list(self._moves)

    # -- the faces of the table ----------------------------------------------------------------

    def seat(self, seat: int, language: str, verbosity: Verbosity) -> SeatGame:
        """Seat ``seat``'s game (a new saved game of its own, its hand asked first)."""
        session = TableSession.start(list(self.names), seat, (), setup=self.setup,
                                     first=self.first)
        return SeatGame(session, language, verbosity, self, seat)

    def host(self, language: str, verbosity: Verbosity) -> HostGame:
        return HostGame(self, language, verbosity)


def set_up(conversation: Conversation, news: News) -> Table:
    """Ask the host how many seats, their names, who starts and the deck
    (Back in a menu asks the question before it again); the table, no seat
    taken yet."""
    names, _, first, setup = set_up_table(conversation, None)
    return Table(names, setup, first, news)


#: The seat's question while another player moves.
WAIT = "wait"


def _common(mine: Sequence[Entry], moves: Sequence[Entry]) -> int:
    """How many of the table's moves a game has as the table has them."""
    same = 0
    while same < min(len(mine), len(moves)) and public_form(mine[same]) == moves[same]:
        same += 1
    return same


class SeatGame(TableGame):
    """One seat's game at a shared table: its own hand and moves, asked as
    the table companion asks them; the other players' moves come from the
    table, said as they are made."""

    def __init__(self, session: TableSession, language: str, verbosity: Verbosity,
                 table: Table, seat: int) -> None:
        super().__init__(session, language, verbosity)
        self.table = table
        self.seat = seat
        self._public = 0

    def _said(self, entry: Entry, before: Before) -> list[Announcement]:
        """This seat's own entry, said back to it in the second person."""
        names = list(self.names)
        names[self.seat] = self.text("You")
        return said_back(self.teller, names, entry, before, self.tracker,
                         own=entry.seat == self.seat)

    def _news(self) -> list[Announcement]:
        """Seats taken since last said; moves taken back at the table taken
        back here; then the table's new moves, taken into this seat's game."""
        said: list[Announcement] = []
        facts, self._public = self.table.public(self._public)
        for fact in facts:
            if isinstance(fact, Joined) and fact.seat != self.seat:
                said.append(event(self.text("%(player)s took a seat.",
                                            player=self.names[fact.seat])))
        moves = self.table.moves()
        mine = published(self.session.entries())
        same = _common(mine, moves)
        if same < len(mine):
            said += self._unwind(same)
        for move in moves[same:]:
            before = Before.of(self.tracker, move.seat)
            try:
                self.session.add(move)
            except IllegalMove as error:  # (the same rules as the table's: not met)
                said.append(warning(self.teller.refusal(error.refusal, self.names)))
                break
            self._announced = -1
            said += said_back(self.teller, self.names, move, before, self.tracker,
                              yours=False)
        return said

    def _unwind(self, keep: int) -> list[Announcement]:
        """Take back this game's entries until only the first ``keep`` of
        the table's moves are left (moves taken back at the table); a hand
        entered since is entered again after, a move begun is asked again."""
        said: list[Announcement] = []
        hands: list[Entry] = []
        while len(published(self.session.entries())) > keep:
            taken = self.session.take_back()
            if taken is None:
                break
            if taken.what == "hand":
                hands.append(taken)
            elif taken.what != "pending":
                said.append(event(self.text("Taken back: %(player)s's last entry.",
                                            player=self.names[taken.seat])))
        for hand in reversed(hands):
            try:
                self.session.add(hand)
            except IllegalMove:
                said.append(warning(self.text(
                    "Your hand entered before it has to be entered again: type hand and "
                    "the cards.")))
        self._announced = -1
        return said

    def _publish(self) -> list[Announcement]:
        """This seat's moves not at the table yet, given to it; one the table
        cannot take (it moved on just before) taken back here, and said."""
        moves = len(self.table.moves())
        mine = published(self.session.entries())
        for index in range(moves, len(mine)):
            if mine[index].seat != self.seat or self.table.post(self.seat, index, mine[index]):
                continue
            if self.table.over:
                return []  # (ended meanwhile: the game ends here too)
            while len(published(self.session.entries())) > index:
                if self.session.take_back() is None:
                    break
            return [warning(self.text(
                "Not entered: the table moved on just before your entry reached it. "
                "Listen to what changed, then enter your move again."))]
        return []

    def advance(self) -> Step | None:
        news = self._news()
        if self.table.ended and not self.session.ended:
            if self._ended:
                return None
            self._ended = True
            return Step(None, (*news, result(self.text(
                "The host ended the table. Your game is saved: the table companion's "
                "Resume goes on with it."))))
        step = super().advance()
        news += self._publish()  # (a move made by itself: a pass)
        if step is None:
            return Step(None, tuple(news)) if news else None
        question, key = step.question, step.key
        if question is not None and key != DEALT and self.tracker.turn != self.seat:
            question, key = self._waiting(), WAIT  # another player's move: theirs to enter
        return Step(question, (*news, *step.before), key)

    def _waiting(self) -> Text:
        return Text(self.text("Waiting for %(player)s to play. A word, or Enter:",
                              player=self.names[self.tracker.turn]), allow_empty=True)

    def take(self, step: Step, answer: object) -> Sequence[Announcement]:
        if step.key == WAIT:
            return [reply(self.text("Still waiting for %(player)s.",
                                    player=self.names[self.tracker.turn]))]
        return [*super().take(step, answer), *self._publish()]

    def command(self, name: str, argument: str) -> WordReply | None:
        if name == "undo":
            return self._undo()
        if name == Word.DREW:
            return WordReply((warning(self.text(
                "At a shared table each player enters their own draws, on their own "
                "device.")),))
        if name == Word.EAT and self.tracker.turn != self.seat:
            return WordReply((warning(self.text(
                "Not your turn: %(player)s enters their own move.",
                player=self.names[self.tracker.turn])),))
        said = super().command(name, argument)
        if said is not None and said.changed:
            said = WordReply((*said.said, *self._publish()), changed=True)
        return said

    def _undo(self) -> WordReply:
        """Only this seat's own last entry: a hand, a move begun, or a move
        the next player has not answered at the table yet."""
        entries = self.session.entries()
        last = entries[-1] if entries else None
        if last is None or last.seat != self.seat:
            return WordReply((reply(self.text(
                "Nothing to take back: only your own last entry, before the next player "
                "moves.")),))
        if last.what not in PRIVATE and not self.table.withdraw(
                self.seat, len(published(entries)) - 1):
            return WordReply((reply(self.text(
                "Nothing to take back: the next player has moved since.")),))
        self.session.take_back()
        self._announced = -1
        catalog = self.teller.catalog
        if last.what == "hand" and self.session.dealing:
            said = self.text("Taken back: your hand as dealt, %(cards)s.",
                             cards=narration.grouped(catalog, last.cards))
        elif last.what == "hand":
            said = self.text("Taken back: the hand you entered. %(hand)s", hand=narration.hand_text(
                catalog, hand_cards(self.tracker.hand)))
        else:
            said = self.text("Taken back: %(player)s's last entry.", player=self.names[self.seat])
        return WordReply((reply(said, important=True),), changed=True)


class HostGame:
    """The host's page of a shared table: only what is public (seats taken,
    every move, the tokens), said as it comes, for the host to follow or to
    have said aloud. A :class:`~companion.contract.game.Play`."""

    kind = TABLE
    actions = ("where", Word.PILE, Word.RISK, Word.TOKENS)

    def __init__(self, table: Table, language: str, verbosity: Verbosity) -> None:
        self.table = table
        self.teller = Teller(language, verbosity)
        self._public = 0
        self._moves: list[Entry] = []
        self._tracker = table.watching(())
        self._done = False
        #: "End the table" chosen: asked to be sure.
        self._ending = False

    def text(self, message: str, **params: object) -> str:
        return self.teller.text(message, **params)

    def _follow(self) -> list[Announcement]:
        """The table's moves since last said (those taken back said so)."""
        names = self.table.names
        said: list[Announcement] = []
        moves = self.table.moves()
        same = _common(self._moves, moves)
        if same < len(self._moves):
            said += [event(self.text("Taken back: %(player)s's last entry.",
                                     player=names[move.seat]))
                     for move in reversed(self._moves[same:])]
            self._tracker = self.table.watching(moves[:same])
        self._moves = moves[:same]
        for move in moves[same:]:
            before = Before.of(self._tracker, move.seat)
            move.apply(self._tracker)  # (the table took it: it stands)
            self._moves.append(move)
            said += said_back(self.teller, names, move, before, self._tracker, yours=False)
        return said

    def advance(self) -> Step | None:
        if self._done:
            return None
        names = self.table.names
        said: list[Announcement] = []
        facts, self._public = self.table.public(self._public)
        for fact in facts:
            if isinstance(fact, Joined):
                said.append(event(self.text("%(player)s took a seat.",
                                            player=names[fact.seat])))
        said += self._follow()
        tracker = self._tracker
        if tracker.winners:
            said += self.teller.final(names, tracker.tokens, tracker.sizes, tracker.winners)
            self._done = True
        elif any(isinstance(fact, Ended) for fact in facts):
            said.append(result(self.text("The table is ended. Each seat's game is saved.")))
            self._done = True
        if self._done:
            return Step(None, tuple(said))
        if self._ending:
            return Step(YesNo(self.text(
                "End the table for every seat? Each seat's game stays saved."),
                self.text("No, go on."), self.text("Yes, end it.")), tuple(said), "end")
        question = Menu(self.text("The shared table:"), (
            self.text("Whose turn it is"), self.text("End the table")))
        return Step(question, tuple(said), "menu")

    def take(self, step: Step, answer: object) -> Sequence[Announcement]:
        if step.key == "end":
            self._ending = False
            if answer is True:
                self.table.end()
                return []
            return [reply(self.text("The table goes on."))]
        if answer == 0:
            names = self.table.names
            seated = self.table.seated()
            said = [self._where()]
            absent = [names[s] for s in range(self.table.seats) if s not in seated]
            if absent:
                said.append(info(self.text("No device yet: %(players)s.",
                                           players=", ".join(absent))))
            return said
        self._ending = True
        return []

    def _where(self) -> Announcement:
        tracker = self._tracker
        return self.teller.where(round_=tracker.round, player=self.table.names[tracker.turn],
                                 direction=tracker.direction, phase=tracker.phase,
                                 value=tracker.value, draw=tracker.draw)

    def command(self, name: str, argument: str) -> WordReply | None:
        del argument
        tracker = self._tracker
        names = self.table.names
        starter = names[tracker.turn]
        if name == "where":
            return WordReply((self._where(),))
        if name == Word.PILE:
            return WordReply((self.teller.pile(tracker.pile, tracker.food, tracker.value,
                                               starter),))
        if name == Word.RISK:
            try:
                return WordReply((self.teller.risk(
                    phase=tracker.phase, value=tracker.value, draw=tracker.draw,
                    overeating=tracker.overeating, starter=starter),))
            except RiskInputError:  # (a fault of the companion: said, not raised)
                return WordReply((warning(self.text(
                    "The chance of overeating cannot be worked out from what is entered (draw "
                    "pile %(draw)d, overeating cards %(overeating)d): a fault of the companion, "
                    "please report it.", draw=tracker.draw, overeating=tracker.overeating)),))
        if name == Word.TOKENS:
            return WordReply(tuple(self.teller.tokens(names, tracker.tokens, tracker.sizes)))
        return None

    def facts(self) -> str:
        tracker = self._tracker
        return self.text("Round %(round)d, %(player)s to play; %(seated)d of %(seats)d seats "
                         "taken", round=tracker.round, player=self.table.names[tracker.turn],
                         seated=len(self.table.seated()), seats=self.table.seats)

    def discard(self) -> None:
        self.close()

    def close(self) -> None:
        pass
