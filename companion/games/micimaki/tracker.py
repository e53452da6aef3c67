"""A real Mici Maki game followed from what is entered at the table: the
public state (whose turn and which way play goes, the serving pile, the
draw pile's size and its overeating cards, the discard pile, every
player's tokens and number of cards) and the player's own hand, with the
chance of overeating if they eat now.

Every entry is checked against the rules and what is known; an entry
that cannot be (a serve that does not match, a card the player does not
hold, a seventh overeating card) raises :class:`~companion.games.
micimaki.rules.IllegalMove` with the reason, and changes nothing. So is
an entry against what the rules force: an eat or a draw that goes past
every card of the draw pile that is not an overeating card must turn one
up, an empty hand draws three cards before anything else, a draw for food
stops at the first food card, and no kind of card is seen more often than
the deck holds it.

>>> table = Tracker(players=3, you=0, hand=[5, 5, 3, 7, 8])
>>> table.draw, table.overeating, table.sizes
(75, 1, [5, 5, 5])
>>> table.start(0, 5)
>>> table.serve(1, 5)
>>> table.value, table.turn, float(table.risk())
(10, 2, 0.13333333333333333)
>>> table.serve(2, 4)
Traceback (most recent call last):
...
companion.games.micimaki.rules.IllegalMove: serve: {'food': 5}
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from companion.games.micimaki.risk import MOST_OVEREATING, overeating_risk
from companion.games.micimaki.rules import (
    ADD,
    CARDS,
    CHOOSE,
    EAT,
    EMPTY_HAND_DRAW,
    FOODS,
    LAST_TOKEN,
    OVER,
    OVEREATING,
    PILE,
    PLAY,
    PLUS,
    REVERSE,
    SERVE,
    SKIP,
    SLOTS,
    START,
    TURN,
    IllegalMove,
    Move,
    Refusal,
    Setup,
    winners,
)

#: The seat of a tracker that follows the public state only (the host of a
#: table shared between devices): no hand is known, every seat's is hidden.
WATCHING = -1


class Tracker:
    """The public state of a real game, and the player's own hand (``you``
    :data:`WATCHING`: the public state only)."""

    def __init__(self, players: int, you: int, *, hand: Sequence[int] = (),
                 setup: Setup | None = None, first: int = 0) -> None:
        self.setup = setup or Setup(players=players)
        problem = self.setup.problem()
        if problem is None and hand and you == WATCHING:
            problem = Refusal("yours")
        if problem is None and not (0 <= you < players or you == WATCHING):
            problem = Refusal("choose", {"seat": you})
        if problem is not None:
            raise IllegalMove(problem)
        self.players = players
        self.you = you
        self.sizes = [self.setup.hand] * players
        #: Your cards, counted (what you entered: your deal, and every card you drew).
        self.hand = [0] * SLOTS
        for card in hand:
            if card not in FOODS and card not in (PLUS, REVERSE, CHOOSE):
                raise IllegalMove(Refusal("card", {"card": card}))
            self.hand[card] += 1
        if sum(self.hand) > self.setup.hand:
            raise IllegalMove(Refusal("hand", {"cards": self.setup.hand}))
        for card in set(hand):
            if self.hand[card] > self.setup.copies(card):
                raise IllegalMove(Refusal("supply", {"card": card,
                                                     "most": self.setup.copies(card)}))
        self.draw = self.setup.deck_size() - players * self.setup.hand + 1
        #: Overeating cards in the draw pile (all of the game's, while a round is on).
        self.overeating = 1
        self.discard: list[int] = []
        self.pile: list[int] = []
        self.food = self.value = 0
        self.turn = first
        self.direction = 1
        self.phase = PILE
        self.tokens = [0] * players
        self.round = 1
        self.winners: tuple[int, ...] = ()
        #: Overeating cards turned up this round (out of the draw pile until it ends).
        self._turned = 0

    # -- what the rules allow -----------------------------------------------------------------

    def problem(self, seat: int, kind: int, card: int = 0) -> Refusal | None:
        """Why ``seat`` cannot make a move of ``kind`` (with ``card``) now, if it cannot.

        >>> table = Tracker(players=3, you=0, hand=[5, 5, 3, 7, 8])
        >>> table.problem(0, START, 5) is None, table.problem(0, START, 6)
        (True, Refusal(code='card', params={'card': 6}))
        """
        try:
            self._check(seat, kind, card)
        except IllegalMove as error:
            return error.refusal
        return None

    def _check(self, seat: int, kind: int, card: int = 0) -> None:
        if self.phase == OVER:
            raise IllegalMove(Refusal("over"))
        if not 0 <= seat < self.players:
            raise IllegalMove(Refusal("choose", {"seat": seat}))
        if seat != self.turn:
            raise IllegalMove(Refusal("turn", {"seat": self.turn}))
        if self.phase == ADD:
            raise IllegalMove(Refusal("phase"))
        if not self.sizes[seat] and self.drawable():
            raise IllegalMove(Refusal("empty", {"seat": seat}))
        if self.phase == PILE and kind != START:
            raise IllegalMove(Refusal("start"))
        if self.phase == TURN and kind == START:
            raise IllegalMove(Refusal("phase"))
        if kind == SERVE and card != self.food:
            raise IllegalMove(Refusal("serve", {"food": self.food}))
        if kind in (START, SERVE, SKIP) and card not in FOODS:
            raise IllegalMove(Refusal("start" if kind == START else "pair", {"card": card}))
        needed = 2 if kind == SKIP else 1
        if kind != EAT and self.sizes[seat] < needed:
            raise IllegalMove(Refusal("cards", {"seat": seat, "cards": self.sizes[seat]}))
        if kind != EAT and seat == self.you and self.hand[card] < needed:
            raise IllegalMove(Refusal("pair" if kind == SKIP else "card", {"card": card}))
        if kind != EAT and seat != self.you:
            self._supply(card, needed)  # from a hand unseen into sight

    def _supply(self, card: int, more: int = 1) -> None:
        """``more`` cards of a kind come into sight: no more than the deck has."""
        most = self.setup.copies(card)
        if self.hand[card] + self.pile.count(card) + self.discard.count(card) + more > most:
            raise IllegalMove(Refusal("supply", {"card": card, "most": most}))

    def _played(self, seat: int, card: int, count: int = 1) -> None:
        self.sizes[seat] -= count
        if seat == self.you:
            self.hand[card] -= count

    def _next(self, seat: int) -> int:
        return (seat + self.direction) % self.players

    # -- the entries ----------------------------------------------------------------------

    def start(self, seat: int, food: int) -> None:
        """``seat`` starts the serving pile with ``food``."""
        self._check(seat, START, food)
        self._played(seat, food)
        self.pile, self.food, self.value = [food], food, food
        self.phase, self.turn = TURN, self._next(seat)

    def serve(self, seat: int, food: int) -> None:
        """``seat`` serves ``food`` (the value in play)."""
        self._check(seat, SERVE, food)
        self._played(seat, food)
        self.pile.append(food)
        self.value += food
        self.turn = self._next(seat)

    def action(self, seat: int, card: int, chosen: int | None = None) -> None:
        """``seat`` plays an action card (``chosen``: the player named by
        "choose the next player")."""
        if card not in (PLUS, REVERSE, CHOOSE):
            raise IllegalMove(Refusal("card", {"card": card}))
        self._check(seat, PLAY, card)
        if card == CHOOSE and (chosen is None or chosen == seat
                               or not 0 <= chosen < self.players):
            raise IllegalMove(Refusal("choose", {"seat": -1 if chosen is None else chosen}))
        self._played(seat, card)
        self.pile.append(card)
        if card == PLUS:
            self.value += 1
        elif card == REVERSE:
            self.direction = -self.direction
        self.turn = chosen if card == CHOOSE and chosen is not None else self._next(seat)

    def skip(self, seat: int, food: int) -> None:
        """``seat`` skips the food with two ``food`` cards."""
        self._check(seat, SKIP, food)
        self._played(seat, food, 2)
        self.discard += [*self.pile, food]
        self.pile, self.food, self.value = [food], food, food
        self.turn = self._next(seat)

    def drawable(self) -> int:
        """Cards that can be drawn now: the draw pile, then the discard pile."""
        return self.draw + len(self.discard)

    def eat(self, seat: int, turned: Sequence[int]) -> None:
        """``seat`` eats: ``turned`` are the cards turned up, in order (as
        many as the pile's value, unless both piles ran out)."""
        self._check(seat, EAT)
        if any(card not in CARDS for card in turned):
            raise IllegalMove(Refusal("card", {"card": next(c for c in turned
                                                             if c not in CARDS)}))
        count = min(self.value, self.drawable())
        overeating = sum(card == OVEREATING for card in turned)
        if len(turned) != count:
            raise IllegalMove(Refusal("count", {"cards": count}))
        if overeating > self.overeating:
            raise IllegalMove(Refusal("overeating", {"overeating": self.overeating}))
        if overeating and OVEREATING in turned[self.draw:]:
            # past the draw pile: from the discard pile, which holds none
            raise IllegalMove(Refusal("overeating", {"overeating": 0}))
        least, _ = self.overeating_bounds(count)
        if overeating < least:
            raise IllegalMove(self._overeats(count, shown=True))
        reshuffled = Counter(self.discard)
        reshuffled.subtract(turned[self.draw:])
        if seat == self.you and min(reshuffled.values(), default=0) < 0:
            # past the draw pile, the cards are the discard pile's, shuffled
            raise IllegalMove(Refusal("discard", {"card": self.draw + 1, "name": next(
                card for card, left in reshuffled.items() if left < 0)}))
        self._drawn(seat, len(turned), turned)
        if overeating:
            self._overeat(seat, overeating)
            return
        self.discard += self.pile
        self.pile, self.food, self.value = [], 0, 0
        self.phase, self.turn = PILE, seat

    def ate(self, seat: int, *, overate: int) -> None:
        """Another player ate, their cards unseen (only how many overeating
        cards turned up matters to the public state: the others go to a hand).

        >>> table = Tracker(players=3, you=0, hand=[5, 5, 3, 7, 8])
        >>> table.start(0, 5); table.serve(1, 5); table.ate(2, overate=0)
        >>> table.sizes, table.phase == PILE, table.turn
        ([4, 4, 15], True, 2)
        """
        if seat == self.you:
            raise IllegalMove(Refusal("yours"))
        self._check(seat, EAT)
        count = min(self.value, self.drawable())
        least, most = self.overeating_bounds(count)
        if overate > most:
            raise IllegalMove(Refusal("overeating", {"overeating": most}))
        if overate < least:
            raise IllegalMove(self._overeats(count, shown=False))
        # any card of a hand stands for each unseen one; the overeating cards
        # turned up first (where they came does not change the public state)
        self.eat(seat, [OVEREATING] * overate + [FOODS[0]] * (count - overate))

    def correct_hand(self, cards: Sequence[int]) -> None:
        """Your hand entered again, as it is now (a correction: as many
        cards as you hold).

        >>> table = Tracker(players=3, you=0, hand=[5, 5, 3, 7, 8])
        >>> table.correct_hand([2, 2, 2, 9, 10]); table.hand[2], table.sizes[0]
        (3, 5)
        """
        if self.phase == OVER:
            raise IllegalMove(Refusal("over"))
        if self.you == WATCHING:
            raise IllegalMove(Refusal("yours"))
        if len(cards) != self.sizes[self.you]:
            raise IllegalMove(Refusal("hand", {"cards": self.sizes[self.you]}))
        if any(card not in FOODS and card not in (PLUS, REVERSE, CHOOSE) for card in cards):
            raise IllegalMove(Refusal("card", {"card": next(
                c for c in cards if c not in FOODS and c not in (PLUS, REVERSE, CHOOSE))}))
        before = self.hand
        self.hand = [0] * SLOTS
        try:
            for card in cards:
                self._supply(card)
                self.hand[card] += 1
        except IllegalMove:
            self.hand = before
            raise

    def drew(self, seat: int, cards: Sequence[int] | int, *, overate: bool = False) -> None:
        """``seat`` drew cards at the start of a turn (an empty hand draws
        three; a player with no food to start a pile draws until one
        comes): the cards, or only how many for another player's
        (``overate``: the last of them an overeating card); an overeating
        card among them (the last) ends the round.

        >>> table = Tracker(players=3, you=0, hand=[5, 5, 3, 7, 8])
        >>> table.start(0, 5); table.serve(1, 5)
        >>> table.drew(2, 2)
        Traceback (most recent call last):
        ...
        companion.games.micimaki.rules.IllegalMove: draw: {'seat': 2}
        """
        if self.phase == OVER:
            raise IllegalMove(Refusal("over"))
        if seat != self.turn:
            raise IllegalMove(Refusal("turn", {"seat": self.turn}))
        shown = [] if isinstance(cards, int) else list(cards)
        count = cards if isinstance(cards, int) else len(shown)
        if seat == self.you and isinstance(cards, int):
            raise IllegalMove(Refusal("yours"))
        empty = not self.sizes[seat]
        if self.phase not in (PILE, TURN) or (not empty and (
                self.phase != PILE or (seat == self.you and self._holds_food()))):
            raise IllegalMove(Refusal("draw", {"seat": seat}))
        if any(card not in CARDS for card in shown):
            raise IllegalMove(Refusal("card", {"card": next(c for c in shown if c not in CARDS)}))
        if not 0 < count <= self.drawable():
            raise IllegalMove(Refusal("count", {"cards": self.drawable()}))
        if shown:
            overate = shown[-1] == OVEREATING
        if OVEREATING in shown[:-1] or (overate and not self.overeating):
            raise IllegalMove(Refusal("overeating", {"overeating": 0}))
        if empty:
            expected = min(EMPTY_HAND_DRAW, self.drawable())
            if count > expected or (count < expected and not overate):
                raise IllegalMove(Refusal("count", {"cards": expected}))
        elif shown and not _until_food(shown):
            raise IllegalMove(Refusal("until"))
        if count - overate > self.free():
            raise IllegalMove(Refusal("draw-overeats", {
                "card": self.free() + 1, "free": self.free(), "shown": int(bool(shown)),
                "empty": int(empty)}))
        self._drawn(seat, count, shown or [0] * (count - 1) + [OVEREATING if overate else 0])
        if overate:
            self._overeat(seat, 1)

    def overate(self, seat: int) -> None:
        """Another player turned up an overeating card while drawing at the
        start of a turn (the cards before it are hidden)."""
        if seat == self.you:
            raise IllegalMove(Refusal("yours"))
        self.drew(seat, 1, overate=True)

    def passed(self, seat: int) -> None:
        """``seat`` had to start a pile with no food, and no card was left to
        draw: the next player starts it (a ruling)."""
        if self.phase != PILE or seat != self.turn or self.drawable():
            raise IllegalMove(Refusal("phase"))
        if seat == self.you and any(self.hand[value] for value in FOODS):
            raise IllegalMove(Refusal("start"))
        self.turn = self._next(seat)

    def add_overeating(self, add: bool) -> None:
        """The player who overate adds one more overeating card, or not."""
        if self.phase != ADD:
            raise IllegalMove(Refusal("phase"))
        if add and self._in_game() >= MOST_OVEREATING:
            raise IllegalMove(Refusal("full", {"most": MOST_OVEREATING}))
        self._new_round(add=add)

    # -- what the rules force -------------------------------------------------------------

    def free(self) -> int:
        """Cards of the draw pile that are not overeating cards: drawing more
        than these turns one up.

        >>> Tracker(players=3, you=0).free()
        74
        """
        return max(0, self.draw - self.overeating)

    def overeating_bounds(self, cards: int) -> tuple[int, int]:
        """How few and how many overeating cards can turn up when ``cards``
        cards are drawn now, every one (an eat): the first come from the
        draw pile, which holds every overeating card in play; the discard
        pile, drawn from past it, holds none.

        >>> table = Tracker(players=3, you=0)
        >>> table.overeating_bounds(12), table.overeating_bounds(75), table.overeating_bounds(80)
        ((0, 1), (1, 1), (1, 1))
        """
        drawn = min(cards, self.draw)
        return max(0, drawn - self.free()), min(self.overeating, drawn)

    def _overeats(self, count: int, *, shown: bool) -> Refusal:
        least, _ = self.overeating_bounds(count)
        return Refusal("overeats", {"least": least, "cards": count, "free": self.free(),
                                    "shown": int(shown)})

    def _holds_food(self) -> bool:
        return any(self.hand[value] for value in FOODS)

    # -- the round's end ------------------------------------------------------------------

    def _take(self, count: int) -> None:
        """``count`` cards leave the draw pile (the discard pile becomes the
        new draw pile when it runs out)."""
        for _ in range(count):
            if not self.draw:
                if not self.discard:
                    raise IllegalMove(Refusal("count", {"cards": 0}))
                self.draw, self.discard = len(self.discard), []
            self.draw -= 1

    def _drawn(self, seat: int, count: int, cards: Sequence[int]) -> None:
        """``count`` cards drawn by ``seat`` (``cards``: which, when known):
        all of them, or, refused, none."""
        before = copy.deepcopy(self.__dict__)
        try:
            self._take(count)
            for card in cards if cards else [0] * count:
                if card != OVEREATING:
                    self._gain(seat, card)
        except IllegalMove:
            self.__dict__.update(before)
            raise

    def _gain(self, seat: int, card: int) -> None:
        self.sizes[seat] += 1
        if seat == self.you:
            if card not in FOODS and card not in (PLUS, REVERSE, CHOOSE):
                raise IllegalMove(Refusal("card", {"card": card}))
            self._supply(card)
            self.hand[card] += 1

    def _in_game(self) -> int:
        return self.overeating + self._turned

    def _overeat(self, seat: int, turned: int) -> None:
        self._turned = turned
        self.overeating -= turned
        self.tokens[seat] += 1
        self.turn = seat
        if self.tokens[seat] >= LAST_TOKEN:
            self.phase = OVER
            self.winners = winners(self.tokens, self.sizes)
            return
        if self._in_game() >= MOST_OVEREATING:
            self._new_round(add=False)
        else:
            self.phase = ADD

    def _new_round(self, *, add: bool) -> None:
        self.discard += self.pile
        self.draw += len(self.discard) + self._turned + add
        self.overeating += self._turned + add
        self._turned = 0
        self.discard, self.pile = [], []
        self.food = self.value = 0
        self.direction, self.round, self.phase = 1, self.round + 1, PILE

    # -- what can be said -----------------------------------------------------------------

    def risk(self) -> Fraction:
        """The chance of overeating if the player to play ate now."""
        if self.phase != TURN:
            return Fraction(0)
        return overeating_risk(draw=self.draw, overeating=self.overeating,
                               eat=max(self.value, 1), discard=len(self.discard))

    def playable(self) -> list[Move]:
        """What you could play now from your hand, if it is your turn."""
        if self.turn != self.you or self.phase not in (PILE, TURN):
            return []
        hand = self.hand
        if self.phase == PILE:
            return [(START, value) for value in FOODS if hand[value]]
        moves: list[Move] = [(EAT, 0)]
        if self.food and hand[self.food]:
            moves.append((SERVE, self.food))
        moves += [(PLAY, card) for card in (PLUS, REVERSE) if hand[card]]
        if hand[CHOOSE]:
            moves += [(CHOOSE, seat) for seat in range(self.players) if seat != self.you]
        moves += [(SKIP, value) for value in FOODS if hand[value] >= 2]
        return moves


def _until_food(cards: Sequence[int]) -> bool:
    """Cards drawn until a food card came: none before the last is food or
    an overeating card, and the last is one of them.

    >>> _until_food([8, 9, 4]), _until_food([8, OVEREATING]), _until_food([4, 5])
    (True, True, False)
    """
    if not cards:
        return False
    *first, last = cards
    stops = (*FOODS, OVEREATING)
    return last in stops and not any(card in stops for card in first)
