"""Mici Maki's rules, for whole games with every card known (practice
games, simulations): the deck, seats, dealing, the serving pile, the four
moves with their legal-move queries and refusals, the draws, rounds, the
game's end and its ties, and each seat's view.

Cards are small integers: a food card is its value, ``2`` to ``7``;
:data:`PLUS`, :data:`REVERSE`, :data:`CHOOSE` are the actions and
:data:`OVEREATING` the overeating card. A hand is a count per card
(a list indexed by card). A move is a pair ``(kind, argument)``:

- ``(START, v)``: start the serving pile with a food card ``v``;
- ``(SERVE, v)``: serve ``v``, the value of the food in play;
- ``(EAT, 0)``: eat the pile (draw as many cards as its value);
- ``(PLAY, PLUS)``, ``(PLAY, REVERSE)``: play that action card;
  ``(CHOOSE, seat)``: play "choose the next player", naming ``seat``;
- ``(SKIP, v)``: skip the food with two ``v`` cards;
- ``(EXTRA, 1)`` or ``(EXTRA, 0)``: the player who overate adds one more
  overeating card to the draw pile, or not.

Rulings (see ``docs/mici-maki.md``): the food in play is the topmost food
card of the pile; an action may be played on an action; one token per
eat, however many overeating cards turn up; a player whose turn comes with
an empty hand draws three cards first (an overeating card among them ends
the round, drawing stops at it); a player who must start a pile holding no
food draws one card at a time until a food card comes (the same); when
the draw pile and the discard pile are both empty, drawing stops (and a
player who must start a pile with no food then lets the next player
holding food start it); the
game ends at once when a player takes the third token; fewest tokens
win, then the most cards in hand, and a further tie is shared.

>>> import random
>>> game = Game(Setup(players=3), random.Random(4))
>>> game.phase == PILE, game.turn, len(game.draw), game.overeating
(True, 0, 75, 1)
>>> moves = game.legal_moves()
>>> all(kind == START for kind, _ in moves)
True
>>> start, food = moves[0]
>>> game.play((START, food))
>>> game.food == game.value == food, game.turn
(True, 1)
>>> game.refusal((SERVE, 8)) == Refusal("serve", {"food": food})
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from companion.games.micimaki.risk import MOST_OVEREATING

#: The food values, lowest first.
FOODS = (2, 3, 4, 5, 6, 7)
#: "+1 food": one more to the pile's value.
PLUS = 8
#: "Reverse direction".
REVERSE = 9
#: "Choose the next player".
CHOOSE = 10
#: The overeating card.
OVEREATING = 11
#: Every card, in the order of a hand's counts.
CARDS = (*FOODS, PLUS, REVERSE, CHOOSE, OVEREATING)
#: Cards a hand can hold (an overeating card never stays in one).
ACTIONS = (PLUS, REVERSE, CHOOSE)
#: A count per card is a list this long, indexed by the card.
SLOTS = OVEREATING + 1

# Move kinds.
START, SERVE, EAT, PLAY, SKIP, EXTRA = range(6)
Move = tuple[int, int]

# Phases: who must do what.
#: The player to play starts a serving pile.
PILE = 0
#: The player to play serves, eats, plays an action or skips the food.
TURN = 1
#: The player who overate says whether one more overeating card goes in.
ADD = 2
#: The game is over.
OVER = 3

#: The tokens that end the game.
LAST_TOKEN = 3
#: Cards drawn by a player whose turn comes with an empty hand.
EMPTY_HAND_DRAW = 3


@dataclass(frozen=True, slots=True)
class Setup:
    """How a game is set up: seats, and the deck (the action split is an
    option, so a real deck can be matched)."""

    players: int
    plus: int = 7
    reverse: int = 5
    choose: int = 5
    food_each: int = 12
    hand: int = 5

    def problem(self) -> Refusal | None:
        """Why this setup cannot be played, if it cannot.

        >>> Setup(players=8).problem()
        Refusal(code='players', params={'players': 8, 'fewest': 3, 'most': 7})
        """
        if not 3 <= self.players <= 7:
            return Refusal("players", {"players": self.players, "fewest": 3, "most": 7})
        if min(self.plus, self.reverse, self.choose) < 0 or self.food_each < 1:
            return Refusal("deck", {})
        if self.players * self.hand > self.deck_size():
            return Refusal("deal", {"cards": self.deck_size()})
        return None

    def deck_size(self) -> int:
        """Food and action cards (overeating cards aside)."""
        return self.food_each * len(FOODS) + self.plus + self.reverse + self.choose

    def copies(self, card: int) -> int:
        """Cards of one kind in the deck (food or action; overeating cards aside).

        >>> Setup(players=3).copies(7), Setup(players=3, plus=4).copies(8)
        (12, 4)
        """
        actions = {PLUS: self.plus, REVERSE: self.reverse, CHOOSE: self.choose}
        return self.food_each if card in FOODS else actions.get(card, 0)

    def deck(self) -> list[int]:
        """The food and action cards, unshuffled."""
        cards = [value for value in FOODS for _ in range(self.food_each)]
        return cards + [PLUS] * self.plus + [REVERSE] * self.reverse + [CHOOSE] * self.choose


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a move cannot be made: a code for the narration, and its figures.

    Codes: ``phase`` (not the moment for it), ``card`` (the hand has no
    such card; ``card``), ``serve`` (the food in play is ``food``),
    ``start`` (a pile starts with a food card), ``pair`` (skipping needs
    two ``card``), ``choose`` (``seat`` is not another player), ``full``
    (the draw pile holds the most overeating cards already), ``over``
    (the game is over), ``players``, ``deck`` and ``deal`` (setups); at
    a real table (:mod:`companion.games.micimaki.tracker`) also ``turn``
    (it is ``seat``'s turn), ``cards`` (``seat`` holds only ``cards``),
    ``count`` (eating turns up ``cards`` cards), ``overeating`` (only
    ``overeating`` can turn up), ``yours`` (enter the cards you drew), and
    what the rules force: ``overeats`` (eating ``cards`` cards, more than
    the ``free`` cards of the draw pile that are not overeating cards,
    turns up at least ``least``; ``shown`` 1 when the cards are entered),
    ``draw-overeats`` (drawing at a turn's start, an overeating card comes
    by card ``card`` at the latest, only ``free`` cards being others;
    ``shown`` as above, ``empty`` 1 for an empty hand's draw), ``until``
    (a draw for food stops at the first food card or overeating card),
    ``draw`` (``seat`` draws only with an empty hand or holding no food to
    start a pile), ``empty`` (``seat``'s hand is empty: three cards are
    drawn first), ``discard`` (from card ``card`` on, the cards drawn
    are the discard pile's, which holds too few ``name``) and ``supply``
    (the deck has only ``most`` of ``card``, every one already in sight).
    """

    code: str
    params: dict[str, int] = field(default_factory=dict)


