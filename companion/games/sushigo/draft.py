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
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import cast

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
    #: The own cards as card numbers (-1 for anything that is not a card),
    #: so that the game checks and takes a choice without converting it.
    _numbers: tuple[int, ...] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_numbers", tuple(_NUMBER.get(c, -1) for c in self.cards))

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


#: Card numbers by card (a dictionary lookup, quicker than ``Card.index``).
_NUMBER: dict[object, int] = {card: card.index for card in CARDS}

#: The choices without a card for the dummy, made once: ``_CHOICE[(2,)]``.
_CHOICE: dict[tuple[int, ...], Choice] = {}


#: The choices of one card, by card number, made once.
_SINGLE: tuple[Choice, ...] = tuple(Choice((card,)) for card in CARDS)


def _choice(numbers: tuple[int, ...]) -> Choice:
    """The choice of these card numbers (no card for the dummy), made once
    and shared: choices are immutable.

    >>> _choice((Card.SQUID.index,)) is _choice((Card.SQUID.index,))
    True
    """
    choice = _CHOICE.get(numbers)
    if choice is None:
        choice = _CHOICE[numbers] = Choice(tuple(CARDS[i] for i in numbers))
    return choice


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
    """Whether the hand holds all these cards (repeats need repeated copies).

    >>> _fits([1, 2, 2], [2, 2]), _fits([1, 2], [2, 2]), _fits([1, 2], [1, -1])
    (True, False, False)
    """
    if len(cards) == 2:
        first, second = cards
        if first == second:
            return hand.count(first) >= 2
        return first in hand and second in hand
    return all(hand.count(c) >= cards.count(c) for c in cards)


def _random_kind(hand: Sequence[int], r: Callable[[], float]) -> int:
    """A kind of card in the hand, each kind equally likely: a random card,
    kept with probability 1 / (copies of it in the hand)."""
    n = len(hand)
    while True:
        card = hand[int(r() * n)]
        copies = hand.count(card)
        if copies == 1 or r() * copies < 1:
            return card


def _random_cards(
    hand: Sequence[int], chopsticks: bool, r: Callable[[], float]
) -> tuple[int, ...]:
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
        self._hand: Sequence[int] = tuple(card.index for card in hand)
        self._chopsticks = chopsticks and len(hand) >= 2 + dummy
        self._dummy = dummy

    @classmethod
    def _of_numbers(cls, hand: Sequence[int], *, chopsticks: bool, dummy: bool) -> Choices:
        """The choices of a hand of card numbers (the game's quick way)."""
        choices = cls.__new__(cls)
        choices._hand = hand
        choices._chopsticks = chopsticks and len(hand) >= 2 + dummy
        choices._dummy = dummy
        return choices

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
                    if self._dummy:
                        cards = tuple(CARDS[i] for i in picked)
                        yield Choice(cards[:-1], cards[-1])
                    else:
                        yield _choice(picked)

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
        return uniform_choice(None, self, rng)

    def _sample_for_the_dummy(self, rng: random.Random) -> Choice:
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


def uniform_choice(view: object, choices: Choices, rng: random.Random) -> Choice:
    """One of ``choices``, uniformly at random, whatever the view: what
    :meth:`Choices.sample` gives, and how the random bot chooses.

    >>> import random
    >>> choices = Choices([Card.EGG, Card.EGG, Card.SQUID], chopsticks=False, dummy=False)
    >>> uniform_choice(None, choices, random.Random(1)) in choices
    True
    """
    if choices._chopsticks:
        if not choices._dummy:
            return _choice(_random_cards(choices._hand, True, rng.random))
    elif not choices._dummy:
        # The hot path of simulations: _random_kind written out (the same
        # draws), and a choice made once.
        hand = choices._hand
        n = len(hand)
        while True:
            card = hand[int(rng.random() * n)]
            copies = hand.count(card)
            if copies == 1 or rng.random() * copies < 1:
                return _SINGLE[card]
    return choices._sample_for_the_dummy(rng)


def _products(kinds: Sequence[int], width: int) -> Iterator[tuple[int, ...]]:
    if width == 0:
        yield ()
        return
    for first in kinds:
        for rest in _products(kinds, width - 1):
            yield (first, *rest)


# -- events -------------------------------------------------------------------


