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
statistics :mod:`aaaf.scoring.resample_groups`'.  Cost is kept near the
plain assessment's by doing each thing once per partition: the subsets of a partition (the
taxonomy's domains, the complexity levels, the autonomy levels) are scored together, their
consistency from one table of group statistics (an autonomy level cuts groups, so its
table is of (group, level)); a learning-rate block, five copies, is listed copy by copy
and every domain's blocks are scored in one call.

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
from typing import Any

import numpy as np

from aaaf.scoring.composite_rows import composite_at_least, composite_rows
from aaaf.scoring.core import Tier
from aaaf.scoring.defaults import AXES, CAPABILITY_TIERS, PERFORMANCE_TIERS, AAAFConfig
from aaaf.scoring.resample_arrays import (
    BoolArray,
    FloatArray,
    IntArray,
    TaskArrays,
    draw_counts,
    draw_indices,
    task_arrays,
    window_rows,
)
from aaaf.scoring.resample_groups import GroupStats, group_stats
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


def _divide(numerator: FloatArray, denominator: FloatArray) -> FloatArray:
    """numerator / denominator where denominator > 0, NaN (null) elsewhere."""
    out = np.full(numerator.shape, np.nan)
    np.divide(numerator, denominator, out=out, where=denominator > 0.0)
    return out


def _consistency_of(stats: GroupStats, min_group: int) -> FloatArray:
    """consistency = 1 − min(1, 0.6 cv_accuracy + 0.4 cv_completion) over the groups with ≥
    ``min_group`` copies, the group CVs weighted by group size; null with no such group."""
    size_kept = np.where(stats.size >= min_group, stats.size, 0.0)
    grouped = size_kept.sum(axis=1)
    mean_acc = _divide((size_kept * stats.cv_accuracy).sum(axis=1), grouped)
    mean_comp = _divide((size_kept * stats.cv_credit).sum(axis=1), grouped)
    return 1.0 - np.minimum(1.0, _CONS_ACC * mean_acc + _CONS_COMP * mean_comp)


def performance_scores(
    counts: FloatArray,
    columns: IntArray,
    arrays: TaskArrays,
    config: AAAFConfig,
    whole: GroupStats | None = None,
) -> dict[str, FloatArray]:
    """The five §2.2 dimension scores of every resample's multiset (NaN = null), by name.

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


def _scores_of(sums: FloatArray, consistency: FloatArray, config: AAAFConfig) -> dict[str, FloatArray]:
    """The §2.2 scores from each resample's sums of the per-task ``terms`` and its consistency."""
    tcr = _divide(sums[:, 1], sums[:, 0])
    completed_weight = sums[:, 2]
    revised_share = _divide(sums[:, 3], completed_weight)
    errors_per_task = _divide(sums[:, 4], completed_weight)
    baseline = config.baseline_errors_per_task
    if baseline <= 0.0:
        load = np.where(errors_per_task > 0.0, 1.0, 0.0)
    else:
        load = np.minimum(1.0, errors_per_task / baseline)
    accuracy = _ACC_REV * (1.0 - revised_share) + _ACC_ERR * (1.0 - load)
    accuracy = np.where(np.isnan(revised_share), np.nan, accuracy)
    speed = _divide(sums[:, 6], sums[:, 5])
    review = _divide(sums[:, 8], sums[:, 7])
    return {
        "task_completion_rate": tcr,
        "accuracy": accuracy,
        "speed": speed,
        "consistency": consistency,
        "review_compliance": review,
    }


def _performance_composite(scores: Mapping[str, FloatArray], config: AAAFConfig) -> FloatArray:
    """perf(S) of §2.3: the §0 composite of the five §2.2 scores, every row."""
    names = list(config.performance_weights)
    return composite_rows(
        [scores[name] for name in names], [config.performance_weights[name] for name in names]
    )


