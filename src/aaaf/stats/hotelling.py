"""One-sample Hotelling T² on paired layer differences (SCORING.md §4, the v1.0 option).

The v0.x verdict tests the composite (an equal-weight mean) and each layer on its own;
document 002 §6 names a multivariate test as the way forward.  Hotelling's T² asks
whether the *vector* of mean layer differences d̄ is zero, weighting each direction by
its own noise: T² = n · d̄ᵀ S⁻¹ d̄, with S the sample covariance (n − 1 denominator), and
(n − p) / (p (n − 1)) · T² ~ F(p, n − p) under the null of normal differences.

With n ≤ p the covariance cannot be estimated and the p-value is None (not significant).
Otherwise degenerate covariance is handled explicitly rather than with a pseudo-inverse that
would silently change the test: directions with no variance (eigenvalue ≤ tol × the
largest) either carry a mean shift — a difference measured without noise, T² = ∞ and
p = 0 — or carry nothing and are dropped, so p is the rank of the rest (and n − p > 0).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

_RELATIVE_TOLERANCE = 1e-10


@dataclass(frozen=True)
class HotellingResult:
    """T², its F transform and p-value; ``dimensions`` is the rank actually tested."""

    statistic: float | None
    f_statistic: float | None
    df1: int
    df2: int
    p_value: float | None
    n: int
    dimensions: int
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "statistic": _json_float(self.statistic),
            "f_statistic": _json_float(self.f_statistic),
            "df1": self.df1,
            "df2": self.df2,
            "p_value": self.p_value,
            "n": self.n,
            "dimensions": self.dimensions,
            "reason": self.reason,
        }


def _json_float(value: float | None) -> float | str | None:
    """JSON has no infinity: an infinite T² is written as the string 'inf'."""
    if value is not None and math.isinf(value):
        return "inf"
    return value


def hotelling_t2(differences: ArrayLike) -> HotellingResult:
    """One-sample Hotelling T² that the mean of the rows of ``differences`` (n × p) is 0."""
    data = np.asarray(differences, dtype=np.float64)
    if data.ndim == 1:
        data = data[:, np.newaxis]
    if data.ndim != 2:
        raise ValueError("differences must be an n × p matrix")
    if not np.all(np.isfinite(data)):
        raise ValueError("differences must be finite")
    n, p = data.shape
    if p == 0:
        return HotellingResult(None, None, 0, 0, None, n, 0, "no layer differences to test")
    if n < 2:
        return HotellingResult(None, None, 0, 0, None, n, 0, "fewer than 2 paired samples")
    if n <= p:
        # the sample covariance of n points spans at most n − 1 directions: too few samples,
        # not a noiseless direction
        return HotellingResult(
            None, None, p, n - p, None, n, p, f"n = {n} is not larger than the {p} dimensions tested"
        )
    mean = data.mean(axis=0)
    covariance = np.atleast_2d(np.cov(data, rowvar=False, ddof=1))
    eigenvalues, eigenvectors = np.linalg.eigh(covariance)
    largest = float(eigenvalues.max())
    scale = max(largest, float(np.abs(mean).max()) ** 2, 1.0)
    keep = eigenvalues > _RELATIVE_TOLERANCE * scale
    projected = eigenvectors.T @ mean
    null_shift = projected[~keep]
    if null_shift.size and float(np.abs(null_shift).max()) > math.sqrt(_RELATIVE_TOLERANCE * scale):
        rank = int(keep.sum())
        return HotellingResult(
            math.inf,
            math.inf,
            max(rank, 1),
            max(n - max(rank, 1), 0),
            0.0,
            n,
            max(rank, 1),
            "a mean difference in a direction without variance (every paired sample moved identically)",
        )
    rank = int(keep.sum())
    if rank == 0:
        return HotellingResult(0.0, 0.0, 0, 0, 1.0, n, 0, "no variance and no mean difference")
    statistic = float(n * np.sum(projected[keep] ** 2 / eigenvalues[keep]))
    df2 = n - rank
    f_statistic = statistic * df2 / (rank * (n - 1))
    from scipy import stats as scipy_stats  # lazily: `aaaf --help` does not pay for SciPy

    p_value = float(scipy_stats.f.sf(f_statistic, rank, df2))
    return HotellingResult(statistic, f_statistic, rank, df2, p_value, n, rank)