class Revealed:
    """The cards every seat laid down this turn (the dummy's included).

    Immutable. The game keeps the card numbers and makes the cards the
    first time they are asked for: simulations seldom ask.

    >>> Revealed(1, 2, ((Card.EGG,), (Card.SQUID, Card.WASABI)), (False, True), False)
    Revealed(round=1, turn=2, cards=((Card.EGG,), (Card.SQUID, Card.WASABI)), \
chopsticks=(False, True), automatic=False)
    """

    __slots__ = ("_automatic", "_cards", "_laid", "_round", "_turn")

    def __init__(
        self,
        round: int,
        turn: int,
        cards: tuple[tuple[Card, ...], ...],
        chopsticks: tuple[bool, ...],
        automatic: bool,
    ) -> None:
        del chopsticks  # two cards laid: chopsticks used
        self._round = round
        self._turn = turn
        self._laid = tuple(tuple(_NUMBER[c] for c in laid) for laid in cards)
        self._cards: tuple[tuple[Card, ...], ...] | None = tuple(cards)
        self._automatic = automatic

    @classmethod
    def _of_numbers(
        cls, round_: int, turn: int, laid: tuple[tuple[int, ...], ...], automatic: bool
    ) -> Revealed:
        revealed = cls.__new__(cls)
        revealed._round = round_
        revealed._turn = turn
        revealed._laid = laid
        revealed._cards = None
        revealed._automatic = automatic
        return revealed

    @property
    def round(self) -> int:
        return self._round

    @property
    def turn(self) -> int:
        return self._turn

    @property
    def cards(self) -> tuple[tuple[Card, ...], ...]:
        """What each seat laid, in seat order."""
        if self._cards is None:
            self._cards = tuple(_cards(laid) for laid in self._laid)
        return self._cards

    @property
    def chopsticks(self) -> tuple[bool, ...]:
        """Which seats used chopsticks (laid two cards)."""
        return tuple(len(laid) == 2 for laid in self._laid)

    @property
    def automatic(self) -> bool:
        """Whether it was the last card of every hand, laid by itself."""
        return self._automatic

    def _key(self) -> tuple[object, ...]:
        return (self._round, self._turn, self._laid, self._automatic)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Revealed) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Revealed(round={self.round!r}, turn={self.turn!r}, cards={self.cards!r},"
                f" chopsticks={self.chopsticks!r}, automatic={self.automatic!r})")


class RoundScored:
    """A round is over: every seat's points for it, with the breakdown.

    Immutable. The breakdown is worked out the first time it is asked for.
    """

    __slots__ = ("_round", "_scores", "_tables")

    def __init__(self, round: int, scores: tuple[SeatScore, ...]) -> None:
        self._round = round
        self._scores: tuple[SeatScore, ...] | None = scores
        self._tables: Sequence[Sequence[int]] = ()

    @classmethod
    def _of_tables(cls, round_: int, tables: Sequence[Sequence[int]]) -> RoundScored:
        """The round scored from its tableaux (card numbers), when asked."""
        scored = cls.__new__(cls)
        scored._round = round_
        scored._scores = None
        scored._tables = tables
        return scored

    @property
    def round(self) -> int:
        return self._round

    @property
    def scores(self) -> tuple[SeatScore, ...]:
        if self._scores is None:
            self._scores = score_round([_cards(t) for t in self._tables])
        return self._scores

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, RoundScored) and self.round == other.round
                and self.scores == other.scores)

    def __hash__(self) -> int:
        return hash((self.round, self.scores))

    def __repr__(self) -> str:
        return f"RoundScored(round={self.round!r}, scores={self.scores!r})"


class GameEnded:
    """The game is over: the whole score with its breakdown.

    Immutable. The breakdown is worked out the first time it is asked for.
    """

    __slots__ = ("_dummy", "_rounds", "_score")

    def __init__(self, score: GameScore) -> None:
        self._score: GameScore | None = score
        self._rounds: Sequence[Sequence[Sequence[int]]] = ()
        self._dummy: int | None = None

    @classmethod
    def _of_rounds(
        cls, rounds: Sequence[Sequence[Sequence[int]]], dummy: int | None
    ) -> GameEnded:
        """The game scored from its rounds' tableaux (card numbers), when asked."""
        ended = cls.__new__(cls)
        ended._score = None
        ended._rounds = rounds
        ended._dummy = dummy
        return ended

    @property
    def score(self) -> GameScore:
        if self._score is None:
            tables = [[_cards(t) for t in r] for r in self._rounds]
            self._score = score_game(tables, dummy=self._dummy)
        return self._score

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameEnded) and self.score == other.score

    def __hash__(self) -> int:
        return hash(self.score)

    def __repr__(self) -> str:
        return f"GameEnded(score={self.score!r})"


