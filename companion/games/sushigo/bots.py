"""Players for practice games and simulations, and the advisor.

* ``random``: uniform over the legal choices.
* ``greedy``: the best immediate gain, valuing incomplete sets, maki, pudding,
  wasabi and chopsticks by what they are likely to become.
* ``advisor``: from one seat's view only, plays each promising choice out in
  many worlds consistent with that view (:func:`~companion.games.sushigo.knowledge.sample_game`)
  and recommends the best on average, with a reason a person can follow.

Every bot sees a :class:`~companion.games.sushigo.draft.SeatView`, never the game:

>>> import random
>>> game = Game(3, rng=random.Random(2))
>>> bot = GreedyBot()
>>> choice = bot.choose(game.view(0), game.legal_choices(0), random.Random(1))
>>> choice in game.legal_choices(0)
True
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from companion.games.sushigo.cards import CARDS, ROUNDS, Card
from companion.games.sushigo.draft import Choice, Choices, Game, SeatView, uniform_choice
from companion.games.sushigo.knowledge import sample_game
from companion.games.sushigo.scoring import (
    DUMPLING_POINTS,
    I_CHOPSTICKS,
    I_DUMPLING,
    I_EGG,
    I_MAKI1,
    I_MAKI3,
    I_PUDDING,
    I_SASHIMI,
    I_SOY,
    I_SQUID,
    I_TEMPURA,
    I_WASABI,
    ON_WASABI,
    maki_icons,
    round_points,
    tally,
    tally_colours,
)


class Bot(Protocol):
    """Chooses for one seat from what that seat may know."""

    name: str

    def choose(self, view: SeatView, choices: Choices, rng: random.Random) -> Choice: ...


class RandomBot:
    """Uniform over the legal choices (:meth:`Choices.sample`)."""

    name = "random"

    #: A choice from the view and the legal choices (no look at the view).
    choose = staticmethod(uniform_choice)


# -- valuing cards ----------------------------------------------------------------


@dataclass(slots=True)
class Situation:
    """What the valuation needs to know about the table, as card numbers."""

    seats: int
    round: int
    others_maki: list[int]
    puddings: list[int]
    seat: int
    penalty: bool


def _situation(
    tables: Sequence[Sequence[int]], puddings_before: Sequence[int], round_: int, seat: int
) -> Situation:
    seats = len(tables)
    return Situation(
        seats=seats,
        round=round_,
        others_maki=[maki_icons(tally(t)) for s, t in enumerate(tables) if s != seat],
        puddings=[puddings_before[s] + list(tables[s]).count(I_PUDDING) for s in range(seats)],
        seat=seat,
        penalty=seats > 2,
    )


def situation(game: Game, seat: int) -> Situation:
    """The situation of a seat in a game (for the look-ahead's playouts)."""
    return _situation(game._tables, game._puddings, game.round, seat)


def situation_of(view: SeatView) -> Situation:
    """The situation as the seat itself sees it."""
    tables = [[card.index for card in table] for table in view.tables]
    return _situation(tables, view.puddings, view.round, view.seat)


def _chance(turns: int, need: int) -> float:
    """A rough, cautious chance to pick ``need`` more of a kind in ``turns`` more picks."""
    if turns < need:
        return 0.0
    if need <= 1:
        return min(0.7, 0.12 * turns)
    return min(0.4, 0.05 * (turns - 1))


def card_gain(t: list[int], card: int, turns: int, where: Situation) -> float:
    """Points this card is worth on a tableau tallied as ``t``, counting what
    an incomplete set is likely to become in ``turns`` more picks."""
    if card == I_TEMPURA:
        return 5.0 if t[I_TEMPURA] % 2 else 5.0 * _chance(turns, 1)
    if card == I_SASHIMI:
        have = t[I_SASHIMI] % 3
        return 10.0 if have == 2 else 10.0 * _chance(turns, 2 - have)
    if card == I_DUMPLING:
        n = t[I_DUMPLING]
        now = DUMPLING_POINTS[min(n + 1, 5)] - DUMPLING_POINTS[min(n, 5)]
        later = DUMPLING_POINTS[min(n + 2, 5)] - DUMPLING_POINTS[min(n + 1, 5)]
        return now + 0.3 * later * _chance(turns, 1)
    if I_EGG <= card <= I_SQUID:
        value = card - I_EGG + 1
        free = t[I_WASABI] - t[ON_WASABI] - t[ON_WASABI + 1] - t[ON_WASABI + 2]
        return 3.0 * value if free else float(value)
    if card == I_WASABI:
        return 2.0 * _chance(turns, 1) * 2.2
    if I_MAKI1 <= card <= I_MAKI3:
        icons = maki_icons(t)
        added = card - I_MAKI1 + 1
        return _maki_value(icons + added, where) - _maki_value(icons, where) + 0.25 * added
    if card == I_PUDDING:
        return _pudding_value(where)
    if card == I_CHOPSTICKS:
        return 1.5 if turns >= 4 else 0.5 if turns >= 2 else 0.0
    if card == I_SOY:
        mine = tally_colours(t) + 1
        return 4.0 if mine >= 4 else 2.0 * _chance(turns, 1)
    return 0.0


def _maki_value(icons: int, where: Situation) -> float:
    if icons == 0:
        return 0.0
    others = where.others_maki
    top = max(others, default=0)
    if icons > top:
        return 6.0
    if icons == top:
        return 6.0 / (1 + others.count(top))
    second = max([n for n in others if n < top], default=0)
    if others.count(top) == 1 and icons >= second:
        return 3.0 if icons > second else 1.5
    return 0.0


def _pudding_value(where: Situation) -> float:
    rounds_left = ROUNDS - where.round
    mine = where.puddings[where.seat]
    others = [n for s, n in enumerate(where.puddings) if s != where.seat]
    most, fewest = max(others, default=0), min(others, default=0)
    swing = 0.0
    if mine + 1 > most >= mine:
        swing += 3.0
    if where.penalty and mine <= fewest:
        swing += 3.0
    return (swing + 1.0) if rounds_left == 0 else 1.5 + 0.5 * swing


def value_of(
    table: list[int], cards: Sequence[int], turns: int, where: Situation
) -> float:
    """Gain of laying ``cards`` in order (two with chopsticks, which leave the table)."""
    t = tally(table)
    total = 0.0
    for card in cards:
        total += card_gain(t, card, turns, where)
        t[card] += 1
        if I_EGG <= card <= I_SQUID:
            free = t[I_WASABI] - t[ON_WASABI] - t[ON_WASABI + 1] - t[ON_WASABI + 2]
            if free:
                t[ON_WASABI + card - I_EGG] += 1
    if len(cards) == 2:
        total -= card_gain(t, I_CHOPSTICKS, turns, where) * 0.5
    return total


def greedy_cards(
    hand: list[int], table: list[int], turns: int, where: Situation, chopsticks: bool
) -> tuple[int, ...]:
    """The best immediate choice (deterministic: the first best kind)."""
    kinds = sorted(set(hand))
    scored: list[tuple[float, tuple[int, ...]]] = [
        (value_of(table, (k,), turns, where), (k,)) for k in kinds
    ]
    if chopsticks and len(hand) > 1:
        top = sorted(scored, reverse=True)[:4]
        for _, (a,) in top:
            for _, (b,) in top:
                if a != b or hand.count(a) > 1:
                    pair = (a, b)
                    scored.append((value_of(table, pair, turns, where), pair))
    best = max(scored, key=lambda item: item[0])
    return best[1]


class GreedyBot:
    """The best immediate gain, with sensible values for incomplete sets."""

    name = "greedy"

    def choose(self, view: SeatView, choices: Choices, rng: random.Random) -> Choice:
        seat = view.seat
        hand = [c.index for c in view.hand]
        table = [c.index for c in view.tables[seat]]
        where = situation_of(view)
        cards = greedy_cards(hand, table, len(hand) - 1, where, choices.chopsticks)
        return _as_choice(cards, hand, view)


def _as_choice(
    cards: tuple[int, ...], hand: list[int], view: SeatView
) -> Choice:
    """A :class:`Choice`; the dummy's controller gives the dummy its least useful card."""
    own = tuple(CARDS[c] for c in cards)
    if view.controller != view.seat:
        return Choice(own)
    return Choice(own, CARDS[_dummy_gift(hand, cards)])


def _dummy_gift(hand: Sequence[int], taken: Sequence[int]) -> int:
    """The card left in hand that could help the dummy least."""
    rest = list(hand)
    for card in taken:
        rest.remove(card)
    return min(rest, key=lambda card: (_dummy_harm(card), card))


def _dummy_harm(card: int) -> float:
    """How much a card could help the dummy beat us (give it the least)."""
    return {I_PUDDING: 3.0, I_SQUID: 2.0, I_DUMPLING: 1.5}.get(card, 1.0)


# -- the advisor ------------------------------------------------------------------


class Reason(enum.Enum):
    """Why the advisor recommends a choice (the narration words it)."""

    COMPLETES_TEMPURA = "completes-tempura"
    COMPLETES_SASHIMI = "completes-sashimi"
    NIGIRI_ON_WASABI = "nigiri-on-wasabi"
    NIGIRI = "nigiri"
    DUMPLINGS = "dumplings"
    MAKI_LEAD = "maki-lead"
    PUDDING = "pudding"
    WASABI_FOR_LATER = "wasabi-for-later"
    CHOPSTICKS_FOR_LATER = "chopsticks-for-later"
    STARTS_SET = "starts-set"
    SOY_SAUCE = "soy-sauce"

    def __repr__(self) -> str:
        return f"Reason.{self.name}"


@dataclass(frozen=True, slots=True)
class Advice:
    """A recommended choice, why, and how sure the look-ahead is.

    ``points`` is what the choice scores at once where that is the reason
    (6 for salmon on an open wasabi); ``margin`` is how many points better
    than the next best choice it did on average in the look-ahead.
    """

    choice: Choice
    reason: Reason
    card: Card
    points: int
    margin: float
    worlds: int


class Advisor:
    """Recommends a choice from one seat's view, by looking ahead.

    For each promising choice it plays the rest of the round out in worlds
    consistent with the view, every seat (this one included) then choosing
    greedily, and scores the round and the puddings for this seat against
    the others. It looks at ``worlds`` worlds; given a ``clock`` (a function
    giving seconds, such as :func:`time.perf_counter`) and a ``budget`` in
    seconds, it stops at the budget instead, after 8 worlds at least. The
    rules package reads no clock of its own: the caller lends one.
    """

    name = "advisor"

    def __init__(
        self,
        *,
        worlds: int = 40,
        candidates: int = 5,
        budget: float | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.worlds = worlds
        self.candidates = candidates
        self.budget = budget
        self.clock = clock

    def choose(self, view: SeatView, choices: Choices, rng: random.Random) -> Choice:
        return self.advise(view, choices, rng).choice

    def advise(self, view: SeatView, choices: Choices, rng: random.Random) -> Advice:
        clock, budget = self.clock, self.budget
        deadline = clock() + budget if clock is not None and budget is not None else None
        seat = view.seat
        hand = [c.index for c in view.hand]
        table = [c.index for c in view.tables[seat]]
        base = sample_game(view, rng)
        where = situation(base, seat)
        turns = len(hand) - 1
        options = _options(hand, choices.chopsticks)
        ranked = sorted(options, key=lambda cards: -value_of(table, cards, turns, where))
        shortlist = ranked[: self.candidates]
        totals = [0.0] * len(shortlist)
        played = 0
        while played < self.worlds and (
            played < 8 or deadline is None or clock is None or clock() < deadline
        ):
            world = sample_game(view, rng)
            for i, cards in enumerate(shortlist):
                totals[i] += _play_out(world, seat, cards, rng)
            played += 1
        means = [total / played for total in totals]
        order = sorted(range(len(shortlist)), key=lambda i: -means[i])
        best = shortlist[order[0]]
        margin = means[order[0]] - means[order[1]] if len(order) > 1 else 0.0
        reason, card, points = explain(table, best, turns, where)
        return Advice(
            choice=_as_choice(best, hand, view),
            reason=reason,
            card=card,
            points=points,
            margin=margin,
            worlds=played,
        )


def table_advice(
    hand: Sequence[Card],
    tables: Sequence[Sequence[Card]],
    puddings_before: Sequence[int],
    round_: int,
    seat: int,
) -> Advice:
    """Advice from what a player at a real table knows: their hand, the
    tables as entered so far and the puddings of earlier rounds. The other
    hands are unknown, so it weighs the cards as the greedy bot does, with no
    look-ahead (``worlds`` is 0)."""
    numbers = [card.index for card in hand]
    own = [card.index for card in tables[seat]]
    where = _situation([[card.index for card in table] for table in tables],
                       puddings_before, round_, seat)
    turns = len(numbers) - 1
    best = greedy_cards(numbers, own, turns, where, I_CHOPSTICKS in own)
    reason, card, points = explain(own, best, turns, where)
    return Advice(Choice(tuple(CARDS[c] for c in best)), reason, card, points, 0.0, 0)


def _options(hand: list[int], chopsticks: bool) -> list[tuple[int, ...]]:
    kinds = sorted(set(hand))
    options: list[tuple[int, ...]] = [(k,) for k in kinds]
    if chopsticks and len(hand) > 1:
        options += [(a, b) for a in kinds for b in kinds if a != b or hand.count(a) > 1]
    return options


def _play_out(world: Game, seat: int, cards: tuple[int, ...], rng: random.Random) -> float:
    """Play ``cards`` for ``seat`` in a copy of ``world``, everyone greedy to
    the end of the round; this seat's round and pudding outlook against the others."""
    game = world.copy()
    policy = _greedy_policy(rng)
    before = len(game._round_points)
    game._pending[seat] = cards
    if game.controller == seat:
        game._dummy_pick = _dummy_gift(game._hands[seat], cards)
    game.play_round(policy)
    points = game._round_points[before]
    puddings = game._puddings
    mine = points[seat] + 2.0 * puddings[seat]
    others = [
        points[s] + 2.0 * puddings[s]
        for s in range(game.seats)
        if s not in (seat, game.dummy)  # the dummy cannot win
    ]
    return mine - max(others)


Policy = Callable[[Game, int], tuple[int, ...]]


def _greedy_policy(rng: random.Random) -> Policy:
    r = rng.random

    def pick(game: Game, seat: int) -> tuple[int, ...]:
        hand = game._hands[seat]
        table = game._tables[seat]
        if r() < 0.1:
            return (hand[int(r() * len(hand))],)
        where = situation(game, seat)
        chopsticks = I_CHOPSTICKS in table
        return greedy_cards(hand, table, len(hand) - 1, where, chopsticks)

    return pick


def explain(
    table: list[int], cards: tuple[int, ...], turns: int, where: Situation
) -> tuple[Reason, Card, int]:
    """The reason a person would give for a choice, its main card and the
    points it makes at once (two cards with chopsticks: the one that counts)."""
    t = tally(table)
    scored = []
    for i, number in enumerate(cards):
        before = round_points([t])[0]
        gain = card_gain(t, number, turns, where)
        t = tally([*table, *cards[: i + 1]])
        scored.append((round_points([t])[0] - before, gain, number))
    now, _, best = max(scored)
    if now <= 0:
        best = max(scored, key=lambda item: item[1])[2]
    card = CARDS[best]
    if best == I_TEMPURA and now >= 5:
        return Reason.COMPLETES_TEMPURA, card, now
    if best == I_SASHIMI and now >= 10:
        return Reason.COMPLETES_SASHIMI, card, now
    if I_EGG <= best <= I_SQUID:
        value = best - I_EGG + 1
        return (Reason.NIGIRI_ON_WASABI if now > value else Reason.NIGIRI), card, now
    if best == I_DUMPLING:
        return Reason.DUMPLINGS, card, now
    if I_MAKI1 <= best <= I_MAKI3:
        return Reason.MAKI_LEAD, card, 0
    if best == I_PUDDING:
        return Reason.PUDDING, card, 0
    if best == I_WASABI:
        return Reason.WASABI_FOR_LATER, card, 0
    if best == I_CHOPSTICKS:
        return Reason.CHOPSTICKS_FOR_LATER, card, 0
    if best == I_SOY:
        return Reason.SOY_SAUCE, card, 0
    return Reason.STARTS_SET, card, 0


BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "advisor": Advisor,
}