def _partition_performance(
    counts: FloatArray,
    subset_of: Sequence[int],
    n_subsets: int,
    arrays: TaskArrays,
    config: AAAFConfig,
    whole: GroupStats,
    threshold: float,
    grouping: IntArray | None = None,
) -> tuple[BoolArray, FloatArray]:
    """Whether perf(S) of §2.3 is ≥ ``threshold``, and the completed copies of S, every
    resample (row) × every subset S (column) of a partition of the window (``subset_of``: each
    task's subset, -1 none), at once.

    Each subset holds its groups whole (ids in ``grouping``, by default the consistency
    groups), so its consistency is the size-weighted mean of ``whole``'s CVs over its
    groups — one product with the group → subset membership; its sums are one product of
    its columns' counts with their ``terms``; every subset's composite is decided in one call
    (:func:`aaaf.scoring.composite_rows.composite_at_least`: only the decision is used)."""
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
    groups = arrays.group if grouping is None else grouping
    inside = (groups >= 0) & (labels >= 0)
    membership = np.zeros((whole.ids.shape[0], n_subsets))
    membership[np.searchsorted(whole.ids, groups[inside]), labels[inside]] = 1.0
    size_kept = np.where(whole.size >= config.consistency_min_group, whole.size, 0.0)
    grouped = size_kept @ membership
    mean_acc = _divide((size_kept * whole.cv_accuracy) @ membership, grouped)
    mean_comp = _divide((size_kept * whole.cv_credit) @ membership, grouped)
    consistency = 1.0 - np.minimum(1.0, _CONS_ACC * mean_acc + _CONS_COMP * mean_comp)
    scores = _scores_of(sums.reshape(n_subsets * rows, -1), consistency.T.reshape(-1), config)
    names = list(config.performance_weights)
    at_least = composite_at_least(
        [scores[name] for name in names], [config.performance_weights[name] for name in names], threshold
    )
    return at_least.reshape(n_subsets, rows).T, completed


def _highest_level(
    counts: FloatArray,
    arrays: TaskArrays,
    config: AAAFConfig,
    level_of: Sequence[int | None],
    levels: Sequence[int],
    top: int,
    whole: GroupStats,
    grouping: IntArray | None = None,
) -> FloatArray:
    """complexity_ceiling / autonomy_level: the highest level with ≥ 3 completed copies and
    perf ≥ 0.60 at it, / top; 0 when none qualifies.  ``whole``: group statistics of groups
    each level holds whole (ids: ``grouping``, by default the consistency groups)."""
    index = {level: at for at, level in enumerate(levels)}
    subset_of = [-1 if level is None else index.get(level, -1) for level in level_of]
    performing, completed = _partition_performance(
        counts, subset_of, len(levels), arrays, config, whole, _LEVEL_QUALIFYING, grouping
    )
    ok = (completed >= _MIN_PER_CLAIM) & performing
    highest = np.zeros(counts.shape[0])
    for at, level in enumerate(levels):
        highest = np.where(ok[:, at], level / float(top), highest)
    return highest


def _listed_performance(tasks: IntArray, arrays: TaskArrays, config: AAAFConfig) -> FloatArray:
    """perf(S) of §2.3 for every resample whose S is listed copy by copy: row b of ``tasks``
    (B × k) holds the window indices of its k copies (a task drawn twice is listed twice).

    A learning-rate block holds five copies, so its sums and consistency groups are taken
    over k columns instead of the window's n: the sums are the listed copies' ``terms``, and
    the consistency is :func:`_listed_consistency`'s."""
    k = tasks.shape[1]
    # copy by copy into one B × 13 sum: no B × k × 13 gather (-5 % of the bootstrap, measured)
    sums = arrays.terms[tasks[:, 0]].copy()
    for j in range(1, k):
        sums += arrays.terms[tasks[:, j]]
    consistency = _listed_consistency(tasks, arrays, config.consistency_min_group)
    return _performance_composite(_scores_of(sums, consistency, config), config)


def _listed_consistency(tasks: IntArray, arrays: TaskArrays, min_group: int) -> FloatArray:
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
            consistency[one] = 1.0 - np.minimum(1.0, _CONS_ACC * cvs[0] + _CONS_COMP * cvs[1])
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
    means = [_divide(total, kept_total) for total in weighted]
    return 1.0 - np.minimum(1.0, _CONS_ACC * means[0] + _CONS_COMP * means[1])


def _copies_cv(values: FloatArray) -> FloatArray:
    """Per row, the population CV of its copies' ``values`` (two passes; 0 when they are all
    equal or their mean is 0, as the engine's coefficient_of_variation says)."""
    k = values.shape[1]
    mean = np.add.reduce([values[:, j] for j in range(k)]) / k
    variance = np.add.reduce([(values[:, j] - mean) ** 2 for j in range(k)]) / k
    cv = np.zeros(mean.shape)
    np.divide(np.sqrt(variance), mean, out=cv, where=mean != 0.0)
    return np.where(values.min(axis=1) == values.max(axis=1), 0.0, cv)


