"""The AAAF scheme: dual-axis Performance / Capability scoring (SCORING.md §2, document 004 §3).

Pure: events, config and ``window_end`` in, an :class:`~aaaf.scoring.results.AAAFResult`
out.  The work is one fold of the events into tasks (:mod:`aaaf.scoring.fold`), one pass
that gives every window task its recency weight and per-task quantities, and then each
dimension as sums over those quantities.  ``perf(S)`` (the Performance composite of a
subset, SCORING.md §2.3) reuses the same per-task quantities, so the capability axis costs
a few more passes over the window's tasks, never a re-fold.

Determinism (SCORING.md §0): tasks are always visited in ``task_id`` order (completion
order, ties by ``task_id``, for learning_rate) and unattached evidence in (timestamp, id)
order, and sums over unordered collections use :func:`math.fsum`; so the same evidence in
any order gives bit-identical scores.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from aaaf.errors import AAAFError
from aaaf.scoring import aaaf_performance  # noqa: F401  (registers its dimensions' formulas)
from aaaf.scoring.aaaf_capability import (
    AUTONOMY_LEVELS,
    COMPLEXITY_LEVELS,
    DELEGATION_WEIGHTS,
    DOMAIN_QUALIFYING_PERFORMANCE,
    LEARNING_BLOCK,
    LEARNING_FULL_IMPROVEMENT,
    LEARNING_TASKS,
    LEVEL_QUALIFYING_PERFORMANCE,
    MIN_COMPLETED_PER_CLAIM,
    MIN_TOOL_INVOCATIONS,
    ORCHESTRATION_COMPONENTS,
    OUTCOME_VALUES,
    REVISION_NEEDED_FACTOR,
    TOOL_WEIGHTS,
)
from aaaf.scoring.aaaf_context import AssessmentContext
from aaaf.scoring.aaaf_tasks import (
    ACCURACY_ERROR_WEIGHT,
    ACCURACY_REVISION_WEIGHT,
    CONSISTENCY_ACCURACY_WEIGHT,
    CONSISTENCY_COMPLETION_WEIGHT,
    TASK_ID_OF,
    TERMS,
    ConsistencyGroup,
    PerformanceComponents,
    ScoredTask,
    coefficient_of_variation,
    consistency_groups,
    distinct_ids,
    performance_components,
    score_task,
    subset_performance,
)
from aaaf.scoring.aaaf_window import (
    ONE_DAY,
    WindowEvidence,
    age_in_days,
    as_utc,
    recency_weight,
    window_bounds,
    window_evidence,
)
from aaaf.scoring.audit import window_audit
from aaaf.scoring.core import CompositeResult, DimensionResult, composite
from aaaf.scoring.defaults import (
    AXES,
    CAPABILITY_DIMENSIONS,
    CAPABILITY_TIERS,
    PERFORMANCE_DIMENSIONS,
    PERFORMANCE_TIERS,
    AAAFConfig,
)
from aaaf.scoring.dimensions import ENGINE, SUBSET_SCORES
from aaaf.scoring.fold import (
    FoldedEvidence,
    fold_evidence,
)
from aaaf.scoring.records import EventRecord
from aaaf.scoring.results import AAAFResult, AxisResult, iso

# The scheme is split by what its parts are (tasks, window, context, performance and
# capability dimensions); this module assembles results and re-exports the rest, so
# ``aaaf.scoring.aaaf`` stays the one name callers import.
__all__ = [
    "ACCURACY_ERROR_WEIGHT",
    "ACCURACY_REVISION_WEIGHT",
    "ASSESSMENT_TYPES",
    "AUTONOMY_LEVELS",
    "AXIS_OF",
    "COMPLEXITY_LEVELS",
    "CONSISTENCY_ACCURACY_WEIGHT",
    "CONSISTENCY_COMPLETION_WEIGHT",
    "DELEGATION_WEIGHTS",
    "DIMENSIONS",
    "DOMAIN_QUALIFYING_PERFORMANCE",
    "LEARNING_BLOCK",
    "LEARNING_FULL_IMPROVEMENT",
    "LEARNING_TASKS",
    "LEVEL_QUALIFYING_PERFORMANCE",
    "MIN_COMPLETED_PER_CLAIM",
    "MIN_TOOL_INVOCATIONS",
    "ONE_DAY",
    "ORCHESTRATION_COMPONENTS",
    "OUTCOME_VALUES",
    "REVISION_NEEDED_FACTOR",
    "SCHEME",
    "TERMS",
    "TIERS",
    "TOOL_WEIGHTS",
    "VERSION",
    "ConsistencyGroup",
    "PerformanceComponents",
    "ScoredTask",
    "WindowEvidence",
    "age_in_days",
    "as_utc",
    "assess",
    "axis_result",
    "check_minimums",
    "coefficient_of_variation",
    "consistency_groups",
    "dimension_scores",
    "insufficient_evidence",
    "performance_components",
    "performance_dimensions",
    "recency_weight",
    "rescore_after_appeal",
    "score_task",
    "single_dimension_axis",
    "subset_performance",
    "window_bounds",
    "window_evidence",
]

SCHEME = "aaaf"
"""The scheme's registered name (DESIGN.md: one scheme = one module)."""
VERSION = "1"
"""Bumped whenever a formula changes, so a recorded result is never replayed on another one."""

