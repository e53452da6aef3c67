"""Mici Maki's bots, seeing only what their seat may know (a
:class:`~companion.games.micimaki.rules.View`) and choosing among the
legal moves:

- ``random``: any legal move, uniformly;
- ``cautious``: never eats while eating can overeat (unless it must),
  eats a pile that cannot hurt, starts piles high, never adds an
  overeating card;
- ``advisor``: eats while the chance of overeating is low (cards are
  ways out later), and otherwise passes the most dangerous pile it can,
  to the player whose token helps it most; starts piles high; says why
  in a few figures (the hint).

>>> import random
>>> from companion.games.micimaki.rules import Game, Setup
>>> game = Game(Setup(players=4), random.Random(3))
>>> bots = [bot(name) for name in ("advisor", "cautious", "cautious", "random")]
>>> result = play(game, bots, random.Random(3))
>>> result.over and max(result.tokens) == 3
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from companion.games.micimaki.risk import overeating_risk
from companion.games.micimaki.rules import (
    ADD,
    CHOOSE,
    EAT,
    EXTRA,
    OVER,
    PILE,
    PLAY,
    PLUS,
    REVERSE,
    SERVE,
    SKIP,
    Game,
    IllegalMove,
    Move,
    Refusal,
    View,
)

#: The bots, by the names commands and setup menus use.
NAMES = ("random", "cautious", "advisor")


class Bot(Protocol):
    """A player of Mici Maki that sees only its seat's view."""

    name: str

    def choose(self, view: View, moves: Sequence[Move], rng: random.Random) -> Move: ...


def eating_risk(view: View, value: int | None = None) -> Fraction:
    """The chance of overeating when eating a pile worth ``value`` (the
    pile's own value by default) with the draw pile as the view shows it."""
    return overeating_risk(draw=view.draw, overeating=view.overeating,
                           eat=max(value if value is not None else view.value, 1))


class RandomBot:
    name = "random"

    def choose(self, view: View, moves: Sequence[Move], rng: random.Random) -> Move:
        del view
        return moves[int(rng.random() * len(moves))]


class CautiousBot:
    """Avoids every risk it can see."""

    name = "cautious"

    def choose(self, view: View, moves: Sequence[Move], rng: random.Random) -> Move:
        del rng
        if view.phase == ADD:
            return (EXTRA, 0)
        if view.phase == PILE:
            return max(moves, key=lambda move: move[1])  # the highest food
        if (EAT, 0) in moves and eating_risk(view) == 0:
            return (EAT, 0)
        others = [move for move in moves if move[0] != EAT]
        if not others:
            return (EAT, 0)
        # serve first (it keeps the pile growing for the next player), then
        # "+1", then a skip with the lowest pair, then the direction cards
        order = {SERVE: 0, PLAY: 1, SKIP: 2, CHOOSE: 3}
        return min(others, key=lambda move: (order.get(move[0], 4), move[1]))


@dataclass(frozen=True, slots=True)
class Advice:
    """A move and why: the chance of overeating if eating now, and the
    pile's value it leaves for the next player (0 when it eats)."""

    move: Move
    risk_now: Fraction
    leaves: int
    next_seat: int


class Advisor:
    """Eats when eating is safe enough against what the other moves leave;
    otherwise passes the biggest pile it can to the next player."""

    name = "advisor"

    def __init__(self, threshold: float = 0.28) -> None:
        #: The risk of eating now above which another move is better.
        self.threshold = threshold

    def advise(self, view: View, moves: Sequence[Move]) -> Advice:
        """The move, with the figures of its reason."""
        players = len(view.tokens)
        step = view.direction
        if view.phase == ADD:
            # one more overeating card hurts the others more when we lead
            lead = view.tokens[view.seat] <= min(view.tokens)
            return Advice((EXTRA, 1) if lead and (EXTRA, 1) in moves else (EXTRA, 0),
                          Fraction(0), 0, view.seat)
        if view.phase == PILE:
            # the highest food: the biggest pile for the next player
            move = max(moves, key=lambda m: m[1])
            return Advice(move, Fraction(0), move[1], (view.seat + step) % players)
        risk_now = eating_risk(view)
        others = [move for move in moves if move[0] != EAT]
        if risk_now == 0 or not others:
            return Advice((EAT, 0), risk_now, 0, view.seat)
        if risk_now <= self.threshold:  # cheap cards: options for later
            return Advice((EAT, 0), risk_now, 0, view.seat)
        best = max(others, key=lambda move: self._score(view, move))
        leaves, target = self._after(view, best)
        return Advice(best, risk_now, leaves, target)

    def _after(self, view: View, move: Move) -> tuple[int, int]:
        """The pile's value after ``move``, and who plays next."""
        players = len(view.tokens)
        kind, argument = move
        step = view.direction
        value = view.value
        if kind == SERVE:
            value += argument
        elif kind == PLAY and argument == PLUS:
            value += 1
        elif kind == PLAY and argument == REVERSE:
            step = -step
        elif kind == SKIP:
            value = argument
        target = argument if kind == CHOOSE else (view.seat + step) % players
        return value, target

    def _score(self, view: View, move: Move) -> tuple[float, int]:
        value, target = self._after(view, move)
        danger = float(eating_risk(view, value))
        # a big pile is worth more for a player close to losing, and for one
        # who leads or ties (whose token helps us most); and keep a pair (a
        # way out later) while another move will do
        close = view.tokens[target] / 3
        leads = 1 if view.tokens[target] <= view.tokens[view.seat] else 0
        keep = 0 if move[0] == SKIP else 1
        return (danger * (1 + close + leads), keep)

    def choose(self, view: View, moves: Sequence[Move], rng: random.Random) -> Move:
        del rng
        return self.advise(view, moves).move


def bot(name: str) -> Bot:
    """A bot by name; :class:`KeyError` for an unknown one."""
    bots: dict[str, type[RandomBot] | type[CautiousBot] | type[Advisor]] = {
        "random": RandomBot, "cautious": CautiousBot, "advisor": Advisor}
    return bots[name]()


def play(game: Game, bots: Sequence[Bot], rng: random.Random) -> Game:
    """Play ``game`` to its end, each seat's bot choosing from its view (a
    live view, made once a game) and the legal moves; a move a bot makes
    that the rules do not allow raises :class:`IllegalMove`."""
    views = [game.live_view(seat) for seat in range(game.players)]
    choosers = [bot.choose for bot in bots]
    legal_moves, apply = game.legal_moves, game.apply
    while game.phase != OVER:
        seat = game.turn
        moves = legal_moves()
        if len(moves) == 1:
            apply(moves[0])
            continue
        move = choosers[seat](views[seat], moves, rng)
        if move not in moves:
            raise IllegalMove(game.refusal(move) or Refusal("phase"))
        apply(move)
    return game

