"""The per-agent Markdown report (document 004 §8 phase 1: "Markdown report per agent").

Pure: a stored assessment as a plain dict in (``Assessment.to_dict()``, whose ``result`` is
``AAAFResult.to_dict()``), Markdown out — no store, no clock, so it is tested from hand-built
dicts.  Scores are shown truncated to 2 decimals, never rounded (SCORING.md §0: 0.3996 shows
as 0.39, Novice); tiers come from the unrounded values stored in the result.

"What would raise the tier" is arithmetic on the stored composite (SCORING.md §0
renormalisation).  For a covered dimension d with weight in force w (the renormalised weight
the result records in ``weights_used``), raising d alone from s to x moves the composite by
w (x − s), so reaching the next tier's bound T from composite C needs

    x = s + (T − C) / w.

For an uncovered dimension u with configured weight w_u, covering it with score x changes the
renormalisation: the composite becomes (W C + w_u x) / (W + w_u) where W is the configured
weight of the covered dimensions, so it needs

    x = (T (W + w_u) − W C) / w_u.

A needed score above 1 is "unreachable" by that dimension alone.  Needed scores are shown
rounded *up* to 2 decimals (a requirement shown lower than it is would mislead, the mirror
image of truncating achieved scores).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from aaaf.escaping import markdown_text
from aaaf.reports.audit import audit_section
from aaaf.reports.uncertainty import trust_uncertainty_lines, uncertainty_section
from aaaf.scoring.core import Tier, display, truncate
from aaaf.scoring.defaults import (
    AXES,
    CAPABILITY_TIERS,
    PERFORMANCE_TIERS,
    STANDARDS_ALIGNMENT,
    TIER_COLOURS,
)
from aaaf.scoring.dimensions import BY_NAME, DIMENSIONS
from aaaf.scoring.evidence_sources import provenance_lines

AXIS_TIERS: Mapping[str, tuple[Tier, ...]] = {
    "performance": PERFORMANCE_TIERS,
    "capability": CAPABILITY_TIERS,
}
AXIS_TITLES: Mapping[str, str] = {"performance": "Performance", "capability": "Capability"}
DIMENSION_TITLES: Mapping[str, str] = {d.name: d.title for d in DIMENSIONS}
LOWEST_SHOWN = 3
_EPSILON = 1e-9


def title_of(dimension: str) -> str:
    return DIMENSION_TITLES.get(dimension, dimension.replace("_", " ").capitalize())


def ceil_display(value: float, digits: int = 2) -> str:
    """A requirement rounded up to ``digits`` decimals (never shown lower than it is)."""
    factor = 10**digits
    return f"{math.ceil(value * factor - _EPSILON) / factor:.{digits}f}"


def trust_display(value: float | None) -> str:
    """A 0-1000 trust composite as a truncated integer (SCORING.md §0)."""
    return "—" if value is None else str(int(truncate(value, 0)))


def _cell(text: Any) -> str:
    """A Markdown table cell: pipes escaped, newlines flattened."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    lines = ["| " + " | ".join(_cell(h) for h in header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines.extend("| " + " | ".join(_cell(c) for c in row) + " |" for row in rows)
    return lines


