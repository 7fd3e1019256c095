"""The fleet table's rows and the "needs attention" strip of the dashboard's overview.

Each agent's row answers what a lead opens the overview for: its latest composites with their
95 % interval and the probability of the tier awarded (docs/uncertainty.md; "borderline" below
the threshold configured when the assessment ran), the change since the previous assessment,
when it was last assessed, and the flags that make its tier not the whole story — a badge held
for review or revoked is not shown as its tier and is not counted in the tier distribution.
Pure: the caller reads the organization's agents, assessments and badges once and hands them in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from aaaf.reports.markdown import AXIS_TIERS
from aaaf.reports.uncertainty import borderline_threshold
from aaaf.scoring.core import display
from aaaf.scoring.defaults import AXES
from aaaf.scoring.uncertainty_report import awarded_probability

COMPOSITE_TYPES = ("full", "passive_only", "stress_test_only")

FLAGS: dict[str, tuple[str, str]] = {
    # flag → (label in the strip, one-line explanation)
    "held": ("held for review", "its badge waits for a reviewer's decision"),
    "revoked": ("revoked", "its badge was revoked"),
    "expired": ("expired", "its badge's validity has run out"),
    "borderline": ("borderline", "fewer than 8 in 10 resamples land in the tier awarded"),
    "lacks_evidence": ("lack evidence", "not enough evidence yet for a first assessment"),
}
"""The flags in the order the strip shows them."""

WITHHELD = ("held", "revoked")
"""Flags under which the agent's tiers are not shown and not counted."""


@dataclass(frozen=True)
class AxisCell:
    """One axis of one agent's row."""

    score: float | None
    tier: str | None
    low: float | None
    high: float | None
    probability: float | None
    borderline: bool
    delta: float | None

    @property
    def shown(self) -> str:
        return display(self.score)

    @property
    def interval(self) -> str:
        return "" if self.low is None or self.high is None else f"{display(self.low)}–{display(self.high)}"

    @property
    def delta_text(self) -> str:
        if self.delta is None:
            return "—"
        if round(self.delta, 2) == 0:
            return "±0.00"
        return f"{'+' if self.delta > 0 else '−'}{abs(self.delta):.2f}"


@dataclass(frozen=True)
class FleetRow:
    agent: Any
    assessment: Any | None
    axes: Mapping[str, AxisCell]
    flags: tuple[str, ...]
    last_assessed: datetime | None
    hold_reason: str | None = None
    domains: tuple[str, ...] = field(default=())
    withheld: str | None = field(init=False)
    """``held`` or ``revoked`` when the tiers are not to be shown (read for every row and axis:
    worked out once)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "withheld", next((flag for flag in WITHHELD if flag in self.flags), None))

    def change(self) -> float | None:
        """The largest move of either composite since the previous assessment (sorting)."""
        deltas = [cell.delta for cell in self.axes.values() if cell.delta is not None]
        return min(deltas, key=lambda d: (-abs(d), d)) if deltas else None


def hold_reason(assessment: Any) -> str:
    """Why an assessment's badge is held, in words (docs/scoring.md §2.4, §2.6)."""
    result = assessment.result or {}
    audit = result.get("audit")
    if isinstance(audit, Mapping) and audit.get("self_report_unreliable") is True:
        honesty = audit.get("honesty")
        text = "an audit found the agent's self-reported facts unreliable"
        if isinstance(honesty, int | float):
            text += f" (honesty {display(float(honesty))})"
        return text
    if assessment.anomalous:
        return "its scores jumped more than calibration allows since the previous assessment"
    return "this organization reviews every badge before it is issued"


def composite_history(completed: Iterable[Any]) -> dict[Any, list[Any]]:
    """Agent id → its completed whole-axis assessments, newest first (``completed`` newest first)."""
    out: dict[Any, list[Any]] = {}
    for assessment in completed:
        if assessment.type in COMPOSITE_TYPES and assessment.result:
            out.setdefault(assessment.agent_id, []).append(assessment)
    return out


