"""The consistency groups of every §2.5 resample at once (SCORING.md §2.2, §2.5).

A consistency group is a (domain, complexity level) of completed tasks; the §2.2
consistency is the size-weighted mean of its groups' CVs (population, unweighted) over the
groups with enough tasks.  In a resample a task drawn k times is k copies, so a group's
copies, mean and variance are sums over the count matrix (:mod:`aaaf.scoring.resample_arrays`);
:mod:`aaaf.scoring.uncertainty` weighs them into each subset's consistency.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from aaaf.scoring.resample_arrays import FloatArray, IntArray, TaskArrays


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
