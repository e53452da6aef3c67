"""Figures from repeated measures: percentiles and win-rate intervals, for
the benchmarks and simulations of every game."""

from __future__ import annotations

import math
from collections.abc import Sequence


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
