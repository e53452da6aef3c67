"""Figures from repeated measures: percentiles and win-rate intervals, for
the benchmarks and simulations of every game."""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass


def percentile(values: Sequence[float], fraction: float) -> float:
    """The value below which ``fraction`` of the values lie (nearest rank).

    >>> percentile([5, 1, 4, 2, 3], 0.5), percentile(range(1, 101), 0.95)
    (3, 95)
    """
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no values")
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def wilson_interval(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (shared wins count as a fraction).

    >>> low, high = wilson_interval(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    """
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return (max(0.0, centre - spread), min(1.0, centre + spread))


@dataclass(frozen=True, slots=True)
class Rate:
    """How fast something ran, again and again: runs a second (the median
    of a few batches) and the time of one run, in microseconds."""

    per_second: float
    us_p50: float
    us_p95: float
    us_p99: float
    runs: int


def rate(run: Callable[[], object], *, seconds: float = 2.0, batches: int = 5) -> Rate:
    """Call ``run`` over and over for about ``seconds``, on this core.

    >>> figures = rate(lambda: sum(range(100)), seconds=0.05)
    >>> figures.per_second > 0 and figures.us_p50 <= figures.us_p99
    True
    """
    clock = time.perf_counter
    durations: list[float] = []
    rates: list[float] = []
    per_batch = seconds / batches
    for _ in range(batches):
        start = clock()
        done = 0
        while clock() - start < per_batch or not done:
            began = clock()
            run()
            durations.append(clock() - began)
            done += 1
        rates.append(done / (clock() - start))
    return Rate(statistics.median(rates), percentile(durations, 0.50) * 1e6,
                percentile(durations, 0.95) * 1e6, percentile(durations, 0.99) * 1e6,
                len(durations))


@dataclass(frozen=True, slots=True)
class Paired:
    """Two things run in turns on this core: each one's runs a second (the
    median of its batches) and the second's speed as a share of the first's
    (the median of the batches' shares: a load that comes and goes touches
    both sides of a batch alike)."""

    first: float
    second: float
    ratio: float


def paired(
    first: Callable[[], object], second: Callable[[], object], *, seconds: float = 2.0,
    batches: int = 5,
) -> Paired:
    """Call ``first``, then ``second``, over and over for about ``seconds``
    in all, batch after batch.

    >>> figures = paired(lambda: sum(range(100)), lambda: sum(range(400)), seconds=0.1)
    >>> figures.first > 0 and figures.second > 0 and figures.ratio > 0
    True
    """
    per = seconds / (2 * batches)
    ones: list[float] = []
    twos: list[float] = []
    for _ in range(batches):
        ones.append(rate(first, seconds=per, batches=1).per_second)
        twos.append(rate(second, seconds=per, batches=1).per_second)
    ratios = [two / one for one, two in zip(ones, twos, strict=True)]
    return Paired(statistics.median(ones), statistics.median(twos), statistics.median(ratios))
