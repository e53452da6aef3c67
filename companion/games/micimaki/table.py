"""The table companion for Mici Maki: a real game, followed from what the
player enters, move by move.

The companion knows whose turn it is and asks for that player's move: a
card (typed or scanned: a food card served or starting a pile, an action
card), a pair that skips the food, or the word eat (``eat x`` when an
overeating card turned up for another player; your own eat asks for the
cards you turned up). It asks by itself for what the rules make happen: an
empty hand's draw of three, your draw when you hold no food to start a
pile, and whether the player who overate adds an overeating card. Every
entry is checked by the tracker against the rules, what they force and
what is known: refused with its reason and what to type (changing
nothing), or journaled and said back in one short sentence. The words
where, pile, risk, tokens, hand and hint say the public state and your
chances; undo takes back the last entry.

What to ask is worked out from the journal alone, so a resumed game and
an undone entry go on at exactly the right question. A game saved with an
entry the rules refuse (an older version accepted some) resumes just
before it and says so once; a chance of overeating that cannot be worked
out is said as the fault it is, never raised.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from companion.contract.events import (
    Announcement,
    Cards,
    CardsQuestion,
    Conversation,
    Menu,
    Number,
    Verbosity,
    YesNo,
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
from companion.games.micimaki import narration
from companion.games.micimaki.risk import RiskInputError
from companion.games.micimaki.rules import (
    ADD,
    CHOOSE,
    EAT,
    EMPTY_HAND_DRAW,
    EXTRA,
    FOODS,
    OVEREATING,
    PILE,
    PLAY,
    SERVE,
    SKIP,
    START,
    TURN,
    IllegalMove,
    Move,
    Setup,
    View,
    hand_cards,
)
from companion.games.micimaki.session import Entry, Refused, TableSession, entry_of_move
from companion.games.micimaki.telling import (
    CHOOSING,
    READER,
    Ending,
    MoveError,
    Teller,
    hint,
    move_error_text,
    pile_after,
    read_move,
    word,
)
from companion.games.micimaki.tracker import Tracker
from companion.games.micimaki.vocabulary import Word
from companion.i18n import N_

#: The questions of a table game.
MOVE, WHOM, EXTRA_CARD, EATEN, EMPTY, NO_FOOD, DEALT = (
    "move", "whom", "extra", "eaten", "empty", "no-food", "dealt")
#: Cards drawn by a player whose turn comes with an empty hand (the rules' own).
EMPTY_DRAW = EMPTY_HAND_DRAW


def set_up(conversation: Conversation, cards_from: Callable[[], object] | None) -> tuple[
        list[str], int, int, Setup]:
    """Ask the seats, the player's own, who starts, the deck and
    (``cards_from``) where cards come from: names, you, first, setup (the
    dealt hand is asked by :func:`dealt`, once the cards can be scanned).
    Back in a menu asks the question before it again (the last name,
    before "Which one are you?"), the answers before it kept. With no
    ``cards_from``, a table shared between devices: each seat on its own
    device, so neither the player's own seat nor the cards' source is asked
    (you: 0)."""
    teller = Teller(conversation.language, conversation.verbosity)
    text = teller.text
    back = text("Back.")
    count = you = first = 0
    names: list[str] = []
    setup = Setup(players=3)

    def seats() -> None:
        nonlocal count
        prompt = (N_("How many players at the table, you included? 3 to 7:") if cards_from
                  else N_("How many players at the table, each with a device? 3 to 7:"))
        count = conversation.ask(Number(text(prompt), 3, 7)) or 3

    def named() -> None:
        nonlocal names
        names = ask_names(conversation, count, lambda number: text(
            "Player %(number)d's name, going round the table to the left:", number=number),
            text("Give each player a different name."), names)

    def yours() -> None:
        nonlocal you
        you = set_up_menu(conversation, text("Which one are you?"), tuple(names), back)

    def starts() -> None:
        nonlocal first
        first = set_up_menu(conversation, text("Who starts the first pile?"), tuple(names),
                            back)

    def deck() -> None:
        nonlocal setup
        setup = Setup(players=count)
        other = set_up_menu(conversation, text("Action cards in your deck:"), (
            text("The usual: 7 +1 food, 5 reverse direction, 5 choose the next player."),
            text("Other counts."),
        ), back)
        if other:
            counts = [conversation.ask(Number(text(prompt), 0, 20)) for prompt in (
                N_("How many +1 food cards? 0 to 20:"),
                N_("How many reverse direction cards? 0 to 20:"),
                N_("How many choose the next player cards? 0 to 20:"))]
            setup = Setup(players=count, plus=counts[0] or 0, reverse=counts[1] or 0,
                          choose=counts[2] or 0)

    if cards_from is None:
        in_steps((seats, named, starts, deck))
    else:
        in_steps((seats, named, yours, starts, deck, cards_from))
    return names, you, first, setup


def dealt_question(teller: Teller, setup: Setup) -> CardsQuestion[int]:
    """The question of the player's dealt hand: exactly a hand's cards."""
    return CardsQuestion(
        teller.text("Your %(n)d cards as dealt, card by card:", n=setup.hand), READER,
        most=setup.hand, exactly=setup.hand,
        why=teller.catalog.plural("each player is dealt %(n)d card",
                                  "each player is dealt %(n)d cards", setup.hand))


def dealt(conversation: Conversation, setup: Setup) -> list[int]:
    """Ask the player's dealt hand until it can be one, and read it back."""
    teller = Teller(conversation.language, conversation.verbosity)
    while True:
        given = conversation.ask(dealt_question(teller, setup))
        if OVEREATING not in given.cards:
            conversation.say(teller.hand(given.cards))
            return list(given.cards)
        conversation.say(warning(_never_dealt(teller, setup)))


