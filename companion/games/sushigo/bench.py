"""``companion bench engine`` for Sushi Go!: random full-rules games a second,
by the engine's own fast path (:meth:`Game.play_random`) and through the
bots' API as ``companion simulate`` plays them (random bots deciding from
their seat's view and legal choices), side by side.

Figures are measured, never asserted by the test suite: the tests check that
the benchmark runs and reports sane numbers.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass

from companion.contract.game import EngineFigures as Figures
from companion.contract.game import EngineRow, Progressed, no_progress
from companion.games.sushigo.cards import MAX_PLAYERS, MIN_PLAYERS
from companion.games.sushigo.draft import Game
from companion.games.sushigo.simulate import play_games
from companion.stats import Paired, paired, rate


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
    figures = rate(_engine_game(seats, seed), seconds=seconds, batches=batches)
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


def _engine_game(seats: int, seed: int) -> Callable[[], object]:
    rng = random.Random(seed)
    return lambda: Game(seats, rng=rng).play_random(rng)


def _simulated_game(seats: int, seed: int) -> Callable[[], object]:
    """One more game of a ``companion simulate --bots random`` series."""
    lineup = ["random"] * seats
    numbers = itertools.count()
    return lambda: play_games(lineup, 1, seed=seed, first=next(numbers))


def bench_simulate(seats: int, *, seconds: float = 2.0, seed: int = 1) -> Paired:
    """Random games through the bots' API beside the engine's fast path, in
    turns on this core for about ``seconds``: both rates and the share."""
    return paired(_engine_game(seats, seed), _simulated_game(seats, seed), seconds=seconds)


def engine_report(seconds: float = 2.0, progress: Progressed = no_progress) -> Figures:
    """The engine's random games a second per table size (with the time of
    one game), and the same games played through the bots' API: their rate
    and their share of the engine's; ``progress`` is told the table sizes done."""
    sizes = range(MIN_PLAYERS, MAX_PLAYERS + 1)
    figures: list[EngineFigures] = []
    simulated: dict[int, Paired] = {}
    for seats in sizes:
        figures.append(bench_engine(seats, seconds=seconds))
        simulated[seats] = bench_simulate(seats, seconds=seconds)
        progress(len(figures), len(sizes))
    data = {
        "games_per_second": {str(f.seats): round(f.games_per_second, 1) for f in figures},
        "game_us": {
            str(f.seats): {
                "p50": round(f.game_us_p50, 1),
                "p95": round(f.game_us_p95, 1),
                "p99": round(f.game_us_p99, 1),
            }
            for f in figures
        },
        "simulate_games_per_second": {
            str(seats): round(s.second, 1) for seats, s in simulated.items()
        },
        "simulate_ratio": {str(seats): round(s.ratio, 3) for seats, s in simulated.items()},
    }
    rows = tuple(
        EngineRow(f.seats, f.games_per_second, (f.game_us_p50, f.game_us_p95, f.game_us_p99),
                  f.games, simulated[f.seats].second, simulated[f.seats].ratio)
        for f in figures)
    return Figures(data, rows)
