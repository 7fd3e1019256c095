"""The bootstrap's subsets: perf(S) of SCORING.md §2.3 in every resample, for every subset of a
partition of the window at once (§2.5).

A partition (the window's taxonomy domains, complexity or autonomy levels) has each subset's
sums of the per-task ``terms`` and its completed copies in every resample, and — where its
subsets hold their consistency groups whole — each subset's consistency from one table of
the window's group statistics (:class:`Partition`).  :func:`highest_level` is the claim of
complexity_ceiling and autonomy_level (levels tried from the highest down, only where no
higher level settled); :func:`listed_performance` is perf(S) of sets listed copy by copy
(the learning-rate blocks).  The Performance scores of every row are the registered row
formulas (:data:`aaaf.scoring.dimensions.PERFORMANCE_ROWS`, :mod:`aaaf.scoring.aaaf_performance`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np

from aaaf.scoring.aaaf_capability import LEVEL_QUALIFYING_PERFORMANCE, MIN_COMPLETED_PER_CLAIM
from aaaf.scoring.aaaf_performance import PerformanceRows
from aaaf.scoring.aaaf_tasks import CONSISTENCY_ACCURACY_WEIGHT, CONSISTENCY_COMPLETION_WEIGHT
from aaaf.scoring.composite_rows import composite_at_least, composite_rows
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.dimensions import PERFORMANCE_ROWS
from aaaf.scoring.resample_arrays import BoolArray, FloatArray, IntArray, TaskArrays, divide, task_columns
from aaaf.scoring.resample_groups import GroupStats, group_stats, listed_consistency


def consistency_of(stats: GroupStats) -> FloatArray:
    """consistency = 1 − min(1, 0.6 cv_accuracy + 0.4 cv_completion) over the groups with the
    minimum copies (``stats.kept``), the group CVs weighted by group size; null with no such group."""
    grouped = stats.kept.sum(axis=1)
    mean_acc = divide(stats.weighted_accuracy.sum(axis=1), grouped)
    mean_comp = divide(stats.weighted_credit.sum(axis=1), grouped)
    return 1.0 - np.minimum(
        1.0, CONSISTENCY_ACCURACY_WEIGHT * mean_acc + CONSISTENCY_COMPLETION_WEIGHT * mean_comp
    )


def scores_of(sums: FloatArray, consistency: FloatArray, config: AAAFConfig) -> dict[str, FloatArray]:
    """The Performance scores from each row's sums of the per-task ``terms`` and its consistency."""
    rows = PerformanceRows(sums, consistency, config)
    return {name: formula(rows) for name, formula in PERFORMANCE_ROWS.complete().items()}


def performance_composite(scores: Mapping[str, FloatArray], config: AAAFConfig) -> FloatArray:
    """perf(S) of §2.3: the §0 composite of the §2.2 scores, every row."""
    names = list(config.performance_weights)
    return composite_rows(
        [scores[name] for name in names], [config.performance_weights[name] for name in names]
    )


class Partition(NamedTuple):
    """Every resample (row) × every subset S (column) of a partition of the window: S's sums
    of the per-task ``terms`` and then its completed copies ((terms + 1) × subsets × rows: a
    term's sums of every row lie together, as the row formulas read them), its §2.2
    consistency and its completed copies again (rows × subsets, a view)."""

    sums: FloatArray
    consistency: FloatArray | None
    completed: FloatArray

    def subsets_at_least(self, subsets: IntArray, config: AAAFConfig, threshold: float) -> BoolArray:
        """Whether perf(S) of §2.3 is ≥ ``threshold`` in every row of ``subsets`` (subsets × rows;
        :func:`aaaf.scoring.composite_rows.composite_at_least`: only the decision is used), read
        off the tables as they lie: no gather of (subset, row) pairs (domain_breadth with every
        domain present: 17.5 -> 13.6 M instructions per 1 000-event agent, callgrind)."""
        assert self.consistency is not None
        width, rows = self.sums.shape[0], self.sums.shape[2]
        sums = self.sums if subsets.size == self.sums.shape[1] else self.sums[:, subsets]
        consistency = self.consistency.T[subsets].reshape(-1)
        return _performance_at_least(sums.reshape(width, -1).T, consistency, config, threshold).reshape(
            subsets.size, rows
        )


def _performance_at_least(
    sums: FloatArray, consistency: FloatArray, config: AAAFConfig, threshold: float
) -> BoolArray:
    """Whether perf(S) of §2.3 (its terms' ``sums``, its ``consistency``) is ≥ ``threshold``, row
    by row (:func:`aaaf.scoring.composite_rows.composite_at_least`: only the decision is used)."""
    scores = scores_of(sums, consistency, config)
    names = list(config.performance_weights)
    return composite_at_least(
        [scores[name] for name in names], [config.performance_weights[name] for name in names], threshold
    )


