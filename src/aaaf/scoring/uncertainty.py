"""How sure an AAAF assessment is: the bootstrap over its window tasks (SCORING.md §2.5).

Pure and vectorised.  The units are the window's tasks in ``task_id`` order; one index
matrix ``numpy.random.default_rng(seed).integers(0, n_tasks, size=(B, n_tasks))`` serves
both axes.  A resample is fully described by how many times it drew each task (a task
drawn k times is k tasks, each with all its evidence and its own recency weight), so the
draws become a count matrix ``C`` (B × n) and every §2.2/§2.3 sum of a resample is a
row of ``C @ per-task quantities``:

* the §2.2 weighted means are ``C @ terms`` (the engine's own per-task ``terms``);
* a consistency group's CV is taken with multiplicities (population mean and variance of
  a multiset; two passes, no cancellation);
* ``perf(S)`` of §2.3 is the same computation on the columns of S (with counts cut to a
  learning-rate block where one applies: copies follow each other, so a block holds a
  part of a task's copies);
* tool, delegation and orchestration counts are the unattached evidence (once, as
  observed) plus ``C @`` each task's own.

The columns and the draw are :mod:`aaaf.scoring.resample_arrays`', the consistency groups'
statistics :mod:`aaaf.scoring.resample_groups`'.  Cost is kept near the plain assessment's
by doing each thing once per partition: a partition's subsets (domains, complexity or
autonomy levels) are summed together, their consistency from one table of group statistics
(an autonomy level cuts groups: its (group, level) tables are taken level by level, highest
first, only where needed); a learning-rate block is listed copy by copy, all in one call.

Nothing is re-folded and no task is re-scored: the per-task quantities are those of the
assessment (:class:`aaaf.scoring.aaaf.ScoredTask`).  "Same construct": a dimension null
in the assessment is null in every resample; a scored dimension null in a resample drops
out of that resample's composite (weights renormalised, §0); a resample is insufficient
for an axis only when the axis's composite is null.  Dimension sums are float matrix
products (they agree with the engine's sums to well within the 1e-9 §2.5 allows); every
composite is :func:`aaaf.scoring.composite_rows.composite_rows`, bit for bit the engine's
:func:`aaaf.scoring.core.composite`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from aaaf.scoring import aaaf_performance  # noqa: F401  (a Performance formula may register its rows there)
from aaaf.scoring.aaaf_tasks import TERMS
from aaaf.scoring.composite_rows import composite_at_least, composite_rows
from aaaf.scoring.core import Tier
from aaaf.scoring.defaults import AXES, CAPABILITY_TIERS, PERFORMANCE_TIERS, AAAFConfig
from aaaf.scoring.dimensions import CAPABILITY_ROWS, PERFORMANCE_ROWS
from aaaf.scoring.resample_arrays import (
    BoolArray,
    FloatArray,
    IntArray,
    TaskArrays,
    divide,
    draw_counts,
    draw_indices,
    learning_blocks,
    task_arrays,
    window_rows,
)
from aaaf.scoring.resample_groups import GroupStats, group_stats, listed_consistency
from aaaf.scoring.uncertainty_report import (
    CAPABILITY_INTERVAL_NOTE,
    INSUFFICIENT,
    awarded_probability,
    interval_report,
    interval_text,
    is_borderline,
    tier_indices,
)

TIERS_OF_AXIS: Mapping[str, tuple[Tier, ...]] = {
    "performance": PERFORMANCE_TIERS,
    "capability": CAPABILITY_TIERS,
}

# the §2.2/§2.3 constants, as in aaaf.scoring.aaaf (kept equal by tests/scoring/test_uncertainty.py)
_ACC_REV, _ACC_ERR = 0.6, 0.4
_CONS_ACC, _CONS_COMP = 0.6, 0.4
_DOMAIN_QUALIFYING, _LEVEL_QUALIFYING = 0.40, 0.60
_MIN_PER_CLAIM = 3
_COMPLEXITY_LEVELS = (1, 2, 3, 4, 5)
_AUTONOMY_LEVELS = (0, 1, 2, 3)
_MIN_TOOL_INVOCATIONS = 10
_LEARNING_TASKS, _LEARNING_BLOCK, _LEARNING_FULL = 15, 5, 0.30
_DELEGATION_WEIGHTS = (0.4, 0.3, 0.3)  # judgment, selection, management


# --------------------------------------------------------------------------- batched formulas


def _consistency_of(stats: GroupStats, min_group: int) -> FloatArray:
    """consistency = 1 − min(1, 0.6 cv_accuracy + 0.4 cv_completion) over the groups with ≥
    ``min_group`` copies, the group CVs weighted by group size; null with no such group."""
    size_kept = np.where(stats.size >= min_group, stats.size, 0.0)
    grouped = size_kept.sum(axis=1)
    mean_acc = divide((size_kept * stats.cv_accuracy).sum(axis=1), grouped)
    mean_comp = divide((size_kept * stats.cv_credit).sum(axis=1), grouped)
    return 1.0 - np.minimum(1.0, _CONS_ACC * mean_acc + _CONS_COMP * mean_comp)


def performance_scores(
    counts: FloatArray,
    columns: IntArray,
    arrays: TaskArrays,
    config: AAAFConfig,
    whole: GroupStats | None = None,
) -> dict[str, FloatArray]:
    """The §2.2 dimension scores of every resample's multiset (NaN = null), by name.

    ``counts`` (B × m) are the multiplicities of the tasks ``columns`` (indices into the
    window's tasks); the rest of the window is not in the set.  ``whole``: the window's
    group statistics, when the set holds each of its groups whole (a domain, a complexity
    level, the window): a group's CVs depend only on its own copies, so they are reused.
    """
    sums = counts @ arrays.terms[columns]
    if whole is None:
        min_group = config.consistency_min_group
        consistency = _consistency_of(group_stats(counts, columns, arrays, min_group), min_group)
    else:
        present = np.unique(arrays.group[columns])
        consistency = _consistency_of(whole.restricted(present[present >= 0]), config.consistency_min_group)
    return _scores_of(sums, consistency, config)


_TERM_AT: Mapping[str, int] = {name: at for at, name in enumerate(TERMS)}


class PerformanceRows(NamedTuple):
    """What a Performance dimension's bootstrap formula reads: every row's (resample's, or a
    resampled subset's) sums of the per-task ``terms``, in :data:`aaaf.scoring.aaaf.TERMS`
    order, and its consistency (from the group statistics, computed once for all)."""

    sums: FloatArray
    consistency: FloatArray
    config: AAAFConfig

    def ratio(self, numerator: str, denominator: str) -> FloatArray:
        """Every row's sum of the term ``numerator`` over its sum of ``denominator`` (terms named
        as in ``TERMS``), NaN (null) where that is 0: most §2.2 weighted means are one."""
        return divide(self.sums[:, _TERM_AT[numerator]], self.sums[:, _TERM_AT[denominator]])


@PERFORMANCE_ROWS.register("task_completion_rate")
def _task_completion_rate(rows: PerformanceRows) -> FloatArray:
    return rows.ratio("weighted_credit", "weight")


@PERFORMANCE_ROWS.register("accuracy")
def _accuracy(rows: PerformanceRows) -> FloatArray:
    sums = rows.sums
    completed_weight = sums[:, 2]
    revised_share = divide(sums[:, 3], completed_weight)
    errors_per_task = divide(sums[:, 4], completed_weight)
    baseline = rows.config.baseline_errors_per_task
    if baseline <= 0.0:
        load = np.where(errors_per_task > 0.0, 1.0, 0.0)
    else:
        load = np.minimum(1.0, errors_per_task / baseline)
    accuracy = _ACC_REV * (1.0 - revised_share) + _ACC_ERR * (1.0 - load)
    return np.where(np.isnan(revised_share), np.nan, accuracy)


@PERFORMANCE_ROWS.register("speed")
def _speed(rows: PerformanceRows) -> FloatArray:
    return rows.ratio("weighted_speed", "speed_weight")


@PERFORMANCE_ROWS.register("consistency")
def _consistency(rows: PerformanceRows) -> FloatArray:
    return rows.consistency


@PERFORMANCE_ROWS.register("review_compliance")
def _review_compliance(rows: PerformanceRows) -> FloatArray:
    return rows.ratio("weighted_review", "review_weight")


def _scores_of(sums: FloatArray, consistency: FloatArray, config: AAAFConfig) -> dict[str, FloatArray]:
    """The Performance scores from each row's sums of the per-task ``terms`` and its consistency."""
    rows = PerformanceRows(sums, consistency, config)
    return {name: formula(rows) for name, formula in PERFORMANCE_ROWS.complete().items()}


def _performance_composite(scores: Mapping[str, FloatArray], config: AAAFConfig) -> FloatArray:
    """perf(S) of §2.3: the §0 composite of the §2.2 scores, every row."""
    names = list(config.performance_weights)
    return composite_rows(
        [scores[name] for name in names], [config.performance_weights[name] for name in names]
    )


class _Partition(NamedTuple):
    """Every resample (row) × every subset S (column) of a partition of the window: S's sums
    of the per-task ``terms`` (subsets × rows × terms), its §2.2 consistency and its completed
    copies (rows × subsets)."""

    sums: FloatArray
    consistency: FloatArray | None
    completed: FloatArray

    def at_least(
        self,
        subset: IntArray,
        row: IntArray,
        config: AAAFConfig,
        threshold: float,
        consistency: FloatArray | None = None,
    ) -> BoolArray:
        """Whether perf(S) of §2.3 is ≥ ``threshold`` for the (``subset``, ``row``) pairs only, in
        one call (:func:`aaaf.scoring.composite_rows.composite_at_least`: only the decision is
        used).  ``consistency``: the pairs' own, when the partition has none."""
        if consistency is None:
            assert self.consistency is not None
            consistency = self.consistency[row, subset]
        scores = _scores_of(self.sums[subset, row], consistency, config)
        names = list(config.performance_weights)
        return composite_at_least(
            [scores[name] for name in names], [config.performance_weights[name] for name in names], threshold
        )


def _partition(
    counts: FloatArray,
    subset_of: Sequence[int],
    n_subsets: int,
    arrays: TaskArrays,
    config: AAAFConfig,
    whole: GroupStats | None,
    grouping: IntArray | None = None,
) -> _Partition:
    """The :class:`_Partition` of ``subset_of`` (each task's subset, -1 none); without
    ``whole`` (the group statistics) it has no consistency.

    Each subset holds its groups whole (ids in ``grouping``, by default the consistency
    groups), so its consistency is the size-weighted mean of ``whole``'s CVs over its
    groups — one product with the group → subset membership; its sums are one product of
    its columns' counts with their ``terms``."""
    rows = counts.shape[0]
    labels = np.asarray(subset_of, dtype=np.int64).reshape(-1)
    sums = np.zeros((n_subsets, rows, arrays.terms.shape[1]))
    completed = np.zeros((rows, n_subsets))
    for subset in range(n_subsets):
        columns = np.nonzero(labels == subset)[0]
        if columns.size:
            sub = counts[:, columns]
            sums[subset] = sub @ arrays.terms[columns]
            completed[:, subset] = sub @ arrays.completed[columns]
    if whole is None:
        return _Partition(sums, None, completed)
    groups = arrays.group if grouping is None else grouping
    inside = (groups >= 0) & (labels >= 0)
    membership = np.zeros((whole.ids.shape[0], n_subsets))
    membership[np.searchsorted(whole.ids, groups[inside]), labels[inside]] = 1.0
    size_kept = np.where(whole.size >= config.consistency_min_group, whole.size, 0.0)
    grouped = size_kept @ membership
    mean_acc = divide((size_kept * whole.cv_accuracy) @ membership, grouped)
    mean_comp = divide((size_kept * whole.cv_credit) @ membership, grouped)
    consistency = 1.0 - np.minimum(1.0, _CONS_ACC * mean_acc + _CONS_COMP * mean_comp)
    return _Partition(sums, consistency, completed)


def _highest_level(
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
    subset_of = [-1 if level is None else index.get(level, -1) for level in level_of]
    partition = _partition(counts, subset_of, len(levels), arrays, config, whole, grouping)
    highest = np.zeros(counts.shape[0])
    open_rows = np.arange(counts.shape[0])
    for at in reversed(range(len(levels))):
        candidates = open_rows[partition.completed[open_rows, at] >= _MIN_PER_CLAIM]
        if candidates.size == 0:
            continue
        subset = np.full(candidates.shape[0], at, dtype=np.int64)
        consistency = None
        if whole is None:
            columns = np.nonzero(np.asarray(subset_of, dtype=np.int64) == at)[0]
            min_group = config.consistency_min_group
            stats = group_stats(counts[np.ix_(candidates, columns)], columns, arrays, min_group, grouping)
            consistency = _consistency_of(stats, min_group)
        qualifies = partition.at_least(subset, candidates, config, _LEVEL_QUALIFYING, consistency)
        settled = candidates[qualifies]
        highest[settled] = levels[at] / float(top)
        open_rows = np.setdiff1d(open_rows, settled, assume_unique=True)
        if open_rows.size == 0:
            break
    return highest


def _listed_performance(tasks: IntArray, arrays: TaskArrays, config: AAAFConfig) -> FloatArray:
    """perf(S) of §2.3 for every resample whose S is listed copy by copy: row b of ``tasks``
    (B × k) holds the window indices of its k copies (a task drawn twice is listed twice).

    A learning-rate block holds five copies, so its sums and consistency groups are taken
    over k columns instead of the window's n: the sums are the listed copies' ``terms``, and
    the consistency is :func:`aaaf.scoring.resample_groups.listed_consistency`'s."""
    rows, k = tasks.shape
    inverse = None
    if rows and float(arrays.n) ** k < 2.0**62:
        # the same copies listed in the same order have the same perf, bit for bit: each
        # listing is scored once (about half are repeats: learning_rate 46.3 → 37.3 M
        # instructions per 1 000-event agent, callgrind)
        key = tasks[:, 0].copy()
        for j in range(1, k):
            key = key * arrays.n + tasks[:, j]
        _, first_at, inverse = np.unique(key, return_index=True, return_inverse=True)
        tasks = tasks[first_at]
    # copy by copy into one B × 13 sum: no B × k × 13 gather (-5 % of the bootstrap, measured)
    sums = arrays.terms[tasks[:, 0]].copy()
    for j in range(1, k):
        sums += arrays.terms[tasks[:, j]]
    consistency = listed_consistency(tasks, arrays, config.consistency_min_group)
    performance = _performance_composite(_scores_of(sums, consistency, config), config)
    return performance if inverse is None else performance[inverse.reshape(-1)]


class CapabilityRows:
    """What a Capability dimension's bootstrap formula reads: the resamples' multiplicities
    (``counts``, B × n), the window's task columns, the config and the window's group
    statistics (``whole``); what several formulas need is computed once, when first asked."""

    __slots__ = ("_any_completed", "arrays", "config", "counts", "whole")

    def __init__(self, counts: FloatArray, arrays: TaskArrays, config: AAAFConfig, whole: GroupStats) -> None:
        self.counts = counts
        self.arrays = arrays
        self.config = config
        self.whole = whole
        self._any_completed: BoolArray | None = None

    @property
    def any_completed(self) -> BoolArray:
        """Whether each resample holds a completed copy."""
        if self._any_completed is None:
            self._any_completed = (self.counts @ self.arrays.completed) > 0.0
        return self._any_completed


@CAPABILITY_ROWS.register("domain_breadth")
def _domain_breadth(rows: CapabilityRows) -> FloatArray:
    counts, arrays, config = rows.counts, rows.arrays, rows.config
    taxonomy = tuple(dict.fromkeys(config.taxonomy))
    if not taxonomy:
        return np.full(counts.shape[0], np.nan)
    index = {domain: at for at, domain in enumerate(taxonomy)}
    subset_of = [index.get(domain, -1) if domain is not None else -1 for domain in arrays.domain]
    partition = _partition(counts, subset_of, len(taxonomy), arrays, config, rows.whole)
    # a domain without 3 completed copies cannot qualify: only the others are scored
    row, subset = np.nonzero(partition.completed >= _MIN_PER_CLAIM)
    performing = partition.at_least(subset, row, config, _DOMAIN_QUALIFYING)
    qualified = np.bincount(row[performing], minlength=counts.shape[0])
    return np.where(rows.any_completed, qualified / len(taxonomy), np.nan)


@CAPABILITY_ROWS.register("complexity_ceiling")
def _complexity_ceiling(rows: CapabilityRows) -> FloatArray:
    ceiling = _highest_level(
        rows.counts, rows.arrays, rows.config, rows.arrays.complexity, _COMPLEXITY_LEVELS, 5, rows.whole
    )
    return np.where(rows.any_completed, ceiling, np.nan)


@CAPABILITY_ROWS.register("tool_proficiency")
def _tool_proficiency(rows: CapabilityRows) -> FloatArray:
    counts, arrays = rows.counts, rows.arrays
    n_rows = counts.shape[0]
    n_tools = len(arrays.tool_names)
    if n_tools == 0:
        return np.full(n_rows, np.nan)
    sums = (arrays.tool_base[None, :] + counts @ arrays.tool_per_task).reshape(n_rows, n_tools, 5)
    invocations, successes, failures, recovered, unnecessary = (sums[:, :, k] for k in range(5))
    qualifies = invocations >= _MIN_TOOL_INVOCATIONS
    safe = np.where(invocations > 0.0, invocations, 1.0)
    recovery = np.ones(invocations.shape)
    np.divide(recovered, failures, out=recovery, where=failures > 0.0)
    score = 0.5 * (successes / safe) + 0.3 * recovery + 0.2 * (1.0 - unnecessary / safe)
    return divide(np.where(qualifies, score, 0.0).sum(axis=1), qualifies.sum(axis=1).astype(np.float64))


@CAPABILITY_ROWS.register("autonomy_level")
def _autonomy_level(rows: CapabilityRows) -> FloatArray:
    counts, arrays, config = rows.counts, rows.arrays, rows.config
    # an autonomy level cuts consistency groups: the groups of (group, level), all at once
    joint: dict[tuple[int, int], int] = {}
    by_autonomy = np.array(
        [
            -1 if g < 0 or a is None else joint.setdefault((g, a), len(joint))
            for g, a in zip(arrays.group.tolist(), arrays.autonomy, strict=True)
        ],
        dtype=np.int64,
    ).reshape(-1)
    autonomy = _highest_level(counts, arrays, config, arrays.autonomy, _AUTONOMY_LEVELS, 3, None, by_autonomy)
    with_autonomy = (counts @ arrays.completed_with_autonomy) > 0.0
    return np.where(with_autonomy, autonomy, np.nan)


@CAPABILITY_ROWS.register("learning_rate")
def _learning_rate(rows: CapabilityRows) -> FloatArray:
    """Per taxonomy domain with ≥ 15 completed copies: perf(last 5) − perf(first 5) of its 15
    most recently completed copies (:func:`aaaf.scoring.resample_arrays.learning_blocks`), every block scored in one call."""
    counts, arrays, config = rows.counts, rows.arrays, rows.config
    total = np.zeros(counts.shape[0])
    domains = np.zeros(counts.shape[0])
    where, listed = learning_blocks(counts, arrays, config.taxonomy, _LEARNING_TASKS, _LEARNING_BLOCK)
    if where.size == 0:
        return divide(total, domains)
    # both blocks of every pair in one call
    both = _listed_performance(
        np.concatenate((listed[:, :_LEARNING_BLOCK], listed[:, _LEARNING_BLOCK:])), arrays, config
    )
    later, earlier = both[: where.size], both[where.size :]
    valid = ~np.isnan(later) & ~np.isnan(earlier)
    learning = np.where(valid, np.clip((later - earlier) / _LEARNING_FULL, 0.0, 1.0), 0.0)
    np.add.at(total, where, learning)
    np.add.at(domains, where, valid.astype(np.float64))
    return divide(total, domains)


@CAPABILITY_ROWS.register("delegation_capability")
def _delegation_capability(rows: CapabilityRows) -> FloatArray:
    arrays = rows.arrays
    sums = arrays.delegation_base[None, :] + rows.counts @ arrays.delegation_per_task
    judgment = divide(sums[:, 1], sums[:, 0])
    selection = divide(sums[:, 3], sums[:, 2])
    management = divide(sums[:, 5], sums[:, 4])
    return composite_rows([judgment, selection, management], _DELEGATION_WEIGHTS)


@CAPABILITY_ROWS.register("orchestration_skills")
def _orchestration_skills(rows: CapabilityRows) -> FloatArray:
    sums = rows.arrays.orchestration_base[None, :] + rows.counts @ rows.arrays.orchestration_per_task
    return divide(sums[:, 1], sums[:, 0])


def capability_scores(
    counts: FloatArray, arrays: TaskArrays, config: AAAFConfig, whole: GroupStats | None = None
) -> dict[str, FloatArray]:
    """The §2.3 dimension scores of every resample (NaN = null), by name.

    ``whole``: the window's group statistics (computed here when not given); a domain and
    a complexity level hold their groups whole, an autonomy level or a learning block not.
    """
    if whole is None:
        whole = group_stats(counts, np.arange(arrays.n, dtype=np.int64), arrays, config.consistency_min_group)
    rows = CapabilityRows(counts, arrays, config, whole)
    return {name: formula(rows) for name, formula in CAPABILITY_ROWS.complete().items()}


# every declared dimension has its bootstrap formula (a missing one fails this import, named)
PERFORMANCE_ROWS.complete()
CAPABILITY_ROWS.complete()


# --------------------------------------------------------------------------- report


def resampled_composites(
    window: Any,
    config: AAAFConfig,
    assessed: Mapping[str, Mapping[str, float | None]],
    counts: FloatArray | None = None,
    *,
    assessed_window: bool = False,
) -> dict[str, FloatArray]:
    """Each assessed axis's composite in every resample (NaN = insufficient), §2.5.

    ``assessed``: axis → {dimension: the assessment's score}; a dimension null there is
    null in every resample ("same construct").  ``assessed_window``: see :func:`resampled_scores`.
    """
    scored = resampled_scores(window, config, assessed, counts, assessed_window=assessed_window)
    return {axis: composite for axis, (composite, _) in scored.items()}


def resampled_scores(
    window: Any,
    config: AAAFConfig,
    assessed: Mapping[str, Mapping[str, float | None]],
    counts: FloatArray | None = None,
    *,
    assessed_window: bool = False,
) -> dict[str, tuple[FloatArray, dict[str, FloatArray]]]:
    """Per assessed axis, (its composite, {dimension: score}) in every resample (NaN = null or
    insufficient), §2.5.  ``counts`` (B × n_tasks, the window's tasks in ``task_id`` order):
    the resamples' multiplicities — by default the §2.5 draw; a row of ones is the window
    itself; the release gate passes one draw shared by two windows of the same tasks.
    ``assessed_window``: ``window`` is the very window ``assessed`` was scored on (an
    assessment's own uncertainty), so a resample that is the window (:func:`window_rows`)
    takes the assessment's scores, bit for bit."""
    arrays = task_arrays(window)
    if counts is None:
        counts = draw_counts(
            draw_indices(arrays.n, config.uncertainty_resamples, config.uncertainty_seed), arrays.n
        )
    out: dict[str, tuple[FloatArray, dict[str, FloatArray]]] = {}
    columns = np.arange(arrays.n, dtype=np.int64)
    whole = group_stats(counts, columns, arrays, config.consistency_min_group)
    itself = window_rows(counts, arrays) if assessed_window else np.zeros(counts.shape[0], dtype=np.bool_)
    for axis, scores in assessed.items():
        weights = config.weights(axis)  # keyed by name: one weight per declared dimension
        names = AXES[axis]
        if axis == "performance":
            resampled = performance_scores(counts, columns, arrays, config, whole)
        else:
            resampled = capability_scores(counts, arrays, config, whole)
        kept: dict[str, FloatArray] = {}
        for name in names:
            assessed_score = scores.get(name)
            values = np.full(counts.shape[0], np.nan) if assessed_score is None else resampled[name]
            if assessed_score is not None:
                values[itself] = assessed_score
            kept[name] = values
        composite = composite_rows([kept[name] for name in names], [weights[name] for name in names])
        out[axis] = (composite, kept)
    return out


def assessment_uncertainty(
    window: Any, config: AAAFConfig, assessed: Mapping[str, Mapping[str, float | None]]
) -> dict[str, dict[str, Any]]:
    """Per assessed axis, its §2.5 ``uncertainty`` object."""
    if not window.scored or config.uncertainty_resamples <= 0:
        return {}
    composites = resampled_composites(window, config, assessed, assessed_window=True)
    return {axis: interval_report(values, TIERS_OF_AXIS[axis]) for axis, values in composites.items()}


__all__ = [
    "CAPABILITY_INTERVAL_NOTE",
    "INSUFFICIENT",
    "CapabilityRows",
    "FloatArray",
    "GroupStats",
    "IntArray",
    "PerformanceRows",
    "TaskArrays",
    "assessment_uncertainty",
    "awarded_probability",
    "capability_scores",
    "draw_counts",
    "draw_indices",
    "group_stats",
    "interval_report",
    "interval_text",
    "is_borderline",
    "performance_scores",
    "resampled_composites",
    "resampled_scores",
    "task_arrays",
    "tier_indices",
    "window_rows",
]
