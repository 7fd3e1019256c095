"""The fleet summary (document 004 §8 phase 1: "Civilization summary report"; issue 3 item 6).

Pure: one :class:`FleetEntry` per agent (its latest completed assessment as a plain dict,
optionally its trust result and the failure that kept it unassessed) in, Markdown out.
Document 004 §8 states the phase's goal as "identify capability gaps", so beside the fleet
table and the tier distribution the summary shows, per capability dimension, the fleet mean
and how many agents have no score or a score below 0.5, and the taxonomy domains in which no
agent qualifies (domain_breadth's ``qualified_domain_names``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from aaaf.reports.markdown import AXIS_TIERS, AXIS_TITLES, format_value, table, title_of, trust_display
from aaaf.scoring.core import display
from aaaf.scoring.defaults import AXES, CAPABILITY_DIMENSIONS, DEFAULT_TAXONOMY, TIER_COLOURS

GAP_THRESHOLD = 0.5


@dataclass(frozen=True)
class FleetEntry:
    """One agent of the fleet as the summary sees it.

    ``assessment`` is the latest completed assessment's ``to_dict()`` (None when the agent has
    none); ``failure`` the error of its latest failed assessment (e.g. INSUFFICIENT_EVIDENCE
    with ``details.current_count`` / ``required_count``); ``trust`` a trust ``to_dict()``.
    """

    agent: str
    assessment: Mapping[str, Any] | None = None
    trust: Mapping[str, Any] | None = None
    failure: Mapping[str, Any] | None = None

    def axis(self, axis: str) -> Mapping[str, Any] | None:
        if self.assessment is None:
            return None
        result = self.assessment.get("result") or {}
        data = result.get(axis)
        return data if isinstance(data, Mapping) else None


@dataclass(frozen=True)
class CapabilityGap:
    """One capability dimension across the assessed fleet."""

    dimension: str
    assessed_agents: int
    scored_agents: int
    mean: float | None
    null_agents: int
    below_threshold: int


def assessed(entries: Sequence[FleetEntry]) -> list[FleetEntry]:
    return [entry for entry in entries if entry.assessment is not None]


def tier_distribution(entries: Sequence[FleetEntry], axis: str) -> dict[str, int]:
    """Agents per tier of ``axis``, every tier listed (zeros included), lowest tier first."""
    counts = {tier.name: 0 for tier in sorted(AXIS_TIERS[axis], key=lambda t: t.lower)}
    for entry in entries:
        data = entry.axis(axis)
        tier = None if data is None else data.get("tier")
        if tier is not None:
            counts[tier] = counts.get(tier, 0) + 1
    return counts


def capability_gaps(entries: Sequence[FleetEntry], threshold: float = GAP_THRESHOLD) -> list[CapabilityGap]:
    """Per capability dimension: plain mean of the scored agents, null and below-threshold counts."""
    gaps = []
    for name in CAPABILITY_DIMENSIONS:
        scores: list[float] = []
        nulls = 0
        seen = 0
        for entry in entries:
            data = entry.axis("capability")
            if data is None or name not in (data.get("dimensions") or {}):
                continue
            seen += 1
            score = data["dimensions"][name].get("score")
            if score is None:
                nulls += 1
            else:
                scores.append(float(score))
        mean = math.fsum(scores) / len(scores) if scores else None
        below = sum(1 for score in scores if score < threshold)
        gaps.append(CapabilityGap(name, seen, len(scores), mean, nulls, below))
    return gaps


def qualified_domain_names(axis_data: Mapping[str, Any] | None) -> list[str] | None:
    """The domains an agent qualifies in, from domain_breadth's details (None when unknown)."""
    if axis_data is None:
        return None
    breadth = (axis_data.get("dimensions") or {}).get("domain_breadth")
    if not breadth:
        return None
    details = breadth.get("details") or {}
    for key in ("qualified_domain_names", "qualified_domains"):
        value = details.get(key, breadth.get(key))
        if isinstance(value, list):
            return [str(v) for v in value]
    return None


def unqualified_domains(entries: Sequence[FleetEntry], taxonomy: Sequence[str]) -> list[str]:
    """Taxonomy domains in which no assessed agent qualifies, in taxonomy order."""
    qualified: set[str] = set()
    for entry in entries:
        qualified.update(qualified_domain_names(entry.axis("capability")) or [])
    return [domain for domain in taxonomy if domain not in qualified]


def _axis_cells(entry: FleetEntry, axis: str) -> tuple[str, str]:
    data = entry.axis(axis)
    if data is None:
        return "—", "—"
    return display(data.get("composite_score")), data.get("tier") or "—"


def _failure_text(failure: Mapping[str, Any] | None) -> str:
    if not failure:
        return "never assessed"
    details = failure.get("details") or {}
    if failure.get("code") == "INSUFFICIENT_EVIDENCE" and "current_count" in details:
        return (
            f"INSUFFICIENT_EVIDENCE: {details['current_count']} tasks in the window, "
            f"{details.get('required_count', '?')} required ({details.get('axis', 'performance')})"
        )
    return f"{failure.get('code', 'failed')}: {failure.get('message', '')}".strip()


def _provenance_cell(sources: Any, axis: str) -> str:
    part = sources.get(axis) if isinstance(sources, Mapping) else None
    if not isinstance(part, Mapping):
        return "—"
    return f"{part['stress_tested_tasks']} / {part['reported_tasks']}"