def partition_rows(
    counts: FloatArray,
    subset_of: Sequence[int],
    n_subsets: int,
    arrays: TaskArrays,
    config: AAAFConfig,
    whole: GroupStats | None,
    grouping: IntArray | None = None,
) -> Partition:
    """The :class:`Partition` of ``subset_of`` (each task's subset, -1 none); without
    ``whole`` (the group statistics) it has no consistency.

    Each subset holds its groups whole (ids in ``grouping``, by default the consistency
    groups), so its consistency is the size-weighted mean of ``whole``'s CVs over its
    groups — one product with the group → subset membership; its sums are one product of
    its columns' counts with their ``terms``."""
    rows = counts.shape[0]
    labels = np.asarray(subset_of, dtype=np.int64).reshape(-1)
    # each product written in place: no zero-filled table, no copy of each subset's product
    # (-4.4 M instructions per 1 000-event agent over the three partitions, callgrind); each
    # term's sums of every row together, not each row's terms (domain_breadth 11.6 -> 10.5 M, callgrind)
    counted = _counted_terms(arrays)
    sums = np.empty((counted.shape[1], n_subsets, rows))
    for subset in range(n_subsets):
        columns = np.nonzero(labels == subset)[0]
        if columns.size:
            np.matmul(counted[columns].T, task_columns(counts, columns).T, out=sums[:, subset])
        else:
            sums[:, subset] = 0.0
    completed = sums[-1].T
    if whole is None:
        return Partition(sums, None, completed)
    return Partition(sums, _subset_consistency(whole, labels, n_subsets, arrays, grouping), completed)


def _counted_terms(arrays: TaskArrays) -> FloatArray:
    """Each task's ``terms`` and then 1.0 when completed: a subset's completed copies are the
    last column of its one product (with each level's sums taken only when it is tried,
    bootstrap 119.47 -> 114.23 M instructions per agent, callgrind)."""
    return np.column_stack((arrays.terms, arrays.completed))


def _subset_consistency(
    whole: GroupStats,
    labels: IntArray,
    n_subsets: int,
    arrays: TaskArrays,
    grouping: IntArray | None,
) -> FloatArray:
    """Every subset's §2.2 consistency in every row (rows × subsets), when each subset
    (``labels``: each task's, -1 none) holds its groups whole: the size-weighted mean of
    ``whole``'s CVs over its groups — one product with the group → subset membership."""
    groups = arrays.group if grouping is None else grouping
    inside = (groups >= 0) & (labels >= 0)
    membership = np.zeros((n_subsets, whole.ids.shape[0]))
    membership[labels[inside], np.searchsorted(whole.ids, groups[inside])] = 1.0
    # subsets × rows, each subset's rows together, as its sums lie (:class:`Partition`):
    # domain_breadth 10.49 -> 10.37 M, complexity_ceiling 4.59 -> 4.26 M instructions (callgrind)
    grouped = membership @ whole.kept.T
    mean_acc = divide(membership @ whole.weighted_accuracy.T, grouped)
    mean_comp = divide(membership @ whole.weighted_credit.T, grouped)
    return (
        1.0
        - np.minimum(1.0, CONSISTENCY_ACCURACY_WEIGHT * mean_acc + CONSISTENCY_COMPLETION_WEIGHT * mean_comp)
    ).T


def highest_level(
    counts: FloatArray,
    arrays: TaskArrays,
    config: AAAFConfig,
    level_of: Sequence[int | None],
    levels: Sequence[int],
    top: int,
    whole: GroupStats | None,
    grouping: IntArray | None = None,
) -> FloatArray:
    """complexity_ceiling / autonomy_level: the highest level with ≥ 3 completed copies and
    perf ≥ 0.60 at it, / top; 0 when none qualifies.  ``whole``: group statistics of groups
    each level holds whole (ids: ``grouping``, by default the consistency groups); None:
    each level's are taken when it is tried (``grouping``'s groups within the level).

    Levels are tried from the highest down, each only in the resamples no higher level
    settled (most settle at the first; every level in every resample cost 4x as much, measured)."""
    index = {level: at for at, level in enumerate(levels)}
    labels = np.array([-1 if level is None else index.get(level, -1) for level in level_of], dtype=np.int64)
    labels = labels.reshape(-1)
    table = None if whole is None else _subset_consistency(whole, labels, len(levels), arrays, grouping)
    counted = _counted_terms(arrays)
    min_group = config.consistency_min_group
    highest = np.zeros(counts.shape[0])
    is_open = np.ones(counts.shape[0], dtype=np.bool_)
    open_rows = np.arange(counts.shape[0])
    for at in reversed(range(len(levels))):
        columns = np.nonzero(labels == at)[0]
        if columns.size == 0:
            continue
        # a level's sums are taken only when it is tried: most resamples settle at the highest
        drawn = task_columns(counts, columns)
        sums = counted[columns].T @ drawn.T  # (terms + 1) × rows
        candidates = open_rows[sums[-1, open_rows] >= MIN_COMPLETED_PER_CLAIM]
        if candidates.size == 0:
            continue
        # the first level tried holds every resample (mostly): its tables are read as they lie,
        # no gather (complexity_ceiling 4.25 -> 4.01 M, autonomy_level 7.74 -> 6.82 M, callgrind)
        every = candidates.size == counts.shape[0]
        if table is None:
            level_counts = drawn if every else np.take(drawn.T, candidates, axis=1).T
            consistency = consistency_of(group_stats(level_counts, columns, arrays, min_group, grouping))
        else:
            consistency = np.take(table[:, at], candidates)
        level_sums = sums if every else np.take(sums, candidates, axis=1)
        qualifies = _performance_at_least(level_sums.T, consistency, config, LEVEL_QUALIFYING_PERFORMANCE)
        settled = candidates[qualifies]
        highest[settled] = levels[at] / float(top)
        is_open[settled] = False
        open_rows = np.nonzero(is_open)[0]
        if open_rows.size == 0:
            break
    return highest


