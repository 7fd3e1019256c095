"""The paired percentile bootstrap of SCORING.md §4, vectorised with NumPy.

Every layer and the composite are resampled with **one** B × n matrix of paired indices,
``numpy.random.default_rng(seed).integers(0, n, size=(B, n))``, so that two
implementations given the same seed draw exactly the same resamples (SCORING.md §4).
The matrix is drawn in row blocks from one generator; a generator's stream does not
depend on how the draw is split, so the blocks concatenate to exactly that matrix (a
test checks it), while each block stays small enough to live in the CPU cache.

A resample's mean of every row of the data is computed from the resample's index
*counts*: ``counts (blocks × n) @ dataᵀ (n × R) / n`` — one matrix product instead of
R gathers of B × n values.  Intervals are two-sided percentile intervals with
linear interpolation (NumPy's default), as §4 requires.

:meth:`BootstrapResult.interval` also offers the bias-corrected and accelerated (BCa)
interval, for comparison only (SCORING.md §4 'Interval method'): the bias ẑ₀ = Φ⁻¹ of
the share of resample means below the observed mean (ties counted half, as
``scipy.stats.bootstrap`` does), the acceleration â from the jackknife over the n
observations (â = Σ U³ / (6 (Σ U²)^{3/2}), U_i the jackknife deviations), and the
percentiles Φ(ẑ₀ + (ẑ₀ + z_q) / (1 − â (ẑ₀ + z_q))) of the same resample means.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

INTERVAL_METHODS: tuple[str, ...] = ("percentile", "bca")

# Elements of the index matrix handled per block: 256 KiB of int64, cache-sized, and a
# counts × data product small enough that BLAS does not spin up threads for it.
_BLOCK_ELEMENTS = 32_768


def resample_indices(n: int, resamples: int, seed: int) -> NDArray[np.int64]:
    """The exact B × n index matrix of SCORING.md §4 (for tests and small problems)."""
    _check_sizes(n, resamples)
    return np.random.default_rng(seed).integers(0, n, size=(resamples, n))


def _check_sizes(n: int, resamples: int) -> None:
    if n < 1:
        raise ValueError("the bootstrap needs at least one observation")
    if resamples < 1:
        raise ValueError("the bootstrap needs at least one resample")


def _as_rows(data: ArrayLike) -> NDArray[np.float64]:
    rows = np.asarray(data, dtype=np.float64)
    if rows.ndim == 1:
        rows = rows[np.newaxis, :]
    if rows.ndim != 2:
        raise ValueError(f"data must be 1-D or 2-D (rows × observations), got {rows.ndim}-D")
    if not np.all(np.isfinite(rows)):
        raise ValueError("data must be finite (a missing value cannot be resampled)")
    return rows


def resampled_means(data: ArrayLike, *, resamples: int, seed: int) -> NDArray[np.float64]:
    """Mean of every row of ``data`` (R × n) in each of B paired resamples → B × R.

    All rows share one resample index matrix (paired: observation i of every row moves
    together).  Equivalent to ``data[:, idx].mean(axis=-1).T`` with ``idx`` from
    :func:`resample_indices`, to floating-point rounding.
    """
    rows = _as_rows(data)
    n = rows.shape[1]
    _check_sizes(n, resamples)
    generator = np.random.default_rng(seed)
    columns = np.ascontiguousarray(rows.T)  # n × R
    out = np.empty((resamples, rows.shape[0]), dtype=np.float64)
    block = max(1, min(resamples, _BLOCK_ELEMENTS // n))
    # resample r of a block owns bins [r·n, (r+1)·n) of one flat bincount
    offsets = (np.arange(block, dtype=np.int64) * n)[:, np.newaxis]
    counts = np.empty((block, n), dtype=np.float64)  # reused: no allocation per block
    for start in range(0, resamples, block):
        size = min(block, resamples - start)
        indices = generator.integers(0, n, size=(size, n))
        indices += offsets[:size]
        counts[:size] = np.bincount(indices.ravel(), minlength=size * n).reshape(size, n)
        np.matmul(counts[:size], columns, out=out[start : start + size])
    out /= n
    return out


@dataclass(frozen=True, eq=False)
class BootstrapResult:
    """Observed means and their B resampled means, one column per row of the data.

    ``estimate[r]`` is the mean of row r; ``resampled[:, r]`` its bootstrap distribution.
    """

    estimate: NDArray[np.float64]
    resampled: NDArray[np.float64]
    seed: int
    data: NDArray[np.float64] | None = None

    @property
    def resamples(self) -> int:
        return int(self.resampled.shape[0])

    def percentiles(self, lower: float, upper: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Percentile bounds (0-100, linear interpolation) of every row's resampled means."""
        if not 0.0 <= lower <= upper <= 100.0:
            raise ValueError(f"percentiles must satisfy 0 ≤ lower ≤ upper ≤ 100, got {lower}, {upper}")
        bounds = np.percentile(self.resampled, [lower, upper], axis=0)
        return bounds[0], bounds[1]

    def interval(
        self, confidence: float, *, comparisons: int = 1, method: str = "percentile"
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Two-sided interval at ``confidence``, Bonferroni-corrected for k comparisons.

        SCORING.md §4: percentiles 100·α/(2k) and 100 − 100·α/(2k) with α = 1 − confidence;
        k = 1 gives the plain interval (2.5 and 97.5 at 95 %).  ``method="bca"`` moves those
        two percentiles by the bias and acceleration of each row (:meth:`bca_levels`).
        """
        if not 0.0 < confidence < 1.0:
            raise ValueError(f"confidence must be in (0, 1), got {confidence}")
        if comparisons < 1:
            raise ValueError("comparisons must be ≥ 1")
        if method not in INTERVAL_METHODS:
            raise ValueError(f"method must be one of {', '.join(INTERVAL_METHODS)}, got {method!r}")
        tail = (1.0 - confidence) / (2.0 * comparisons)
        if method == "percentile":
            return self.percentiles(100.0 * tail, 100.0 - 100.0 * tail)
        lower, upper = self.bca_levels(tail)
        rows = self.resampled.shape[1]
        low = np.empty(rows, dtype=np.float64)
        high = np.empty(rows, dtype=np.float64)
        for row in range(rows):
            column = self.resampled[:, row]
            low[row], high[row] = np.percentile(column, [100.0 * lower[row], 100.0 * upper[row]])
        return low, high

    def bca_levels(self, tail: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """The BCa quantile levels (in [0, 1]) replacing ``tail`` and ``1 − tail``, per row.

        Needs the data (``bootstrap_means`` keeps it).  A row whose jackknife has no spread
        (all observations equal) has acceleration 0; a bias share of 0 or 1 is held inside
        [1/(2B), 1 − 1/(2B)] so that ẑ₀ stays finite.
        """
        if self.data is None:
            raise ValueError("the BCa interval needs the data the resamples were drawn from")
        data = self.data
        n = data.shape[1]
        if n < 2:
            raise ValueError("the BCa interval needs at least two observations (jackknife)")
        resamples = self.resamples
        estimate = self.estimate[np.newaxis, :]
        share = (
            np.count_nonzero(self.resampled < estimate, axis=0)
            + np.count_nonzero(self.resampled <= estimate, axis=0)
        ) / (2.0 * resamples)
        share = np.clip(share, 1.0 / (2.0 * resamples), 1.0 - 1.0 / (2.0 * resamples))
        from scipy.special import ndtr, ndtri  # lazily: `aaaf --help` does not pay for SciPy

        z0 = ndtri(share)
        # jackknife means: leave observation i out
        totals = data.sum(axis=1, keepdims=True)
        jackknife = (totals - data) / (n - 1)
        deviations = (n - 1) * (jackknife.mean(axis=1, keepdims=True) - jackknife)
        numerator = np.sum(deviations**3, axis=1) / n**3
        denominator = np.sum(deviations**2, axis=1) / n**2
        with np.errstate(divide="ignore", invalid="ignore"):
            acceleration = np.where(denominator > 0.0, numerator / (6.0 * denominator**1.5), 0.0)
        z_low = float(ndtri(tail))
        levels = []
        for z in (z_low, -z_low):
            shifted = z0 + z
            levels.append(np.asarray(ndtr(z0 + shifted / (1.0 - acceleration * shifted)), dtype=np.float64))
        return levels[0], levels[1]


def bootstrap_means(data: ArrayLike, *, resamples: int = 10_000, seed: int = 0) -> BootstrapResult:
    """Percentile bootstrap of the mean of every row of ``data`` with shared (paired) indices."""
    rows = _as_rows(data)
    resampled = resampled_means(rows, resamples=resamples, seed=seed)  # checks the sizes first
    return BootstrapResult(estimate=rows.mean(axis=1), resampled=resampled, seed=seed, data=rows)


def paired_bootstrap(
    control: ArrayLike, treatment: ArrayLike, *, resamples: int = 10_000, seed: int = 0
) -> BootstrapResult:
    """Paired bootstrap of mean(treatment − control), per row (SCORING.md §4).

    ``control`` and ``treatment`` are R × n (or n) arrays whose column i is the same
    sample in both runs.
    """
    control_rows = _as_rows(control)
    treatment_rows = _as_rows(treatment)
    if control_rows.shape != treatment_rows.shape:
        raise ValueError(
            f"paired data must have the same shape, got {control_rows.shape} and {treatment_rows.shape}"
        )
    return bootstrap_means(treatment_rows - control_rows, resamples=resamples, seed=seed)
