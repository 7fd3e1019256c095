"""The consistency groups of every §2.5 resample at once (SCORING.md §2.2, §2.5).

A consistency group is a (domain, complexity level) of completed tasks; the §2.2
consistency is the size-weighted mean of its groups' CVs (population, unweighted) over the
groups with enough tasks.  In a resample a task drawn k times is k copies, so a group's
copies, mean and variance are sums over the count matrix (:mod:`aaaf.scoring.resample_arrays`);
:mod:`aaaf.scoring.uncertainty` weighs them into each subset's consistency.  A learning-rate
block, a few copies listed one by one, has its consistency here too (:func:`listed_consistency`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from scipy import sparse

from aaaf.scoring.aaaf_tasks import CONSISTENCY_ACCURACY_WEIGHT, CONSISTENCY_COMPLETION_WEIGHT
from aaaf.scoring.resample_arrays import BoolArray, FloatArray, IntArray, TaskArrays, divide


@dataclass(frozen=True)
class GroupStats:
    """Per resample (row) and (domain, level) group (column): copies, CV of per-task
    accuracy, CV of credit (population, unweighted, SCORING.md §2.2); columns follow ``ids``.
    A CV is taken only where its group has at least the minimum copies a consistency group
    needs (elsewhere 0: such a group never carries weight).  ``kept``: the copies where the
    group has that many (elsewhere 0), and ``weighted_*``: kept × CV — the §2.2 consistency's
    weights and terms, taken once for every subset that reads them."""

    ids: IntArray
    size: FloatArray
    cv_accuracy: FloatArray
    cv_credit: FloatArray
    kept: FloatArray
    weighted_accuracy: FloatArray
    weighted_credit: FloatArray

    def restricted(self, wanted: IntArray) -> GroupStats:
        if np.array_equal(wanted, self.ids):  # the window's own groups: nothing to take
            return self
        at = np.searchsorted(self.ids, wanted)
        return GroupStats(wanted, *(table[:, at] for table in self._tables()))

    def _tables(self) -> tuple[FloatArray, ...]:
        return (
            self.size,
            self.cv_accuracy,
            self.cv_credit,
            self.kept,
            self.weighted_accuracy,
            self.weighted_credit,
        )


def _with_weights(
    ids: IntArray, size: FloatArray, cvs: tuple[FloatArray, FloatArray], min_group: int
) -> GroupStats:
    """The :class:`GroupStats` of these tables, with its kept copies and weighted CVs (a CV is 0
    where its group is not kept, so kept × CV is size × CV)."""
    kept = size * (size >= min_group)  # as np.where(size >= min_group, size, 0.0), at half its cost
    return GroupStats(ids, size, cvs[0], cvs[1], kept, size * cvs[0], size * cvs[1])


def group_stats(
    counts: FloatArray,
    columns: IntArray,
    arrays: TaskArrays,
    min_group: int,
    grouping: IntArray | None = None,
) -> GroupStats:
    """The groups of the set ``columns`` at once.  Every group's sums over its copies —
    copies, and per metric Σc·y, Σc·y² (y: the value shifted by one of the group's values) —
    are one sparse product: a (5 × groups) × tasks table holding each task's features in its
    group's rows, times the counts.  The CVs are taken only for the (resample, group) pairs
    with ≥ ``min_group`` copies (:func:`_group_cvs`; drawn copies all equal: exactly 0).
    ``grouping``: each window task's group id (-1: none), by default ``arrays.group``.
    Both metrics are taken in the same passes: their entries listed one after the other
    (accuracy, then credit), metric m's group g as m·groups + g."""
    groups = (arrays.group if grouping is None else grouping)[columns]
    grouped_at = np.nonzero(groups >= 0)[0]
    rows = counts.shape[0]
    if grouped_at.size == 0:
        empty = np.zeros((rows, 0))
        return _with_weights(np.zeros(0, dtype=np.int64), empty, (empty, empty), min_group)
    order = grouped_at[np.argsort(groups[grouped_at], kind="stable")]
    keys = groups[order]
    starts = np.concatenate(([0], np.nonzero(np.diff(keys))[0] + 1))
    lengths = np.diff(np.append(starts, order.size))
    n_groups = starts.shape[0]
    taken = columns[order]
    # each metric's entries, group after group: metric m's group g is m·groups + g (one pass
    # for both, not one per metric: group_stats 13.04 -> 12.48 M, autonomy_level 8.52 -> 7.74 M
    # instructions per 1 000-event agent, callgrind)
    listed = _Listed(
        np.concatenate((order, order)),
        np.concatenate((arrays.accuracy[taken], arrays.credit[taken])),
        np.concatenate((starts, starts + order.size)),
        np.concatenate((lengths, lengths)),
    )
    local = np.repeat(np.arange(2 * n_groups), listed.lengths)
    shift = _central_members(listed.values, local, listed.starts, listed.lengths)
    # only a group whose values of a metric vary in the window can have a CV of it other than
    # 0: each metric's sums are taken for its own varying groups, not for every group where
    # either varies (bootstrap 97.46 -> 95.53 M instructions per 1 000-event agent, callgrind)
    varying = np.minimum.reduceat(listed.values, listed.starts) != np.maximum.reduceat(
        listed.values, listed.starts
    )
    vary = np.nonzero(varying)[0]
    inside = varying[local]
    y = (listed.values - shift[local])[inside]
    entries = listed.order[inside]
    vary_lengths = listed.lengths[vary]
    squares = y * y
    # a pair whose drawn copies are all its group's shift member has Σc·y² exactly 0 (and only
    # such a pair, when no y² underflows to 0): its CV is 0 without listing its entries
    exact_zero = not np.any((squares == 0.0) & (y != 0.0))
    # rows: each group's copies, then Σc·y of each varying (metric, group), then Σc·y² of each
    # (columns: the tasks' places in ``counts``).  Group statistics of a 1 000-event agent:
    # 34.9 M instructions listing entries, 35.9 M with a dense product per group, 18.6 M so
    # (callgrind); no rank sums (equal copies are found among the unsettled pairs,
    # :func:`_group_cvs`: 14.5 -> 13.1 M, callgrind)
    table = sparse.csr_array(
        (
            np.concatenate((np.ones(order.size), y, squares)),
            np.concatenate((order, entries, entries)),
            np.concatenate(([0], np.cumsum(np.concatenate((lengths, vary_lengths, vary_lengths))))),
        ),
        shape=(n_groups + 2 * vary.size, counts.shape[1]),
    )
    sums = np.asarray(table @ counts.T)
    size = sums[:n_groups]
    cvs = _group_cvs(
        size,
        sums[n_groups:].reshape(2, vary.size, rows),
        vary,
        shift,
        min_group,
        (counts, listed),
        exact_zero,
    )
    return _with_weights(keys[starts].astype(np.int64), size.T, (cvs[0].T, cvs[1].T), min_group)


class _Listed(NamedTuple):
    """Both metrics' entries, metric after metric and group after group within it: each
    entry's column of the counts and its value, each (metric, group)'s first entry and count."""

    order: IntArray
    values: FloatArray
    starts: IntArray
    lengths: IntArray


def _central_members(values: FloatArray, local: IntArray, starts: IntArray, lengths: IntArray) -> FloatArray:
    """Per group (``local``: each entry's), the member value nearest the group's mean: the
    shift that keeps Σc·y² near the group's own spread (:func:`_group_cvs`' bound)."""
    mean = np.add.reduceat(values, starts) / lengths
    nearest = np.lexsort((np.abs(values - mean[local]), local))
    return np.asarray(values[nearest[starts]], dtype=np.float64)


# a CV accepted from the one-pass sums is within this of the exact one (it enters a
# consistency, a composite, with weights ≤ 1: far inside the 1e-9 §2.5 allows)
_CV_TOLERANCE = 1e-12
_UNIT = float(np.finfo(np.float64).eps) / 2.0
# below it a spread's rounding bound may underflow: such a pair is never settled by the sums
_SMALLEST_SPREAD = float(np.finfo(np.float64).tiny) / _UNIT


def _group_cvs(
    size: FloatArray,
    sums: FloatArray,
    vary: IntArray,
    shift: FloatArray,
    min_group: int,
    drawn: tuple[FloatArray, _Listed],
    exact_zero: bool = False,
) -> tuple[FloatArray, FloatArray]:
    """Each group's CV of each metric over its drawn copies, groups × rows, where it can carry
    weight (``size``: copies, groups × rows; ``sums``: Σc·y and Σc·y² of the varying (metric,
    group)s ``vary`` (m·groups + g), each of them × rows; elsewhere a metric's values are all
    equal in its group; ``shift``: each (metric, group)'s y = value − shift).

    variance = Σc·y²/N − (Σc·y/N)² with y shifted by a member value: a sum of L terms is
    within (L + 1)·u of its Σ|terms| (u the unit roundoff), so the variance is within
    E = (4L + 24)·u·Σc·y²/N of the exact one and the mean within (L + 4)·u·(|shift| +
    √(Σc·y²/N)).  A pair those bounds cannot place within 1e-12 (a variance near 0 beside the
    shifted spread: cancellation) is taken exactly, in two passes (:func:`_listed_cvs`).
    Drawn copies of equal values have CV exactly 0, as the engine's coefficient_of_variation
    says; their variance is 0, so the sums never settle them (variance ≤ E < 2E): they are
    found among the unsettled pairs: with ``exact_zero`` (no y ≠ 0 has y² = 0) a pair whose
    Σc·y² is exactly 0 drew its shift member only; the others by their drawn values
    (:func:`_drawn_alike`)."""
    n_groups, rows = size.shape
    out = np.zeros(2 * n_groups * rows)
    counts, listed = drawn
    varying_size = size[vary % n_groups]
    at_pair = np.flatnonzero(varying_size >= min_group)  # pair = varying (metric, group) · rows + row
    if at_pair.size:
        pair_vary = at_pair // rows
        # the pairs' groups, lengths and shifts by np.take, a varying group's length cast once
        # (group_stats 12.19 -> 12.00 M instructions, callgrind)
        pair_group = np.take(vary, pair_vary)  # m·groups + g
        # no second integer division (%): group_stats 12.48 -> 12.19 M instructions (callgrind)
        pair_row = at_pair - pair_vary * rows
        # np.take of flat places, not 2-D fancy indexing (and no np.where guarding the divisions
        # below: an unsettled pair's value is replaced): bootstrap 108.74 -> 106.22 M
        # instructions per 1 000-event agent, group statistics 22.78 -> 20.21 M of it (callgrind)
        first, second = np.take(sums.reshape(2, -1), at_pair, axis=1)
        copies = np.take(varying_size.reshape(-1), at_pair)
        length = np.take(listed.lengths[vary].astype(np.float64), pair_vary)
        mean_y = first / copies
        spread = second / copies
        variance = spread - mean_y * mean_y
        pair_shift = np.take(shift, pair_group)
        mean = pair_shift + mean_y
        bound = (4.0 * length + 24.0) * _UNIT * spread
        mean_bound = (length + 4.0) * _UNIT * (np.abs(pair_shift) + np.sqrt(spread))
        margin = np.abs(mean) - mean_bound
        settled = (variance > 2.0 * bound) & (margin > mean_bound) & (spread >= _SMALLEST_SPREAD)
        with np.errstate(divide="ignore", invalid="ignore"):  # only a settled pair's value is kept
            cv = np.sqrt(np.maximum(variance, 0.0)) / mean
            error = np.abs(cv) * (bound / (2.0 * (variance - bound)) + mean_bound / margin)
        settled &= error <= _CV_TOLERANCE
        unsettled = np.nonzero(~settled)[0]
        if unsettled.size and exact_zero:
            # most unsettled pairs drew only their shift member (92 % in bench_uncertainty's
            # agents): not listed entry by entry (group_stats 11.41 -> 9.84 M instructions per
            # 1 000-event agent, callgrind; 1.24 -> 1.08 ms warm CPU, alternating runs)
            shifted = np.take(second, unsettled) == 0.0
            cv[unsettled[shifted]] = 0.0
            unsettled = unsettled[~shifted]
        if unsettled.size:
            alike = _drawn_alike(counts, listed, pair_group[unsettled], pair_row[unsettled])
            cv[unsettled[alike]] = 0.0
            unsettled = unsettled[~alike]
        if unsettled.size:
            cv[unsettled] = _listed_cvs(
                counts,
                listed.order,
                listed.values,
                listed.starts,
                pair_group[unsettled],
                pair_row[unsettled],
                copies[unsettled],
            )
        out[pair_group * rows + pair_row] = cv
    both = out.reshape(2, n_groups, rows)
    return both[0], both[1]


def _listed_cvs(
    counts: FloatArray,
    order: IntArray,
    values: FloatArray,
    starts: IntArray,
    pair_group: IntArray,
    pair_row: IntArray,
    pair_size: FloatArray,
) -> FloatArray:
    """The CVs of the (group, row) pairs given, as the engine takes them up to rounding: the
    pairs' entries listed one by one (``order``: each entry's column of ``counts``, group
    after group), the mean first, then the copies' squared deviations from it (two passes,
    no cancellation)."""
    lengths = np.diff(np.append(starts, order.size))[pair_group]
    first = np.cumsum(lengths) - lengths  # each pair's first entry
    entry_pair = np.repeat(np.arange(pair_row.size), lengths)
    column = starts[pair_group][entry_pair] + (np.arange(entry_pair.size) - first[entry_pair])
    drawn = counts[pair_row[entry_pair], order[column]]
    entry_values = values[column]
    mean = np.bincount(entry_pair, drawn * entry_values, pair_row.size) / pair_size
    deviation = entry_values - mean[entry_pair]
    variance = np.bincount(entry_pair, drawn * deviation * deviation, pair_row.size) / pair_size
    cv = np.zeros(mean.shape)
    np.divide(np.sqrt(variance), mean, out=cv, where=mean != 0.0)
    return cv


def _drawn_alike(counts: FloatArray, listed: _Listed, pair_group: IntArray, pair_row: IntArray) -> BoolArray:
    """Whether the drawn copies of each (group, row) pair given are all of one value: its
    entries listed one by one (``listed``: the (metric, group)s' entries, ``pair_group``
    indexing them), the least and the greatest value drawn at least once compared (each pair
    has a drawn copy)."""
    pair_lengths = np.take(listed.lengths, pair_group)
    first = np.cumsum(pair_lengths) - pair_lengths  # each pair's first entry
    column = np.repeat(np.take(listed.starts, pair_group) - first, pair_lengths) + np.arange(
        int(first[-1] + pair_lengths[-1])
    )
    # the entries' places in the task-by-task table (counts.T, flat)
    place = np.take(listed.order, column) * counts.shape[0] + np.repeat(pair_row, pair_lengths)
    drawn = np.take(counts.T.reshape(-1), place) > 0.0
    entry_values = np.take(listed.values, column)
    low = np.minimum.reduceat(np.where(drawn, entry_values, np.inf), first)
    high = np.maximum.reduceat(np.where(drawn, entry_values, -np.inf), first)
    alike: BoolArray = low == high
    return alike


__all__ = ["GroupStats", "group_stats"]


def listed_consistency(tasks: IntArray, arrays: TaskArrays, min_group: int) -> FloatArray:
    """The §2.2 consistency of every listed set of k copies (rows of ``tasks``): the
    size-weighted mean of the CVs of its groups with ≥ ``min_group`` copies is the mean over
    those groups' copies of their group's CV; null when no group has that many.

    With ``min_group`` ≥ k (the default: five copies, groups of five) only a set whose k
    copies are all of one group has one, and its CV is that of all k copies; otherwise a
    copy's group is found by a k × k comparison."""
    rows, k = tasks.shape
    if min_group > k:
        return np.full(rows, np.nan)
    if min_group == k:
        # copy by copy, not a B × k table's reductions along k (3.2 → 1.2 M instructions of
        # learning_rate per 1 000-event agent, callgrind)
        first = np.take(arrays.group, tasks[:, 0])
        whole = first >= 0
        for j in range(1, k):
            whole &= np.take(arrays.group, tasks[:, j]) == first
        one = np.nonzero(whole)[0]
        consistency = np.full(rows, np.nan)
        if one.size:
            cvs = [_copies_cv(values[tasks[one]]) for values in (arrays.accuracy, arrays.credit)]
            consistency[one] = 1.0 - np.minimum(
                1.0, CONSISTENCY_ACCURACY_WEIGHT * cvs[0] + CONSISTENCY_COMPLETION_WEIGHT * cvs[1]
            )
        return consistency
    groups_t = arrays.group[tasks].T  # k × B: one row per listed copy
    # same[i][j]: copies i and j are of one consistency group (k² vector ops over the
    # resamples: sums over an axis of length k are several times slower, measured)
    same = [[(groups_t[i] == groups_t[j]) & (groups_t[i] >= 0) for j in range(k)] for i in range(k)]
    sizes = [np.add.reduce([mask.astype(np.float64) for mask in row]) for row in same]
    kept = [size >= min_group for size in sizes]
    kept_total = np.add.reduce([mask.astype(np.float64) for mask in kept])
    weighted = [np.zeros(rows), np.zeros(rows)]
    # CVs only where a group is big enough (five copies of one group are rare: measured)
    at_rows = np.nonzero(kept_total > 0.0)[0]
    for at, values in enumerate((arrays.accuracy[tasks].T[:, at_rows], arrays.credit[tasks].T[:, at_rows])):
        for i in range(k):
            masks = [mask[at_rows] for mask in same[i]]
            safe = np.where(sizes[i][at_rows] > 0.0, sizes[i][at_rows], 1.0)
            mean = np.add.reduce([np.where(mask, values[j], 0.0) for j, mask in enumerate(masks)]) / safe
            squares = [np.where(mask, (values[j] - mean) ** 2, 0.0) for j, mask in enumerate(masks)]
            variance = np.add.reduce(squares) / safe
            cv = np.zeros(mean.shape)
            np.divide(np.sqrt(variance), mean, out=cv, where=mean != 0.0)
            # copies of equal values: exactly 0, as the engine's coefficient_of_variation says
            low = np.minimum.reduce([np.where(mask, values[j], np.inf) for j, mask in enumerate(masks)])
            high = np.maximum.reduce([np.where(mask, values[j], -np.inf) for j, mask in enumerate(masks)])
            weighted[at][at_rows] += np.where(kept[i][at_rows] & (low != high), cv, 0.0)
    means = [divide(total, kept_total) for total in weighted]
    return 1.0 - np.minimum(
        1.0, CONSISTENCY_ACCURACY_WEIGHT * means[0] + CONSISTENCY_COMPLETION_WEIGHT * means[1]
    )


def _copies_cv(values: FloatArray) -> FloatArray:
    """Per row, the population CV of its copies' ``values`` (two passes; 0 when they are all
    equal or their mean is 0, as the engine's coefficient_of_variation says)."""
    k = values.shape[1]
    mean = np.add.reduce([values[:, j] for j in range(k)]) / k
    variance = np.add.reduce([(values[:, j] - mean) ** 2 for j in range(k)]) / k
    cv = np.zeros(mean.shape)
    np.divide(np.sqrt(variance), mean, out=cv, where=mean != 0.0)
    return np.where(values.min(axis=1) == values.max(axis=1), 0.0, cv)
