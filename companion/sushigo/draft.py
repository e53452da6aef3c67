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

Choices are written like typed codes: ``w2`` (one card), ``t+w2`` (two cards
with chopsticks, in that order), and for the controller of the two-player
dummy ``w2/o3`` (``o3`` goes to the dummy).

Seats are numbered in table order, clockwise: a hand passed to the left goes
from seat ``i`` to seat ``i + 1``.
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from companion.sushigo.cards import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROUNDS,
    Card,
    hand_size,
    new_deck,
)
from companion.sushigo.scoring import GameScore, SeatScore, score_game, score_round
from companion.sushigo.tactile import UnknownCodeError, parse, short_code

CHOPSTICKS = Card.CHOPSTICKS


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
        """Read ``w2``, ``t+w2``, ``w2/o3`` or ``t+w2/o3``.

        >>> Choice.parse("t + w2")
        Choice.parse('t+w2')
        """
        own, slash, other = text.partition("/")
        parts = own.split("+") if "+" in own else _split_codes(own)
        try:
            cards = tuple(parse(p) for p in parts)
            dummy = parse(other) if slash else None
        except UnknownCodeError as error:
            raise MalformedChoiceError(text, f"unknown card: {error.detail}") from None
        if not 1 <= len(cards) <= 2:
            raise MalformedChoiceError(
                text, "take one card, or two with chopsticks: for example w2 or t+w2"
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


class ChoiceError(ValueError):
    """A choice that cannot be taken; ``reason`` says why, for the player."""

    def __init__(self, text: str, reason: str) -> None:
        self.text = text
        self.reason = reason
        super().__init__(f"{text!r}: {reason}")


class MalformedChoiceError(ChoiceError):
    """The choice does not say what to take (bad code, too many cards)."""


class IllegalChoiceError(ChoiceError):
    """A well-formed choice the rules do not allow now."""


class GameOverError(RuntimeError):
    """The game has ended: nobody chooses any more."""


class Choices:
    """The legal choices of one seat: iterate, count, test with ``in``.

    Cards of the same kind make one choice. With chopsticks, every ordered
    pair of cards in the hand is a choice too; the dummy's controller adds a
    card for the dummy to each.
    """

    __slots__ = ("_chopsticks", "_counts", "_dummy")

    def __init__(self, hand: Sequence[Card], *, chopsticks: bool, dummy: bool) -> None:
        self._counts: Counter[Card] = Counter(hand)
        needed = 2 + dummy
        self._chopsticks = chopsticks and len(hand) >= needed
        self._dummy = dummy

    @property
    def chopsticks(self) -> bool:
        """Whether chopsticks can be used this turn."""
        return self._chopsticks

    def _fits(self, cards: Sequence[Card]) -> bool:
        need = Counter(cards)
        return all(self._counts[c] >= n for c, n in need.items())

    def __contains__(self, item: object) -> bool:
        if not isinstance(item, Choice):
            return False
        if (len(item.cards) == 2 and not self._chopsticks) or not 1 <= len(item.cards) <= 2:
            return False
        if (item.dummy is not None) != self._dummy:
            return False
        taken = item.cards + ((item.dummy,) if item.dummy is not None else ())
        return self._fits(taken)

    def __iter__(self) -> Iterator[Choice]:
        kinds = list(self._counts)
        shapes: list[tuple[Card, ...]] = [(k,) for k in kinds]
        if self._chopsticks:
            shapes += [(a, b) for a in kinds for b in kinds if self._fits((a, b))]
        for cards in shapes:
            if not self._dummy:
                yield Choice(cards)
                continue
            for d in kinds:
                if self._fits((*cards, d)):
                    yield Choice(cards, d)

    def __len__(self) -> int:
        k = len(self._counts)
        ones = sum(1 for n in self._counts.values() if n == 1)
        twos = sum(1 for n in self._counts.values() if n == 2)
        pairs = k * k - ones
        if not self._dummy:
            return k + (pairs if self._chopsticks else 0)
        triples = k**3 - 3 * ones * (k - 1) - ones - twos
        return pairs + (triples if self._chopsticks else 0)

    def sample(self, rng: random.Random) -> Choice:
        """One legal choice, uniformly at random."""
        return _sample(self, rng)

    def __repr__(self) -> str:
        return f"<Choices {len(self)}: {' '.join(str(c) for c in self)}>"


def _sample(choices: Choices, rng: random.Random) -> Choice:
    """Uniform over the legal choices: pick one or two cards (in proportion
    to how many choices of each width there are), then draw kinds until the
    hand can give them."""
    counts = choices._counts
    kinds = list(counts)
    k = len(kinds)
    ones = sum(1 for n in counts.values() if n == 1)
    narrow = k * k - ones if choices._dummy else k
    wide = choices._chopsticks and rng.randrange(len(choices)) >= narrow
    width = 1 + wide + choices._dummy
    while True:
        picked = [kinds[rng.randrange(k)] for _ in range(width)]
        if width == 1 or choices._fits(picked):
            break
    if choices._dummy:
        return Choice(tuple(picked[:-1]), picked[-1])
    return Choice(tuple(picked))


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
    with the turn it held each.
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
    variant: Variant = field(default_factory=Variant)


class Game:
    """A game with every card known, from a seeded shuffle.

    ``players`` is 2 to 5. With ``Variant(dummy=True)`` there must be 2
    players; a third seat, the dummy, is added (seat 2).
    """

    def __init__(
        self,
        players: int,
        *,
        rng: random.Random,
        variant: Variant = Variant(),
        first_controller: int = 0,
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
        deck = new_deck(variant.soy_sauce)
        rng.shuffle(deck)
        self._pile = deck
        self.round = 0
        self.turn = 0
        self._dummy_turns = first_controller
        self._hands: list[list[Card]] = []
        self._tables: list[list[Card]] = [[] for _ in range(self.seats)]
        self._pending: list[Choice | None] = [None] * self.seats
        self._held: list[list[tuple[int, tuple[Card, ...]]]] = []
        self._round_tables: list[tuple[tuple[Card, ...], ...]] = []
        self._round_scores: list[tuple[SeatScore, ...]] = []
        self._puddings = [0] * self.seats
        self._final: GameScore | None = None
        self._start_round()

    # -- what anyone may see ---------------------------------------------------

    @property
    def over(self) -> bool:
        return self._final is not None

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
        return tuple(self._tables[seat])

    def hand(self, seat: int) -> tuple[Card, ...]:
        """A seat's hand (the dummy's is its face-down pile). Hidden information."""
        return tuple(self._hands[seat])

    def waiting_for(self) -> tuple[int, ...]:
        """Seats that still have to choose this turn."""
        if self.over:
            return ()
        return tuple(
            s for s in range(self.seats) if s != self.dummy and self._pending[s] is None
        )

    def result(self) -> GameScore:
        """The score so far; complete once the game is over."""
        if self._final is not None:
            return self._final
        if not self._round_tables:
            raise ValueError("no round has been scored yet")
        return score_game(self._round_tables, dummy=self.dummy)

    def view(self, seat: int) -> SeatView:
        """Everything ``seat`` may know, and nothing more."""
        if not 0 <= seat < self.seats or seat == self.dummy:
            raise ValueError(f"seat {seat} is not a player's seat")
        return SeatView(
            seat=seat,
            seats=self.seats,
            round=self.round,
            turn=self.turn,
            hand=tuple(self._hands[seat]) if self._hands else (),
            tables=tuple(tuple(t) for t in self._tables),
            puddings=tuple(self._puddings),
            held=tuple(self._held[seat]) if self._held else (),
            round_scores=tuple(tuple(s.points for s in r) for r in self._round_scores),
            direction=self.direction,
            dummy=self.dummy,
            controller=self.controller,
            hand_sizes=tuple(len(h) for h in self._hands),
            draw_pile=len(self._pile),
            chosen=tuple(p is not None for p in self._pending),
            over=self.over,
            variant=self.variant,
        )

    # -- choosing --------------------------------------------------------------

    def legal_choices(self, seat: int) -> Choices:
        self._check_seat(seat)
        hand = self._hands[seat]
        controls = seat == self.controller
        chopsticks = CHOPSTICKS in self._tables[seat]
        return Choices(hand, chopsticks=chopsticks, dummy=controls)

    def choose(self, seat: int, choice: Choice | str) -> tuple[Event, ...]:
        """Record a seat's choice; once every seat has chosen, reveal and pass.

        A seat may change its choice until the reveal. Returns the events of
        the reveal (and of the end of a round or the game) when it happened.
        """
        self._check_seat(seat)
        if isinstance(choice, str):
            choice = Choice.parse(choice)
        self._check_legal(seat, choice)
        self._pending[seat] = choice
        return self._resolve_if_ready()

    def _check_seat(self, seat: int) -> None:
        if self.over:
            raise GameOverError("the game is over")
        if not 0 <= seat < self.seats:
            raise ValueError(f"there is no seat {seat}")
        if seat == self.dummy:
            raise IllegalChoiceError(
                "dummy", "the dummy does not choose: its controller picks for it"
            )

    def _check_legal(self, seat: int, choice: Choice) -> None:
        hand = self._hands[seat]
        text = str(choice)
        if choice.dummy is not None and seat != self.controller:
            raise IllegalChoiceError(text, "you do not control the dummy this turn")
        if choice.dummy is None and seat == self.controller:
            raise IllegalChoiceError(
                text, "you control the dummy: also take a card for it, as in w2/o3"
            )
        if choice.uses_chopsticks:
            if CHOPSTICKS not in self._tables[seat]:
                raise IllegalChoiceError(text, "you have no chopsticks on your table")
            if len(hand) < 2 + (choice.dummy is not None):
                raise IllegalChoiceError(
                    text, "chopsticks need two cards in your hand to take"
                )
        taken = Counter(choice.cards)
        if choice.dummy is not None:
            taken[choice.dummy] += 1
        held = Counter(hand)
        for card, n in taken.items():
            if held[card] < n:
                have = held[card]
                reason = (
                    f"your hand has no {card.id}"
                    if have == 0
                    else f"your hand has only {have} {card.id}"
                )
                raise IllegalChoiceError(text, reason)

    # -- the turn --------------------------------------------------------------

    def _start_round(self) -> None:
        self.round += 1
        self.turn = 0
        n = self._hand_size
        self._hands = []
        for _ in range(self.seats):
            self._hands.append(self._pile[-n:][::-1])
            del self._pile[-n:]
        self._held = [[] for _ in range(self.seats)]
        self._tables = [[] for _ in range(self.seats)]
        self._start_turn()

    def _start_turn(self) -> None:
        self.turn += 1
        self._pending = [None] * self.seats
        if self.dummy is not None:
            pile = self._hands[self.dummy]
            controller = self._dummy_turns % 2
            self._hands[controller].append(pile.pop())
        for seat in range(self.seats):
            if seat == self.dummy:
                continue
            hand = self._hands[seat]
            self._held[seat].append((self.turn, tuple(hand)))
            if len(hand) == 1:
                self._pending[seat] = Choice((hand[0],))

    def _resolve_if_ready(self) -> tuple[Event, ...]:
        events: list[Event] = []
        while not self.over and all(
            p is not None for s, p in enumerate(self._pending) if s != self.dummy
        ):
            events.extend(self._reveal())
        return tuple(events)

    def _reveal(self) -> list[Event]:
        automatic = all(
            len(self._hands[s]) == 1 for s in range(self.seats) if s != self.dummy
        )
        laid: list[tuple[Card, ...]] = [() for _ in range(self.seats)]
        used = [False] * self.seats
        for seat, choice in enumerate(self._pending):
            if choice is None:
                continue
            hand, table = self._hands[seat], self._tables[seat]
            for card in choice.cards:
                hand.remove(card)
            table.extend(choice.cards)
            laid[seat] = choice.cards
            if choice.uses_chopsticks:
                table.remove(CHOPSTICKS)
                hand.append(CHOPSTICKS)
                used[seat] = True
            if choice.dummy is not None and self.dummy is not None:
                hand.remove(choice.dummy)
                self._tables[self.dummy].append(choice.dummy)
                laid[self.dummy] = (choice.dummy,)
        events: list[Event] = [
            Revealed(self.round, self.turn, tuple(laid), tuple(used), automatic)
        ]
        self._pass_hands()
        if self.dummy is not None:
            self._dummy_turns += 1
        if any(self._hands):
            self._start_turn()
            return events
        events.append(self._end_round())
        if self.round < ROUNDS:
            self._start_round()
        else:
            self._final = score_game(self._round_tables, dummy=self.dummy)
            events.append(GameEnded(self._final))
        return events

    def _pass_hands(self) -> None:
        if self.dummy is not None:
            self._hands[0], self._hands[1] = self._hands[1], self._hands[0]
            return
        step = int(self.direction)
        hands = self._hands
        # Seat i passes to seat i + step: seat i now holds what i - step held.
        self._hands = [hands[(s - step) % self.seats] for s in range(self.seats)]

    def _end_round(self) -> RoundScored:
        tables = tuple(tuple(t) for t in self._tables)
        scores = score_round(tables)
        self._round_tables.append(tables)
        self._round_scores.append(scores)
        for seat, table in enumerate(tables):
            self._puddings[seat] += table.count(Card.PUDDING)
        return RoundScored(self.round, scores)