def _learning_blocks(counts: FloatArray, arrays: TaskArrays, config: AAAFConfig) -> tuple[IntArray, IntArray]:
    """The learning-rate blocks of §2.3 in every resample: (the resample of each block pair,
    the window index of each of its 10 copies — the later block's five, then the earlier's).

    A (resample, taxonomy domain) pair has one when the domain has ≥ 15 completed copies; its
    15 most recent are taken in completion order (ties by task_id, copies adjacent).  Every
    domain's completed tasks are laid out most recent first, domain after domain, and every
    resample's copies of them listed in that order: a pair's copies are then one run, whose
    first 15 are its most recent."""
    rows = counts.shape[0]
    taxonomy = {domain: at for at, domain in enumerate(dict.fromkeys(config.taxonomy))}
    label = np.array(
        [
            taxonomy.get(domain, -1) if done > 0.0 and domain is not None else -1
            for domain, done in zip(arrays.domain, arrays.completed.tolist(), strict=True)
        ],
        dtype=np.int64,
    ).reshape(-1)
    members = np.nonzero(label >= 0)[0]
    none = np.zeros(0, dtype=np.int64), np.zeros((0, 2 * _LEARNING_BLOCK), dtype=np.int64)
    if members.size == 0:
        return none
    completion = np.asarray(arrays.completion_order, dtype=np.float64)[members]
    # domain first, then most recent first; equal times: the later task_id first
    order = members[np.lexsort((-members, -completion, label[members]))]
    m = order.size
    copies = counts[:, order].astype(np.int64).ravel()
    running = np.cumsum(copies)
    segment_start = np.nonzero(np.diff(np.concatenate(([-1], label[order]))))[0]
    segment_end = np.append(segment_start[1:], m) - 1
    row_offset = (np.arange(rows, dtype=np.int64) * m)[:, None]
    first = running[row_offset + segment_start] - copies[row_offset + segment_start]  # B × segments
    totals = running[row_offset + segment_end] - first
    resample, segment = np.nonzero(totals >= _LEARNING_TASKS)
    if resample.size == 0:
        return none
    positions = np.concatenate(
        (
            np.arange(_LEARNING_BLOCK, dtype=np.int64),  # the later block, from the most recent
            np.arange(_LEARNING_TASKS - _LEARNING_BLOCK, _LEARNING_TASKS, dtype=np.int64),
        )
    )
    # the entry (resample, task) holding each wanted copy: the first whose running count
    # passes its position; the positions are in increasing order, which searchsorted uses
    wanted = first[resample, segment][:, None] + positions[None, :]
    entry = np.searchsorted(running, wanted.ravel(), side="right").reshape(wanted.shape)
    return resample, order[entry % m]


def _learning_rate(counts: FloatArray, arrays: TaskArrays, config: AAAFConfig) -> FloatArray:
    """Per taxonomy domain with ≥ 15 completed copies: perf(last 5) − perf(first 5) of its 15
    most recently completed copies (:func:`_learning_blocks`), every block scored in one call."""
    rows = counts.shape[0]
    total = np.zeros(rows)
    domains = np.zeros(rows)
    where, listed = _learning_blocks(counts, arrays, config)
    if where.size == 0:
        return _divide(total, domains)
    later = _listed_performance(listed[:, :_LEARNING_BLOCK], arrays, config)
    earlier = _listed_performance(listed[:, _LEARNING_BLOCK:], arrays, config)
    valid = ~np.isnan(later) & ~np.isnan(earlier)
    learning = np.where(valid, np.clip((later - earlier) / _LEARNING_FULL, 0.0, 1.0), 0.0)
    np.add.at(total, where, learning)
    np.add.at(domains, where, valid.astype(np.float64))
    return _divide(total, domains)