ASSESSMENT_TYPES: tuple[str, ...] = ("full", "passive_only", "single_dimension")
"""Assessment types scored from events (``stress_test_only`` is not an events scheme)."""

DIMENSIONS: Mapping[str, Callable[[AssessmentContext], DimensionResult]] = ENGINE.complete()
"""Each declared dimension's formula, by name (a declared dimension without one fails here)."""
SUBSET_SCORES.complete()  # and each Performance dimension its score in perf(S) (§2.3)
AXIS_OF: Mapping[str, str] = {name: axis for axis, names in AXES.items() for name in names}
TIERS = {"performance": PERFORMANCE_TIERS, "capability": CAPABILITY_TIERS}


# --------------------------------------------------------------------------- assembling results


def axis_result(axis: str, dimensions: Mapping[str, DimensionResult], config: AAAFConfig) -> AxisResult:
    """An axis from its dimension results: renormalised composite and tier (SCORING.md §0)."""
    scores = {name: dim.score for name, dim in dimensions.items()}
    return AxisResult(axis, dict(dimensions), composite(scores, config.weights(axis), TIERS[axis]))


def single_dimension_axis(axis: str, dimension: DimensionResult) -> AxisResult:
    """An axis holding one dimension: a single dimension is not a composite (no score, no tier)."""
    covered = 0 if dimension.score is None else 1
    return AxisResult(axis, {dimension.name: dimension}, CompositeResult(None, None, covered, 1, {}))


def _evidence_summary(
    window: WindowEvidence, used: Sequence[str], excluded_tasks: frozenset[str]
) -> dict[str, Any]:
    by_type = Counter(map(window.event_types.get, used))
    by_type.pop(None, None)
    summary: dict[str, Any] = {
        "window_tasks": len(window.scored),
        "completed_tasks": window.completed_count,
        "task_ids": list(map(TASK_ID_OF, window.scored)),
        "events_used": len(used),
        "events_used_by_type": {kind: by_type[kind] for kind in sorted(k for k in by_type if k is not None)},
    }
    if excluded_tasks:
        summary["excluded_tasks"] = sorted(excluded_tasks)
    return summary


def _used_event_ids(axes: Iterable[AxisResult | None]) -> tuple[str, ...]:
    return distinct_ids(
        dim.event_ids for axis in axes if axis is not None for dim in axis.dimensions.values()
    )


def insufficient_evidence(axis: str, current: int, required: int, window: WindowEvidence) -> AAAFError:
    """The §6.4 ``INSUFFICIENT_EVIDENCE`` error for one axis (SCORING.md §2.1).

    Its first sentence is document 004 §6.4's; the rest names the axis, the window and the two
    ways forward (docs/scoring.md "Minimum evidence and assessment types"), so the wall is
    never a dead end."""
    setting = f"minimum_tasks_{axis}"
    return AAAFError(
        "INSUFFICIENT_EVIDENCE",
        f"Agent has {current} tasks in assessment window. Minimum required: {required}. "
        f"{axis.capitalize()} needs {required} completed tasks in the window "
        f"{window.window_start:%Y-%m-%d} – {window.window_end:%Y-%m-%d}; the agent has {current}. "
        f"Collect more evidence, lower the minimum ({setting}: `aaaf config set {setting} N`), "
        "or score one dimension (`--type single_dimension --dimension NAME`).",
        {
            "axis": axis,
            "current_count": current,
            "required_count": required,
            "window_start": iso(window.window_start),
            "window_end": iso(window.window_end),
            "setting": setting,
        },
    )


def _check_minimums(axes: Sequence[str], window: WindowEvidence, config: AAAFConfig) -> None:
    count = len(window.scored)
    required = {"performance": config.min_tasks_performance, "capability": config.min_tasks_capability}
    for axis in ("performance", "capability"):  # below both, the performance axis is named
        if axis in axes and count < required[axis]:
            raise insufficient_evidence(axis, count, required[axis], window)


