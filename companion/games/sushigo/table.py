"""The table companion for Sushi Go!: a real game, followed from what the
player enters, question by question.

Each turn: the player's hand (typed or scanned codes), their pick, then any
reveals they want to enter (an empty line skips a player). At the end of a
round it offers to complete the tables still short, then says the round's
scores; after round 3, the final scores and the winner. Everything is
journaled: a crash loses nothing.

The question to ask is worked out from the journal alone (the entries, and
the questions skipped with an empty line, which are journaled too), so a
resumed game and an undone entry both go on at exactly the right question.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.contract.events import (
    Announcement,
    Cards,
    CardsQuestion,
    Conversation,
    Number,
    Verbosity,
    info,
    reply,
    warning,
)
from companion.contract.game import (
    TABLE,
    Step,
    WordReply,
    ask_names,
    in_steps,
    set_up_menu,
)
from companion.games.sushigo.bots import table_advice
from companion.games.sushigo.cards import ROUNDS, Card
from companion.games.sushigo.narration import (
    advice_text,
    card_list,
    coming_hand_text,
    concern_text,
    hand_text,
    impossible_text,
    pick_text,
    taken_back_text,
    taken_text,
)
from companion.games.sushigo.practice import variant_of, variants
from companion.games.sushigo.session import Refused, TableSession
from companion.games.sushigo.telling import READER, Teller
from companion.games.sushigo.tracker import Concern as ConcernKind
from companion.games.sushigo.tracker import (
    Entry,
    EntryKind,
    ImpossibleEntry,
    Tracker,
    TrackerError,
)
from companion.games.sushigo.tracker import Warning as Concern
from companion.keymap import Words

#: The questions of a turn, in order: the hand, the pick, then each other
#: seat's reveal (a seat number); after the last, the turn (or round) ends.
TurnQuestion = str | int
HAND, PICK, DONE = "hand", "pick", "done"
#: A skipped question of a round's end: a seat's whole table kept ("table-2").
KEPT = "table-"


def set_up(conversation: Conversation, cards_from: Callable[[], object]) -> tuple[
        list[str], int, int]:
    """Ask the seats, the player's own, the variant and (``cards_from``)
    where cards come from: the names (the dummy's last, in the dummy
    variant), the player's seat and the variant's option. Back in a menu
    asks the question before it again (the last name, before "Which one
    are you?"), the answers before it kept."""
    teller = Teller(conversation.language, conversation.verbosity)
    back = teller.text("Back.")
    count = you = pick = 0
    names: list[str] = []

    def seats() -> None:
        nonlocal count
        count = conversation.ask(Number(
            teller.text("How many players at the table, you included? 2 to 5:"), 2, 5)) or 2

    def named() -> None:
        nonlocal names
        names = ask_table_names(conversation, teller, count, names)

    def yours() -> None:
        nonlocal you
        you = set_up_menu(conversation, teller.text("Which one are you?"), tuple(names), back)

    def variant() -> None:
        nonlocal pick
        pick = set_up_menu(conversation, teller.text("Variant:"), variants(teller, count),
                           back)

    in_steps((seats, named, yours, variant, cards_from))
    if variant_of(pick).dummy:
        names.append(teller.text("Dummy"))
    return names, you, pick


def ask_table_names(conversation: Conversation, teller: Teller, count: int,
                    names: list[str]) -> list[str]:
    """The ``count`` players' names, going round the table to the left
    (``names``: those given before, Back to this question)."""
    return ask_names(conversation, count, lambda number: teller.text(
        "Player %(number)d's name, going round the table to the left:", number=number),
        teller.text("Give each player a different name."), names)


def steps(tracker: Tracker) -> list[TurnQuestion]:
    return [HAND, PICK, *(seat for seat in range(tracker.seats) if seat != tracker.you)]


def _step_of(entry: Entry, you: int) -> TurnQuestion:
    if entry.kind is EntryKind.HAND:
        return HAND
    if entry.kind is EntryKind.PICK and entry.seat == you:
        return PICK
    if entry.kind is EntryKind.PICK and entry.seat is not None:
        return entry.seat
    return DONE  # a whole table: the round's end has begun


def this_turn(tracker: Tracker) -> tuple[Entry, ...]:
    """The entries since play last moved on to a new turn."""
    entries = tracker.entries
    since = max((i for i, e in enumerate(entries) if e.kind is EntryKind.NEXT), default=-1)
    return entries[since + 1:]


def next_step(tracker: Tracker, skipped: set[TurnQuestion]) -> TurnQuestion:
    """The question to ask now: the one after the last answered this turn
    (entered, or skipped with an empty line)."""
    order = steps(tracker)
    answered = [_step_of(entry, tracker.you) for entry in this_turn(tracker)]
    # a whole table kept at the round's end: the round's end has begun
    answered += [DONE if isinstance(step, str) and step.startswith(KEPT) else step
                 for step in skipped]
    if DONE in answered:
        return DONE
    last = max((order.index(step) for step in answered), default=-1)
    return order[last + 1] if last + 1 < len(order) else DONE


class TableGame:
    """A real game being followed (a :class:`~companion.contract.game.Play`)."""

    kind = TABLE
    actions = ("where", "hand", "coming", "tables", "race", "hint", "undo")

    def __init__(self, session: TableSession, language: str, verbosity: Verbosity) -> None:
        self.session = session
        self.teller = Teller(language, verbosity)
        self.names = list(session.tracker.names)
        self._opened = False
        self._announced: tuple[int, int] | None = None
        #: The final scores are said (or the game was thrown away): nothing more to say.
        self._ended = False

    @property
    def tracker(self) -> Tracker:
        return self.session.tracker  # undo rebuilds it: always the one now

    def text(self, message: str, **params: object) -> str:
        return self.teller.text(message, **params)

    # -- what to ask ----------------------------------------------------------------------

    def advance(self) -> Step | None:
        if self.session.ended:
            if self._ended or self.session.discarded:
                return None
            self._ended = True  # resumed after its end, its result never said: said now
            return Step(None, tuple(self.teller.final(self.tracker.score(), self.names)))
        tracker = self.tracker
        before: list[Announcement] = []
        if not self._opened:
            self._opened = True
            before.append(info(self.text("Table game: %(players)s. You are %(player)s.",
                                         players=", ".join(self.names),
                                         player=self.names[tracker.you])))
            refused = self.session.refused()
            if refused is not None:
                before.append(self._refused(refused))
                self.session.told_refused()
        if self._announced != (tracker.round, tracker.turn):
            self._announced = (tracker.round, tracker.turn)
            before.append(self.teller.turn(tracker.round, tracker.turn, tracker.variant))
        step = next_step(tracker, set(self.session.skips()))
        if step == DONE:
            return self._turn_ends(before)
        return Step(self._question(step), tuple(before), step)

    def _refused(self, refused: Refused) -> Announcement:
        """The fact of the saved game that the rules refuse, taken out: said once."""
        why = impossible_text(self.teller.catalog, refused.warning, self.names)
        if refused.later:
            return warning(self.teller.catalog.plural(
                "This game was saved with an entry the rules do not allow: it and the %(n)d "
                "entry after it are taken out, and it is asked again. %(why)s",
                "This game was saved with an entry the rules do not allow: it and the %(n)d "
                "entries after it are taken out, and it is asked again. %(why)s",
                refused.later, why=why))
        return warning(self.text("This game was saved with an entry the rules do not allow: "
                                 "it is taken out and asked again. %(why)s", why=why))

    def _question(self, step: TurnQuestion) -> CardsQuestion[Card]:
        tracker = self.tracker
        if step == HAND:
            size = tracker.expected_hand_size()
            return CardsQuestion(self.text("Your hand, card by card (an empty line skips):"),
                                 READER, allow_empty=True, exactly=size,
                                 why=self.text("your hand holds %(cards)d this turn",
                                               cards=size))
        if step == PICK:
            # chopsticks named only when they are on the player's table
            prompt = (self.text("Your pick (two with chopsticks):")
                      if Card.CHOPSTICKS in tracker.table(tracker.you)
                      else self.text("Your pick:"))
            return CardsQuestion(prompt, READER, most=2, full=tracker.pick_size(tracker.you))
        assert isinstance(step, int)
        return CardsQuestion(
            self.text("%(player)s's reveal (an empty line skips):", player=self.names[step]),
            READER, allow_empty=True, most=2, full=tracker.pick_size(step))

    def _turn_ends(self, before: list[Announcement]) -> Step:
        """The turn ends; at a round's last turn, the short tables are asked
        for, then the round's scores said (and after the last round, the
        final scores); then play moves on."""
        tracker = self.tracker
        if tracker.turn == tracker.hand_size:
            for seat, name in enumerate(self.names):
                if len(tracker.table(seat, tracker.round)) < tracker.hand_size and (
                        not self._table_answered(seat)):
                    question = CardsQuestion(self.text(
                        "%(player)s's whole table this round, in order (an empty line "
                        "keeps it):", player=name), READER, allow_empty=True,
                        most=tracker.hand_size, exactly=tracker.hand_size,
                        why=self.text("every table holds %(cards)d at the end of a round",
                                      cards=tracker.hand_size))
                    return Step(question, tuple(before), f"{KEPT}{seat}")
            before += self.teller.round_scores(tracker.round, tracker.round_score(tracker.round),
                                               self.names)
            if tracker.round == ROUNDS:
                before += self.teller.final(tracker.score(), self.names)
                self.session.finish()
                self._ended = True
                return Step(None, tuple(before))
        self.session.add(Entry.next_turn())
        return Step(None, tuple(before))

    def _table_answered(self, seat: int) -> bool:
        """Whether this round's end already has this seat's whole table, entered
        or kept as it was (both journaled)."""
        entered = any(e.kind is EntryKind.TABLEAU and e.seat == seat
                      for e in this_turn(self.tracker))
        return entered or f"{KEPT}{seat}" in self.session.skips()

    # -- the answers ------------------------------------------------------------------------

    def take(self, step: Step, answer: object) -> Sequence[Announcement]:
        assert isinstance(answer, Cards)
        cards = answer.cards
        key = step.key
        assert isinstance(key, str | int), key  # the keys of this game's own questions
        tracker = self.tracker
        if not cards:  # skipped with an empty line (the pick is never empty)
            self.session.skip(key)
            return [reply(self._skipped(key))]
        try:
            if key == HAND:
                return self._hand(cards)
            # each entry confirmed in a sentence, the key fact first, then
            # what does not fit
            if key == PICK or isinstance(key, int):
                seat = tracker.you if key == PICK else int(key)
                concerns = self.session.add(Entry.pick(seat, cards))
                said = [reply(pick_text(self.teller.catalog, self.names[seat], cards))]
                return said + self._concerns(concerns)
            seat = int(str(key)[len(KEPT):])
            concerns = self.session.add(Entry.tableau(seat, cards, round=tracker.round))
            said = [reply(self.text("%(player)s's table: %(cards)s.", player=self.names[seat],
                                    cards=card_list(self.teller.catalog, cards)))]
            return said + self._concerns(concerns)
        except ImpossibleEntry as error:
            return [warning(impossible_text(self.teller.catalog, error.warning, self.names))]
        except TrackerError as error:
            return [warning(str(error))]

    def _skipped(self, key: object) -> str:
        """A skipped question, confirmed in a sentence like an entry."""
        if key == HAND:
            return self.text("Hand skipped; the word hand enters it later.")
        if isinstance(key, int):
            return self.text("%(player)s's reveal skipped.", player=self.names[key])
        seat = int(str(key)[len(KEPT):])
        return self.text("%(player)s's table kept as it is.", player=self.names[seat])

    def _hand(self, cards: Sequence[Card]) -> list[Announcement]:
        """The player's hand this turn entered (or entered again): read back,
        with what does not fit, and what was taken from it since it was held."""
        concerns = self.session.add(Entry.hand(cards))
        said = [reply(hand_text(self.teller.catalog, cards, self.teller.verbosity))]
        said += self._concerns(concerns)
        taken = self.tracker.taken_since_held()
        if taken is not None:
            said.append(info(taken_text(self.teller.catalog, taken)))
        return said

    def _concerns(self, concerns: list[Concern]) -> list[Announcement]:
        return [warning(concern_text(self.teller.catalog, concern, self.names))
                for concern in concerns]

    # -- the words ---------------------------------------------------------------------------

    def command(self, name: str, argument: str) -> WordReply | None:
        tracker = self.tracker
        teller = self.teller
        if name == "hand" and argument:
            # a hand skipped (or mis-entered) this turn, entered with the word
            try:
                cards = Cards.read(argument, READER).cards
                expected = tracker.expected_hand_size()
                if len(cards) != expected:  # a hand is all of it: none more, none less
                    raise ImpossibleEntry(Concern(ConcernKind.HAND_SIZE, 0, tracker.you,
                                                  count=len(cards), limit=expected))
                said = self._hand(cards)
            except ImpossibleEntry as error:
                said = [warning(impossible_text(teller.catalog, error.warning, self.names))]
            except TrackerError as error:
                said = [warning(str(error))]
            except ValueError as error:
                said = [warning(READER.refusal(teller.language, error))]
        elif name == "hand":
            hand = tracker.hand()
            said = [reply(hand_text(teller.catalog, hand, teller.verbosity) if hand is not None
                          else self.text("Your hand is not entered yet: type %(word)s, then "
                                         "its cards, as in %(word)s t w2 s.",
                                         word=self._hand_word()))]
        elif name == "coming":
            info_ = tracker.coming_hand()
            said = [reply(coming_hand_text(teller.catalog, self.names[info_.seat], info_))]
        elif name == "where":
            said = [teller.where(tracker.round, tracker.turn, tracker.names,
                                 tracker.score().totals)]
        elif name == "tables":
            said = teller.tables(self.names, [tracker.table(s) for s in range(tracker.seats)],
                                 argument)
        elif name == "race":
            said = teller.race(self.names, tracker.race())
        elif name == "hint":
            said = [self._hint()]
        elif name == "undo":
            taken = self.session.take_back()
            if taken is None:
                return WordReply((reply(self.text("Nothing to take back.")),))
            return WordReply((reply(taken_back_text(teller.catalog, taken, self.names, tracker.you),
                                important=True),), changed=True)
        else:
            return None
        return WordReply(tuple(said))

    def _hint(self) -> Announcement:
        """Advice from the hand entered this turn and the tables as entered."""
        tracker = self.tracker
        hand = tracker.hand()
        if not hand:
            return reply(self.text("Enter your hand first (%(word)s, then its cards, as in "
                                   "%(word)s t w2 s): the hint needs it.",
                                   word=self._hand_word()))
        tables = [tracker.table(seat) for seat in range(tracker.seats)]
        advice = table_advice(hand, tables, tracker.puddings_kept(), tracker.round, tracker.you)
        return reply(advice_text(self.teller.catalog, advice, self.teller.verbosity),
                     important=True)

    def _hand_word(self) -> str:
        """The word that enters a hand later, in the player's language."""
        return Words(self.teller.catalog).word("hand")

    def facts(self) -> str:
        tracker = self.tracker
        hand = tracker.hand()
        return self.teller.facts(tracker.round, tracker.turn, tracker.score().totals[tracker.you],
                                 len(hand) if hand is not None else tracker.expected_hand_size())

    def discard(self) -> None:
        self.session.discard()

    def close(self) -> None:
        self.session.close()