def _domain_breadth(
    counts: FloatArray, arrays: TaskArrays, config: AAAFConfig, whole: GroupStats
) -> FloatArray:
    taxonomy = tuple(dict.fromkeys(config.taxonomy))
    rows = counts.shape[0]
    any_completed = (counts @ arrays.completed) > 0.0
    if not taxonomy:
        return np.full(rows, np.nan)
    index = {domain: at for at, domain in enumerate(taxonomy)}
    subset_of = [index.get(domain, -1) if domain is not None else -1 for domain in arrays.domain]
    performing, completed = _partition_performance(
        counts, subset_of, len(taxonomy), arrays, config, whole, _DOMAIN_QUALIFYING
    )
    qualified = ((completed >= _MIN_PER_CLAIM) & performing).sum(axis=1)
    return np.where(any_completed, qualified / len(taxonomy), np.nan)


def _tool_proficiency(counts: FloatArray, arrays: TaskArrays) -> FloatArray:
    rows = counts.shape[0]
    n_tools = len(arrays.tool_names)
    if n_tools == 0:
        return np.full(rows, np.nan)
    sums = (arrays.tool_base[None, :] + counts @ arrays.tool_per_task).reshape(rows, n_tools, 5)
    invocations, successes, failures, recovered, unnecessary = (sums[:, :, k] for k in range(5))
    qualifies = invocations >= _MIN_TOOL_INVOCATIONS
    safe = np.where(invocations > 0.0, invocations, 1.0)
    recovery = np.ones(invocations.shape)
    np.divide(recovered, failures, out=recovery, where=failures > 0.0)
    score = 0.5 * (successes / safe) + 0.3 * recovery + 0.2 * (1.0 - unnecessary / safe)
    return _divide(np.where(qualifies, score, 0.0).sum(axis=1), qualifies.sum(axis=1).astype(np.float64))


def _delegation(counts: FloatArray, arrays: TaskArrays) -> FloatArray:
    sums = arrays.delegation_base[None, :] + counts @ arrays.delegation_per_task
    judgment = _divide(sums[:, 1], sums[:, 0])
    selection = _divide(sums[:, 3], sums[:, 2])
    management = _divide(sums[:, 5], sums[:, 4])
    return composite_rows([judgment, selection, management], _DELEGATION_WEIGHTS)


def _orchestration(counts: FloatArray, arrays: TaskArrays) -> FloatArray:
    sums = arrays.orchestration_base[None, :] + counts @ arrays.orchestration_per_task
    return _divide(sums[:, 1], sums[:, 0])


def capability_scores(
    counts: FloatArray, arrays: TaskArrays, config: AAAFConfig, whole: GroupStats | None = None
) -> dict[str, FloatArray]:
    """The seven §2.3 dimension scores of every resample (NaN = null), by name.

    ``whole``: the window's group statistics (computed here when not given); a domain and
    a complexity level hold their groups whole, an autonomy level or a learning block not.
    """
    if whole is None:
        whole = group_stats(counts, np.arange(arrays.n, dtype=np.int64), arrays, config.consistency_min_group)
    any_completed = (counts @ arrays.completed) > 0.0
    ceiling = _highest_level(counts, arrays, config, arrays.complexity, _COMPLEXITY_LEVELS, 5, whole)
    # an autonomy level cuts consistency groups: the groups of (group, level), all at once
    joint: dict[tuple[int, int], int] = {}
    by_autonomy = np.array(
        [
            -1 if g < 0 or a is None else joint.setdefault((g, a), len(joint))
            for g, a in zip(arrays.group.tolist(), arrays.autonomy, strict=True)
        ],
        dtype=np.int64,
    ).reshape(-1)
    whole_by_autonomy = group_stats(
        counts, np.arange(arrays.n, dtype=np.int64), arrays, config.consistency_min_group, by_autonomy
    )
    autonomy = _highest_level(
        counts, arrays, config, arrays.autonomy, _AUTONOMY_LEVELS, 3, whole_by_autonomy, by_autonomy
    )
    with_autonomy = (counts @ arrays.completed_with_autonomy) > 0.0
    return {
        "domain_breadth": _domain_breadth(counts, arrays, config, whole),
        "complexity_ceiling": np.where(any_completed, ceiling, np.nan),
        "tool_proficiency": _tool_proficiency(counts, arrays),
        "autonomy_level": np.where(with_autonomy, autonomy, np.nan),
        "learning_rate": _learning_rate(counts, arrays, config),
        "delegation_capability": _delegation(counts, arrays),
        "orchestration_skills": _orchestration(counts, arrays),
    }


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
    "FloatArray",
    "GroupStats",
    "IntArray",
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