def assess(
    events: Sequence[EventRecord],
    config: AAAFConfig,
    window_end: datetime,
    *,
    assessment_type: str = "full",
    dimension: str | None = None,
    excluded_tasks: frozenset[str] = frozenset(),
    enforce_minimums: bool = True,
    uncertainty: bool = True,
) -> AAAFResult:
    """Score an agent's events for the window ending at ``window_end`` (SCORING.md §2.1-§2.3).

    ``full`` and ``passive_only`` score both axes from events and need both minimums;
    ``single_dimension`` scores ``dimension`` alone and needs only its axis's minimum.
    ``excluded_tasks`` drops tasks and all evidence naming them (appeals, §2.4).
    ``uncertainty``: each composite's bootstrap interval and tier probabilities (§2.5;
    ``False`` for bulk re-scoring); a single dimension has no composite and gets none.
    """
    if assessment_type not in ASSESSMENT_TYPES:
        raise AAAFError(
            "INVALID_REQUEST",
            f"Assessment type {assessment_type!r} is not scored from events; "
            f"expected one of {', '.join(ASSESSMENT_TYPES)}.",
            {"assessment_type": assessment_type},
        )
    if assessment_type == "single_dimension" and (dimension is None or dimension not in DIMENSIONS):
        raise AAAFError(
            "INVALID_REQUEST",
            f"A single_dimension assessment needs a 'dimension' naming one of the {len(DIMENSIONS)} AAAF dimensions"
            f" (got {dimension!r}).",
            {"dimension": dimension, "expected": list(DIMENSIONS)},
        )
    window = window_evidence(fold_evidence(events), config, window_end, excluded_tasks)
    ctx = AssessmentContext(window, config)

    performance: AxisResult | None
    capability: AxisResult | None
    if assessment_type == "single_dimension":
        assert dimension is not None
        axis = AXIS_OF[dimension]
        if enforce_minimums:
            _check_minimums((axis,), window, config)
        single = single_dimension_axis(axis, DIMENSIONS[dimension](ctx))
        performance = single if axis == "performance" else None
        capability = single if axis == "capability" else None
    else:
        if enforce_minimums:
            _check_minimums(("performance", "capability"), window, config)
        performance = axis_result(
            "performance", {name: DIMENSIONS[name](ctx) for name in PERFORMANCE_DIMENSIONS}, config
        )
        capability = axis_result(
            "capability", {name: DIMENSIONS[name](ctx) for name in CAPABILITY_DIMENSIONS}, config
        )
        if uncertainty:
            performance, capability = with_uncertainty(window, config, performance, capability)
    used = _used_event_ids((performance, capability))
    return AAAFResult(
        assessment_type=assessment_type,
        window_start=window.window_start,
        window_end=window.window_end,
        performance=performance,
        capability=capability,
        evidence_summary=_evidence_summary(window, used, excluded_tasks),
        event_ids=used,
        audit=window_audit(window.scored, config).to_dict(),  # SCORING.md §2.6
    )


def with_uncertainty(
    window: WindowEvidence, config: AAAFConfig, performance: AxisResult, capability: AxisResult
) -> tuple[AxisResult, AxisResult]:
    """Both axes with their SCORING.md §2.5 ``uncertainty`` (one draw matrix for both; none
    with B = 0)."""
    found: Mapping[str, Any] = {}
    if config.uncertainty_resamples > 0:
        # imported here: NumPy is 0.35 s of the start of every process that imports the engine
        # (each `aaaf` command, each `assess --all` helper), and only the bootstrap needs it
        # (so a run with B = 0, `--no-uncertainty`, never imports it)
        from aaaf.scoring.uncertainty import assessment_uncertainty

        assessed = {
            axis.axis: {name: dim.score for name, dim in axis.dimensions.items()}
            for axis in (performance, capability)
        }
        found = assessment_uncertainty(window, config, assessed)
    return (
        replace(performance, uncertainty=found.get("performance")),
        replace(capability, uncertainty=found.get("capability")),
    )


def performance_dimensions(
    events: Sequence[EventRecord], config: AAAFConfig, window_end: datetime
) -> dict[str, DimensionResult]:
    """The five §2.2 dimensions with minimums waived (the trust scheme's operational fill-ins)."""
    window = window_evidence(fold_evidence(events), config, window_end)
    ctx = AssessmentContext(window, config)
    return {name: DIMENSIONS[name](ctx) for name in PERFORMANCE_DIMENSIONS}


