"""What one seat can know about the hidden hands, and worlds consistent with it.

A hand travels round the table. The hand a player holds now is one this seat
held some turns ago, less what each player took from it on the way (their
picks are revealed; chopsticks used go back into the hand). So after as many
turns as there are players, every hand is known exactly; before that, the
hands this seat has not seen yet are only a number of cards.

:func:`hand_knowledge` works that out from a :class:`SeatView`, and
:func:`sample_game` deals the unknown cards at random from those nobody has
seen, giving a whole :class:`Game` that this seat could not tell from the
real one: the advisor plays its look-ahead in such games.

>>> import random
>>> game = Game(4, rng=random.Random(1))
>>> [k.unknown for k in hand_knowledge(game.view(0))]
[0, 8, 8, 8]
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from companion.games.sushigo.cards import Card, deck_counts
from companion.games.sushigo.draft import Game, SeatView


@dataclass(frozen=True, slots=True)
class HandKnowledge:
    """What a seat knows of one hand now: some cards for sure, others not.

    ``since`` is the turn this seat last held that hand (0 if never), and
    ``taken`` what the players after it took from it since, in order.
    """

    seat: int
    known: tuple[Card, ...]
    unknown: int
    since: int = 0
    taken: tuple[tuple[int, tuple[Card, ...]], ...] = ()

    @property
    def complete(self) -> bool:
        return self.unknown == 0


def hand_knowledge(view: SeatView) -> list[HandKnowledge]:
    """Every hand at the table as this seat knows it, seat by seat.

    The seat's own hand is known whole; the dummy's face-down pile is never
    known.
    """
    result = []
    for seat in range(view.seats):
        if seat == view.seat:
            result.append(HandKnowledge(seat, view.hand, 0, view.turn))
        elif seat == view.dummy:
            result.append(HandKnowledge(seat, (), view.hand_sizes[seat]))
        else:
            result.append(_trace(view, seat))
    return result


def _trace(view: SeatView, seat: int) -> HandKnowledge:
    """Follow the hand now at ``seat`` back to when this seat held it."""
    size = view.hand_sizes[seat]
    if view.dummy is not None:
        passes = 1  # the two players swap hands every turn
        path = [view.seat]
    else:
        step = int(view.direction)
        passes = ((seat - view.seat) * step) % view.seats
        path = [(view.seat + k * step) % view.seats for k in range(passes)]
    held_at = view.turn - passes
    held = dict(view.held)
    if held_at < 1 or held_at not in held:
        return HandKnowledge(seat, (), size)
    cards = list(held[held_at])
    taken = []
    for k, holder in enumerate(path):
        reveal = view.reveals[held_at + k - 1]
        laid = reveal.cards[holder]
        for card in laid:
            cards.remove(card)
        if reveal.chopsticks[holder]:
            cards.append(Card.CHOPSTICKS)
        if view.dummy is not None and holder == reveal_controller(view, held_at + k):
            cards.remove(reveal.cards[view.dummy][0])
        taken.append((held_at + k, laid))
    # The dummy's controller draws the dummy's top card, unseen by the other.
    unknown = size - len(cards)
    return HandKnowledge(seat, tuple(cards), unknown, held_at, tuple(taken))


def reveal_controller(view: SeatView, turn: int) -> int | None:
    """Who controlled the dummy on ``turn`` of this round."""
    if view.dummy is None or view.controller is None:
        return None
    back = view.turn - turn
    return (view.controller + back) % 2


def unseen(view: SeatView, knowledge: list[HandKnowledge]) -> Counter[Card]:
    """Cards this seat has no trace of: in the draw pile or in unknown hand slots."""
    pool: Counter[Card] = Counter(deck_counts(view.variant.soy_sauce))
    for hand in knowledge:
        pool.subtract(hand.known)
    for table in view.tables:
        pool.subtract(table)
    for tables in view.finished_rounds:
        for table in tables:
            pool.subtract(table)
    if any(n < 0 for n in pool.values()):
        raise ValueError("the view accounts for more cards than the deck has")
    return pool


def sample_game(view: SeatView, rng: random.Random) -> Game:
    """A whole game this seat could not tell from the real one.

    Known cards stay where they are; the unknown ones are dealt at random from
    the cards nobody has traced, and the rest become the draw pile. Nobody
    else has chosen yet this turn.
    """
    knowledge = hand_knowledge(view)
    pool = [card.index for card in unseen(view, knowledge).elements()]
    rng.shuffle(pool)
    hands = []
    for hand in knowledge:
        cards = [card.index for card in hand.known]
        if hand.unknown:
            cards.extend(pool[-hand.unknown :])
            del pool[-hand.unknown :]
            rng.shuffle(cards)
        hands.append(cards)
    return Game.restore(view, hands, pool)

