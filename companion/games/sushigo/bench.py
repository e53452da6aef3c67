"""``companion bench engine`` for Sushi Go!: random full-rules games a second.

Figures are measured, never asserted by the test suite: the tests check that
the benchmark runs and reports sane numbers.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.games.sushigo.cards import MAX_PLAYERS, MIN_PLAYERS
from companion.games.sushigo.draft import Game
from companion.stats import rate


@dataclass(frozen=True, slots=True)
class EngineFigures:
    """Random full-rules games per second for one table size."""

    seats: int
    games_per_second: float
    game_us_p50: float
    game_us_p95: float
    game_us_p99: float
    games: int


def bench_engine(
    seats: int, *, seconds: float = 2.0, seed: int = 1, batches: int = 5
) -> EngineFigures:
    """Play random games (uniform over the legal choices, chopsticks included)
    on this core for about ``seconds``; the rate is the median of ``batches``."""
    rng = random.Random(seed)
    figures = rate(lambda: Game(seats, rng=rng).play_random(rng), seconds=seconds,
                   batches=batches)
    return EngineFigures(
        seats=seats,
        games_per_second=figures.per_second,
        game_us_p50=figures.us_p50,
        game_us_p95=figures.us_p95,
        game_us_p99=figures.us_p99,
        games=figures.runs,
    )


def bench_engine_all(*, seconds: float = 2.0) -> list[EngineFigures]:
    return [bench_engine(n, seconds=seconds) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)]