def _cell(result: Mapping[str, Any], previous: Mapping[str, Any] | None, axis: str) -> AxisCell:
    data = result.get(axis) or {}
    score, tier = data.get("composite_score"), data.get("tier")
    uncertainty = data.get("uncertainty")
    ci = (uncertainty or {}).get("ci") or None
    probability = awarded_probability(uncertainty, tier)
    before = ((previous or {}).get(axis) or {}).get("composite_score")
    return AxisCell(
        score=score,
        tier=tier,
        low=None if not ci else float(ci[0]),
        high=None if not ci else float(ci[1]),
        probability=probability,
        borderline=probability is not None and probability < borderline_threshold(result),
        delta=None if score is None or before is None else float(score) - float(before),
    )


def fleet_rows(
    agents: Sequence[Any], history: Mapping[Any, Sequence[Any]], badges: Iterable[Any], *, now: datetime
) -> list[FleetRow]:
    """One row per agent (in ``agents``' order); ``badges`` the organization's current badges."""
    badge_of = {badge.assessment_id: badge for badge in badges}
    rows = []
    for agent in agents:
        runs = history.get(agent.id) or []
        latest = runs[0] if runs else None
        if latest is None:
            empty = AxisCell(None, None, None, None, None, False, None)
            rows.append(FleetRow(agent, None, {axis: empty for axis in AXES}, ("lacks_evidence",), None))
            continue
        result = latest.result or {}
        previous = runs[1].result if len(runs) > 1 else None
        cells = {axis: _cell(result, previous, axis) for axis in AXES}
        flags = []
        if latest.review_state == "pending_review":
            flags.append("held")
        badge = badge_of.get(latest.id)
        if badge is not None and badge.revoked:
            flags.append("revoked")
        elif latest.review_state != "pending_review" and (
            (badge is not None and badge.expired(now))
            or (badge is None and latest.valid_until is not None and now > latest.valid_until)
        ):
            flags.append("expired")
        if any(cell.borderline for cell in cells.values()):
            flags.append("borderline")
        rows.append(
            FleetRow(
                agent,
                latest,
                cells,
                tuple(flags),
                latest.completed_at,
                hold_reason(latest) if "held" in flags else None,
            )
        )
    return rows


def distribution(rows: Sequence[FleetRow], axis: str) -> dict[str, int]:
    """Agents per tier of ``axis``, lowest tier first; held and revoked agents are not counted."""
    counts = {tier.name: 0 for tier in sorted(AXIS_TIERS[axis], key=lambda t: t.lower)}
    for row in rows:
        tier = row.axes[axis].tier
        if tier is not None and row.withheld is None:
            counts[tier] = counts.get(tier, 0) + 1
    return counts


def attention_counts(rows: Sequence[FleetRow], *, due: int) -> list[tuple[str, str, int]]:
    """The strip: (flag, label, count) for every flag with agents, then the due agents."""
    out = []
    for flag, (label, _) in FLAGS.items():
        count = sum(1 for row in rows if flag in row.flags)
        if count:
            out.append((flag, label, count))
    if due:
        out.append(("due", "due", due))
    return out


SORTS = ("name", "performance", "capability", "change", "assessed")


def select(
    rows: Sequence[FleetRow], *, flag: str | None, tier: str | None, sort: str | None
) -> list[FleetRow]:
    """Filter by a flag and/or a tier (of either axis; a withheld agent has none), then sort."""
    chosen = [row for row in rows if flag is None or flag in row.flags]
    if tier:
        chosen = [
            row
            for row in chosen
            if row.withheld is None and any(cell.tier == tier for cell in row.axes.values())
        ]
    if sort in ("performance", "capability"):
        axis = sort
        chosen.sort(key=lambda row: -_score(row.axes[axis].score))
    elif sort == "change":
        chosen.sort(key=lambda row: (row.change() is None, row.change() or 0.0))
    elif sort == "assessed":
        chosen.sort(key=lambda row: -(row.last_assessed.timestamp() if row.last_assessed else float("-inf")))
    return chosen


def _score(score: float | None) -> float:
    return -1.0 if score is None else float(score)