Event = Revealed | RoundScored | GameEnded

#: A reveal as simulations keep it (no dummy): the cards laid, seat by seat.
#: Its turn is its place in the round's reveals; the last turn is automatic.
_RawReveal = tuple[tuple[int, ...], ...]

#: How a bot decides for a seat: from the seat's view and legal choices.
Decider = Callable[["SeatView", "Choices", random.Random], "Choice"]


class _Public:
    """What everyone at the table may know at one moment of a turn, as card
    numbers: taken once a turn and shared by the seats' views (who has
    chosen aside). Nothing hidden goes in here."""

    __slots__ = (
        "cards",
        "controller",
        "direction",
        "draw_pile",
        "dummy",
        "finished",
        "finished_rounds",
        "hand_sizes",
        "over",
        "puddings",
        "reveals",
        "round",
        "round_scores",
        "seats",
        "tables",
        "turn",
        "variant",
    )

    def __init__(self, game: Game) -> None:
        self.seats = game.seats
        self.round = game.round
        self.turn = game.turn
        self.cards = tuple(map(tuple, game._tables))
        self.tables: tuple[tuple[Card, ...], ...] | None = None
        self.puddings = tuple(game._puddings)
        self.round_scores = tuple(map(tuple, game._round_points))
        self.direction = game.direction
        self.dummy = game.dummy
        self.controller = game.controller
        self.hand_sizes = tuple(map(len, game._hands))
        self.draw_pile = len(game._pile)
        self.over = game.over
        self.variant = game.variant
        self.reveals = game._revealed()
        # The tables of a finished round never change again.
        self.finished = tuple(game._round_tables)
        self.finished_rounds: tuple[tuple[tuple[Card, ...], ...], ...] | None = None


class SeatView:
    """What one seat may know: never another seat's hidden hand.

    ``held`` lists the hands this seat has held this round, oldest first,
    with the turn it held each. ``hand_sizes`` counts every hand (the dummy's
    face-down pile included); ``chosen`` says who has chosen this turn.

    A view is the table as it was when the game gave it, and it never
    changes (the game may go on). It is made quickly and turns card numbers
    into cards only for what is read: a bot that looks at its hand alone
    pays for its hand alone.
    """

    __slots__ = ("_chosen", "_hand", "_held", "_numbers", "_pending", "_public", "_turns", "seat")

    #: The fields, in order (as ``repr`` and comparisons go through them).
    FIELDS = (
        "seat", "seats", "round", "turn", "hand", "tables", "puddings", "held",
        "round_scores", "direction", "dummy", "controller", "hand_sizes",
        "draw_pile", "chosen", "over", "variant", "reveals", "finished_rounds",
    )

    # Made by Game.view only. The cards of the hand, the held hands and who
    # has chosen are worked out when first read (_hand, _held, _chosen).
    _hand: tuple[Card, ...]
    _held: tuple[tuple[int, tuple[Card, ...]], ...]
    _chosen: tuple[bool, ...]

    def __init__(
        self,
        public: _Public,
        seat: int,
        hand: tuple[int, ...],
        held: tuple[tuple[int, ...], ...],
        pending: tuple[tuple[int, ...] | None, ...],
    ) -> None:
        self._public = public
        self.seat = seat
        self._numbers = hand
        self._turns = held
        self._pending = pending

    @property
    def seats(self) -> int:
        return self._public.seats

    @property
    def round(self) -> int:
        return self._public.round

    @property
    def turn(self) -> int:
        return self._public.turn

    @property
    def hand(self) -> tuple[Card, ...]:
        try:
            return self._hand
        except AttributeError:
            self._hand = _cards(self._numbers)
            return self._hand

    @property
    def hand_numbers(self) -> tuple[int, ...]:
        """The hand as card numbers (``Card.index``), for quick bots."""
        return self._numbers

    @property
    def tables(self) -> tuple[tuple[Card, ...], ...]:
        public = self._public
        if public.tables is None:
            public.tables = tuple(_cards(t) for t in public.cards)
        return public.tables

    @property
    def table_numbers(self) -> tuple[tuple[int, ...], ...]:
        """The tables as card numbers (``Card.index``), for quick bots."""
        return self._public.cards

    @property
    def puddings(self) -> tuple[int, ...]:
        return self._public.puddings

    @property
    def held(self) -> tuple[tuple[int, tuple[Card, ...]], ...]:
        try:
            return self._held
        except AttributeError:
            # The hands held from turn 1 on, one a turn.
            self._held = tuple((turn, _cards(hand)) for turn, hand in enumerate(self._turns, 1))
            return self._held

    @property
    def round_scores(self) -> tuple[tuple[int, ...], ...]:
        return self._public.round_scores

    @property
    def direction(self) -> Direction:
        return self._public.direction

    @property
    def dummy(self) -> int | None:
        return self._public.dummy

    @property
    def controller(self) -> int | None:
        return self._public.controller

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return self._public.hand_sizes

    @property
    def draw_pile(self) -> int:
        return self._public.draw_pile

    @property
    def chosen(self) -> tuple[bool, ...]:
        try:
            return self._chosen
        except AttributeError:
            self._chosen = tuple(p is not None for p in self._pending)
            return self._chosen

    @property
    def over(self) -> bool:
        return self._public.over

    @property
    def variant(self) -> Variant:
        return self._public.variant

    @property
    def reveals(self) -> tuple[Revealed, ...]:
        return self._public.reveals

    @property
    def finished_rounds(self) -> tuple[tuple[tuple[Card, ...], ...], ...]:
        public = self._public
        if public.finished_rounds is None:
            public.finished_rounds = tuple(
                tuple(_cards(t) for t in r) for r in public.finished)
        return public.finished_rounds

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.FIELDS)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SeatView):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS)
        return f"SeatView({fields})"