class IllegalMove(ValueError):
    """A move the rules do not allow there."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(f"{refusal.code}: {refusal.params}")
        self.refusal = refusal


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for the narration: ``kind`` one of
    ``drew`` (``seat`` drew ``cards`` because the hand was empty, or to find
    a food card to start with), ``passed`` (``seat`` had no food to start
    a pile with and none was left to draw: the next player starts),
    ``ate`` (``seat`` ate and turned up ``cards``), ``overate`` (``seat``
    took a token), ``round`` (a new round begins, ``seat`` starts it),
    ``over`` (the game ended)."""

    kind: str
    seat: int
    cards: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class View:
    """What one seat may know: its own hand, and everything public."""

    seat: int
    hand: tuple[int, ...]
    phase: int
    turn: int
    direction: int
    food: int
    value: int
    pile: tuple[int, ...]
    draw: int
    overeating: int
    discard: int
    tokens: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    round: int


class LiveView(View):
    """A seat's view that follows its game: every field, when read, is what
    the seat may know then (its own hand, and everything public). Made once
    a game by :meth:`Game.live_view`, so that simulations pay nothing for
    the fields a bot does not read; :meth:`snapshot` keeps one moment.

    >>> game = Game(Setup(players=3), random.Random(4))
    >>> live = game.live_view(1)
    >>> live.snapshot() == game.view(1), live.hand == game.view(1).hand
    (True, True)
    >>> game.play(game.legal_moves()[0])
    >>> live.snapshot() == game.view(1), live.turn
    (True, 1)
    """

    __slots__ = ("_game",)
    _game: Game

    def __init__(self, game: Game, seat: int) -> None:  # the fields are read from the game
        object.__setattr__(self, "_game", game)
        object.__setattr__(self, "seat", seat)

    def snapshot(self) -> View:
        """The view as it is now, kept."""
        return self._game.view(self.seat)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LiveView):
            other = other.snapshot()
        return isinstance(other, View) and self.snapshot() == other

    def __hash__(self) -> int:
        return hash(self.snapshot())

    def __repr__(self) -> str:
        return f"LiveView({self.snapshot()!r})"


