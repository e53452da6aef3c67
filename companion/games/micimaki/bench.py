"""``companion bench engine --game mici-maki``: random full-rules games a
second, for 3 to 7 players, beside the plain simulator of the same rules
(:mod:`companion.games.micimaki.yardstick`) on the same machine, and the
ratio between them; and the same random games played through the bots' API
as ``companion simulate`` plays them (random bots deciding from their
seat's view and the legal moves), with their share of the engine's speed.

Figures are measured, never asserted by the test suite: the tests check that
the benchmark runs and reports sane numbers.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

from companion.contract.game import EngineFigures, EngineRow, Progressed, no_progress
from companion.games.micimaki.rules import Setup, random_game
from companion.games.micimaki.simulate import play_game
from companion.games.micimaki.yardstick import plain_game
from companion.stats import Paired, Rate, paired, rate

#: The table sizes measured.
SEATS = (3, 4, 5, 6, 7)


def engine_report(seconds: float = 2.0, seed: int = 1,
                  progress: Progressed = no_progress) -> EngineFigures:
    """The engine's random games a second per table size, the yardstick's,
    and the engine's speed as a multiple of the yardstick's; ``progress``
    is told the table sizes done."""
    engine: dict[str, Rate] = {}
    plain: dict[str, Rate] = {}
    simulated: dict[str, Paired] = {}
    for seats in SEATS:
        engine[str(seats)] = _engine_rate(seats, seed, seconds)
        plain[str(seats)] = _plain_rate(seats, seed, seconds / 2)
        simulated[str(seats)] = simulate_rate(seats, seed=seed, seconds=seconds)
        progress(len(simulated), len(SEATS))
    ratio = {seats: engine[seats].per_second / plain[seats].per_second for seats in engine}
    data = {
        "games_per_second": {seats: round(f.per_second, 1) for seats, f in engine.items()},
        "game_us": {seats: {"p50": round(f.us_p50, 1), "p95": round(f.us_p95, 1),
                            "p99": round(f.us_p99, 1)} for seats, f in engine.items()},
        "yardstick_games_per_second": {seats: round(f.per_second, 1)
                                       for seats, f in plain.items()},
        "ratio_to_yardstick": {seats: round(r, 2) for seats, r in ratio.items()},
        "simulate_games_per_second": {seats: round(s.second, 1)
                                      for seats, s in simulated.items()},
        "simulate_ratio": {seats: round(s.ratio, 3) for seats, s in simulated.items()},
    }
    rows = tuple(
        EngineRow(int(seats), f.per_second, (f.us_p50, f.us_p95, f.us_p99), f.runs,
                  simulated[seats].second, simulated[seats].ratio,
                  yardstick_games_per_second=plain[seats].per_second)
        for seats, f in engine.items())
    return EngineFigures(data, rows)


def simulate_rate(seats: int, *, seed: int = 1, seconds: float = 2.0) -> Paired:
    """Random games through the bots' API (a game of ``companion simulate
    --bots random`` after another) beside the engine's own random games, in
    turns on this core for about ``seconds``: both rates and the share."""
    return paired(_engine_game(seats, seed), _simulated_game(seats, seed), seconds=seconds)


def _engine_game(seats: int, seed: int) -> Callable[[], object]:
    rng = random.Random(seed)
    setup = Setup(players=seats)
    return lambda: random_game(setup, rng)


def _simulated_game(seats: int, seed: int) -> Callable[[], object]:
    setup = Setup(players=seats)
    names = ["random"] * seats
    numbers = itertools.count()
    return lambda: play_game(setup, names, seed, next(numbers))


def _engine_rate(seats: int, seed: int, seconds: float) -> Rate:
    return rate(_engine_game(seats, seed), seconds=seconds)


def _plain_rate(seats: int, seed: int, seconds: float) -> Rate:
    rng = random.Random(seed)
    return rate(lambda: plain_game(seats, rng), seconds=seconds)
