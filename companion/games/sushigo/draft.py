"""Full Sushi Go! games where every card is known: practice games and simulations.

A :class:`Game` deals from a seeded shuffle and runs the draft: every seat
chooses, the choices are revealed at once, the hands pass, and the last card
of a hand is played by itself. Three rounds, then puddings and the winner.

>>> import random
>>> game = Game(3, rng=random.Random(7))
>>> len(game.hand(0)), game.round, game.turn
(9, 1, 1)
>>> choice = next(iter(game.legal_choices(0)))
>>> events = game.choose(0, choice)
>>> game.waiting_for()
(1, 2)
>>> totals = game.play_random(random.Random(1))
>>> game.over, len(totals)
(True, 3)

Choices are written like typed codes: ``w2`` (one card), ``t+w2`` (two cards
with chopsticks, in that order), and for the controller of the two-player
dummy ``w2/o3`` (``o3`` goes to the dummy).

Seats are numbered in table order, clockwise: a hand passed to the left goes
from seat ``i`` to seat ``i + 1``.

Inside, cards are numbers (``Card.index``) so that whole games can be played
out quickly, for simulations and for the advisor; the methods take and give
:class:`Card` members.
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from companion.games.sushigo.cards import (
    CARDS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROUNDS,
    Card,
    hand_size,
    new_deck,
)
from companion.games.sushigo.scoring import (
    I_CHOPSTICKS,
    I_PUDDING,
    GameScore,
    Race,
    SeatScore,
    pudding_places,
    round_points,
    score_game,
    score_round,
    tally,
    winners,
)
from companion.games.sushigo.tactile import UnknownCodeError, parse, short_code


class Direction(enum.IntEnum):
    """Where hands go: to the left is to the next seat clockwise."""

    LEFT = 1
    RIGHT = -1


@dataclass(frozen=True, slots=True)
class Variant:
    """Optional rules.

    ``pass_both_ways``: round 2 passes right. ``dummy``: the two-player
    variant with a third, dummy seat. ``soy_sauce``: soy sauce cards added to
    the deck (0: the variant is off).
    """

    pass_both_ways: bool = False
    dummy: bool = False
    soy_sauce: int = 0

    def direction(self, round_number: int) -> Direction:
        """The passing direction of a round (1 to 3)."""
        if self.pass_both_ways and round_number == 2:
            return Direction.RIGHT
        return Direction.LEFT


@dataclass(frozen=True, slots=True)
class Choice:
    """What a seat takes in one turn.

    ``cards``: one card, or two with chopsticks, in the order they are laid
    down (wasabi then nigiri puts the nigiri on that wasabi). ``dummy``: the
    card the dummy's controller takes for the dummy.
    """

    cards: tuple[Card, ...]
    dummy: Card | None = None

    @classmethod
    def parse(cls, text: str) -> Choice:
        """Read ``w2``, ``t+w2`` (or ``t w2``), ``w2/o3`` or ``t+w2/o3``.

        >>> Choice.parse("t + w2")
        Choice.parse('t+w2')
        """
        own, slash, other = text.partition("/")
        parts = own.split("+") if "+" in own else _split_codes(own)
        try:
            cards = tuple(parse(p) for p in parts)
            dummy = parse(other) if slash else None
        except UnknownCodeError as error:
            raise MalformedChoiceError(
                text, f"unknown card: {error.detail}", ChoiceProblem.UNKNOWN_CARD, refusal=error
            ) from None
        if len(cards) > 2:
            raise MalformedChoiceError(
                text, "take one card, or two with chopsticks: for example w2 or t+w2",
                ChoiceProblem.TOO_MANY_CARDS,
            )
        return cls(cards, dummy)

    @property
    def uses_chopsticks(self) -> bool:
        return len(self.cards) == 2

    def __str__(self) -> str:
        text = "+".join(short_code(c) for c in self.cards)
        if self.dummy is not None:
            text += "/" + short_code(self.dummy)
        return text

    def __repr__(self) -> str:
        return f"Choice.parse({str(self)!r})"


def _split_codes(text: str) -> list[str]:
    """One code or name, or two short codes side by side (``t w2``)."""
    words = text.split()
    if len(words) == 2:
        try:
            parse(words[0])
            parse(words[1])
        except UnknownCodeError:
            return [text]
        return words
    return [text]


class ChoiceProblem(enum.Enum):
    """Why a choice cannot be taken (the narration words each one)."""

    UNKNOWN_CARD = "unknown-card"
    TOO_MANY_CARDS = "too-many-cards"
    NOT_CONTROLLER = "not-controller"
    GIVE_THE_DUMMY = "give-the-dummy"
    NO_CHOPSTICKS = "no-chopsticks"
    TOO_FEW_FOR_CHOPSTICKS = "too-few-for-chopsticks"
    NOT_IN_HAND = "not-in-hand"
    DUMMY_DOES_NOT_CHOOSE = "dummy-does-not-choose"


class ChoiceError(ValueError):
    """A choice that cannot be taken; ``reason`` says why in English,
    ``problem`` (with ``card``, ``have``, ``need`` and ``refusal`` where they
    apply) says it for the narration."""

    def __init__(
        self,
        text: str,
        reason: str,
        problem: ChoiceProblem = ChoiceProblem.TOO_MANY_CARDS,
        *,
        card: Card | None = None,
        have: int = 0,
        need: int = 0,
        refusal: UnknownCodeError | None = None,
    ) -> None:
        self.text = text
        self.reason = reason
        self.problem = problem
        self.card = card
        self.have = have
        self.need = need
        self.refusal = refusal
        super().__init__(f"{text!r}: {reason}")


class MalformedChoiceError(ChoiceError):
    """The choice does not say what to take (bad code, too many cards)."""


class IllegalChoiceError(ChoiceError):
    """A well-formed choice the rules do not allow now."""


class GameOverError(RuntimeError):
    """The game has ended: nobody chooses any more."""


# -- legal choices --------------------------------------------------------------


def _fits(hand: Sequence[int], cards: Sequence[int]) -> bool:
    """Whether the hand holds all these cards (repeats need repeated copies)."""
    return all(hand.count(c) >= cards.count(c) for c in cards)


def _random_kind(hand: list[int], r: Callable[[], float]) -> int:
    """A kind of card in the hand, each kind equally likely: a random card,
    kept with probability 1 / (copies of it in the hand)."""
    n = len(hand)
    while True:
        card = hand[int(r() * n)]
        copies = hand.count(card)
        if copies == 1 or r() * copies < 1:
            return card


def _random_cards(hand: list[int], chopsticks: bool, r: Callable[[], float]) -> tuple[int, ...]:
    """Uniform among the legal choices of a hand: its kinds, and with
    chopsticks every ordered pair of cards it can give."""
    if chopsticks and len(hand) > 1:
        kinds = set(hand)
        k = len(kinds)
        ones = sum(1 for kind in kinds if hand.count(kind) == 1)
        if r() * (k + k * k - ones) >= k:
            while True:
                a = _random_kind(hand, r)
                b = _random_kind(hand, r)
                if a != b or hand.count(a) > 1:
                    return (a, b)
    return (_random_kind(hand, r),)


class Choices:
    """The legal choices of one seat: iterate, count, test with ``in``.

    Cards of the same kind make one choice. With chopsticks, every ordered
    pair of cards in the hand is a choice too; the dummy's controller adds a
    card for the dummy to each.
    """

    __slots__ = ("_chopsticks", "_dummy", "_hand")

    def __init__(self, hand: Sequence[Card], *, chopsticks: bool, dummy: bool) -> None:
        self._hand = [card.index for card in hand]
        self._chopsticks = chopsticks and len(hand) >= 2 + dummy
        self._dummy = dummy

    @property
    def chopsticks(self) -> bool:
        """Whether chopsticks can be used this turn."""
        return self._chopsticks

    @property
    def dummy(self) -> bool:
        """Whether the seat gives the dummy a card too (it controls the dummy)."""
        return self._dummy

    @property
    def most(self) -> int:
        """The most cards a choice takes, the dummy's included.

        >>> Choices([Card.EGG, Card.SQUID, Card.TEMPURA], chopsticks=True, dummy=True).most
        3
        """
        return 1 + self._chopsticks + self._dummy

    def of(self, groups: Sequence[Sequence[Card]]) -> Choice:
        """The choice cards given in groups make: ``(own, dummy's)`` apart (as
        typed ``w2/o3``); or in one group, where the last card is the dummy's
        when the seat gives the dummy one (a pick scanned card by card).
        Checking it is :meth:`Game.check`'s work.

        >>> choices = Choices([Card.EGG, Card.SQUID], chopsticks=False, dummy=True)
        >>> choices.of([[Card.EGG, Card.SQUID]])
        Choice.parse('w1/w3')
        """
        if len(groups) > 1:
            if len(groups) > 2 or len(groups[1]) != 1:
                text = "/".join("+".join(short_code(c) for c in group) for group in groups)
                raise MalformedChoiceError(
                    text, "take one card, or two with chopsticks, and one for the dummy: "
                    "for example w2/o3", ChoiceProblem.TOO_MANY_CARDS)
            return Choice(tuple(groups[0]), groups[1][0])
        cards = tuple(groups[0]) if groups else ()
        if self._dummy and len(cards) > 1:
            return Choice(cards[:-1], cards[-1])
        return Choice(cards)

    def __contains__(self, item: object) -> bool:
        if not isinstance(item, Choice) or (item.dummy is not None) != self._dummy:
            return False
        if not 1 <= len(item.cards) <= 1 + self._chopsticks:
            return False
        taken = [c.index for c in item.cards]
        if item.dummy is not None:
            taken.append(item.dummy.index)
        return _fits(self._hand, taken)

    def __iter__(self) -> Iterator[Choice]:
        kinds = sorted(set(self._hand))
        widths = (1, 2) if self._chopsticks else (1,)
        for width in widths:
            for picked in _products(kinds, width + self._dummy):
                if _fits(self._hand, picked):
                    cards = tuple(CARDS[i] for i in picked)
                    if self._dummy:
                        yield Choice(cards[:-1], cards[-1])
                    else:
                        yield Choice(cards)

    def __len__(self) -> int:
        counts = Counter(self._hand)
        k = len(counts)
        ones = sum(1 for n in counts.values() if n == 1)
        twos = sum(1 for n in counts.values() if n == 2)
        pairs = k * k - ones
        if not self._dummy:
            return k + (pairs if self._chopsticks else 0)
        triples = k**3 - 3 * ones * (k - 1) - ones - twos
        return pairs + (triples if self._chopsticks else 0)

    def sample(self, rng: random.Random) -> Choice:
        """One legal choice, uniformly at random."""
        if not self._dummy:
            picked = _random_cards(self._hand, self._chopsticks, rng.random)
            return Choice(tuple(CARDS[i] for i in picked))
        # The controller: widths in proportion to their counts, then kinds
        # drawn until the hand can give them.
        kinds = sorted(set(self._hand))
        narrow = len(kinds) ** 2 - sum(1 for k in kinds if self._hand.count(k) == 1)
        wide = self._chopsticks and rng.randrange(len(self)) >= narrow
        while True:
            drawn = [rng.choice(kinds) for _ in range(2 + wide)]
            if _fits(self._hand, drawn):
                cards = tuple(CARDS[i] for i in drawn)
                return Choice(cards[:-1], cards[-1])

    def __repr__(self) -> str:
        return f"<Choices {len(self)}: {' '.join(str(c) for c in self)}>"


def _products(kinds: Sequence[int], width: int) -> Iterator[tuple[int, ...]]:
    if width == 0:
        yield ()
        return
    for first in kinds:
        for rest in _products(kinds, width - 1):
            yield (first, *rest)


# -- events -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Revealed:
    """The cards every seat laid down this turn (the dummy's included)."""

    round: int
    turn: int
    cards: tuple[tuple[Card, ...], ...]
    chopsticks: tuple[bool, ...]
    automatic: bool


@dataclass(frozen=True, slots=True)
class RoundScored:
    round: int
    scores: tuple[SeatScore, ...]


@dataclass(frozen=True, slots=True)
class GameEnded:
    score: GameScore


Event = Revealed | RoundScored | GameEnded


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat may know: never another seat's hidden hand.

    ``held`` lists the hands this seat has held this round, oldest first,
    with the turn it held each. ``hand_sizes`` counts every hand (the dummy's
    face-down pile included); ``chosen`` says who has chosen this turn.
    """

    seat: int
    seats: int
    round: int
    turn: int
    hand: tuple[Card, ...]
    tables: tuple[tuple[Card, ...], ...]
    puddings: tuple[int, ...]
    held: tuple[tuple[int, tuple[Card, ...]], ...]
    round_scores: tuple[tuple[int, ...], ...]
    direction: Direction
    dummy: int | None
    controller: int | None
    hand_sizes: tuple[int, ...]
    draw_pile: int
    chosen: tuple[bool, ...]
    over: bool
    variant: Variant
    reveals: tuple[Revealed, ...] = ()
    finished_rounds: tuple[tuple[tuple[Card, ...], ...], ...] = ()


@cache
def _deck(soy_sauce: int) -> tuple[int, ...]:
    return tuple(card.index for card in new_deck(soy_sauce))


def _cards(indexes: Sequence[int]) -> tuple[Card, ...]:
    return tuple(CARDS[i] for i in indexes)


class Game:
    """A game with every card known, from a seeded shuffle.

    ``players`` is 2 to 5. With ``Variant(dummy=True)`` there must be 2
    players; a third seat, the dummy, is added (seat 2). The players take
    turns controlling the dummy, ``first_controller`` first, and the turns
    go on alternating from one round to the next.

    ``deck`` stacks the deck instead of shuffling it (for lessons, puzzles
    and tests): the whole deck of the variant, top card last. Hands are
    dealt from the top, seat 0 first, each hand in deck order from the top.
    """

    def __init__(
        self,
        players: int,
        *,
        rng: random.Random | None = None,
        variant: Variant = Variant(),
        first_controller: int = 0,
        deck: Sequence[Card] | None = None,
    ) -> None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Sushi Go! is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
        if variant.dummy and players != 2:
            raise ValueError("the dummy variant is for 2 players")
        if first_controller not in (0, 1):
            raise ValueError("the first controller of the dummy is seat 0 or 1")
        self.variant = variant
        self.players = players
        self.seats = players + variant.dummy
        self.dummy: int | None = 2 if variant.dummy else None
        self._hand_size = hand_size(self.seats)
        if deck is not None:
            stacked = [card.index for card in deck]
            if sorted(stacked) != sorted(_deck(variant.soy_sauce)):
                raise ValueError("a stacked deck must hold exactly the cards of the variant's deck")
            self._pile = stacked
        elif rng is None:
            raise ValueError("give a random generator to shuffle with, or a stacked deck")
        else:
            r = rng.random
            pile = list(_deck(variant.soy_sauce))
            pile.sort(key=lambda _: r())  # a uniform shuffle, quicker than rng.shuffle
            self._pile = pile
        self.round = 0
        self.turn = 0
        self._dummy_turns = first_controller
        self._hands: list[list[int]] = []
        self._tables: list[list[int]] = []
        self._pending: list[tuple[int, ...] | None] = []
        self._dummy_pick: int | None = None
        self._held: list[list[tuple[int, tuple[int, ...]]]] = []
        self._reveals: list[Revealed] = []
        self._round_tables: list[list[list[int]]] = []
        self._round_points: list[list[int]] = []
        self._puddings = [0] * self.seats
        self._totals: tuple[int, ...] | None = None
        self._start_round()

    @classmethod
    def restore(cls, view: SeatView, hands: list[list[int]], pile: list[int]) -> Game:
        """The game of ``view`` at the same moment, with these hands and draw
        pile (card numbers; the dummy's pile is its hand, top last). Nobody
        but the seats with one card left has chosen. Used to play out worlds
        a seat cannot tell apart (see :mod:`companion.games.sushigo.knowledge`)."""
        if view.over:
            raise GameOverError("the game is over")
        game = cls.__new__(cls)
        game.variant = view.variant
        game.seats = view.seats
        game.dummy = view.dummy
        game.players = view.seats - (view.dummy is not None)
        game._hand_size = hand_size(view.seats)
        game._pile = list(pile)
        game.round = view.round
        game.turn = view.turn
        game._dummy_turns = view.controller or 0
        game._hands = [list(h) for h in hands]
        game._tables = [[c.index for c in t] for t in view.tables]
        game._pending = [None] * view.seats
        game._dummy_pick = None
        game._held = [[] for _ in range(view.seats)]
        game._held[view.seat] = [(t, tuple(c.index for c in h)) for t, h in view.held]
        game._reveals = list(view.reveals)
        game._round_tables = [[[c.index for c in t] for t in r] for r in view.finished_rounds]
        game._round_points = [list(r) for r in view.round_scores]
        game._puddings = list(view.puddings)
        game._totals = None
        if game.dummy is not None:
            game._pending[game.dummy] = ()
        for seat, hand in enumerate(game._hands):
            if seat != game.dummy and len(hand) == 1:
                game._pending[seat] = (hand[0],)
        return game

    # -- what anyone may see ---------------------------------------------------

    @property
    def over(self) -> bool:
        return self._totals is not None

    @property
    def direction(self) -> Direction:
        return self.variant.direction(self.round)

    @property
    def controller(self) -> int | None:
        """The player who controls the dummy this turn (dummy variant only)."""
        if self.dummy is None or self.over:
            return None
        return self._dummy_turns % 2

    def table(self, seat: int) -> tuple[Card, ...]:
        """A seat's cards this round, in the order they were laid down."""
        return _cards(self._tables[seat])

    def hand(self, seat: int) -> tuple[Card, ...]:
        """A seat's hand (the dummy's is its face-down pile). Hidden information."""
        return _cards(self._hands[seat])

    def draw_pile(self) -> tuple[Card, ...]:
        """The undealt cards, top last. Hidden information."""
        return _cards(self._pile)

    def waiting_for(self) -> tuple[int, ...]:
        """Seats that still have to choose this turn."""
        if self.over:
            return ()
        return tuple(
            s for s in range(self.seats) if s != self.dummy and self._pending[s] is None
        )

    def all_cards(self) -> Counter[Card]:
        """Every card the game holds, wherever it lies: draw pile, hands,
        tables and the tables of finished rounds (a card chosen this turn is
        still in its hand until everyone has chosen). Always the whole deck."""
        seen: Counter[Card] = Counter(self.draw_pile())
        for seat in range(self.seats):
            seen.update(self.hand(seat))
            if not self.over:
                seen.update(self.table(seat))
        for tables in self.finished_rounds:
            for table in tables:
                seen.update(table)
        return seen

    def race(self) -> Race:
        """The maki race of this round and the puddings kept so far."""
        return Race.of([self.table(seat) for seat in range(self.seats)], self._puddings)

    @property
    def finished_rounds(self) -> tuple[tuple[tuple[Card, ...], ...], ...]:
        """The tableaux of every scored round, seat by seat, in play order."""
        return tuple(tuple(_cards(t) for t in r) for r in self._round_tables)

    def result(self) -> GameScore:
        """The score so far with its breakdown; complete once the game is over."""
        if not self._round_tables:
            raise ValueError("no round has been scored yet")
        tables = [[_cards(t) for t in r] for r in self._round_tables]
        return score_game(tables, dummy=self.dummy)

    @property
    def totals(self) -> tuple[int, ...]:
        """Points of every seat so far (with puddings once the game is over)."""
        if self._totals is not None:
            return self._totals
        return tuple(sum(r[s] for r in self._round_points) for s in range(self.seats))

    @property
    def live_totals(self) -> tuple[int, ...]:
        """Points of every seat with this round's tables scored as they stand
        (the same as :attr:`totals` once the game is over)."""
        if self.over:
            return self.totals
        now = score_round([self.table(seat) for seat in range(self.seats)])
        return tuple(total + score.points for total, score in zip(self.totals, now, strict=True))

    def view(self, seat: int) -> SeatView:
        """Everything ``seat`` may know, and nothing more."""
        if not 0 <= seat < self.seats or seat == self.dummy:
            raise ValueError(f"seat {seat} is not a player's seat")
        return SeatView(
            seat=seat,
            seats=self.seats,
            round=self.round,
            turn=self.turn,
            hand=_cards(self._hands[seat]),
            tables=tuple(_cards(t) for t in self._tables),
            puddings=tuple(self._puddings),
            held=tuple((turn, _cards(h)) for turn, h in self._held[seat]),
            round_scores=tuple(tuple(r) for r in self._round_points),
            direction=self.direction,
            dummy=self.dummy,
            controller=self.controller,
            hand_sizes=tuple(len(h) for h in self._hands),
            draw_pile=len(self._pile),
            chosen=tuple(p is not None for p in self._pending),
            over=self.over,
            variant=self.variant,
            reveals=tuple(self._reveals),
            finished_rounds=self.finished_rounds,
        )

    # -- choosing --------------------------------------------------------------

    def legal_choices(self, seat: int) -> Choices:
        self._check_seat(seat)
        chopsticks = I_CHOPSTICKS in self._tables[seat]
        return Choices(self.hand(seat), chopsticks=chopsticks, dummy=seat == self.controller)

    def choose(self, seat: int, choice: Choice | str) -> tuple[Event, ...]:
        """Record a seat's choice; once every seat has chosen, reveal and pass.

        A seat may change its choice until the reveal. Returns the events of
        the reveal (and of the end of a round or the game) when it happened.
        """
        choice = self.check(seat, choice)
        self._pending[seat] = tuple(c.index for c in choice.cards)
        if choice.dummy is not None:
            self._dummy_pick = choice.dummy.index
        events: list[Event] = []
        while not self.over and None not in self._pending:
            events.extend(self._reveal())
        return tuple(events)

    def check(self, seat: int, choice: Choice | str) -> Choice:
        """The choice, read and checked against the rules, without taking it.

        Raises :class:`MalformedChoiceError` or :class:`IllegalChoiceError`
        (or :class:`GameOverError`) with the reason, and changes nothing.
        """
        self._check_seat(seat)
        if isinstance(choice, str):
            choice = Choice.parse(choice)
        self._check_legal(seat, choice)
        return choice

    def _check_seat(self, seat: int) -> None:
        if self.over:
            raise GameOverError("the game is over")
        if not 0 <= seat < self.seats:
            raise ValueError(f"there is no seat {seat}")
        if seat == self.dummy:
            raise IllegalChoiceError(
                "dummy", "the dummy does not choose: its controller picks for it",
                ChoiceProblem.DUMMY_DOES_NOT_CHOOSE,
            )

    def _check_legal(self, seat: int, choice: Choice) -> None:
        hand = self._hands[seat]
        text = str(choice)
        if not 1 <= len(choice.cards) <= 2:
            raise MalformedChoiceError(
                text, "take one card, or two with chopsticks", ChoiceProblem.TOO_MANY_CARDS
            )
        if choice.dummy is not None and seat != self.controller:
            raise IllegalChoiceError(
                text, "you do not control the dummy this turn", ChoiceProblem.NOT_CONTROLLER
            )
        if choice.dummy is None and seat == self.controller:
            raise IllegalChoiceError(
                text, "you control the dummy: also take a card for it, as in w2/o3",
                ChoiceProblem.GIVE_THE_DUMMY,
            )
        if choice.uses_chopsticks:
            if I_CHOPSTICKS not in self._tables[seat]:
                raise IllegalChoiceError(
                    text, "you have no chopsticks on your table", ChoiceProblem.NO_CHOPSTICKS
                )
            need = 2 + (choice.dummy is not None)
            if len(hand) < need:
                words = "three cards in your hand (two for you, one for the dummy)"
                raise IllegalChoiceError(
                    text, f"chopsticks need {'two cards in your hand' if need == 2 else words}",
                    ChoiceProblem.TOO_FEW_FOR_CHOPSTICKS, need=need,
                )
        taken = list(choice.cards) + ([choice.dummy] if choice.dummy is not None else [])
        for card in dict.fromkeys(taken):
            have = hand.count(card.index)
            if have < taken.count(card):
                reason = (
                    f"your hand has no {card.id}"
                    if have == 0
                    else f"your hand has only {have} {card.id}"
                )
                raise IllegalChoiceError(
                    text, reason, ChoiceProblem.NOT_IN_HAND, card=card, have=have
                )

    # -- the turn --------------------------------------------------------------

    def _start_round(self) -> None:
        self.round += 1
        self.turn = 0
        n = self._hand_size
        pile = self._pile
        self._hands = []
        for _ in range(self.seats):
            self._hands.append(pile[: -n - 1 : -1])
            del pile[-n:]
        self._held = [[] for _ in range(self.seats)]
        self._tables = [[] for _ in range(self.seats)]
        self._reveals = []
        self._start_turn()

    def _start_turn(self) -> None:
        self.turn += 1
        self._pending = [None] * self.seats
        self._dummy_pick = None
        if self.dummy is not None:
            self._pending[self.dummy] = ()
            self._hands[self._dummy_turns % 2].append(self._hands[self.dummy].pop())
        for seat in range(self.seats):
            if seat != self.dummy:
                hand = self._hands[seat]
                self._held[seat].append((self.turn, tuple(hand)))
                if len(hand) == 1:
                    self._pending[seat] = (hand[0],)

    def _lay_pending(self) -> list[tuple[int, ...]]:
        """Lay every seat's chosen cards (and the dummy's); what each laid."""
        laid: list[tuple[int, ...]] = []
        for seat, cards in enumerate(self._pending):
            assert cards is not None
            _lay(self._hands[seat], self._tables[seat], cards)
            laid.append(cards)
        if self.dummy is not None and self._dummy_pick is not None:
            self._hands[self._dummy_turns % 2].remove(self._dummy_pick)
            self._tables[self.dummy].append(self._dummy_pick)
            laid[self.dummy] = (self._dummy_pick,)
        return laid

    def _reveal(self) -> list[Event]:
        automatic = all(len(h) == 1 for s, h in enumerate(self._hands) if s != self.dummy)
        laid = self._lay_pending()
        revealed = Revealed(
            self.round,
            self.turn,
            tuple(_cards(c) for c in laid),
            tuple(len(c) == 2 for c in laid),
            automatic,
        )
        self._reveals.append(revealed)
        events: list[Event] = [revealed]
        self._pass_hands()
        if any(self._hands):
            self._start_turn()
            return events
        number = self.round
        scores = score_round([_cards(t) for t in self._tables])
        self._finish_round([s.points for s in scores])
        events.append(RoundScored(number, scores))
        if self.over:
            events.append(GameEnded(self.result()))
        return events

    def _pass_hands(self) -> None:
        hands = self._hands
        if self.dummy is not None:
            hands[0], hands[1] = hands[1], hands[0]
            self._dummy_turns += 1
        elif self.direction is Direction.LEFT:
            # Seat i passes to seat i + 1: seat i now holds what i - 1 held.
            hands.insert(0, hands.pop())
        else:
            hands.append(hands.pop(0))

    def _finish_round(self, points: list[int]) -> None:
        """Keep the round's tables and points and the puddings; deal again or end."""
        self._round_tables.append(self._tables)
        self._round_points.append(points)
        for seat, table in enumerate(self._tables):
            self._puddings[seat] += table.count(I_PUDDING)
        if self.round < ROUNDS:
            self._start_round()
            return
        pudding = pudding_places(self._puddings, penalty=self.seats > 2)
        self._totals = tuple(
            sum(r[s] for r in self._round_points) + pudding[s][2] for s in range(self.seats)
        )

    @property
    def winners(self) -> tuple[int, ...]:
        """The winners after tie-breaks (the leaders while the game goes on)."""
        return winners(self.totals, self._puddings, dummy=self.dummy)

    # -- whole games at speed --------------------------------------------------

    def copy(self) -> Game:
        """An independent copy, to play a line out without touching this game."""
        twin = Game.__new__(Game)
        twin.__dict__.update(self.__dict__)
        twin._pile = list(self._pile)
        twin._hands = [list(h) for h in self._hands]
        twin._tables = [list(t) for t in self._tables]
        twin._pending = list(self._pending)
        twin._held = [list(h) for h in self._held]
        twin._reveals = list(self._reveals)
        twin._round_tables = list(self._round_tables)
        twin._round_points = list(self._round_points)
        twin._puddings = list(self._puddings)
        return twin

    def play_round(self, policy: Callable[[Game, int], tuple[int, ...]]) -> None:
        """Play to the end of this round, ``policy`` giving the card numbers
        of every seat that has not chosen. The dummy's controller gives the
        dummy ``dummy_pick`` if set, else the first card left in hand.
        No events, no breakdowns: the look-ahead's fast path."""
        number = self.round
        while not self.over and self.round == number:
            pending = self._pending
            for seat in range(self.seats):
                if pending[seat] is None:
                    pending[seat] = policy(self, seat)
            if self.dummy is not None and self._dummy_pick is None:
                controller = self._dummy_turns % 2
                rest = list(self._hands[controller])
                own = pending[controller] or ()
                if len(own) >= len(rest):  # keep a card back for the dummy
                    own = pending[controller] = own[:1]
                for card in own:
                    rest.remove(card)
                self._dummy_pick = rest[0]
            self._lay_pending()
            self._pass_hands()
            if any(self._hands):
                self._start_turn()
            else:
                self._finish_round(round_points([tally(t) for t in self._tables]))

    def play_random(self, rng: random.Random) -> tuple[int, ...]:
        """Play to the end, every seat choosing uniformly among its legal
        choices (choices already made this turn stand). Returns the totals.

        This is the fast path for simulations and the advisor: no events, no
        breakdowns, the same rules.
        """
        # A turn already under way, and the dummy variant, go through choose().
        while not self.over and (
            self.dummy is not None or any(p is not None for p in self._pending)
        ):
            for seat in self.waiting_for():
                self.choose(seat, self.legal_choices(seat).sample(rng))
        r = rng.random
        seats = range(self.seats)
        chopsticks = I_CHOPSTICKS
        while not self.over:
            hands, tables = self._hands, self._tables
            to_the_right = self.direction is Direction.RIGHT
            turns = len(hands[0]) - 1
            for _ in range(turns):
                for seat in seats:
                    hand = hands[seat]
                    table = tables[seat]
                    if chopsticks in table and len(hand) > 1:
                        _lay(hand, table, _random_cards(hand, True, r))
                        continue
                    # The hot path of every simulation: _random_kind and _lay
                    # written out (a test checks it plays exactly as they do).
                    n = len(hand)
                    while True:
                        card = hand[int(r() * n)]
                        copies = hand.count(card)
                        if copies == 1 or r() * copies < 1:
                            break
                    hand.remove(card)
                    table.append(card)
                if to_the_right:
                    hands.append(hands.pop(0))
                else:
                    hands.insert(0, hands.pop())
            self.turn += turns
            for seat in seats:
                tables[seat].append(hands[seat].pop())
            self._finish_round(round_points([tally(t) for t in tables]))
        return self.totals


def _lay(hand: list[int], table: list[int], cards: tuple[int, ...]) -> None:
    """Move the chosen cards from hand to table, in order; chopsticks used for
    two cards go from the table back into the hand that is passed on."""
    for card in cards:
        hand.remove(card)
        table.append(card)
    if len(cards) == 2:
        table.remove(I_CHOPSTICKS)
        hand.append(I_CHOPSTICKS)