def dimension_scores(
    folded: FoldedEvidence,
    config: AAAFConfig,
    window_end: datetime,
    names: Sequence[str],
    excluded_tasks: frozenset[str] = frozenset(),
) -> tuple[WindowEvidence, dict[str, DimensionResult]]:
    """The named dimensions over an already folded log, minimums waived (``explain``'s
    leave-one-task-out recomputes them once per task without re-folding)."""
    window = window_evidence(folded, config, window_end, excluded_tasks)
    ctx = AssessmentContext(window, config)
    return window, {name: DIMENSIONS[name](ctx) for name in names}


def rescore_after_appeal(
    previous: AAAFResult,
    events: Sequence[EventRecord],
    config: AAAFConfig,
    window_end: datetime,
    challenged: Sequence[str],
    excluded_tasks: frozenset[str],
) -> AAAFResult:
    """Recompute only the challenged dimensions without the excluded tasks (SCORING.md §2.4).

    Unchallenged dimension results are carried over as the same objects, so their scores
    are bit-identical; composites and tiers are recomputed from the mixed set.
    """
    if not challenged:
        raise AAAFError("APPEAL_NOT_ALLOWED", "An appeal must name at least one assessed dimension.", {})
    for name in challenged:
        axis = previous.axis(AXIS_OF.get(name, ""))
        if name not in AXIS_OF or axis is None or name not in axis.dimensions:
            raise AAAFError(
                "APPEAL_NOT_ALLOWED",
                f"Dimension {name!r} was not assessed in this assessment and cannot be appealed.",
                {"dimension": name, "assessed": _assessed(previous)},
            )
    window = window_evidence(fold_evidence(events), config, window_end, excluded_tasks)
    ctx = AssessmentContext(window, config)
    wanted = set(challenged)
    axes: dict[str, AxisResult | None] = {}
    for axis_name in ("performance", "capability"):
        old = previous.axis(axis_name)
        if old is None:
            axes[axis_name] = None
            continue
        dims = {
            name: (DIMENSIONS[name](ctx) if name in wanted else dim) for name, dim in old.dimensions.items()
        }
        if previous.assessment_type == "single_dimension":
            (only,) = dims.values()
            axes[axis_name] = single_dimension_axis(axis_name, only)
        else:
            axes[axis_name] = axis_result(axis_name, dims, config)
    perf_axis, cap_axis = axes["performance"], axes["capability"]
    old_perf = previous.axis("performance")
    if (
        perf_axis is not None
        and cap_axis is not None
        and old_perf is not None
        and old_perf.uncertainty is not None
    ):
        # §2.5 over the window the appeal leaves (the excluded tasks are no units), for an
        # axis with a challenged dimension; an unchallenged axis is kept as it was, whole
        renewed = with_uncertainty(window, config, perf_axis, cap_axis)
        for axis_name, fresh in zip(("performance", "capability"), renewed, strict=True):
            if any(AXIS_OF[name] == axis_name for name in wanted):
                axes[axis_name] = fresh
            else:
                old_axis = previous.axis(axis_name)
                assert old_axis is not None
                axes[axis_name] = replace(fresh, uncertainty=old_axis.uncertainty)
    used = _used_event_ids(axes.values())
    summary = dict(previous.evidence_summary)
    summary["appeal"] = {
        "challenged": sorted(wanted),
        "excluded_tasks": sorted(excluded_tasks),
        "window_tasks_after_exclusion": len(window.scored),
    }
    return AAAFResult(
        assessment_type=previous.assessment_type,
        window_start=previous.window_start,
        window_end=previous.window_end,
        performance=axes["performance"],
        capability=axes["capability"],
        evidence_summary=summary,
        event_ids=used,
        audit=previous.audit,  # the audit is the assessment's, not the appeal's
    )


def _assessed(result: AAAFResult) -> list[str]:
    return [
        name
        for axis in (result.performance, result.capability)
        if axis is not None
        for name in axis.dimensions
    ]


def check_minimums(
    events: Sequence[EventRecord],
    config: AAAFConfig,
    window_end: datetime,
    *,
    assessment_type: str = "full",
    dimension: str | None = None,
) -> None:
    """``INSUFFICIENT_EVIDENCE`` when :func:`assess` would refuse for want of tasks (SCORING.md
    §2.1), without scoring anything: a trigger answers 422 at once (SCORING.md §7
    "Assessments") and leaves the scoring to run off the request path."""
    window = window_evidence(fold_evidence(events), config, window_end)
    if assessment_type == "single_dimension" and dimension is not None and dimension in AXIS_OF:
        _check_minimums((AXIS_OF[dimension],), window, config)
    else:
        _check_minimums(("performance", "capability"), window, config)