_new = object.__new__
#: Runs an iterator through, keeping nothing (what map does is the point).
_each: Callable[[Iterable[object]], None] = deque[object](maxlen=0).extend
_REMOVE = list.remove
_APPEND = list.append


class LiveSeatView(SeatView):
    """A seat's view that follows its game: every time it is read, it says
    what the seat may know then (a snapshot taken at the first read after
    each move). Made once a game by :meth:`Game.live_view`, so that
    simulations pay nothing for a view a bot does not read."""

    __slots__ = ("_game", "_stamp", "_view")

    def __init__(self, game: Game, seat: int) -> None:  # no snapshot of its own
        self._game = game
        self.seat = seat
        self._stamp = -1

    def _now(self) -> SeatView:
        game = self._game
        if self._stamp != game._moves:
            self._view = game.view(self.seat)
            self._stamp = game._moves
        return self._view


def _follow(name: str) -> property:
    return property(lambda live: getattr(live._now(), name), doc=f"``{name}`` now.")


for _name in (*SeatView.FIELDS, "hand_numbers", "table_numbers"):
    if _name != "seat":
        setattr(LiveSeatView, _name, _follow(_name))


@cache
def _deck(soy_sauce: int) -> tuple[int, ...]:
    return tuple(card.index for card in new_deck(soy_sauce))


