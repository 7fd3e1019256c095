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

Each dimension's formula over the rows is registered beside its declaration's engine
formula: the Performance ones in :mod:`aaaf.scoring.aaaf_performance`, the Capability ones
in :mod:`aaaf.scoring.capability_rows`; this module runs them and reports.  The columns and
the draw are :mod:`aaaf.scoring.resample_arrays`', the consistency groups' statistics
:mod:`aaaf.scoring.resample_groups`', the partitions :mod:`aaaf.scoring.resample_partitions`'.  Cost is kept near the plain assessment's
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

from collections.abc import Collection, Mapping
from typing import Any

import numpy as np

from aaaf.scoring.aaaf_performance import PerformanceRows
from aaaf.scoring.capability_rows import CapabilityRows
from aaaf.scoring.composite_rows import composite_rows
from aaaf.scoring.core import Tier
from aaaf.scoring.defaults import AXES, CAPABILITY_TIERS, PERFORMANCE_TIERS, AAAFConfig
from aaaf.scoring.dimensions import CAPABILITY_ROWS, PERFORMANCE_ROWS
from aaaf.scoring.resample_arrays import (
    FloatArray,
    IntArray,
    TaskArrays,
    draw_counts,
    draw_indices,
    task_arrays,
    window_rows,
)
from aaaf.scoring.resample_groups import GroupStats, group_stats
from aaaf.scoring.resample_partitions import consistency_of, scores_of
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


# --------------------------------------------------------------------------- the dimensions


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
        consistency = consistency_of(group_stats(counts, columns, arrays, min_group))
    else:
        present = np.unique(arrays.group[columns])
        consistency = consistency_of(whole.restricted(present[present >= 0]))
    return scores_of(sums, consistency, config)


def capability_scores(
    counts: FloatArray,
    arrays: TaskArrays,
    config: AAAFConfig,
    whole: GroupStats | None = None,
    names: Collection[str] | None = None,
) -> dict[str, FloatArray]:
    """The §2.3 dimension scores of every resample (NaN = null), by name: of every dimension,
    or of ``names`` only.

    ``whole``: the window's group statistics (computed here when not given); a domain and
    a complexity level hold their groups whole, an autonomy level or a learning block not.
    """
    if whole is None:
        whole = group_stats(counts, np.arange(arrays.n, dtype=np.int64), arrays, config.consistency_min_group)
    rows = CapabilityRows(counts, arrays, config, whole)
    formulas = CAPABILITY_ROWS.complete()
    return {name: formula(rows) for name, formula in formulas.items() if names is None or name in names}


# every declared dimension has its bootstrap formula (a missing one fails this import, named):
# the Performance ones are registered in aaaf_performance, the Capability ones in capability_rows
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
        else:  # a dimension null in the assessment is null in every resample: not computed
            # (orchestration_skills in bench_uncertainty's agents: 0.045 ms per agent, in situ)
            scored = {name for name in names if scores.get(name) is not None}
            resampled = capability_scores(counts, arrays, config, whole, scored)
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
