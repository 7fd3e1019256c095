"""Equivalence and non-inferiority with a stated margin δ (the release gate's EQUIVALENT).

"No significant difference" is not "no difference": a wide interval that contains 0 says
nothing.  The two one-sided tests (TOST) turn the question round: the change is shown
*equivalent* within ±δ when both "d ≤ −δ" and "d ≥ +δ" are rejected at level α, which is
exactly "the two-sided 1 − 2α interval lies inside (−δ, +δ)"; *non-inferior* ("no worse
than −δ") when the first alone is rejected — the interval's lower bound lies above −δ.
With α = 5 %: a 90 % interval.  An unchanged system passes as often as the interval is
narrower than the margin allows (the test's power); a change of exactly δ passes at most
α of the time (its size).

Two forms, both vectorised over rows:

* :func:`tost_paired` — the t form, for a mean of paired per-unit differences (an eval
  run's per-sample composite differences): t = (d̄ ± δ) / (s / √n) on n − 1 degrees of
  freedom, ``scipy.stats.ttest_1samp(d, ∓δ, alternative=…)`` twice;
* :func:`bootstrap_tost` — the percentile form, for a statistic that is not a mean (an
  AAAF composite, a dimension), from its resampled differences: the 100α and 100(1 − α)
  percentiles (linear interpolation, NaN resamples left out: an insufficient resample is
  not a value), p = max(share ≤ −δ, share ≥ +δ).  The same percentile rule as every
  interval of SCORING.md §2.5 and §4.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class EquivalenceResult:
    """TOST of each row: the 1 − 2α interval, the two one-sided p-values and the decisions."""

    margin: float
    alpha: float
    low: FloatArray
    high: FloatArray
    p_lower: FloatArray
    """p of "d ≤ −δ" (rejected: no worse than −δ)."""
    p_upper: FloatArray
    """p of "d ≥ +δ" (rejected: no better than +δ)."""

    @property
    def p_value(self) -> FloatArray:
        """TOST's p-value: the larger of the two one-sided ones."""
        return np.maximum(self.p_lower, self.p_upper)

    @property
    def equivalent(self) -> NDArray[np.bool_]:
        return (self.p_lower < self.alpha) & (self.p_upper < self.alpha)

    @property
    def non_inferior(self) -> NDArray[np.bool_]:
        return self.p_lower < self.alpha


def _check(margin: float, alpha: float) -> None:
    if not (margin > 0.0 and math.isfinite(margin)):
        raise ValueError("the equivalence margin must be a positive number")
    if not 0.0 < alpha < 0.5:
        raise ValueError("alpha must be in (0, 0.5)")


def tost_paired(differences: ArrayLike, margin: float, alpha: float = 0.05) -> EquivalenceResult:
    """The t-based TOST of each row of ``differences`` (k × n, or one row of n paired
    differences): is its mean within ±``margin``?  A row with no spread is decided by its
    mean alone (p 0 or 1); fewer than 2 values cannot be tested (p = 1)."""
    from scipy.stats import t as student  # lazily: `aaaf --help` does not pay for SciPy

    _check(margin, alpha)
    rows = np.asarray(differences, dtype=np.float64)
    if rows.ndim == 1:
        rows = rows[np.newaxis, :]
    if rows.ndim != 2 or not np.all(np.isfinite(rows)):
        raise ValueError("differences must be a finite 1-D or 2-D array (rows × paired units)")
    n = rows.shape[1]
    k = rows.shape[0]
    if n < 2:
        ones = np.ones(k)
        nan = np.full(k, np.nan)
        return EquivalenceResult(margin, alpha, nan, nan, ones, ones)
    mean = rows.mean(axis=1)
    se = rows.std(axis=1, ddof=1) / math.sqrt(n)
    df = n - 1
    with np.errstate(divide="ignore", invalid="ignore"):
        t_lower = (mean + margin) / se  # H0: d ≤ −δ, rejected for large t
        t_upper = (mean - margin) / se  # H0: d ≥ +δ, rejected for small t
        p_lower = np.where(se > 0, student.sf(t_lower, df), np.where(mean > -margin, 0.0, 1.0))
        p_upper = np.where(se > 0, student.cdf(t_upper, df), np.where(mean < margin, 0.0, 1.0))
    half = student.ppf(1.0 - alpha, df) * se
    return EquivalenceResult(margin, alpha, mean - half, mean + half, p_lower, p_upper)


def bootstrap_tost(resampled: ArrayLike, margin: float, alpha: float = 0.05) -> EquivalenceResult:
    """The percentile TOST of each column of ``resampled`` (B × k resampled differences;
    NaN marks a resample in which the statistic is undefined).  A column without any
    defined resample has NaN bounds and p = 1."""
    _check(margin, alpha)
    data = np.asarray(resampled, dtype=np.float64)
    if data.ndim == 1:
        data = data[:, np.newaxis]
    if data.ndim != 2:
        raise ValueError("resampled differences must be B × k")
    defined = ~np.isnan(data)
    count = defined.sum(axis=0)
    low, high = percentile_interval(data, 1.0 - 2.0 * alpha)
    with np.errstate(divide="ignore", invalid="ignore"):
        p_lower = np.where(count > 0, (defined & (data <= -margin)).sum(axis=0) / count, 1.0)
        p_upper = np.where(count > 0, (defined & (data >= margin)).sum(axis=0) / count, 1.0)
    return EquivalenceResult(margin, alpha, low, high, p_lower.astype(np.float64), p_upper.astype(np.float64))


def percentile_interval(resampled: ArrayLike, confidence: float) -> tuple[FloatArray, FloatArray]:
    """The two-sided percentile interval of each column (B × k, NaN left out), linear
    interpolation as ``numpy.percentile``'s default (SCORING.md §2.5, §4); NaN bounds for a
    column without a defined resample."""
    if not 0.0 < confidence < 1.0:
        raise ValueError("confidence must be in (0, 1)")
    data = np.asarray(resampled, dtype=np.float64)
    if data.ndim == 1:
        data = data[:, np.newaxis]
    tail = 100.0 * (1.0 - confidence) / 2.0
    if data.shape[0] == 0:
        nan = np.full(data.shape[1], np.nan)
        return nan, nan.copy()
    with warnings.catch_warnings():  # an all-NaN column is NaN, said by the caller
        warnings.simplefilter("ignore", RuntimeWarning)
        low, high = np.nanpercentile(data, [tail, 100.0 - tail], axis=0, method="linear")
    return low.astype(np.float64), high.astype(np.float64)
