"""The seven AAAF Capability dimensions (SCORING.md §2.3, document 004 §3.2).

Part of the AAAF scheme (:mod:`aaaf.scoring.aaaf`): domain breadth, complexity ceiling and
autonomy level qualify a claim by ``perf(S)`` over its tasks; tool proficiency, learning
rate, delegation and orchestration read their own evidence.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import groupby
from typing import Any

from aaaf.scoring.aaaf_context import (
    AUTONOMY_OF,
    COMPLEXITY_OF,
    AssessmentContext,
    dimension_result,
    partition,
)
from aaaf.scoring.aaaf_tasks import (
    COMPLETED_AT,
    COMPLETED_OF,
    PERF_IDS_OF,
    TOOL_OF,
    ScoredTask,
    completed_tasks,
    distinct_ids,
)
from aaaf.scoring.core import DimensionResult, composite
from aaaf.scoring.dimensions import ENGINE

DOMAIN_QUALIFYING_PERFORMANCE = 0.40
LEVEL_QUALIFYING_PERFORMANCE = 0.60
MIN_COMPLETED_PER_CLAIM = 3
COMPLEXITY_LEVELS: tuple[int, ...] = (1, 2, 3, 4, 5)
AUTONOMY_LEVELS: tuple[int, ...] = (0, 1, 2, 3)
MIN_TOOL_INVOCATIONS = 10
TOOL_WEIGHTS: tuple[float, float, float] = (0.5, 0.3, 0.2)  # correct, recovery, 1 - unnecessary
LEARNING_TASKS = 15
LEARNING_BLOCK = 5
LEARNING_FULL_IMPROVEMENT = 0.30
DELEGATION_WEIGHTS: Mapping[str, float] = {"judgment": 0.4, "selection": 0.3, "management": 0.3}
OUTCOME_VALUES: Mapping[str, float] = {"success": 1.0, "partial": 0.5, "failure": 0.0}
REVISION_NEEDED_FACTOR = 0.5
ORCHESTRATION_COMPONENTS: tuple[str, ...] = (
    "workflow_design",
    "communication_clarity",
    "failure_handling",
    "synthesis_quality",
)

# --------------------------------------------------------------------------- §2.3 dimensions


def _perf_ids(members: Iterable[ScoredTask]) -> tuple[str, ...]:
    return distinct_ids(map(PERF_IDS_OF, members))


@ENGINE.register("domain_breadth")
def _domain_breadth(ctx: AssessmentContext) -> DimensionResult:
    scored = ctx.window.scored
    taxonomy = tuple(dict.fromkeys(ctx.config.taxonomy))
    if not any(map(COMPLETED_OF, scored)):
        return dimension_result(
            "domain_breadth",
            None,
            0,
            {"qualified_domains": 0, "total_domains": len(taxonomy), "qualified_domain_names": []},
            (),
            "no completed task in the assessment window",
        )
    by_domain = ctx.by_domain
    per_domain: dict[str, dict[str, Any]] = {}
    qualified: list[str] = []
    examined: list[ScoredTask] = []
    sample = 0
    for domain in taxonomy:
        members = by_domain.get(domain, [])
        if not members:
            continue
        entry = _claim(ctx, members, DOMAIN_QUALIFYING_PERFORMANCE, examined)
        sample += entry["completed_tasks"]
        if entry["qualified"]:
            qualified.append(domain)
        per_domain[domain] = entry
    outside = sorted(d for d in by_domain if d not in taxonomy)
    score = len(qualified) / len(taxonomy) if taxonomy else None
    return dimension_result(
        "domain_breadth",
        score,
        sample,
        {
            "qualified_domains": len(qualified),
            "qualified_domain_names": qualified,
            "total_domains": len(taxonomy),
            "per_domain": per_domain,
            "domains_outside_taxonomy": outside,
        },
        _perf_ids(examined),
        "the organization's domain taxonomy is empty",
    )


def _claim(
    ctx: AssessmentContext, members: list[ScoredTask], threshold: float, examined: list[ScoredTask]
) -> dict[str, Any]:
    """One claimed group, a domain or a level (SCORING.md §2.3): its tasks, completed tasks,
    performance once ≥ 3 were completed (those tasks are then ``examined``), and whether that
    performance reaches ``threshold``."""
    completed = sum(map(COMPLETED_OF, members))  # True counts 1, summed in C
    performance = None
    if completed >= MIN_COMPLETED_PER_CLAIM:
        performance = ctx.perf(members)
        examined.extend(members)
    return {
        "tasks": len(members),
        "completed_tasks": completed,
        "performance": performance,
        "qualified": performance is not None and performance >= threshold,
    }


def _highest_passing_level(
    ctx: AssessmentContext,
    levels: Sequence[int],
    level_of: Callable[[ScoredTask], int | None],
) -> tuple[int | None, dict[str, dict[str, Any]], list[ScoredTask], int]:
    """The highest level with ≥ 3 completed tasks and perf ≥ 0.60 at it (§2.3)."""
    by_level: dict[int, list[ScoredTask]] = partition(ctx.window.scored, level_of)
    per_level: dict[str, dict[str, Any]] = {}
    highest: int | None = None
    examined: list[ScoredTask] = []
    sample = 0
    for level in levels:
        members = by_level.get(level, [])
        if not members:
            continue
        entry = _claim(ctx, members, LEVEL_QUALIFYING_PERFORMANCE, examined)
        sample += entry["completed_tasks"]
        if entry["qualified"]:
            highest = level
        per_level[str(level)] = entry
    return highest, per_level, examined, sample


def _level_ceiling(
    ctx: AssessmentContext,
    name: str,
    levels: Sequence[int],
    level_of: Callable[[ScoredTask], int | None],
    top: int,
    covered: bool,
    reason: str,
) -> DimensionResult:
    """complexity_ceiling and autonomy_level (§2.3): highest qualifying level / top; 0 if none."""
    if not covered:
        return dimension_result(name, None, 0, {"highest_level": None, "per_level": {}}, (), reason)
    highest, per_level, examined, sample = _highest_passing_level(ctx, levels, level_of)
    score = 0.0 if highest is None else highest / float(top)
    return dimension_result(
        name, score, sample, {"highest_level": highest, "per_level": per_level}, _perf_ids(examined), reason
    )


@ENGINE.register("complexity_ceiling")
def _complexity_ceiling(ctx: AssessmentContext) -> DimensionResult:
    return _level_ceiling(
        ctx,
        "complexity_ceiling",
        COMPLEXITY_LEVELS,
        COMPLEXITY_OF,
        5,
        any(map(COMPLETED_OF, ctx.window.scored)),
        "no completed task in the assessment window",
    )


@ENGINE.register("autonomy_level")
def _autonomy_level(ctx: AssessmentContext) -> DimensionResult:
    return _level_ceiling(
        ctx,
        "autonomy_level",
        AUTONOMY_LEVELS,
        AUTONOMY_OF,
        3,
        any(s.completed and s.task.autonomy_level is not None for s in ctx.window.scored),
        "no completed task carries an autonomy level",
    )


@ENGINE.register("tool_proficiency")
def _tool_proficiency(ctx: AssessmentContext) -> DimensionResult:
    # usages grouped per tool by a stable sort (window order kept within a tool), each
    # tool's counts summed column-wise in C; integer sums, so the order is immaterial
    totals: dict[str, list[int]] = {}
    tool_ids: dict[str, tuple[tuple[str, ...], ...]] = {}
    for tool, group in groupby(sorted(ctx.window.tools, key=TOOL_OF), key=TOOL_OF):
        columns = tuple(zip(*group, strict=True))
        totals[tool] = [sum(columns[1]), sum(columns[2]), sum(columns[3]), sum(columns[4]), sum(columns[5])]
        tool_ids[tool] = columns[6]
    per_tool: dict[str, dict[str, Any]] = {}
    scores: list[float] = []
    used: list[tuple[str, ...]] = []
    for tool in sorted(totals):
        invocations, successes, failures, recovered, unnecessary = totals[tool]
        entry: dict[str, Any] = {
            "invocations": invocations,
            "successes": successes,
            "failures": failures,
            "recovered": recovered,
            "unnecessary": unnecessary,
            "qualified": invocations >= MIN_TOOL_INVOCATIONS,
        }
        if invocations >= MIN_TOOL_INVOCATIONS:
            correct = successes / invocations
            recovery = recovered / failures if failures > 0 else 1.0
            unnecessary_rate = unnecessary / invocations
            wc, wr, wu = TOOL_WEIGHTS
            tool_score = wc * correct + wr * recovery + wu * (1.0 - unnecessary_rate)
            entry.update(
                correct=correct, recovery=recovery, unnecessary_rate=unnecessary_rate, score=tool_score
            )
            scores.append(tool_score)
            used.extend(tool_ids[tool])
        per_tool[tool] = entry
    score = math.fsum(scores) / len(scores) if scores else None
    return dimension_result(
        "tool_proficiency",
        score,
        len(scores),
        {"tools_assessed": len(scores), "tools_seen": len(totals), "tools": per_tool},
        distinct_ids(used),
        f"no tool with ≥ {MIN_TOOL_INVOCATIONS} invocations",
    )


@ENGINE.register("learning_rate")
def _learning_rate(ctx: AssessmentContext) -> DimensionResult:
    taxonomy = tuple(dict.fromkeys(ctx.config.taxonomy))
    by_domain = ctx.by_domain
    per_domain: dict[str, dict[str, Any]] = {}
    learnings: list[float] = []
    improvements: list[float] = []
    compared: list[ScoredTask] = []
    for domain in taxonomy:
        in_domain = by_domain.get(domain, [])
        members = completed_tasks(in_domain)
        if len(members) < LEARNING_TASKS:
            continue
        # completion order, ties by task_id: members come in task_id order and the sort
        # is stable (a completed task always has its counting completion's timestamp)
        recent = sorted(members, key=COMPLETED_AT)[-LEARNING_TASKS:]
        earlier, later = recent[:LEARNING_BLOCK], recent[-LEARNING_BLOCK:]
        perf_earlier = ctx.perf(earlier)
        perf_later = ctx.perf(later)
        if perf_earlier is None or perf_later is None:
            continue
        improvement = perf_later - perf_earlier
        learning = min(1.0, max(0.0, improvement / LEARNING_FULL_IMPROVEMENT))
        learnings.append(learning)
        improvements.append(improvement)
        compared.extend(earlier)
        compared.extend(later)
        per_domain[domain] = {
            "completed_tasks": len(members),
            "performance_earlier": perf_earlier,
            "performance_later": perf_later,
            "improvement": improvement,
            "learning": learning,
            "earlier_tasks": [s.task.task_id for s in earlier],
            "later_tasks": [s.task.task_id for s in later],
        }
    score = math.fsum(learnings) / len(learnings) if learnings else None
    return dimension_result(
        "learning_rate",
        score,
        len(compared),
        {
            "domains_assessed": len(learnings),
            "improvement": math.fsum(improvements) / len(improvements) if improvements else None,
            "per_domain": per_domain,
        },
        _perf_ids(compared),
        f"no taxonomy domain with ≥ {LEARNING_TASKS} completed tasks in the assessment window",
    )


@ENGINE.register("delegation_capability")
def _delegation_capability(ctx: AssessmentContext) -> DimensionResult:
    decisions = ctx.window.delegation_decisions
    outcomes = ctx.window.delegation_outcomes
    judged = [d for d in decisions if d.ground_truth is not None]
    judgment = sum(1 for d in judged if d.decision == d.ground_truth) / len(judged) if judged else None
    selectable = [d for d in decisions if d.decision == "delegate" and d.optimal_delegate is not None]
    selection = (
        sum(1 for d in selectable if d.delegate_to == d.optimal_delegate) / len(selectable)
        if selectable
        else None
    )
    managed = [o for o in outcomes if o.outcome in OUTCOME_VALUES]
    management = (
        math.fsum(
            OUTCOME_VALUES[o.outcome or ""] * (REVISION_NEEDED_FACTOR if o.revision_needed else 1.0)
            for o in managed
        )
        / len(managed)
        if managed
        else None
    )
    parts = {"judgment": judgment, "selection": selection, "management": management}
    combined = composite(parts, DELEGATION_WEIGHTS)
    ids = distinct_ids(((d.event_id for d in decisions), (o.event_id for o in managed)))
    return dimension_result(
        "delegation_capability",
        combined.score,
        len(decisions) + len(managed),
        {
            "decisions_assessed": len(decisions),
            "outcomes_assessed": len(managed),
            "judgment": judgment,
            "judged_decisions": len(judged),
            "selection": selection,
            "selection_decisions": len(selectable),
            "management": management,
            "weights_used": dict(combined.weights_used),
        },
        ids,
        "no delegation decision or outcome in the assessment window",
    )


@ENGINE.register("orchestration_skills")
def _orchestration_skills(ctx: AssessmentContext) -> DimensionResult:
    results = ctx.window.orchestration_results
    per_component: dict[str, list[float]] = {name: [] for name in ORCHESTRATION_COMPONENTS}
    scenario_scores: list[float] = []
    for r in results:
        if r.failures_injected > 0:
            failure_handling = min(1.0, max(0.0, r.failures_recovered / r.failures_injected))
        else:
            failure_handling = 1.0
        components = {
            "workflow_design": r.workflow_design_score,
            "communication_clarity": r.communication_clarity_score,
            "failure_handling": failure_handling,
            "synthesis_quality": r.synthesis_quality_score,
        }
        present = [v for v in components.values() if v is not None]
        for name, value in components.items():
            if value is not None:
                per_component[name].append(value)
        # equal weights 0.25 renormalised over the present components = their mean
        scenario_scores.append(math.fsum(present) / len(present))
    score = math.fsum(scenario_scores) / len(scenario_scores) if scenario_scores else None
    details: dict[str, Any] = {"scenarios_assessed": len(results)}
    for name, values in per_component.items():
        details[name] = math.fsum(values) / len(values) if values else None
    return dimension_result(
        "orchestration_skills",
        score,
        len(results),
        details,
        tuple(sorted({r.event_id for r in results})),
        "no orchestration_result in the assessment window",
    )
