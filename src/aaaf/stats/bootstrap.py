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
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

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
        self, confidence: float, *, comparisons: int = 1
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Two-sided percentile interval at ``confidence``, Bonferroni-corrected for k comparisons.

        SCORING.md §4: percentiles 100·α/(2k) and 100 − 100·α/(2k) with α = 1 − confidence;
        k = 1 gives the plain interval (2.5 and 97.5 at 95 %).
        """
        if not 0.0 < confidence < 1.0:
            raise ValueError(f"confidence must be in (0, 1), got {confidence}")
        if comparisons < 1:
            raise ValueError("comparisons must be ≥ 1")
        tail = 100.0 * (1.0 - confidence) / (2.0 * comparisons)
        return self.percentiles(tail, 100.0 - tail)


def bootstrap_means(data: ArrayLike, *, resamples: int = 10_000, seed: int = 0) -> BootstrapResult:
    """Percentile bootstrap of the mean of every row of ``data`` with shared (paired) indices."""
    rows = _as_rows(data)
    resampled = resampled_means(rows, resamples=resamples, seed=seed)  # checks the sizes first
    return BootstrapResult(estimate=rows.mean(axis=1), resampled=resampled, seed=seed)


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
