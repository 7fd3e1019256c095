"""The §0 composite of many rows at once, bit for bit the engine's (SCORING.md §0, §2.5).

:func:`aaaf.scoring.core.composite` is the one weighted mean: weights renormalised over the
covered dimensions by :func:`aaaf.scoring.core.renormalised_weights`, then the correctly
rounded sum (:func:`math.fsum`) of weight × score.  The bootstraps need it for a thousand
resamples at once; :func:`composite_rows` gives, for every row, exactly the float
``composite`` gives for that row — so an assessment and its own resamples can never land on
two sides of a tier boundary by a rounding difference (docs/scoring.md §2.5):

* the renormalised weights of each coverage pattern are ``renormalised_weights``' own;
* each row's products are summed with an error-free transformation (TwoSum): the running
  sum, the exact rounding errors, summed by TwoSum too, and their residuals.  With no
  residual the exact sum is the running sum plus the summed errors, and their rounded sum
  is the correctly rounded sum, which is what :func:`math.fsum` returns; otherwise a bound
  that proves the rounded result the float nearest to the exact sum settles the row, and a
  row it cannot settle (the exact sum within a hair of half-way between two floats) is
  summed by :func:`math.fsum` itself.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from aaaf.scoring.core import renormalised_weights

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

_EPS = float(np.finfo(np.float64).eps)
_UNDERFLOW = 2.0**-1000  # far above the error of products below the normal range
_LEAST = 5e-324  # the least positive float (subnormal)
_TABLE_BITS = 12  # up to 12 dimensions, coverage patterns are looked up in a table of 2^k


def composite_rows(scores: Sequence[FloatArray] | FloatArray, weights: Sequence[float]) -> FloatArray:
    """Per row, ``core.composite(row, weights).score`` (NaN where it is null), bit for bit.

    ``scores``: one column per dimension (a sequence of B-vectors, or a B × k matrix), in the
    order of ``weights``; NaN is a null (uncovered) dimension.
    """
    products, has_value = _weighted_products(scores, weights)
    if has_value.all():  # no row to leave null: no copy of the rows that have a value
        return _correctly_rounded_sums(products)
    out = np.full(products.shape[0], np.nan)
    out[has_value] = _correctly_rounded_sums(products[has_value])
    return out


def composite_at_least(
    scores: Sequence[FloatArray] | FloatArray, weights: Sequence[float], threshold: float
) -> BoolArray:
    """Per row, whether ``core.composite(row, weights).score`` is not null and ≥ ``threshold``:
    exactly the decision :func:`composite_rows`' value gives, for rows whose value is not
    itself needed (a level or a domain qualifies, SCORING.md §2.3).

    The same products are summed plainly; the plain sum is within ``bound`` of the correctly
    rounded one (each is within (k − 1)·ε resp. ε/2 of the exact sum, in units of Σ|product|,
    and the bound is twice that), so a row whose plain sum is farther than ``bound`` from the
    threshold is decided by it; the rest are summed as :func:`composite_rows` sums them.

    With weights ≥ 0 a cheaper estimate comes first: Σ w·score / Σ w over the covered
    dimensions (no coverage patterns).  It and the composite are each within (2k + 6)·u of
    the exact weighted mean, in units of Σ w·|score| / Σ w (u the unit roundoff), so a row
    whose estimate is farther than twice that from the threshold is decided by it; the others
    take the path above."""
    columns = [np.asarray(column, dtype=np.float64) for column in _columns(scores)]
    rows, k = (columns[0].shape[0] if columns else 0), len(columns)
    weight = [float(w) for w in weights]
    if rows == 0 or k == 0 or min(weight) < 0.0:
        return _at_least(_stacked(columns, rows), weights, threshold)
    # column by column (each score's rows contiguous), no rows × k table: a column without a
    # null adds its weight once, not per row
    # (composite_at_least 0.58–1.27 -> 0.41–0.49 ms CPU per agent in situ, alternating runs)
    covered: FloatArray | None = None  # each row's weight of the columns with a null
    weighted: FloatArray | None = None
    size: FloatArray | None = None  # Σ w·|score|, apart from the weighted sum once a score is < 0
    present = 0.0
    for w, column in zip(weight, columns, strict=True):
        least = float(column.min())  # NaN: the column has a null
        part = column * w
        if math.isnan(least):
            # masked in place, no np.where (with the maximum below: the Performance rows' at-least
            # 3.87 -> 3.26 M instructions per bench agent, callgrind on their captured rows)
            valid = column == column
            np.putmask(part, ~valid, 0.0)
            mine = np.multiply(valid, w)
            covered = mine if covered is None else np.add(covered, mine, out=covered)
            least = float(np.fmin.reduce(column))
        else:
            present += w
        if size is None and least < 0.0:  # the |score| of the columns so far: none negative
            size = np.zeros(rows) if weighted is None else weighted.copy()
        if size is not None:
            size += np.abs(part)
        weighted = part if weighted is None else np.add(weighted, part, out=weighted)
    assert weighted is not None
    total = present if covered is None else np.add(covered, present, out=covered)
    has_value = np.asarray(total > 0.0)
    # a total not > 0 is 0 (weights ≥ 0), its row's weighted sum 0 too: divided by the least
    # float, not by 1.0 through an np.where (every other total is ≥ it, divided by itself)
    safe = np.maximum(total, _LEAST)
    estimate = weighted / safe
    # (+ a hair for products that underflow).  domain_breadth, complexity_ceiling and
    # autonomy_level together: 51.3 -> 45.0 M instructions per 1 000-event agent, callgrind
    bound = 2.0 * (2.0 * k + 6.0) * _EPS * (estimate if size is None else size / safe) + _UNDERFLOW
    out: BoolArray = np.asarray(has_value & (estimate - bound >= threshold), dtype=np.bool_)
    unsure = np.nonzero(has_value & ~out & (estimate + bound >= threshold))[0]
    if unsure.size:
        out[unsure] = _at_least(
            _stacked([column[unsure] for column in columns], unsure.size), weights, threshold
        )
    return out


def _columns(scores: Sequence[FloatArray] | FloatArray) -> list[FloatArray]:
    """The score columns of ``scores`` (a sequence of B-vectors, or the columns of a B × k matrix)."""
    return list(scores.T) if isinstance(scores, np.ndarray) else list(scores)


def _stacked(columns: Sequence[FloatArray], rows: int) -> FloatArray:
    """The rows × k matrix of ``columns``."""
    return np.stack(columns, axis=1) if columns else np.zeros((rows, 0))


def _at_least(stacked: FloatArray, weights: Sequence[float], threshold: float) -> BoolArray:
    """:func:`composite_at_least` by the engine's renormalised products: the plain sum ± its
    bound, then the correctly rounded sum where that cannot decide."""
    products, has_value = _weighted_products(stacked, weights)
    k = products.shape[1]
    plain = products.sum(axis=1)
    bound = 2.0 * max(k, 1) * _EPS * np.abs(products).sum(axis=1)
    out: BoolArray = np.asarray(has_value & (plain - bound >= threshold), dtype=np.bool_)
    unsure = np.nonzero(has_value & ~out & (plain + bound >= threshold))[0]
    if unsure.size:
        out[unsure] = _correctly_rounded_sums(products[unsure]) >= threshold
    return out


def _weighted_products(
    scores: Sequence[FloatArray] | FloatArray, weights: Sequence[float]
) -> tuple[FloatArray, BoolArray]:
    """Each row's weight × score products (0 for a null score), with the weights
    :func:`aaaf.scoring.core.renormalised_weights` gives the row's coverage pattern, and
    whether the row has a composite at all.  The products lie column by column (rows × k,
    each dimension's rows contiguous, as the sums read them)."""
    columns = [np.asarray(column, dtype=np.float64) for column in _columns(scores)]
    rows, k = (columns[0].shape[0] if columns else 0), len(columns)
    if rows == 0 or k == 0:
        return np.zeros((rows, k)), np.zeros(rows, dtype=np.bool_)
    # column by column, no rows × k table of the scores, nor a gather of each row's weights:
    # (composite_rows 0.72–0.85 -> 0.61–0.64 ms CPU per agent in situ, alternating runs; the
    # learning-rate blocks' composites 0.49 -> 0.33 ms alone)
    partial = [j for j, column in enumerate(columns) if math.isnan(column.min())]  # NaN: a null
    null = {j: np.isnan(columns[j]) for j in partial}
    # each row's coverage pattern as one integer (bit j: dimension j covered)
    if not partial:  # one pattern, every dimension: no codes to take
        patterns, inverse, common = [(1 << k) - 1], None, 0
    else:
        missing = np.zeros(rows, dtype=np.int64)
        for j in partial:
            missing |= null[j].astype(np.int64) << j
        codes = ((1 << k) - 1) ^ missing
        if k <= _TABLE_BITS:
            # the patterns present are found by a count per possible code, not a sort (-33 %, measured)
            sizes = np.bincount(codes, minlength=1 << k)
            present = np.nonzero(sizes)[0]
            lookup = np.zeros(1 << k, dtype=np.int64)
            lookup[present] = np.arange(present.shape[0])
            inverse = lookup.take(codes)
            sizes = sizes[present]
        else:
            present, inverse, sizes = np.unique(codes, return_inverse=True, return_counts=True)
            inverse = inverse.reshape(-1)
        patterns, common = present.tolist(), int(np.argmax(sizes))
    table = tuple(float(w) for w in weights)
    found = [_pattern_weights(table, code) for code in patterns]
    used = np.array([renormalised for renormalised, _ in found]).T  # k × patterns
    scored = np.array([has_value for _, has_value in found])
    # every row by its most common pattern's weight (a broadcast), the rows of the others
    # then by theirs: the learning-rate blocks are mostly of one (no consistency), most
    # resamples' rows of one (the blocks' composites 1.78 -> 1.62 M instructions per bench agent, callgrind)
    others = np.zeros(0, dtype=np.int64) if inverse is None else np.flatnonzero(inverse != common)
    other_weights = used.take(inverse.take(others), axis=1) if inverse is not None else used[:, :0]
    products = np.empty((k, rows))
    for j, column in enumerate(columns):
        np.multiply(column, used[j, common], out=products[j])
        if others.size:
            products[j][others] = column.take(others) * other_weights[j]
        if j in null:
            np.putmask(products[j], null[j], 0.0)
    if scored.all() or not scored.any():
        return products.T, np.full(rows, bool(scored[0]))
    assert inverse is not None
    return products.T, scored.take(inverse)


@functools.lru_cache(maxsize=256)
def _pattern_weights(weights: tuple[float, ...], code: int) -> tuple[tuple[float, ...], bool]:
    """The weights :func:`aaaf.scoring.core.renormalised_weights` gives the coverage pattern
    ``code`` (bit j: dimension j covered; 0.0 for the others), and whether it has a composite
    at all: taken once per weight table and pattern, not per call (with the nulls found by one
    min per column: composite_rows of 1 000 rows, two patterns, 83 -> 69 µs, timeit)."""
    keys = [str(j) for j in range(len(weights))]
    renormalised = renormalised_weights(
        {key: 0.0 if code >> j & 1 else None for j, key in enumerate(keys)},
        dict(zip(keys, weights, strict=True)),
    )
    return tuple(renormalised.get(key, 0.0) for key in keys), bool(renormalised)


def _correctly_rounded_sums(products: FloatArray) -> FloatArray:
    """``math.fsum`` of each row: TwoSum-certified where possible, ``math.fsum`` elsewhere."""
    rows, k = products.shape
    if k == 0:
        return np.zeros(rows)
    # 0 + the first product is the running sum exactly, and the first rounding error the errors'
    # sum exactly: TwoSum runs from the second product, its errors' TwoSum from the third, and
    # the residuals are kept to be measured once (the same floats as from the first); with the
    # one-pattern products and the bound taken only where a residual is not 0: bootstrap CPU
    # -3.0 %, bench_uncertainty's CPU ratio -2.3 % (interleaved and alternating runs, measured)
    total = 0.0 + products[:, 0]
    errors = np.zeros(rows)
    residuals = np.zeros((max(k - 2, 1), rows))
    for j in range(1, k):
        x = products[:, j]
        running = total + x
        virtual = running - total
        error = (total - (running - virtual)) + (x - virtual)  # exact: total + x == running + error
        total = running
        if j == 1:
            errors = error
            continue
        # the errors are summed by TwoSum as well: their exact sum is errors + Σ residual
        summed = errors + error
        virtual = summed - errors
        residual = residuals[j - 2]
        np.subtract(summed, virtual, out=residual)
        np.subtract(errors, residual, out=residual)
        residual += error - virtual
        errors = summed
    residual_size = np.abs(residuals).sum(axis=0)  # a running sum, in the residuals' order
    # with every residual 0 the exact sum is total + errors, whose rounding is the correctly
    # rounded sum (ties to even, as math.fsum); a product of short decimals often leaves
    # an error of exactly half an ulp, so this settles most rows a bound cannot (measured)
    result = total + errors
    # the others (a residual not 0) only: the bound below, then math.fsum where it cannot settle
    unsure = np.nonzero(residual_size != 0.0)[0]
    if unsure.size == 0:
        return result
    total, errors, near = total[unsure], errors[unsure], result[unsure]
    virtual = near - total
    left = (total - (near - virtual)) + (errors - virtual)  # exact: total + errors == near + left
    # |exact sum − result| = |left + Σ residual| ≤ |left| + Σ|residual| (doubled for its own rounding)
    bound = np.abs(left) + 2.0 * residual_size[unsure]
    gap = np.minimum(np.nextafter(near, np.inf) - near, near - np.nextafter(near, -np.inf))
    # nearest float: the exact sum is less than half the (smaller) gap from the result
    for row in unsure[~(2.0 * bound < gap)].tolist():
        result[row] = math.fsum(products[row].tolist())
    return result


__all__ = ["composite_at_least", "composite_rows"]
