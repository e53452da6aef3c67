"""``companion bench engine`` for Sushi Go!: random full-rules games a second.

Figures are measured, never asserted by the test suite: the tests check that
the benchmark runs and reports sane numbers.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass

from companion.games.sushigo.cards import MAX_PLAYERS, MIN_PLAYERS
from companion.games.sushigo.draft import Game
from companion.stats import percentile


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
    clock = time.perf_counter
    durations: list[float] = []
    rates: list[float] = []
    per_batch = seconds / batches
    for _ in range(batches):
        start = clock()
        played = 0
        while clock() - start < per_batch:
            began = clock()
            Game(seats, rng=rng).play_random(rng)
            durations.append(clock() - began)
            played += 1
        rates.append(played / (clock() - start))
    return EngineFigures(
        seats=seats,
        games_per_second=statistics.median(rates),
        game_us_p50=percentile(durations, 0.50) * 1e6,
        game_us_p95=percentile(durations, 0.95) * 1e6,
        game_us_p99=percentile(durations, 0.99) * 1e6,
        games=len(durations),
    )


def bench_engine_all(*, seconds: float = 2.0) -> list[EngineFigures]:
    return [bench_engine(n, seconds=seconds) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)]