def listed_performance(tasks: IntArray, arrays: TaskArrays, config: AAAFConfig) -> FloatArray:
    """perf(S) of §2.3 for every resample whose S is listed copy by copy: row b of ``tasks``
    (B × k) holds the window indices of its k copies (a task drawn twice is listed twice).

    A learning-rate block holds five copies, so its sums and consistency groups are taken
    over k columns instead of the window's n: the sums are the listed copies' ``terms``, and
    the consistency is :func:`aaaf.scoring.resample_groups.listed_consistency`'s."""
    rows, k = tasks.shape
    inverse = None
    if rows and float(arrays.n) ** k < 2.0**62:
        # the same copies listed in the same order have the same perf, bit for bit: each
        # listing is scored once, a few twice (about half are repeats: learning_rate 46.3 →
        # 37.3 M instructions per 1 000-event agent, callgrind)
        key = tasks[:, 0].copy()
        for j in range(1, k):
            key = key * arrays.n + tasks[:, j]
        tasks, inverse = _distinct_rows(tasks, key)
    # copy by copy into one B × 9 sum (the weighted terms): no B × k × 9 gather (-5 % of the bootstrap, measured);
    # np.take, not an index: 4.4 → 1.5 M instructions per 1 000-event agent (callgrind)
    sums = np.take(arrays.terms, tasks[:, 0], axis=0)
    for j in range(1, k):
        sums += np.take(arrays.terms, tasks[:, j], axis=0)
    consistency = listed_consistency(tasks, arrays, config.consistency_min_group)
    performance = performance_composite(scores_of(sums, consistency, config), config)
    return performance if inverse is None else performance[inverse.reshape(-1)]


# Fibonacci hashing's multiplier (2^64 / golden ratio, odd): the high bits of key × it spread
# consecutive keys over the table (Knuth, TAOCP 6.4)
_SPREAD = np.uint64(0x9E3779B97F4A7C15)


def _distinct_rows(rows: IntArray, key: IntArray) -> tuple[IntArray, IntArray]:
    """The rows of ``rows`` to score (``key``: each row's, equal exactly for equal rows), and
    each row's place among them (the learning-rate blocks listed alike: their scores are
    equal bit for bit).

    Each key is hashed into a table of 4 to 8 buckets per row, each bucket keeping one of
    its rows: a row whose key is its bucket's row's takes that row's place, any other (its
    key collided with another) is scored itself — a few repeats scored twice, the same floats.
    No sort (learning_rate 20.18 → 18.77 M instructions per 1 000-event agent, callgrind;
    this step 0.55 → 0.15 ms CPU, alternating runs)."""
    count = key.shape[0]
    bits = max(4, (4 * count).bit_length())
    bucket = ((key.astype(np.uint64) * _SPREAD) >> np.uint64(64 - bits)).astype(np.intp)
    table = np.empty(1 << bits, dtype=np.intp)
    table[bucket] = np.arange(count)  # of several rows of a bucket, one is kept (whichever)
    kept = np.take(table, bucket)
    alike = np.take(key, kept) == key  # a row and its bucket's row have one key (itself included)
    scored = ~alike | (kept == np.arange(count))
    place = np.cumsum(scored) - 1
    return np.compress(scored, rows, axis=0), np.where(alike, np.take(place, kept), place)


__all__ = [
    "Partition",
    "consistency_of",
    "highest_level",
    "listed_performance",
    "partition_rows",
    "performance_composite",
    "scores_of",
]