def _cards(indexes: Sequence[int]) -> tuple[Card, ...]:
    return tuple(map(CARDS.__getitem__, indexes))


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
        #: The hands every seat held this round, one entry a turn from turn 1
        #: (the last: the hands now; the same cards, unchanging). The dummy's
        #: face-down pile is left out (``()``).
        self._held: list[tuple[tuple[int, ...], ...]] = []
        #: This round's reveals; simulations keep the card numbers
        #: (:data:`_RawReveal`), made into events when first read.
        self._reveals: list[Revealed | _RawReveal] = []
        self._round_tables: list[list[list[int]]] = []
        self._round_points: list[list[int]] = []
        self._puddings = [0] * self.seats
        self._totals: tuple[int, ...] | None = None
        #: What everyone may know this turn, taken when a view first asks.
        self._public: _Public | None = None
        #: Counts the moves (for live views).
        self._moves = 0
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
        game._held = [  # what the others held is not known
            tuple(tuple(c.index for c in h) if s == view.seat else () for s in range(view.seats))
            for _, h in view.held
        ]
        game._reveals = list(view.reveals)
        game._round_tables = [[[c.index for c in t] for t in r] for r in view.finished_rounds]
        game._round_points = [list(r) for r in view.round_scores]
        game._puddings = list(view.puddings)
        game._totals = None
        game._public = None
        game._moves = 0
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
        if self._totals is not None:
            return ()
        # The dummy's pending choice is always () (its controller picks for it).
        return tuple([seat for seat, cards in enumerate(self._pending) if cards is None])

    def _revealed(self) -> tuple[Revealed, ...]:
        """This round's reveals, every one made an event (once)."""
        reveals = self._reveals
        last = self._hand_size  # turns in a round with no dummy
        made = [item if isinstance(item, Revealed)
                else Revealed._of_numbers(self.round, turn, item, turn == last)
                for turn, item in enumerate(reveals, 1)]
        reveals[:] = made
        return tuple(made)

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
        """Everything ``seat`` may know, and nothing more: the table as it
        is now (the view does not change when the game goes on)."""
        if not 0 <= seat < self.seats or seat == self.dummy:
            raise ValueError(f"seat {seat} is not a player's seat")
        public = self._public
        if public is None:
            public = self._public = _Public(self)
        return SeatView(public, seat, tuple(self._hands[seat]),
                        tuple([hands[seat] for hands in self._held]), tuple(self._pending))

    # -- choosing --------------------------------------------------------------

    def live_view(self, seat: int) -> LiveSeatView:
        """A view of ``seat`` that follows the game, to make once and read
        at every decision: the same as :meth:`view` at any moment.

        >>> import random
        >>> game = Game(3, rng=random.Random(1))
        >>> live = game.live_view(0)
        >>> live == game.view(0)
        True
        >>> events = game.choose(0, next(iter(game.legal_choices(0))))
        >>> live == game.view(0), live.chosen
        (True, (True, False, False))
        """
        if not 0 <= seat < self.seats or seat == self.dummy:
            raise ValueError(f"seat {seat} is not a player's seat")
        return LiveSeatView(self, seat)

    def legal_choices(self, seat: int) -> Choices:
        if self._totals is not None or not 0 <= seat < self.seats or seat == self.dummy:
            self._check_seat(seat)  # says why
        hand = tuple(self._hands[seat])
        dummy = self.dummy is not None and seat == self._dummy_turns % 2
        # Choices._of_numbers written out: once a decision in simulations.
        choices = _new(Choices)
        choices._hand = hand
        choices._chopsticks = I_CHOPSTICKS in self._tables[seat] and len(hand) >= 2 + dummy
        choices._dummy = dummy
        return choices

    def choose(self, seat: int, choice: Choice | str) -> tuple[Event, ...]:
        """Record a seat's choice; once every seat has chosen, reveal and pass.

        A seat may change its choice until the reveal. Returns the events of
        the reveal (and of the end of a round or the game) when it happened.
        """
        # Most choices are legal at a glance: one card of the hand, no dummy.
        # Anything else goes through check(), which says why it is not.
        numbers: tuple[int, ...]
        if (
            type(choice) is Choice
            and self.dummy is None
            and self._totals is None
            and 0 <= seat < self.seats
            and len(choice._numbers) == 1
            and choice._numbers[0] in self._hands[seat]
        ):
            numbers = choice._numbers
        else:
            choice = self.check(seat, choice)
            numbers = choice._numbers
            if choice.dummy is not None:
                self._dummy_pick = _NUMBER[choice.dummy]
        self._moves += 1
        pending = self._pending
        pending[seat] = numbers
        if None in pending:
            return ()
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
        self._held = []
        self._tables = [[] for _ in range(self.seats)]
        self._reveals = []
        self._start_turn()

    def _start_turn(self) -> None:
        self._public = None
        self.turn += 1
        pending: list[tuple[int, ...] | None] = [None] * self.seats
        self._pending = pending
        self._dummy_pick = None
        hands = self._hands
        dummy = self.dummy
        if dummy is not None:
            pending[dummy] = ()
            hands[self._dummy_turns % 2].append(hands[dummy].pop())
        now = tuple(() if seat == dummy else tuple(hand) for seat, hand in enumerate(hands))
        self._held.append(now)
        for seat, hand in enumerate(now):
            if len(hand) == 1:
                pending[seat] = hand

    def _lay_pending(self) -> tuple[tuple[int, ...], ...]:
        """Lay every seat's chosen cards (and the dummy's); what each laid."""
        laid = cast("tuple[tuple[int, ...], ...]", tuple(self._pending))
        for cards, hand, table in zip(laid, self._hands, self._tables, strict=True):
            _lay(hand, table, cards)
        if self.dummy is not None and self._dummy_pick is not None:
            self._hands[self._dummy_turns % 2].remove(self._dummy_pick)
            self._tables[self.dummy].append(self._dummy_pick)
            pick = (self._dummy_pick,)
            laid = tuple(pick if seat == self.dummy else cards for seat, cards in enumerate(laid))
        return laid

    def _reveal(self) -> list[Event]:
        if self.dummy is None:
            revealed = self._reveal_plain()
            if self._hands[0]:
                return [revealed]
        else:
            automatic = all(len(h) == 1 for s, h in enumerate(self._hands) if s != self.dummy)
            laid = self._lay_pending()
            revealed = Revealed._of_numbers(self.round, self.turn, laid, automatic)
            self._reveals.append(revealed)
            self._pass_hands()
            if any(self._hands):
                self._start_turn()
                return [revealed]
        events: list[Event] = [revealed]
        number = self.round
        tables = self._tables
        # The points by the fast path; the breakdown when the event is read.
        self._finish_round(round_points([tally(t) for t in tables]))
        events.append(RoundScored._of_tables(number, tables))
        if self.over:
            events.append(GameEnded._of_rounds(tuple(self._round_tables), self.dummy))
        return events

    def _reveal_plain(self) -> Revealed:
        """Reveal, pass and start the next turn with no dummy (once a turn in
        simulations: _lay_pending, _pass_hands and _start_turn written out).
        What was revealed; the hands are empty when the round is over."""
        hands, tables = self._hands, self._tables
        laid = cast("tuple[tuple[int, ...], ...]", tuple(self._pending))
        automatic = len(hands[0]) == 1  # every hand has as many cards
        for cards, hand, table in zip(laid, hands, tables, strict=True):
            for card in cards:
                hand.remove(card)
                table.append(card)
            if len(cards) == 2:
                table.remove(I_CHOPSTICKS)
                hand.append(I_CHOPSTICKS)
        revealed = _new(Revealed)
        revealed._round = self.round
        revealed._turn = self.turn
        revealed._laid = laid
        revealed._cards = None
        revealed._automatic = automatic
        self._reveals.append(revealed)
        if self.variant.pass_both_ways and self.round == 2:
            hands.append(hands.pop(0))  # to the right
        else:
            hands.insert(0, hands.pop())  # to the left: seat i holds what i - 1 held
        if hands[0]:
            self._next_turn()
        return revealed

    def _next_turn(self) -> None:
        """_start_turn() with no dummy."""
        hands = self._hands
        self._public = None
        self.turn += 1
        now = tuple(map(tuple, hands))
        self._held.append(now)
        # The last cards play by themselves.
        pending: list[tuple[int, ...] | None] = (
            list(now) if len(now[0]) == 1 else [None] * len(now))
        self._pending = pending

    def _pass_hands(self) -> None:
        hands = self._hands
        if self.dummy is not None:
            hands[0], hands[1] = hands[1], hands[0]
            self._dummy_turns += 1
        elif not (self.variant.pass_both_ways and self.round == 2):  # to the left
            # Seat i passes to seat i + 1: seat i now holds what i - 1 held.
            hands.insert(0, hands.pop())
        else:
            hands.append(hands.pop(0))

    def _finish_round(self, points: list[int]) -> None:
        """Keep the round's tables and points and the puddings; deal again or end."""
        self._public = None
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
        twin._held = list(self._held)
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
        self._public = None
        self._moves += 1
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

    def play_bots(self, deciders: Sequence[Decider], rng: random.Random) -> tuple[int, ...]:
        """Play to the end, every player's decider (a bot's ``choose``, one a
        player: the dummy has none) choosing from that seat's view and
        legal choices, as :meth:`choose` would have it: every choice is
        checked (:class:`ChoiceError` for a bad one), and the view shows
        only what the seat may know. Returns the totals.

        The same game as choosing one seat after the other with
        :meth:`view`, :meth:`legal_choices` and :meth:`choose`, quicker:
        each seat's view is made once and followed (:meth:`live_view`), the
        legal choices are light, and the events are not made.

        >>> import random
        >>> def first(view: SeatView, choices: Choices, rng: random.Random) -> Choice:
        ...     return next(iter(choices))
        >>> game = Game(3, rng=random.Random(4))
        >>> totals = game.play_bots([first, first, first], random.Random(1))
        >>> game.over, len(totals)
        (True, 3)
        """
        if len(deciders) != self.players:
            raise ValueError(f"give one decider a player ({self.players})")
        views = [LiveSeatView(self, seat) for seat in range(self.players)]
        if self.dummy is not None:  # the controller gives the dummy a card too
            while self._totals is None:
                for seat in self.waiting_for():
                    self.choose(seat, deciders[seat](views[seat], self.legal_choices(seat), rng))
            return self.totals
        # legal_choices() and choose() written out, for this common case: each
        # seat's choices are made once and follow its hand (read during the
        # decision only, while nothing else moves).
        self._play_bots_plain([
            (seat, decide, view, Choices._of_numbers((), chopsticks=False, dummy=False))
            for seat, (decide, view) in enumerate(zip(deciders, views, strict=True))
        ], rng)
        return self.totals

    def _play_bots_plain(  # noqa: PLR0915 (one loop on purpose: the hot path)
        self, seats: list[tuple[int, Decider, SeatView, Choices]], rng: random.Random
    ) -> None:
        """:meth:`play_bots` with no dummy: each seat's number, decider, view
        and choices. (The turn's reveal and the next turn's start written
        out: one loop, once a decision in simulations.)"""
        chopsticks = I_CHOPSTICKS
        choice_class = Choice
        # The card each seat lays this turn when every seat lays one it
        # chose here, else ``generic``: two cards with chopsticks, the last
        # cards, or seats that chose before play_bots was called.
        singles = [0] * len(seats)
        generic = any(cards is not None for cards in self._pending)
        # Who chooses this turn: every seat, or none when the last cards
        # play by themselves (or those that have not chosen yet).
        choosing = [entry for entry in seats if self._pending[entry[0]] is None]
        while self._totals is None:  # a round
            hands, tables = self._hands, self._tables
            reveals, held = self._reveals, self._held
            right = self.variant.pass_both_ways and self.round == 2
            pending = self._pending
            now = held[-1]
            while True:  # a turn
                # One move a turn for the live views: each seat's view is read
                # by its own bot, during its own decision, once the seats
                # before it have chosen (its snapshot is taken then).
                self._moves += 1
                for seat, decide, view, choices in choosing:
                    # A seat that chooses holds two cards or more.
                    hand = now[seat]
                    choices._hand = hand
                    choices._chopsticks = chopsticks in tables[seat]
                    choice = decide(view, choices, rng)
                    try:  # one card of the hand, most often
                        numbers = choice._numbers
                        (card,) = numbers
                        plain = card in hand and choice.__class__ is choice_class
                    except (AttributeError, ValueError):
                        plain = False
                    if plain:
                        pending[seat] = numbers
                        singles[seat] = card
                    else:
                        pending[seat] = self._taken(seat, choice, choices)
                        generic = True
                # The reveal (_reveal_plain() written out, no events made).
                laid: tuple[tuple[int, ...], ...] = tuple(pending)  # type: ignore[arg-type]
                if generic:
                    for cards, hand_now, table in zip(laid, hands, tables, strict=True):
                        _lay(hand_now, table, cards)
                    generic = False
                else:  # one card each, from hand to table, seat by seat (in C)
                    _each(map(_REMOVE, hands, singles))
                    _each(map(_APPEND, tables, singles))
                reveals.append(laid)
                if right:
                    hands.append(hands.pop(0))
                else:
                    hands.insert(0, hands.pop())
                if not hands[0]:
                    break
                # The next turn (_next_turn() written out).
                self._public = None
                self.turn += 1
                now = tuple(map(tuple, hands))
                held.append(now)
                if len(now[0]) == 1:  # the last cards play by themselves
                    self._pending = pending = list(now)
                    choosing = []
                    generic = True
                else:
                    self._pending = pending = [None] * len(now)
                    choosing = seats
            self._finish_round(round_points([tally(t) for t in tables]))
            choosing = seats

    def _taken(self, seat: int, choice: object, choices: Choices) -> tuple[int, ...]:
        """The cards of a choice that is not one card of the hand: two with
        chopsticks, or checked (and refused with the reason)."""
        if type(choice) is Choice and len(choice._numbers) == 2 and choices.chopsticks and (
            _fits(choices._hand, choice._numbers)
        ):
            return choice._numbers
        return self.check(seat, cast("Choice | str", choice))._numbers

    def play_random(self, rng: random.Random) -> tuple[int, ...]:
        """Play to the end, every seat choosing uniformly among its legal
        choices (choices already made this turn stand). Returns the totals.

        This is the fast path for simulations and the advisor: no events, no
        breakdowns, the same rules.
        """
        self._public = None
        self._moves += 1
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
