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

import numpy as np

from aaaf.scoring.aaaf_tasks import CONSISTENCY_ACCURACY_WEIGHT, CONSISTENCY_COMPLETION_WEIGHT
from aaaf.scoring.resample_arrays import FloatArray, IntArray, TaskArrays, divide


@dataclass(frozen=True)
class GroupStats:
    """Per resample (row) and (domain, level) group (column): copies, CV of per-task
    accuracy, CV of credit (population, unweighted, SCORING.md §2.2); columns follow ``ids``.
    A CV is taken only where its group has at least the minimum copies a consistency group
    needs (elsewhere 0: such a group never carries weight)."""

    ids: IntArray
    size: FloatArray
    cv_accuracy: FloatArray
    cv_credit: FloatArray

    def restricted(self, wanted: IntArray) -> GroupStats:
        at = np.searchsorted(self.ids, wanted)
        return GroupStats(wanted, self.size[:, at], self.cv_accuracy[:, at], self.cv_credit[:, at])


def group_stats(
    counts: FloatArray,
    columns: IntArray,
    arrays: TaskArrays,
    min_group: int,
    grouping: IntArray | None = None,
) -> GroupStats:
    """The groups of the set ``columns`` at once: the set's grouped tasks are put in group
    order so that each group's copies are one ``reduceat`` segment; the CVs are taken only
    for the (resample, group) pairs with ≥ ``min_group`` copies whose values vary in the
    window, each variance in two passes (the mean first, then the copies' squared
    deviations from it); a group whose drawn copies are all equal has exactly 0.
    ``grouping``: each window task's group id (-1: none), by default ``arrays.group``."""
    groups = (arrays.group if grouping is None else grouping)[columns]
    grouped_at = np.nonzero(groups >= 0)[0]
    rows = counts.shape[0]
    if grouped_at.size == 0:
        empty = np.zeros((rows, 0))
        return GroupStats(np.zeros(0, dtype=np.int64), empty, empty, empty)
    order = grouped_at[np.argsort(groups[grouped_at], kind="stable")]
    keys = groups[order]
    starts = np.concatenate(([0], np.nonzero(np.diff(keys))[0] + 1))
    sub = counts[:, order]
    taken = columns[order]
    size = np.add.reduceat(sub, starts, axis=1)
    cvs = _group_cvs(sub, (arrays.accuracy[taken], arrays.credit[taken]), starts, size, min_group)
    return GroupStats(keys[starts].astype(np.int64), size, cvs[0], cvs[1])


def _group_cvs(
    sub: FloatArray,
    metrics: tuple[FloatArray, FloatArray],
    starts: IntArray,
    size: FloatArray,
    min_group: int,
) -> tuple[FloatArray, FloatArray]:
    """Each group's CV of each metric over its drawn copies (``sub``: counts, columns in
    group order; ``starts``: where each group's columns start), where it can carry weight.

    Only the (resample, group) pairs with ≥ ``min_group`` copies of a group whose values
    vary in the window are computed, their columns listed entry by entry (a group of one
    task, or of equal values, has CV exactly 0 in every resample)."""
    out = (np.zeros(size.shape), np.zeros(size.shape))
    varying = np.zeros(starts.shape[0], dtype=np.bool_)
    for values in metrics:
        varying |= np.minimum.reduceat(values, starts) != np.maximum.reduceat(values, starts)
    pair_row, pair_group = np.nonzero((size >= min_group) & varying[None, :])
    if pair_row.size == 0:
        return out
    lengths = np.diff(np.append(starts, sub.shape[1]))[pair_group]
    first = np.cumsum(lengths) - lengths  # each pair's first entry
    entry_pair = np.repeat(np.arange(pair_row.size), lengths)
    column = starts[pair_group][entry_pair] + (np.arange(entry_pair.size) - first[entry_pair])
    copies = sub[pair_row[entry_pair], column]
    pair_size = size[pair_row, pair_group]
    local = np.repeat(np.arange(starts.shape[0]), np.diff(np.append(starts, sub.shape[1])))
    for at, values in enumerate(metrics):
        entry_values = values[column]
        mean = np.bincount(entry_pair, copies * entry_values, pair_row.size) / pair_size
        deviation = entry_values - mean[entry_pair]
        variance = np.bincount(entry_pair, copies * deviation * deviation, pair_row.size) / pair_size
        cv = np.zeros(mean.shape)
        np.divide(np.sqrt(variance), mean, out=cv, where=mean != 0.0)
        # drawn copies of equal values: exactly 0, as the engine's coefficient_of_variation
        # says.  They are equal when the ranks of their values within the group have no
        # spread: size·Σc·r² = (Σc·r)², compared as integers (exact for windows of up to
        # 55 000 tasks: Σc·r² ≤ n³ < 2^53 and n⁴ < 2^63); a min and a max per pair cost
        # three times as much (measured)
        rank = _ranks_within(values, local)[column]
        spread = np.bincount(entry_pair, copies * rank, pair_row.size).astype(np.int64)
        squares = np.bincount(entry_pair, copies * rank * rank, pair_row.size).astype(np.int64)
        equal = pair_size.astype(np.int64) * squares == spread * spread
        out[at][pair_row, pair_group] = np.where(equal, 0.0, cv)
    return out


def _ranks_within(values: FloatArray, group: IntArray) -> FloatArray:
    """Each value's dense rank among the distinct values of its group (0, 1, …), as floats."""
    order = np.lexsort((values, group))
    ordered_group, ordered_values = group[order], values[order]
    new = np.concatenate(([True], (np.diff(ordered_group) != 0) | (np.diff(ordered_values) != 0)))
    run = np.cumsum(new) - 1
    group_first = np.concatenate(([True], np.diff(ordered_group) != 0))
    base = np.maximum.accumulate(np.where(group_first, run, 0))
    ranks = np.empty(values.shape[0])
    ranks[order] = run - base
    return ranks


__all__ = ["GroupStats", "group_stats"]


def listed_consistency(tasks: IntArray, arrays: TaskArrays, min_group: int) -> FloatArray:
    """The §2.2 consistency of every listed set of k copies (rows of ``tasks``): the
    size-weighted mean of the CVs of its groups with ≥ ``min_group`` copies is the mean over
    those groups' copies of their group's CV; null when no group has that many.

    With ``min_group`` ≥ k (the default: five copies, groups of five) only a set whose k
    copies are all of one group has one, and its CV is that of all k copies; otherwise a
    copy's group is found by a k × k comparison."""
    rows, k = tasks.shape
    groups = arrays.group[tasks]
    if min_group > k:
        return np.full(rows, np.nan)
    if min_group == k:
        one = np.nonzero((groups >= 0).all(axis=1) & (groups == groups[:, :1]).all(axis=1))[0]
        consistency = np.full(rows, np.nan)
        if one.size:
            cvs = [_copies_cv(values[tasks[one]]) for values in (arrays.accuracy, arrays.credit)]
            consistency[one] = 1.0 - np.minimum(
                1.0, CONSISTENCY_ACCURACY_WEIGHT * cvs[0] + CONSISTENCY_COMPLETION_WEIGHT * cvs[1]
            )
        return consistency
    groups_t = groups.T  # k × B: one row per listed copy
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