def _never_dealt(teller: Teller, setup: Setup) -> str:
    return teller.text("Enter the %(n)d cards you were dealt; an overeating card is never "
                       "dealt.", n=setup.hand)


class TableGame(Ending):
    """A real Mici Maki game being followed (a :class:`~companion.contract.game.Play`)."""

    kind = TABLE
    session: TableSession
    actions = ("where", "hand", Word.PILE, Word.RISK, Word.TOKENS, "hint", "undo", Word.EAT,
               Word.DREW)

    def __init__(self, session: TableSession, language: str, verbosity: Verbosity) -> None:
        self.session = session
        self.teller = Teller(language, verbosity)
        self.names = session.names
        self._opened = False
        self._announced = -1

    @property
    def tracker(self) -> Tracker:
        return self.session.tracker  # undo rebuilds it: always the one now

    @property
    def _dealing(self) -> bool:
        """The dealt hand was taken back (undo with nothing else entered):
        asked again. Journaled: a restart asks it again too."""
        return self.session.dealing

    def _standing(self) -> Tracker:
        return self.tracker

    def text(self, message: str, **params: object) -> str:
        return self.teller.text(message, **params)

    @property
    def _eat_word(self) -> str:
        return word(self.teller.catalog, Word.EAT)

    # -- what to ask ----------------------------------------------------------------------

    def advance(self) -> Step | None:
        if self.session.ended:
            return self._told_result()
        table = self.tracker
        names = self.names
        before: list[Announcement] = []
        if not self._opened:
            self._opened = True
            before.append(info(self.text(
                "Mici Maki at the table: %(players)s. You are %(player)s.",
                players=", ".join(names), player=names[table.you])))
            refused = self.session.refused()
            if refused is not None:
                before.append(self._refused(refused))
                self.session.told_refused()
        if table.winners:
            return self._finished(before)
        if self._dealing:
            return Step(dealt_question(self.teller, table.setup), tuple(before), DEALT)
        seat = table.turn
        pending = self.session.pending()
        if pending is not None and pending.card == EAT:
            count = min(table.value, table.drawable())
            return Step(CardsQuestion(self.teller.catalog.plural(
                "The %(n)d card you turned up (x for an overeating card):",
                "The %(n)d cards you turned up, in order (x for an overeating card):",
                count), READER, most=count, full=count), tuple(before), EATEN)
        if pending is not None:
            others = [other for other in range(table.players) if other != seat]
            prompt = (self.text("Who plays next?") if seat == table.you else
                      self.text("Whom does %(player)s choose to play next?",
                                player=names[seat]))
            return Step(Menu(prompt,
                             tuple(names[other] for other in others)), tuple(before), WHOM)
        if table.phase == ADD:
            prompt = (self.text("Add one more overeating card to the draw pile?")
                      if seat == table.you else
                      self.text("Does %(player)s add one more overeating card?",
                                player=names[seat]))
            return Step(YesNo(prompt, no=self.text("No."), yes=self.text("Yes, one more.")),
                        tuple(before), EXTRA_CARD)
        if not table.sizes[seat] and table.drawable():
            return Step(self._empty_hand(seat), tuple(before), EMPTY)
        if seat == table.you and table.phase == PILE and not any(
                table.hand[value] for value in FOODS):
            if not table.drawable():
                return self._pass(before)
            return Step(CardsQuestion(self.text(
                "You hold no food: draw until a food card comes, and enter the cards (x for "
                "an overeating card):"), READER, most=table.drawable()), tuple(before), NO_FOOD)
        if seat == table.you and self._announced != len(self.session.journal.events):
            self._announced = len(self.session.journal.events)
            before += self._your_turn()
        return Step(self._move_question(seat), tuple(before), MOVE)

    def _refused(self, refused: Refused) -> Announcement:
        """The entry of the saved game that the rules refuse, taken out: said once."""
        why = self.teller.refusal(refused.refusal, self.names)
        player = self.names[refused.entry.seat]
        if refused.later:
            said = self.teller.catalog.plural(
                "This game was saved with an entry the rules do not allow, %(player)s's: it "
                "and the %(n)d entry after it are taken out, and it is asked again. %(why)s",
                "This game was saved with an entry the rules do not allow, %(player)s's: it "
                "and the %(n)d entries after it are taken out, and it is asked again. %(why)s",
                refused.later, player=player, why=why)
        else:
            said = self.text("This game was saved with an entry the rules do not allow, "
                             "%(player)s's: it is taken out and asked again. %(why)s",
                             player=player, why=why)
        return warning(said)

    def _empty_hand(self, seat: int) -> CardsQuestion[int] | Menu:
        table = self.tracker
        count = min(EMPTY_DRAW, table.drawable())
        if seat == table.you:
            return CardsQuestion(self.teller.catalog.plural(
                "Your hand is empty: draw %(n)d card and enter it (x for an overeating card):",
                "Your hand is empty: draw %(n)d cards and enter them (x for an overeating "
                "card):", count), READER, most=count, full=count)
        options = [self.text("No overeating card.")]
        options += [self.text("An overeating card as card %(n)d.", n=n)
                    for n in range(1, count + 1)]
        return Menu(self.teller.catalog.plural(
            "%(player)s's hand is empty: %(player)s draws %(n)d card.",
            "%(player)s's hand is empty: %(player)s draws %(n)d cards.", count,
            player=self.names[seat]), tuple(options))

    def _pass(self, before: list[Announcement]) -> Step:
        """You hold no food to start a pile and nothing is left to draw: the
        next player starts it."""
        table = self.tracker
        return Step(None, (*before, *self._enter(Entry("passed", table.you))))

    def _move_question(self, seat: int) -> CardsQuestion[int]:
        table = self.tracker
        if seat == table.you:
            prompt = (self.text("Start a pile with a food card:") if table.phase == PILE
                      else self.text("Your move: a card, a pair, or %(eat)s:",
                                     eat=self._eat_word))
        elif table.phase == PILE:
            prompt = self.text("%(player)s starts a pile with:", player=self.names[seat])
        else:
            prompt = self.text("%(player)s's move: a card, a pair, or %(eat)s:",
                               player=self.names[seat], eat=self._eat_word)
        return CardsQuestion(prompt, READER, most=2)

    def _your_turn(self) -> list[Announcement]:
        """Before your move (unless terse): the pile, the risk of eating,
        and what you could play."""
        if self.teller.verbosity is Verbosity.TERSE:
            return []
        table = self.tracker
        starter = self.names[table.turn]
        said = [info(narration.pile_text(self.teller.catalog, table.pile, table.food,
                                         table.value, starter))]
        if table.phase == TURN:
            said.append(self._risk())
        moves = table.playable()
        if moves:
            said.append(self.teller.playable(moves, self.names))
        return said

    def _risk(self) -> Announcement:
        table = self.tracker
        try:
            return self.teller.risk(phase=table.phase, value=table.value, draw=table.draw,
                                    overeating=table.overeating,
                                    starter=self.names[table.turn])
        except RiskInputError:
            return self._no_risk()

    def _no_risk(self) -> Announcement:
        """Figures no table can show reached the chance of overeating: a
        fault of the companion, said rather than raised."""
        table = self.tracker
        return warning(self.text(
            "The chance of overeating cannot be worked out from what is entered (draw pile "
            "%(draw)d, overeating cards %(overeating)d): a fault of the companion, please "
            "report it. Undo takes back the last entry.", draw=table.draw,
            overeating=table.overeating))

    # -- the answers ------------------------------------------------------------------------

    def take(self, step: Step, answer: object) -> Sequence[Announcement]:
        table = self.tracker
        seat = table.turn
        key = step.key
        if key == EXTRA_CARD:
            return self._enter(Entry("add", seat, int(bool(answer))))
        if key == WHOM:
            assert isinstance(answer, int)  # a menu's answer: the option's index
            others = [other for other in range(table.players) if other != seat]
            return self._enter(Entry("action", seat, CHOOSE, chosen=others[answer]))
        if key == EMPTY and isinstance(answer, int):
            count = min(EMPTY_DRAW, table.drawable())
            if answer == 0:
                return self._enter(Entry("drew", seat, count=count))
            return self._enter(Entry("drew", seat, count=answer, card=OVEREATING))
        assert isinstance(answer, Cards)
        cards = answer.cards
        if key == DEALT:
            if OVEREATING in cards:
                return [warning(_never_dealt(self.teller, table.setup))]
            return self._dealt(Entry("hand", table.you, cards=cards))
        if key == EATEN:
            return self._enter(Entry("eat", seat, cards=cards))
        if key in (EMPTY, NO_FOOD):
            return self._enter(Entry("drew", seat, cards=cards))
        try:
            move = read_move(cards, phase=table.phase)
        except MoveError as error:
            return [warning(move_error_text(self.teller.catalog, error))]
        if move == (CHOOSE, CHOOSING):
            return self._enter(Entry("pending", seat, CHOOSE))
        return self._enter(entry_of_move(seat, move))

    def _dealt(self, entry: Entry) -> list[Announcement]:
        """The dealt hand entered again, in place of the note of the hand
        taken back; said back, or refused with its reason."""
        table = self.tracker
        before = Before.of(table, entry.seat)
        try:
            self.session.dealt(entry)
        except IllegalMove as error:
            return [warning(self.teller.refusal(error.refusal, self.names))]
        return self._said(entry, before)

    def _enter(self, entry: Entry) -> list[Announcement]:
        """An entry checked, journaled and said back; or refused with its reason."""
        table = self.tracker
        before = Before.of(table, entry.seat)
        try:
            self.session.add(entry)
        except IllegalMove as error:
            return [warning(self.teller.refusal(error.refusal, self.names))]
        return self._said(entry, before)

    def _said(self, entry: Entry, before: Before) -> list[Announcement]:
        """An entry said back in one short sentence (and what it brought)."""
        return said_back(self.teller, self.names, entry, before, self.tracker)

    # -- the words ---------------------------------------------------------------------------

    def command(self, name: str, argument: str) -> WordReply | None:
        table = self.tracker
        teller = self.teller
        starter = self.names[table.turn]
        if name == Word.EAT:
            return WordReply(tuple(self._eat(argument)), changed=True)
        if name == Word.DREW:
            return WordReply(tuple(self._drew(argument)), changed=True)
        if name == "hand" and argument:
            try:
                cards = Cards.read(argument, READER).cards
            except ValueError as error:
                return WordReply((warning(READER.refusal(teller.language, error)),))
            entry = Entry("hand", table.you, cards=cards)
            entered = self._dealt(entry) if self._dealing else self._enter(entry)
            return WordReply(tuple(entered), changed=True)
        if name == "hand":
            said = [teller.hand(hand_cards(table.hand))]
        elif name == "where":
            said = [teller.where(round_=table.round, player=starter, direction=table.direction,
                                 phase=table.phase, value=table.value, draw=table.draw)]
        elif name == Word.PILE:
            said = [teller.pile(table.pile, table.food, table.value, starter)]
        elif name == Word.RISK:
            said = [self._risk()]
        elif name == Word.TOKENS:
            said = teller.tokens(self.names, table.tokens, table.sizes)
        elif name == "hint":
            said = [self._hint()]
        elif name == "undo":
            taken = self.session.take_back()
            if taken is None and not self._dealing:
                # nothing entered since the deal: the dealt hand is taken back
                self.session.deal_again()
                return WordReply((reply(self.text(
                    "Taken back: your hand as dealt, %(cards)s.",
                    cards=narration.grouped(teller.catalog, hand_cards(table.hand))),
                    important=True),), changed=True)
            if taken is None:
                return WordReply((reply(self.text("Nothing to take back.")),))
            self._announced = -1
            if taken.what == "hand":  # a hand entered again: the one before it is back
                return WordReply((reply(self.text(
                    "Taken back: the hand you entered. %(hand)s", hand=narration.hand_text(
                        teller.catalog, hand_cards(self.tracker.hand))), important=True),),
                    changed=True)
            return WordReply((reply(self.text("Taken back: %(player)s's last entry.",
                                          player=self.names[taken.seat]), important=True),),
                         changed=True)
        else:
            return None
        return WordReply(tuple(said))

    def _eat(self, argument: str) -> list[Announcement]:
        """The player to play eats: yours asks the cards next (or takes them
        after the word); another player's, an ``x`` after the word for each
        overeating card that turned up."""
        table = self.tracker
        seat = table.turn
        if table.phase != TURN or self.session.pending() is not None:
            return [warning(self.text("Not now: eating is a move, when a pile is in play."))]
        if seat != table.you:
            typed = argument.casefold().split()
            if any(mark not in ("x", "х") for mark in typed):
                return [warning(self.text("After %(eat)s, type x for each overeating card that "
                                          "turned up, or nothing.", eat=self._eat_word))]
            return self._enter(Entry("ate", seat, len(typed)))
        if not argument.strip():
            return self._enter(Entry("pending", seat, EAT))
        try:
            cards = Cards.read(argument, READER).cards
        except ValueError as error:
            return [warning(READER.refusal(self.teller.language, error))]
        return self._enter(Entry("eat", seat, cards=cards))

    def _drew(self, argument: str) -> list[Announcement]:
        """Another player, holding no food to start a pile, drew until a
        food card came: ``drew 2``; ``drew 2 x`` when the second card drawn
        was an overeating card."""
        table = self.tracker
        seat = table.turn
        parts = argument.split()
        if (seat == table.you or table.phase != PILE or not parts or not parts[0].isdigit()
                or len(parts) > 2 or (len(parts) == 2 and parts[1].casefold() not in ("x", "х"))):
            return [warning(self.text(
                "%(drew)s is for another player who starts a pile with no food: %(drew)s 2, "
                "or %(drew)s 2 x when the second card was an overeating card.",
                drew=word(self.teller.catalog, Word.DREW)))]
        count = int(parts[0])
        if len(parts) == 2:
            return self._enter(Entry("drew", seat, count=count, card=OVEREATING))
        return self._enter(Entry("drew", seat, count=count))

    def _hint(self) -> Announcement:
        table = self.tracker
        if table.turn != table.you or table.phase not in (PILE, TURN):
            return reply(self.text("The hint is for your turn."))
        moves = table.playable()
        if not moves:  # a hand not known, or none of it fits: nothing to advise
            return reply(self.text("None of your cards can be played now, as far as your "
                                   "hand is known. Type hand to hear it."))
        try:
            advice = hint(self.teller.catalog, _view(table), moves, self.names)
        except RiskInputError:
            return self._no_risk()
        return reply(advice, important=True)

    def facts(self) -> str:
        table = self.tracker
        risk: Fraction | None = Fraction(0)
        if table.phase == TURN:
            try:
                risk = table.risk()
            except RiskInputError:
                risk = None  # said as unknown; the word risk says why
        return self.teller.facts(round_=table.round, player=self.names[table.turn],
                                 value=table.value, risk=risk, tokens=table.tokens[table.you],
                                 cards=table.sizes[table.you])

    def discard(self) -> None:
        self.session.discard()

    def close(self) -> None:
        self.session.close()