def format_value(value: Any) -> str:
    """A formula input for people: floats truncated to 4 decimals, lists joined, null as —."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            return str(value)
        text = f"{truncate(value, 4):.4f}".rstrip("0").rstrip(".")
        return "0" if text in ("", "-0") else text
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {format_value(v)}" for k, v in value.items()) or "—"
    if isinstance(value, list | tuple):
        return ", ".join(format_value(v) for v in value) or "none"
    return str(value)


def _scalar_inputs(details: Mapping[str, Any]) -> str:
    parts = []
    for key, value in details.items():
        if isinstance(value, Mapping) and value and all(isinstance(v, Mapping) for v in value.values()):
            continue  # rendered as its own table
        if isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
            continue
        parts.append(f"{key.replace('_', ' ')} {format_value(value)}")
    return "; ".join(parts)


def _nested_tables(details: Mapping[str, Any]) -> list[tuple[str, list[str]]]:
    """Tables for the per-level / per-domain / per-tool / per-group breakdowns of a dimension."""
    out = []
    for key, value in details.items():
        rows: list[tuple[str, Mapping[str, Any]]] = []
        if isinstance(value, Mapping) and value and all(isinstance(v, Mapping) for v in value.values()):
            rows = [(str(k), v) for k, v in value.items()]
        elif isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
            rows = [(str(i + 1), v) for i, v in enumerate(value)]
        if not rows:
            continue
        columns: list[str] = []
        for _, inner in rows:
            for column in inner:
                if column not in columns:
                    columns.append(column)
        body = [[label, *(format_value(inner.get(c)) for c in columns)] for label, inner in rows]
        out.append((key, table([key.replace("_", " "), *(c.replace("_", " ") for c in columns)], body)))
    return out


# ---------------------------------------------------------------------------------------------
# what would raise the tier
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DimensionNeed:
    """The score one dimension alone would need for the axis to reach the next tier."""

    dimension: str
    covered: bool
    current: float | None
    weight: float | None
    required: float | None

    @property
    def reachable(self) -> bool:
        return self.required is not None and self.required <= 1.0


@dataclass(frozen=True)
class TierRaise:
    """How far an axis is from its next tier, and what each dimension alone would need."""

    axis: str
    composite: float
    tier: str
    next_tier: str | None
    next_bound: float | None
    needs: tuple[DimensionNeed, ...]
    lowest_covered: tuple[str, ...]
    uncovered: tuple[str, ...]

    @property
    def gap(self) -> float | None:
        return None if self.next_bound is None else self.next_bound - self.composite


def next_tier(score: float, tiers: Sequence[Tier]) -> Tier | None:
    """The lowest tier whose (inclusive) lower bound the unrounded score has not reached."""
    above = [tier for tier in sorted(tiers, key=lambda t: t.lower) if tier.lower > score]
    return above[0] if above else None


def required_for_covered(composite: float, target: float, current: float, weight: float) -> float | None:
    """x = s + (T − C) / w; None when the dimension carries no weight (it cannot move C)."""
    if weight <= 0.0:
        return None
    return current + (target - composite) / weight


def required_for_uncovered(
    composite: float, target: float, covered_weight: float, weight: float
) -> float | None:
    """x = (T (W + w) − W C) / w: the score that covering the dimension would need."""
    if weight <= 0.0:
        return None
    return (target * (covered_weight + weight) - covered_weight * composite) / weight


def tier_raise(
    axis: str,
    axis_result: Mapping[str, Any],
    configured_weights: Mapping[str, float] | None = None,
    tiers: Sequence[Tier] | None = None,
) -> TierRaise | None:
    """What would lift ``axis`` to its next tier; None when the axis has no composite.

    ``axis_result`` is one axis of ``AAAFResult.to_dict()``.  Covered dimensions use the
    weights in force recorded in the result; uncovered ones need the organization's
    configured weights (without them their need is left unknown).
    """
    composite = axis_result.get("composite_score")
    if composite is None:
        return None
    tiers = tiers or AXIS_TIERS[axis]
    dimensions: Mapping[str, Mapping[str, Any]] = axis_result.get("dimensions", {})
    weights_used: Mapping[str, float] = axis_result.get("weights_used", {})
    covered = {name: float(dim["score"]) for name, dim in dimensions.items() if dim.get("score") is not None}
    uncovered = tuple(name for name, dim in dimensions.items() if dim.get("score") is None)
    lowest = tuple(sorted(covered, key=lambda name: (covered[name], name))[:LOWEST_SHOWN])
    upcoming = next_tier(float(composite), tiers)
    current_tier = axis_result.get("tier") or ""
    if upcoming is None:
        return TierRaise(axis, float(composite), current_tier, None, None, (), lowest, uncovered)
    target = upcoming.lower
    needs: list[DimensionNeed] = []
    for name in dimensions:
        if name in covered:
            weight = float(weights_used.get(name, 0.0))
            needs.append(
                DimensionNeed(
                    name,
                    True,
                    covered[name],
                    weight,
                    required_for_covered(composite, target, covered[name], weight),
                )
            )
        elif configured_weights is not None and name in configured_weights:
            covered_weight = math.fsum(float(configured_weights.get(n, 0.0)) for n in covered)
            weight = float(configured_weights[name])
            needs.append(
                DimensionNeed(
                    name,
                    False,
                    None,
                    weight,
                    required_for_uncovered(composite, target, covered_weight, weight),
                )
            )
        else:
            needs.append(DimensionNeed(name, False, None, None, None))
    return TierRaise(
        axis, float(composite), current_tier, upcoming.name, target, tuple(needs), lowest, uncovered
    )


def need_text(need: DimensionNeed) -> str:
    if need.required is None:
        return (
            "unknown (no configured weight)"
            if need.weight is None
            else "cannot move the composite (weight 0)"
        )
    if need.required > 1.0:
        return f"unreachable (would need {ceil_display(need.required)})"
    return f"≥ {ceil_display(need.required)}"


def tier_raise_section(raise_: TierRaise, dimensions: Mapping[str, Mapping[str, Any]]) -> list[str]:
    title = AXIS_TITLES[raise_.axis]
    lines = [f"### {title}", ""]
    if raise_.next_tier is None or raise_.next_bound is None or raise_.gap is None:
        lines.append(f"{title} is {display(raise_.composite)} — **{raise_.tier}**, already the top tier.")
    else:
        lines.append(
            f"{title} is {display(raise_.composite)} ({raise_.tier}); the next tier, "
            f"**{raise_.next_tier}**, starts at {raise_.next_bound:.2f}: a gap of {ceil_display(raise_.gap)}."
        )
        lines.append("")
        rows = []
        for need in raise_.needs:
            rows.append(
                [
                    title_of(need.dimension),
                    display(need.current) if need.covered else "— (not covered)",
                    "—" if need.weight is None else format_value(need.weight),
                    need_text(need),
                ]
            )
        lines.extend(table(["Dimension", "Score", "Weight", "Score needed, this dimension alone"], rows))
        lines.append("")
        lines.append(
            "Weights are the weights in force (renormalised over the covered dimensions) for covered "
            "dimensions, the configured weight for an uncovered one (covering it renormalises again)."
        )
    lines.append("")
    if raise_.lowest_covered:
        lowest = ", ".join(
            f"{title_of(name)} ({display(dimensions[name].get('score'))})" for name in raise_.lowest_covered
        )
        lines.append(f"- Lowest-scoring covered dimensions: {lowest}.")
    if raise_.uncovered:
        lines.append("- Uncovered dimensions — evidence to collect:")
        for name in raise_.uncovered:
            reason = dimensions[name].get("reason") or "no valid evidence"
            lines.append(f"  - {title_of(name)}: {reason}")
    else:
        lines.append("- Every dimension is covered.")
    lines.append("")
    return lines


# ---------------------------------------------------------------------------------------------
# the report
# ---------------------------------------------------------------------------------------------


def _axis_summary_row(axis: str, data: Mapping[str, Any] | None) -> list[str]:
    if data is None:
        return [AXIS_TITLES[axis], "—", "not assessed", "—"]
    tier = data.get("tier")
    tier_text = (
        "— (a single dimension is not a composite)"
        if tier is None
        else f"{tier} ({TIER_COLOURS.get(tier, '')})"
    )
    return [
        AXIS_TITLES[axis],
        display(data.get("composite_score")),
        tier_text,
        f"{data.get('covered')}/{data.get('total')}",
    ]


def _dimension_section(axis: str, data: Mapping[str, Any]) -> list[str]:
    dimensions: Mapping[str, Mapping[str, Any]] = data.get("dimensions", {})
    weights_used: Mapping[str, float] = data.get("weights_used", {})
    lines = [f"## {AXIS_TITLES[axis]} dimensions", ""]
    rows = []
    for name, dim in dimensions.items():
        details = dim.get("details") or {}
        if dim.get("score") is None:
            inputs = f"**no score:** {dim.get('reason') or 'no valid evidence'}"
            weight = "—"
        else:
            inputs = _scalar_inputs(details) or (
                "see the breakdowns below" if _nested_tables(details) else ""
            )
            weight = format_value(weights_used[name]) if name in weights_used else "—"
        rows.append(
            [
                title_of(name),
                display(dim.get("score")),
                weight,
                dim.get("sample_size", 0),
                dim.get("evidence_count", 0),
                inputs,
            ]
        )
    lines.extend(
        table(["Dimension", "Score", "Weight in force", "Sample size", "Evidence", "Formula inputs"], rows)
    )
    lines.append("")
    lines.extend(
        f"- **{title_of(name)}**: {BY_NAME[name].explanation}" for name in dimensions if name in BY_NAME
    )
    lines.append("")
    breakdowns = [
        (name, _nested_tables(dim.get("details") or {}))
        for name, dim in dimensions.items()
        if dim.get("details")
    ]
    breakdowns = [(name, tables) for name, tables in breakdowns if tables]
    if breakdowns:
        lines.append("<details><summary>Breakdowns</summary>")
        lines.append("")
        for name, tables in breakdowns:
            for key, rendered in tables:
                lines.append(f"**{title_of(name)} — {key.replace('_', ' ')}**")
                lines.append("")
                lines.extend(rendered)
                lines.append("")
        lines.append("</details>")
        lines.append("")
    return lines


def _standards_section(assessed: Sequence[str]) -> list[str]:
    lines = ["## Standards alignment (docs/scoring.md §3)", ""]
    rows = [[title_of(name), *STANDARDS_ALIGNMENT[name]] for name in assessed if name in STANDARDS_ALIGNMENT]
    lines.extend(table(["Dimension", "Primary standard", "Clause / function"], rows))
    lines.append("")
    return lines


def _validity_section(assessment: Mapping[str, Any], result: Mapping[str, Any]) -> list[str]:
    lines = ["## Validity and review", ""]
    lines.append(f"- Valid until: {assessment.get('valid_until') or '—'}")
    state = assessment.get("review_state") or "not_required"
    state_text = {
        "not_required": "not required",
        "pending_review": "**pending review** — the badge is held until a reviewer approves or rejects it",
        "approved": "approved by a reviewer",
        "rejected": "rejected by a reviewer — no badge",
    }.get(state, state)
    lines.append(f"- Review state: {state_text}")
    calibration = result.get("calibration") or {}
    anomalous = bool(assessment.get("anomalous", calibration.get("anomalous", False)))
    deltas = calibration.get("deltas") or {}
    delta_text = ", ".join(
        f"{axis} {format_value(value)}" for axis, value in deltas.items() if value is not None
    )
    if anomalous:
        lines.append(
            "- Calibration: **anomalous** — a composite moved by more than the calibration threshold "
            f"since the previous assessment ({delta_text or 'see the record'})"
        )
    elif calibration.get("previous_assessment_id"):
        lines.append(
            f"- Calibration: within the threshold of the previous assessment ({delta_text or 'no change'})"
        )
    else:
        lines.append("- Calibration: no previous assessment to compare with")
    appeals: Sequence[Mapping[str, Any]] = assessment.get("appeals") or []
    lines.append("")
    lines.append("### Appeals on record")
    lines.append("")
    if not appeals:
        lines.append("None.")
    else:
        rows = []
        for appeal in appeals:
            resolution = appeal.get("resolution")
            rows.append(
                [
                    appeal.get("id", ""),
                    appeal.get("status", ""),
                    ", ".join(appeal.get("dimensions_challenged") or []),
                    appeal.get("filed_at") or "—",
                    appeal.get("resolved_at") or "—",
                    appeal.get("justification", ""),
                    format_value(resolution) if resolution else (appeal.get("reviewer_notes") or "—"),
                ]
            )
        lines.extend(
            table(["Appeal", "Status", "Dimensions", "Filed", "Resolved", "Justification", "Outcome"], rows)
        )
    lines.append("")
    return lines


def _trust_section(trust: Mapping[str, Any] | None, note: str | None) -> list[str]:
    lines = ["## Trust score (docs/scoring.md §4)", ""]
    if trust is None:
        lines.append(note or "No trust score is available for this agent.")
        lines.append("")
        return lines
    gated = trust.get("gated")
    rows = [
        [
            trust_display(trust.get("composite")),
            trust.get("tier") or "—",
            f"{trust.get('covered')}/{trust.get('total')}",
            "yes — capped by the security gate" if gated else "no",
        ]
    ]
    lines.extend(table(["Composite (0-1000)", "Tier", "Covered", "Security gate"], rows))
    lines.extend(trust_uncertainty_lines(trust))  # SCORING.md §2.5
    if trust.get("tier_reason"):
        lines.append("")
        lines.append(f"Why this tier: {trust['tier_reason']}")
    if trust.get("at"):
        lines.append("")
        lines.append(f"Computed for {trust['at']}; integers are truncated (docs/scoring.md §1).")
    lines.append("")
    return lines


def provenance_section(result: Mapping[str, Any]) -> list[str]:
    """Where the evidence behind each axis came from: stress-tested by this installation or
    reported by the organization (docs/stress-tests.md "Provenance"), in the one wording of
    :func:`aaaf.scoring.evidence_sources.provenance_lines`."""
    lines = ["## Where the evidence came from", ""]
    lines += [f"- {line}" for line in provenance_lines(result.get("evidence_sources"))]
    lines.append("")
    lines.append(
        "Stress-tested: tasks this installation ran against the agent with its own stress-test harness. "
        "Reported: evidence the organization sent or imported (its own records, its own runs of the tasks)."
    )
    lines.append("")
    return lines


def render_agent_report(
    assessment: Mapping[str, Any],
    *,
    agent: Mapping[str, Any] | None = None,
    configured_weights: Mapping[str, Mapping[str, float]] | None = None,
    trust: Mapping[str, Any] | None = None,
    trust_note: str | None = None,
    moved: Mapping[str, Any] | None = None,
) -> str:
    """The Markdown report of one completed assessment.

    ``assessment`` is ``Assessment.to_dict()`` (its ``result`` is ``AAAFResult.to_dict()``);
    ``agent`` the agent's ``to_dict()`` (domains, tools, description); ``configured_weights``
    the organization's weights per axis (for what covering an uncovered dimension would need);
    ``trust`` a trust result's ``to_dict()``, or None with ``trust_note`` saying why;
    ``moved`` an explanation's ``to_dict()`` (:mod:`aaaf.services.explain`) for the "What moved
    this score" section, left out when None.
    """
    result: Mapping[str, Any] = assessment.get("result") or {}
    name = assessment.get("agent_name") or (agent or {}).get("name") or "agent"
    name = markdown_text(name)  # tenant text (docs/security.md "Tenant text")
    lines = [f"# Assessment report — {name}", ""]
    if agent:
        lines.append(f"- Agent: {name} ({markdown_text(agent.get('id', ''))})")
        if agent.get("description"):
            lines.append(f"- Description: {markdown_text(agent['description'])}")
        domains = [markdown_text(domain) for domain in agent.get("claimed_domains") or []]
        tools = [markdown_text(tool) for tool in agent.get("tools") or []]
        lines.append(
            f"- Claimed domains: {format_value(domains) if domains else 'none declared at enrolment'}"
        )
        lines.append(f"- Tools: {format_value(tools) if tools else 'none declared at enrolment'}")
    lines.append(
        f"- Assessment: `{assessment.get('id', '')}` ({assessment.get('type') or result.get('type')})"
    )
    if assessment.get("dimension"):
        lines.append(f"- Dimension assessed: {title_of(assessment['dimension'])}")
    lines.append(
        f"- Window: {result.get('window_start') or assessment.get('window_start')} → "
        f"{result.get('window_end') or assessment.get('window_end')}"
    )
    lines.append(f"- Completed: {assessment.get('completed_at') or '—'}")
    summary = result.get("evidence_summary") or assessment.get("evidence_summary") or {}
    if summary:
        by_type = summary.get("events_used_by_type") or {}
        lines.append(
            f"- Evidence: {summary.get('window_tasks', '—')} window tasks, {summary.get('completed_tasks', '—')} "
            f"completed; {summary.get('events_used', '—')} events used"
            + (f" ({format_value(by_type)})" if by_type else "")
        )
    lines.append("")

    lines.append("## Summary")
    lines.append("")
    lines.extend(
        table(
            ["Axis", "Score", "Tier", "Dimensions covered"],
            [_axis_summary_row(axis, result.get(axis)) for axis in AXES],
        )
    )
    lines.append("")
    lines.append(
        "Scores are truncated to 2 decimals, never rounded, so a shown score never sits in a higher "
        "tier than its own; tiers are decided on the unrounded value (docs/scoring.md §1)."
    )
    lines.append("")
    lines.extend(provenance_section(result))
    lines.extend(uncertainty_section(result))  # SCORING.md §2.5

    assessed: list[str] = []
    for axis in AXES:
        data = result.get(axis)
        if data is None:
            continue
        lines.extend(_dimension_section(axis, data))
        assessed.extend(data.get("dimensions", {}))

    lines.extend(_standards_section(assessed))
    lines.extend(_validity_section(assessment, result))
    lines.extend(audit_section(result))  # SCORING.md §2.6

    if moved is not None:
        from aaaf.reports.moved import moved_section  # its own module, which imports this one

        lines.extend(moved_section(moved))

    lines.append("## What would raise the tier")
    lines.append("")
    for axis in AXES:
        data = result.get(axis)
        if data is None:
            continue
        weights = (configured_weights or {}).get(axis)
        raise_ = tier_raise(axis, data, weights)
        if raise_ is None:
            lines.append(f"### {AXIS_TITLES[axis]}")
            lines.append("")
            lines.append(
                "A single-dimension assessment has no composite and no tier: assess the full axis to see one."
            )
            lines.append("")
            continue
        lines.extend(tier_raise_section(raise_, data.get("dimensions", {})))

    lines.extend(_trust_section(trust, trust_note))
    return "\n".join(lines).rstrip() + "\n"
