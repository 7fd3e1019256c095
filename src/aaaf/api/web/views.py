"""What each dashboard page shows, shaped from the records its service reads (issue 17 §2).

The reads are :mod:`aaaf.services.dashboard_pages`' (behind the services door, on the page's one
read connection); here they become a template's data, reading nothing: the rows of the fleet
page shown (:mod:`aaaf.api.web.fleet`'s over the per-agent summaries), the "needs attention"
strip and the tier distribution, the charts (:mod:`aaaf.api.web.charts`), the assessment's
JSON and explanation as the API and ``aaaf explain`` give them, and the review states in words.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from aaaf.api.web import fleet as fleet_view
from aaaf.api.web.charts import Chart, bar_chart, line_chart, small_multiples
from aaaf.reports.markdown import AXIS_TIERS, AXIS_TITLES, title_of, trust_display
from aaaf.scoring.defaults import AXES
from aaaf.scoring.dimensions import BY_NAME
from aaaf.scoring.evidence_sources import provenance_lines
from aaaf.services import assess as assess_service
from aaaf.services.dashboard_pages import (
    AgentPageReads,
    AssessmentPageReads,
    CollectionProgress,
    OverviewReads,
)
from aaaf.store.agent_summaries import AgentSummary, FleetAgent
from aaaf.store.agent_trend import TrendAssessment

REVIEW_WORDS = {
    "not_required": "no review needed",
    "pending_review": "badge held for review",
    "approved": "approved by a reviewer",
    "rejected": "rejected by a reviewer: no badge is issued",
}
"""The review states in plain words (docs/scoring.md §2.4)."""
FLEET_PAGE = 100


def _day(moment: datetime | None) -> str:
    return "—" if moment is None else moment.strftime("%Y-%m-%d %H:%M")


def fleet_query(flag: str | None, sort: str | None) -> tuple[str | None, str]:
    """The overview's flag filter and order, an unknown one dropped (all agents, by name)."""
    from aaaf.store.agent_summaries import SORTS

    return (flag if flag in fleet_view.FLAGS else None), (sort if sort in SORTS else "name")


def overview(
    reads: OverviewReads,
    *,
    now: datetime,
    flag: str | None = None,
    tier: str | None = None,
    sort: str = "name",
) -> dict[str, Any]:
    """The organization overview: the "needs attention" strip, the fleet (``FLEET_PAGE``
    agents a page; filtered by a flag or a tier, sorted by name, score, change or date), tier
    distribution (held and revoked agents not counted), due agents, held assessments with
    their reasons, open appeals, recent webhook failures (``reads.failures`` None: not shown)."""
    shown = reads.shown
    summaries = dict(shown.rows)
    fleet = []
    for row in page_rows(shown.rows, now=now):
        summary = summaries[row.agent]
        score = None if summary is None else summary.trust_score
        fleet.append(
            {
                "row": row,
                "agent": row.agent,
                "trust": None if score is None else trust_display(score),
                "trust_tier": None if score is None or summary is None else summary.trust_tier,
            }
        )
    counts = reads.counts
    return {
        "fleet": fleet,
        "fleet_total": counts.total,
        "fleet_shown": shown.matched,
        "page": shown.page,
        "pages": shown.pages,
        "flag": flag,
        "tier_filter": tier or None,
        "sort": sort,
        "flags": fleet_view.FLAGS,
        "attention": fleet_view.attention_counts(counts.flags, due=len(reads.due)),
        "distribution": {axis: fleet_view.distribution(counts.tiers[axis], axis) for axis in AXES},
        "due": reads.due,
        "collecting": reads.collecting,
        "held": [{"assessment": a, "reason": fleet_view.hold_reason(a)} for a in reads.held],
        "appeals": reads.appeals,
        "failures": reads.failures or [],
        "webhooks_visible": reads.failures is not None,
    }


def page_rows(
    pairs: Sequence[tuple[FleetAgent, AgentSummary | None]], *, now: datetime
) -> list[fleet_view.FleetRow]:
    """The fleet rows of a page's agents with their summaries (None for an agent without one)."""
    summaries = {agent.id: summary for agent, summary in pairs if summary is not None}
    return fleet_view.fleet_rows(
        [agent for agent, _ in pairs],
        {agent_id: summary.history() for agent_id, summary in summaries.items()},
        [summary.badge for summary in summaries.values() if summary.badge is not None],
        now=now,
    )


def _window_label(assessment: TrendAssessment) -> str:
    """An assessment named by the evidence window it scored, not when the job ran."""
    return f"{assessment.window_start:%Y-%m-%d} to {assessment.window_end:%Y-%m-%d}"