def _follow(read: Callable[[Game, int], object]) -> property:
    return property(lambda live: read(live._game, live.seat))


# Each field of a live view, read from its game (what Game.view copies).
for _name, _read in {
    "hand": lambda game, seat: tuple(game.hands[seat]),
    "phase": lambda game, seat: game.phase,
    "turn": lambda game, seat: game.turn,
    "direction": lambda game, seat: game.direction,
    "food": lambda game, seat: game.food,
    "value": lambda game, seat: game.value,
    "pile": lambda game, seat: tuple(game.pile),
    "draw": lambda game, seat: len(game.draw),
    "overeating": lambda game, seat: game.overeating - len(game._turned),
    "discard": lambda game, seat: len(game.discard),
    "tokens": lambda game, seat: tuple(game.tokens),
    "hand_sizes": lambda game, seat: tuple(game.sizes),
    "round": lambda game, seat: game.round,
}.items():
    setattr(LiveView, _name, _follow(_read))


class Game:
    """A whole game, every card known."""

    def __init__(self, setup: Setup, rng: random.Random, *, first: int = 0) -> None:
        problem = setup.problem()
        if problem is not None:
            raise IllegalMove(problem)
        self.setup = setup
        self.rng = rng
        self.players = setup.players
        deck = setup.deck()
        self._shuffle(deck)
        self.hands = [[0] * SLOTS for _ in range(self.players)]
        self.sizes = [0] * self.players
        for seat in range(self.players):
            for _ in range(setup.hand):
                self.hands[seat][deck.pop()] += 1
            self.sizes[seat] = setup.hand
        #: The draw pile, its top last.
        self.draw = deck
        self.draw.insert(rng.randrange(len(deck) + 1), OVEREATING)
        #: Overeating cards in the game (all in the draw pile while a round is on).
        self.overeating = 1
        self.discard: list[int] = []
        #: The serving pile, bottom first.
        self.pile: list[int] = []
        self.food = 0  # the food in play: the topmost food card's value
        self.value = 0  # the pile's value: its food, plus one per "+1"
        self.turn = first
        self.direction = 1  # 1: clockwise (to the left), -1: the other way
        self.phase = PILE
        self.tokens = [0] * self.players
        self.round = 1
        self.turns = 0
        self.winners: tuple[int, ...] = ()
        self._turned: list[int] = []  # overeating cards turned up this round
        #: What happened in the last move, oldest first.
        self.events: list[Event] = []
        self._prepare()

    # -- what can be done ---------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every move the player to play may make."""
        phase = self.phase
        hand = self.hands[self.turn]
        if phase == TURN:
            moves: list[Move] = [(EAT, 0)]
            if hand[self.food]:
                moves.append((SERVE, self.food))
            if hand[PLUS]:
                moves.append((PLAY, PLUS))
            if hand[REVERSE]:
                moves.append((PLAY, REVERSE))
            if hand[CHOOSE]:
                for seat in range(self.players):
                    if seat != self.turn:
                        moves.append((CHOOSE, seat))
            for value in FOODS:
                if hand[value] >= 2:  # a pair
                    moves.append((SKIP, value))
            return moves
        if phase == PILE:
            return [(START, value) for value in FOODS if hand[value]]
        if phase == ADD:
            return [(EXTRA, 1), (EXTRA, 0)]
        return []

    def refusal(self, move: Move) -> Refusal | None:
        """Why ``move`` cannot be made now; ``None`` when it can."""
        kind, argument = move
        hand = self.hands[self.turn]
        phase = self.phase
        if phase == OVER:
            return Refusal("over")
        if phase == ADD:
            return None if kind == EXTRA and argument in (0, 1) else Refusal("phase")
        if kind == EXTRA:
            return Refusal("phase")
        if phase == PILE:
            if kind != START or argument not in FOODS:
                return Refusal("start")
            return None if hand[argument] else Refusal("card", {"card": argument})
        if kind == START:
            return Refusal("phase")
        if kind == EAT:
            return None
        if kind == SERVE:
            if argument != self.food:
                return Refusal("serve", {"food": self.food})
            return None if hand[argument] else Refusal("card", {"card": argument})
        if kind == PLAY:
            if argument not in (PLUS, REVERSE):
                return Refusal("phase")
            return None if hand[argument] else Refusal("card", {"card": argument})
        if kind == CHOOSE:
            if not hand[CHOOSE]:
                return Refusal("card", {"card": CHOOSE})
            if argument == self.turn or not 0 <= argument < self.players:
                return Refusal("choose", {"seat": argument})
            return None
        if kind == SKIP:
            if argument not in FOODS:
                return Refusal("pair", {"card": argument})
            return None if hand[argument] >= 2 else Refusal("pair", {"card": argument})
        return Refusal("phase")

    # -- making moves -------------------------------------------------------------------------

    def play(self, move: Move) -> None:
        """Make ``move`` for the player to play; raises :class:`IllegalMove`
        (and changes nothing) when the rules do not allow it."""
        refusal = self.refusal(move)
        if refusal is not None:
            raise IllegalMove(refusal)
        self.apply(move)

    def apply(self, move: Move) -> None:
        """Make ``move``, known to be legal (one of :meth:`legal_moves`):
        the fast path of simulations, unchecked."""
        self.events = []
        kind, argument = move
        seat = self.turn
        hand = self.hands[seat]
        if kind == EXTRA:
            self._new_round(add=bool(argument))
            return
        self.turns += 1
        if kind == EAT:
            self._eat(seat)
            return
        card = CHOOSE if kind == CHOOSE else argument
        hand[card] -= 1
        self.sizes[seat] -= 1
        if kind == SKIP:
            hand[card] -= 1
            self.sizes[seat] -= 1
            self.pile.append(card)
            self._clear_pile()
            self.pile.append(card)
            self.food = self.value = card
        else:
            self.pile.append(card)
            if card <= 7:
                self.food = card
                self.value = card if kind == START else self.value + card
            elif card == PLUS:
                self.value += 1
            elif card == REVERSE:
                self.direction = -self.direction
        self.phase = TURN
        self.turn = argument if kind == CHOOSE else (seat + self.direction) % self.players
        self._prepare()

    def _shuffle(self, cards: list[int]) -> None:
        """Shuffle ``cards`` in place (Fisher and Yates, on the generator's
        floats: uniform, and quicker than ``random.shuffle``)."""
        random = self.rng.random
        for last in range(len(cards) - 1, 0, -1):
            other = int(random() * (last + 1))
            cards[last], cards[other] = cards[other], cards[last]

    def _clear_pile(self) -> None:
        self.discard.extend(self.pile)
        self.pile.clear()
        self.food = self.value = 0

    def _take(self) -> int | None:
        """The top card of the draw pile, the discard pile shuffled into a new
        one first when it is empty; ``None`` when both are empty."""
        if not self.draw:
            if not self.discard:
                return None
            self.draw, self.discard = self.discard, []
            self._shuffle(self.draw)
        return self.draw.pop()

    def _eat(self, seat: int) -> None:
        hand = self.hands[seat]
        turned: list[int] = []
        overate = False
        for _ in range(self.value):
            card = self._take()
            if card is None:
                break
            turned.append(card)
            if card == OVEREATING:
                overate = True
                self._turned.append(card)
            else:
                hand[card] += 1
                self.sizes[seat] += 1
        self.events.append(Event("ate", seat, tuple(turned)))
        if overate:
            self._overeat(seat)
            return
        self._clear_pile()
        self.phase = PILE
        self._prepare()

    def _draw_until(self, seat: int, count: int | None) -> bool:
        """``seat`` draws ``count`` cards (``None``: until a food card); an
        overeating card stops it and ends the round. False if it did."""
        hand = self.hands[seat]
        drawn: list[int] = []
        while count is None or len(drawn) < count:
            card = self._take()
            if card is None:
                break
            drawn.append(card)
            if card == OVEREATING:
                self._turned.append(card)
                self.events.append(Event("drew", seat, tuple(drawn)))
                self._overeat(seat)
                return False
            hand[card] += 1
            self.sizes[seat] += 1
            if count is None and card <= 7:
                break
        self.events.append(Event("drew", seat, tuple(drawn)))
        return True

    def _prepare(self) -> None:
        """Before the player to play decides: an empty hand draws three, and
        a player who must start a pile with no food draws until one comes."""
        while self.phase in (PILE, TURN):
            seat = self.turn
            if not self.sizes[seat] and not self._draw_until(seat, EMPTY_HAND_DRAW):
                continue  # overate: the round ended (or the game)
            if self.phase == PILE and not any(self.hands[seat][value] for value in FOODS):
                if not self._draw_until(seat, None):
                    continue
                if not any(self.hands[seat][value] for value in FOODS):
                    # Both piles are empty: the next player holding food
                    # starts (every food card is in a hand then).
                    self.turn = (seat + self.direction) % self.players
                    self.events.append(Event("passed", seat))
                    continue
            return

    def _overeat(self, seat: int) -> None:
        self.tokens[seat] += 1
        self.events.append(Event("overate", seat))
        if self.tokens[seat] >= LAST_TOKEN:
            self.phase = OVER
            self.winners = winners(self.tokens, self.sizes)
            self.events.append(Event("over", seat))
            return
        self.turn = seat
        if self.overeating < MOST_OVEREATING:
            self.phase = ADD
        else:
            self._new_round(add=False)

    def _new_round(self, *, add: bool) -> None:
        """Everything back into a new draw pile (with one more overeating
        card if ``add``); the player who overate starts, clockwise."""
        self._clear_pile()
        self.draw.extend(self.discard)
        self.draw.extend(self._turned)
        self.discard, self._turned = [], []
        if add:
            self.draw.append(OVEREATING)
            self.overeating += 1
        self._shuffle(self.draw)
        self.direction = 1
        self.round += 1
        self.phase = PILE
        self.events.append(Event("round", self.turn))
        self._prepare()

    # -- what is known ------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def live_view(self, seat: int) -> LiveView:
        """A view of ``seat`` that follows the game (see :class:`LiveView`)."""
        if not 0 <= seat < self.players:
            raise ValueError(f"there is no seat {seat}")
        return LiveView(self, seat)

    def view(self, seat: int) -> View:
        """What ``seat`` may know now."""
        return View(seat, tuple(self.hands[seat]), self.phase, self.turn, self.direction,
                    self.food, self.value, tuple(self.pile), len(self.draw),
                    self.overeating - len(self._turned), len(self.discard),
                    tuple(self.tokens), tuple(self.sizes), self.round)

    def count(self) -> dict[int, int]:
        """How many of every card the game holds, wherever they lie (the
        rules keep every card: this is the same after every move)."""
        counts = dict.fromkeys(CARDS, 0)
        for hand in self.hands:
            for card in CARDS:
                counts[card] += hand[card]
        for cards in (self.draw, self.discard, self.pile, self._turned):
            for card in cards:
                counts[card] += 1
        return counts