def said_back(teller: Teller, names: Sequence[str], entry: Entry, before: Before,
              table: Tracker, *, yours: bool = True, own: bool = False) -> list[Announcement]:
    """An entry said in one short sentence (and what it brought), ``table``
    as it stands after it: a reply to the player who entered it
    (``yours``), else a game event (another device's entry); ``own``: the
    player's own, said to them in the second person."""
    seat, name = entry.seat, names[entry.seat]
    what = entry.what
    overate = table.tokens[seat] > before.tokens
    said: list[Announcement] = []
    if what in ("start", "serve", "action", "skip"):
        move = _move_of(entry)
        chosen = names[entry.chosen] if entry.chosen is not None else ""
        said.append(teller.move(name, move, value=pile_after(move, before.value),
                                direction=table.direction, chosen=chosen, yours=yours,
                                own=own, to_you=not yours and entry.chosen == table.you))
        said += teller.rules(move)
    elif what == "pending" and entry.card == CHOOSE:
        said.append(reply(teller.text("%(player)s: %(card)s.", player=name,
                                      card=narration.card_name(teller.catalog, CHOOSE))))
    elif what == "pending":
        said.append(reply(teller.catalog.plural(
            "You eat %(n)d card: enter it as you turn it up.",
            "You eat %(n)d cards: enter them as you turn them up.",
            min(before.value, before.drawable))))
    elif what in ("eat", "ate"):
        turned: Sequence[int] | int = (entry.cards if what == "eat"
                                       else min(before.value, before.drawable))
        said += teller.ate(name, turned, overate=overate, tokens=table.tokens[seat],
                           shown=what == "eat", yours=yours, own=own)
        said += teller.rules((EAT, 0), overate=overate)
    elif what == "drew":
        drawn: Sequence[int] | int = entry.cards if entry.cards else entry.count
        said.append(teller.drew(name, drawn, yours=yours, own=own))
        if overate:
            said.append(teller.overate(name, table.tokens[seat]))
    elif what == "add":
        said.append(teller.move(name, (EXTRA, entry.card), value=table.overeating,
                                direction=1, yours=yours, own=own))
    elif what == "hand":
        said.append(teller.hand(hand_cards(table.hand)))
    elif what == "passed":
        said.append(teller.passed(name))
    if table.round > before.round and not table.winners:
        said.append(teller.new_round(table.round, names[table.turn]))
    return said


@dataclass(frozen=True, slots=True)
class Before:
    """The figures an entry's sentence needs from before it."""

    value: int
    drawable: int
    round: int
    tokens: int

    @classmethod
    def of(cls, table: Tracker, seat: int) -> Before:
        """The figures now, before ``seat``'s entry."""
        return cls(table.value, table.drawable(), table.round, table.tokens[seat])


def _move_of(entry: Entry) -> Move:
    if entry.what == "action" and entry.card == CHOOSE:
        return (CHOOSE, entry.chosen if entry.chosen is not None else 0)
    kind = {"start": START, "serve": SERVE, "action": PLAY, "skip": SKIP}[entry.what]
    return (kind, entry.card)


def _view(table: Tracker) -> View:
    """What you know at the table, as the bots see a game."""
    return View(table.you, tuple(table.hand), table.phase, table.turn, table.direction,
                table.food, table.value, tuple(table.pile), table.draw, table.overeating,
                len(table.discard), tuple(table.tokens), tuple(table.sizes), table.round)

