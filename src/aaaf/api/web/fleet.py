"""The fleet table's rows and the "needs attention" strip of the dashboard's overview.

Each agent's row answers what a lead opens the overview for: its latest composites with their
95 % interval and the probability of the tier awarded (docs/uncertainty.md; "borderline" below
the threshold configured when the assessment ran), the change since the previous assessment,
when it was last assessed, and the flags that make its tier not the whole story — a badge held
for review or revoked is not shown as its tier and is not counted in the tier distribution.
Pure: the caller hands in the agents of the page shown with their latest two whole-axis
results and badges; the counts and the filtering, sorting and paging are the per-agent
summary's, in SQL (:mod:`aaaf.store.agent_summaries`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from aaaf.reports.markdown import AXIS_TIERS
from aaaf.scoring.core import display
from aaaf.scoring.defaults import AXES
from aaaf.scoring.fleet_standing import AxisStanding, axis_standing, largest_change

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
class AxisCell(AxisStanding):
    """One axis of one agent's row, as the table writes it."""

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
        return largest_change(cell.delta for cell in self.axes.values())


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
    return AxisCell(**vars(axis_standing(result, previous, axis)))


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


def distribution(counts: Mapping[str, int], axis: str) -> dict[str, int]:
    """Agents per tier of ``axis`` (``counts``, held and revoked agents not counted), every
    tier of the axis lowest first."""
    out = {tier.name: 0 for tier in sorted(AXIS_TIERS[axis], key=lambda t: t.lower)}
    out.update(counts)
    return out


def attention_counts(flagged: Mapping[str, int], *, due: int) -> list[tuple[str, str, int]]:
    """The strip: (flag, label, count) for every flag with agents (``flagged``: agents per
    flag), then the due agents."""
    out = [(flag, label, flagged[flag]) for flag, (label, _) in FLAGS.items() if flagged.get(flag)]
    if due:
        out.append(("due", "due", due))
    return out