def winners(tokens: Sequence[int], sizes: Sequence[int]) -> tuple[int, ...]:
    """The seats that win: the fewest tokens, then the most cards in hand;
    a further tie is shared.

    >>> winners([1, 3, 1, 0], [4, 9, 6, 2]), winners([1, 3, 1], [5, 2, 5])
    ((3,), (0, 2))
    """
    fewest = min(tokens)
    most = max(size for size, held in zip(sizes, tokens, strict=True) if held == fewest)
    return tuple(seat for seat, (held, size) in enumerate(zip(tokens, sizes, strict=True))
                 if held == fewest and size == most)


def random_game(setup: Setup, rng: random.Random) -> Game:
    """One whole game of moves drawn uniformly from the legal ones."""
    game = Game(setup, rng)
    random_float = rng.random
    while game.phase != OVER:
        moves = game.legal_moves()
        game.apply(moves[int(random_float() * len(moves))])
    return game


def playout(setup: Setup, rng: random.Random) -> Iterator[dict[int, int]]:
    """A random game, move by move: the card counts after each move."""
    game = Game(setup, rng)
    yield game.count()
    while game.phase != OVER:
        moves = game.legal_moves()
        game.play(moves[rng.randrange(len(moves))])
        yield game.count()


def hand_cards(hand: Sequence[int]) -> list[int]:
    """A hand's counts as its cards, lowest first.

    >>> hand_cards([0, 0, 2, 0, 0, 0, 0, 1, 1, 0, 0, 0])
    [2, 2, 7, 8]
    """
    return [card for card in CARDS for _ in range(hand[card])]
