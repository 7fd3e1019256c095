"""Deciles of a benchmark cell and a score's percentile against them (issue 20 §2).

Pure: no I/O, no clock.  Deciles are the 10th … 90th percentiles with linear interpolation
between order statistics (Hyndman and Fan's definition 7, numpy's default ``linear``):
for sorted values ``x[0..n-1]`` the ``p``-th quantile is at position ``h = (n - 1) p``,
``x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h])``.

A score's percentile against published deciles is read off the piecewise-linear curve
through ``(0.0, 0)``, ``(d10, 10)``, … ``(d90, 90)``, ``(1.0, 100)`` (scores live in
[0, 1]); a score equal to a run of tied points takes the middle of their percentiles.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

DECILE_LEVELS: tuple[int, ...] = (10, 20, 30, 40, 50, 60, 70, 80, 90)


def deciles(values: Sequence[float]) -> list[float]:
    """The nine deciles of ``values`` (at least one value, each a finite number)."""
    if not values:
        raise ValueError("deciles of no values")
    import numpy as np  # here: the CLI imports this module for every command (aaaf.stats)

    data = np.asarray(values, dtype=np.float64)
    if not np.all(np.isfinite(data)):
        raise ValueError("deciles of non-finite values")
    quantiles = np.quantile(data, [level / 100 for level in DECILE_LEVELS], method="linear")
    return [float(q) for q in quantiles]


def percentile_against(cell_deciles: Sequence[float], score: float) -> float:
    """Where ``score`` (in [0, 1]) stands against ``cell_deciles``, 0 … 100."""
    if len(cell_deciles) != len(DECILE_LEVELS):
        raise ValueError(f"expected {len(DECILE_LEVELS)} deciles, got {len(cell_deciles)}")
    points = [(0.0, 0.0)]
    points += [(float(d), float(level)) for d, level in zip(cell_deciles, DECILE_LEVELS, strict=True)]
    points.append((1.0, 100.0))
    x = min(max(float(score), 0.0), 1.0)
    tied = [p for value, p in points if value == x]
    if tied:
        return (min(tied) + max(tied)) / 2
    for (x0, p0), (x1, p1) in pairwise(points):
        if x0 < x < x1:
            return p0 + (p1 - p0) * (x - x0) / (x1 - x0)
    raise ValueError(f"deciles are not sorted: {list(cell_deciles)}")  # pragma: no cover