def _provenance_section(entries: Sequence[FleetEntry]) -> list[str]:
    """Per agent, each axis's tasks stress-tested by this installation / reported by the
    organization (docs/stress-tests.md "Provenance"); — where the assessment did not record it."""
    if not entries:
        return []
    lines = ["## Where the evidence came from", ""]
    rows = []
    for entry in entries:
        sources = ((entry.assessment or {}).get("result") or {}).get("evidence_sources")
        runs = len(sources.get("stress_runs") or []) if isinstance(sources, Mapping) else 0
        rows.append([entry.agent, *(_provenance_cell(sources, axis) for axis in AXES), runs])
    header = [f"{AXIS_TITLES[axis]} tasks: stress-tested / reported" for axis in AXES]
    lines.extend(table(["Agent", *header, "Stress runs"], rows))
    lines.append("")
    lines.append(
        "Stress-tested: tasks this installation ran against the agent with its own stress-test harness. "
        "Reported: evidence the organization sent or imported. — : the assessment was made before "
        "this installation recorded where its evidence came from."
    )
    lines.append("")
    return lines


def render_fleet_summary(
    entries: Sequence[FleetEntry],
    *,
    taxonomy: Sequence[str] = DEFAULT_TAXONOMY,
    trust_note: str | None = None,
    title: str = "Fleet assessment summary",
) -> str:
    """The fleet summary in Markdown; entries are listed by agent name."""
    ordered = sorted(entries, key=lambda e: e.agent)
    with_assessment = assessed(ordered)
    show_trust = any(entry.trust is not None for entry in ordered)
    lines = [f"# {title}", ""]
    lines.append(
        f"{len(ordered)} agents enrolled, {len(with_assessment)} with a completed assessment, "
        f"{len(ordered) - len(with_assessment)} without."
    )
    lines.append("")
    lines.append("## Agents")
    lines.append("")
    header = ["Agent", "Performance", "Tier", "Capability", "Tier"]
    if show_trust:
        header += ["Trust", "Trust tier"]
    header.append("Assessed at")
    rows = []
    for entry in ordered:
        perf_score, perf_tier = _axis_cells(entry, "performance")
        cap_score, cap_tier = _axis_cells(entry, "capability")
        row = [entry.agent, perf_score, perf_tier, cap_score, cap_tier]
        if show_trust:
            trust = entry.trust
            row += [trust_display(trust.get("composite")) if trust else "—", (trust or {}).get("tier") or "—"]
        row.append((entry.assessment or {}).get("completed_at") or "—")
        rows.append(row)
    lines.extend(table(header, rows))
    lines.append("")
    lines.append(
        "Scores are truncated to 2 decimals (trust to integers), never rounded (docs/scoring.md §1)."
    )
    if not show_trust and trust_note:
        lines.append("")
        lines.append(trust_note)
    lines.append("")
    lines.extend(_provenance_section(with_assessment))

    lines.append("## Tier distribution")
    lines.append("")
    for axis in AXES:
        counts = tier_distribution(ordered, axis)
        lines.append(f"### {AXIS_TITLES[axis]}")
        lines.append("")
        lines.extend(
            table(
                ["Tier", "Colour", "Agents"],
                [[tier, TIER_COLOURS.get(tier, ""), count] for tier, count in counts.items()],
            )
        )
        lines.append("")
    if show_trust:
        trust_counts: dict[str, int] = {}
        for entry in ordered:
            if entry.trust is not None:
                tier = str(entry.trust.get("tier") or "—")
                trust_counts[tier] = trust_counts.get(tier, 0) + 1
        order = ["platinum", "gold", "silver", "bronze", "uncertified"]
        names = [t for t in order if t in trust_counts] + sorted(t for t in trust_counts if t not in order)
        lines.append("### Trust")
        lines.append("")
        lines.extend(table(["Tier", "Agents"], [[t, trust_counts[t]] for t in names]))
        lines.append("")

    lines.append("## Capability gaps")
    lines.append("")
    gap_rows = [
        [
            title_of(gap.dimension),
            display(gap.mean),
            f"{gap.scored_agents}/{gap.assessed_agents}",
            gap.null_agents,
            gap.below_threshold,
        ]
        for gap in capability_gaps(ordered)
    ]
    lines.extend(
        table(
            ["Dimension", "Fleet mean", "Agents scored", "No score (null)", f"Below {GAP_THRESHOLD:.2f}"],
            gap_rows,
        )
    )
    lines.append("")
    lines.append(
        "The fleet mean is the plain mean over the agents with a score; null dimensions are not zeros."
    )
    lines.append("")
    missing = unqualified_domains(ordered, taxonomy)
    if missing:
        lines.append(
            f"Taxonomy domains in which no agent qualifies (≥ 3 completed tasks and perf ≥ 0.40): {format_value(missing)}."
        )
    else:
        lines.append("Every taxonomy domain has at least one qualified agent.")
    lines.append("")

    lines.append("## Agents with insufficient evidence")
    lines.append("")
    unassessed = [entry for entry in ordered if entry.assessment is None]
    if not unassessed:
        lines.append("None: every agent has a completed assessment.")
    else:
        for entry in unassessed:
            lines.append(f"- `{entry.agent}` — {_failure_text(entry.failure)}")
    lines.append("")
    return "\n".join(lines).rstrip() + "\n"