def _band(assessment: TrendAssessment, axis: str) -> tuple[float, float] | None:
    ci = ((((assessment.result or {}).get(axis) or {}).get("uncertainty")) or {}).get("ci")
    return (float(ci[0]), float(ci[1])) if ci and None not in ci else None


def trends(assessments: Sequence[TrendAssessment]) -> list[Chart]:
    """Composites (with their 95 % intervals as bands) with their tier lines, then each axis's
    dimensions as small multiples, over the assessments (oldest first), placed by the end of
    their evidence window."""
    points = [_window_label(a) for a in assessments]
    times = [a.window_end.timestamp() for a in assessments]
    charts = [  # one composite chart per axis: each axis has its own tier thresholds
        line_chart(
            f"{AXIS_TITLES[axis]} composite scores over the agent's assessments, with its tier lines",
            points,
            {
                AXIS_TITLES[axis]: [
                    ((a.result or {}).get(axis) or {}).get("composite_score") for a in assessments
                ]
            },
            times=times,
            bands={AXIS_TITLES[axis]: [_band(a, axis) for a in assessments]},
            levels=[
                (tier.name, tier.lower)
                for tier in sorted(AXIS_TIERS[axis], key=lambda t: t.lower)
                if tier.lower > 0
            ],
        )
        for axis in AXES
    ]
    for axis, names in AXES.items():
        series = {
            title_of(name): [
                ((((a.result or {}).get(axis) or {}).get("dimensions") or {}).get(name) or {}).get("score")
                for a in assessments
            ]
            for name in names
        }
        # one small chart per dimension (no interval is stored per dimension: bands are the composites')
        charts += small_multiples(
            f"the agent's assessments ({AXIS_TITLES[axis]})", points, series, times=times
        )
    return charts


def progress(shown: CollectionProgress) -> dict[str, Any]:
    """The collection progress with its window in words."""
    return {
        "window_start": _day(shown.window_start),
        "window_end": _day(shown.window_end),
        "axes": shown.axes,
    }


def agent_page(reads: AgentPageReads) -> dict[str, Any]:
    """The agent page (issue 17 §2): scores, trends, progress, badge, trust, stress, raises."""
    latest, history = reads.latest, reads.history
    bars: dict[str, Chart] = {}
    if latest is not None:
        for axis in AXES:
            data = (latest.result or {}).get(axis) or {}
            bars[axis] = bar_chart(
                f"{AXIS_TITLES[axis]} dimensions of the latest assessment",
                [
                    (title_of(name), (dim or {}).get("score"))
                    for name, dim in (data.get("dimensions") or {}).items()
                ],
            )
    trust_chart = line_chart(
        "Trust score history (0-1000)",
        [_day(entry.computed_at) for entry in reads.trust_history],
        {"Trust score": [entry.score for entry in reads.trust_history]},
        maximum=1000.0,
    )
    held = latest is not None and latest.review_state == "pending_review"
    scored = [
        name
        for axis in AXES
        for name in (((latest.result or {}).get(axis) or {}).get("dimensions") or {} if latest else {})
    ]
    return {
        # what each charted dimension measures, from its declaration (docs/scoring.md §3)
        "dimension_notes": [(title_of(n), BY_NAME[n].explanation) for n in scored if n in BY_NAME],
        "changes": reads.changes,
        "agent": reads.agent,
        "latest": latest,
        "hold_reason": fleet_view.hold_reason(latest) if held else None,
        "review_words": REVIEW_WORDS,
        "latest_result": None if latest is None else latest.result,
        "bars": bars,
        "trends": trends(history) if history else [],
        "assessments": reads.assessments,
        "progress": progress(reads.progress),
        "badge": reads.badge,
        "trust_history": reads.trust_history,
        "trust_chart": trust_chart,
        "trust_now": reads.trust_now,
        "trust_note": reads.trust_note,
        "stress": reads.stress,
        "raises": reads.raises,
        "standing": reads.standing,
    }


def assessment_page(reads: AssessmentPageReads) -> dict[str, Any]:
    """One assessment: every dimension with its evidence counts and the tasks that moved it."""
    assessment = reads.assessment
    completed = assessment.status == "completed"
    return {
        "assessment": assessment,
        "json": assess_service.assessment_json(assessment, extended=True),
        "explanation": None if reads.explanation is None else reads.explanation.to_dict(top=5),
        "appeals": reads.appeals,
        "hold_reason": fleet_view.hold_reason(assessment)
        if assessment.review_state == "pending_review"
        else None,
        "review_words": REVIEW_WORDS.get(assessment.review_state, assessment.review_state),
        "badge": reads.badge,
        # where each axis's evidence came from: stress-tested here or reported (docs/stress-tests.md)
        "provenance": provenance_lines((assessment.result or {}).get("evidence_sources"))
        if completed
        else [],
    }
