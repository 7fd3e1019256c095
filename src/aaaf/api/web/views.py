"""What each dashboard page shows, gathered from the services and stores the API uses (issue 17 §2).

No number here is computed twice: the fleet's counts, filtering, sorting and paging are the
per-agent summaries' (:mod:`aaaf.store.agent_summaries`, in SQL), the rows of the page shown
:mod:`aaaf.api.web.fleet`'s over those summaries, due agents the engine's own
:func:`aaaf.scoring.calibration.reassessment_due` over the same summaries,
trust :mod:`aaaf.services.trust`, the assessment explanation
:func:`aaaf.services.explain.explain_assessment` (``aaaf explain``, with "what would raise the
tier" from :func:`aaaf.reports.markdown.tier_raise`), collection progress the engine's own
window and dimensions (:func:`aaaf.scoring.aaaf.dimension_scores`) against the configured
minimums of SCORING.md §2.1.  Each function returns plain data for a template.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from aaaf.api.web import fleet as fleet_view
from aaaf.api.web.charts import Chart, bar_chart, line_chart, small_multiples
from aaaf.reports.markdown import AXIS_TIERS, AXIS_TITLES, title_of, trust_display
from aaaf.reports.wording import reassessment_text
from aaaf.scoring.calibration import reassessment_due
from aaaf.scoring.defaults import AXES, AAAFConfig
from aaaf.scoring.evidence_sources import provenance_lines
from aaaf.scoring.records import EventRecord
from aaaf.services import assess as assess_service
from aaaf.services import benchmarks as benchmark_service
from aaaf.services import reports as report_service
from aaaf.services import trust as trust_service
from aaaf.store import OrgStore
from aaaf.store.agent_summaries import SORTS

RECENT_FAILURES = 10
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


def overview(
    org: OrgStore,
    *,
    now: datetime,
    can_admin: bool,
    page: int = 1,
    flag: str | None = None,
    tier: str | None = None,
    sort: str | None = None,
) -> dict[str, Any]:
    """The organization overview: the "needs attention" strip, the fleet (``FLEET_PAGE``
    agents a page; filtered by a flag or a tier, sorted by name, score, change or date), tier
    distribution (held and revoked agents not counted), due agents, held assessments with
    their reasons, open appeals, recent webhook failures.  The fleet is read from the
    per-agent summaries (:mod:`aaaf.store.agent_summaries`): grouped counts and one page,
    whatever its size."""
    flag = flag if flag in fleet_view.FLAGS else None
    sort = sort if sort in SORTS else "name"
    counts = org.fleet_counts(now=now)
    due, collecting = due_and_collecting(org, now=now)
    shown = org.fleet_page(now=now, flag=flag, tier=tier or None, sort=sort, page=page, size=FLEET_PAGE)
    rows = page_rows(shown.rows, now=now)
    summaries = dict(shown.rows)
    fleet = []
    for row in rows:
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
    held = org.assessments(status="completed", review_state="pending_review")
    failures: list[dict[str, Any]] = []
    if can_admin:
        for hook in org.webhooks():
            for delivery in org.webhook_deliveries(hook.id):
                if delivery.status == "failed":
                    failures.append({"webhook": hook, "delivery": delivery})
        failures.sort(key=lambda f: f["delivery"].created_at, reverse=True)
    # an appeal names its agent (read with it: not a read of each appealed assessment)
    appeals = [{"appeal": appeal, "agent": (agent_id, name)} for appeal, agent_id, name in org.open_appeals()]
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
        "attention": fleet_view.attention_counts(counts.flags, due=len(due)),
        "distribution": {axis: fleet_view.distribution(counts.tiers[axis], axis) for axis in AXES},
        "due": due,
        "collecting": collecting,
        "held": [{"assessment": a, "reason": fleet_view.hold_reason(a)} for a in held],
        "appeals": appeals,
        "failures": failures[:RECENT_FAILURES],
        "webhooks_visible": can_admin,
    }


def page_rows(pairs: Sequence[tuple[Any, Any]], *, now: datetime) -> list[fleet_view.FleetRow]:
    """The fleet rows of a page's agents with their summaries (None for an agent without one)."""
    summaries = {agent.id: summary for agent, summary in pairs if summary is not None}
    return fleet_view.fleet_rows(
        [agent for agent, _ in pairs],
        {agent_id: summary.history() for agent_id, summary in summaries.items()},
        [summary.badge for summary in summaries.values() if summary.badge is not None],
        now=now,
    )


def due_and_collecting(org: OrgStore, *, now: datetime) -> tuple[list[tuple[Any, str]], list[dict[str, Any]]]:
    """The agents due for re-assessment (docs/scoring.md §2.4: no previous assessment, enough
    completed tasks since the last one, or validity running out), with the reason — only those
    an assessment would succeed on — and, apart, the never-assessed agents with fewer
    completed tasks in the window than the minimum (docs/scoring.md §2.1), with how many they
    have and need.  The engine decides over the agents the summaries say may be due (one
    query), after one grouped count of completed tasks."""
    config = org.config()
    required = max(config.min_tasks_performance, config.min_tasks_capability)
    tasks = org.completed_tasks_since_assessed(fresh_since=now - timedelta(days=config.window_days))
    candidates = org.due_candidates(
        valid_until_before=now + timedelta(days=config.expiring_notice_days),
        agent_ids=[
            agent_id for agent_id, count in tasks.items() if count >= config.reassessment_task_threshold
        ],
    )
    due, collecting = [], []
    for agent, summary in candidates:
        last = None if summary is None or summary.due_completed_at is None else summary
        assessed = last is not None
        decided = reassessment_due(
            now=now,
            valid_until=None if last is None else last.due_valid_until,
            completed_tasks_since_last=tasks.get(agent.id, 0) if assessed else 0,
            config=config,
        )
        if not decided.due:
            continue
        if not assessed and tasks.get(agent.id, 0) < required:
            collecting.append({"agent": agent, "tasks": tasks.get(agent.id, 0), "required": required})
            continue
        due.append((agent, reassessment_text(decided)))
    return due, collecting


def _composite_assessments(assessments: Sequence[Any]) -> list[Any]:
    """The completed whole-axis assessments of ``assessments`` (newest first), oldest first:
    the trend's points."""
    done = [
        a
        for a in assessments
        if a.status == "completed" and a.type in report_service.COMPOSITE_TYPES and a.result
    ]
    return list(reversed(done))


def _window_label(assessment: Any) -> str:
    """An assessment named by the evidence window it scored, not when the job ran."""
    return f"{assessment.window_start:%Y-%m-%d} to {assessment.window_end:%Y-%m-%d}"


def _band(assessment: Any, axis: str) -> tuple[float, float] | None:
    ci = ((((assessment.result or {}).get(axis) or {}).get("uncertainty")) or {}).get("ci")
    return (float(ci[0]), float(ci[1])) if ci and None not in ci else None


def trends(assessments: Sequence[Any]) -> list[Chart]:
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


def collection_progress(
    events: Sequence[EventRecord], config: AAAFConfig, *, now: datetime
) -> dict[str, Any]:
    """Evidence gathered in the window ending now against the minimums the engine enforces
    (SCORING.md §2.1: tasks in the window per axis) and, per dimension, the samples and
    events the engine would score it on today (minimums waived, as ``explain`` does), from the
    agent's ``events`` under the organization's ``config`` (read once by the page)."""
    from aaaf.scoring.aaaf import dimension_scores
    from aaaf.scoring.fold import fold_evidence

    names = [name for axis in AXES.values() for name in axis]
    window, dims = dimension_scores(fold_evidence(events), config, now, names)
    tasks = len(window.scored)
    required = {"performance": config.min_tasks_performance, "capability": config.min_tasks_capability}
    axes = {}
    for axis, axis_names in AXES.items():
        axes[axis] = {
            "tasks": tasks,
            "required": required[axis],
            "percent": min(100, int(100 * tasks / required[axis])) if required[axis] else 100,
            "dimensions": [
                {
                    "name": name,
                    "title": title_of(name),
                    "sample_size": dims[name].sample_size,
                    "evidence_count": dims[name].evidence_count,
                    "scored": dims[name].score is not None,
                    "reason": dims[name].reason,
                }
                for name in axis_names
            ],
        }
    return {"window_start": _day(window.window_start), "window_end": _day(window.window_end), "axes": axes}


def _raises(org: OrgStore, assessment: Any, configured: AAAFConfig) -> dict[str, Any]:
    """What would raise each tier: the report's :func:`aaaf.reports.markdown.tier_raise` under
    the weights the assessment was scored with (its recorded spec, as ``aaaf explain``)."""
    from aaaf.reports.markdown import tier_raise
    from aaaf.scoring.spec import SchemeSpec, aaaf_config_of

    evidence = org.assessment_evidence(assessment.id)
    config = (
        configured
        if evidence is None
        else aaaf_config_of(SchemeSpec(evidence.scheme, evidence.scheme_version, evidence.config))
    )
    result = assessment.result or {}
    return {axis: tier_raise(axis, result[axis], config.weights(axis)) for axis in AXES if result.get(axis)}


def agent_page(org: OrgStore, agent_ref: str, *, now: datetime) -> dict[str, Any]:
    """The agent page (issue 17 §2): scores, trends, progress, badge, trust, stress, raises."""
    agent = org.get_agent(agent_ref)
    config, events = org.config(), org.events(agent.id)  # read once: progress, trust, raises, standing
    every = org.agent_trend(agent.id)  # newest first, only what the list and charts read
    history = _composite_assessments(every)
    latest = org.get_assessment(history[-1].id) if history else None  # the one read whole
    bars: dict[str, Chart] = {}
    raises: dict[str, Any] = {}
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
        raises = _raises(org, latest, config)
    badges = [b for b in org.badges(agent_id=agent.id, current_only=True)]
    badges.sort(key=lambda b: b.issued_at, reverse=True)
    trust_history = trust_service.history(org, agent)
    trust_chart = line_chart(
        "Trust score history (0-1000)",
        [_day(entry.computed_at) for entry in trust_history],
        {"Trust score": [entry.score for entry in trust_history]},
        maximum=1000.0,
    )
    trust_now, trust_note = report_service.trust_for(org, agent, at=now, events=events, aaaf_config=config)
    stress = []
    for run in org.stress_runs(agent.id):
        stress.append({"run": run, "results": org.stress_run_results(run.id)})
    standing = benchmark_service.agent_standing(org, str(agent.id), now=now, config=config)  # issue 20 §2
    held = latest is not None and latest.review_state == "pending_review"
    from aaaf.services.changes import changes_of

    return {
        "changes": None if len(history) < 2 or latest is None else changes_of(org, latest),
        "agent": agent,
        "latest": latest,
        "hold_reason": fleet_view.hold_reason(latest) if held else None,
        "review_words": REVIEW_WORDS,
        "latest_result": None if latest is None else latest.result,
        "bars": bars,
        "trends": trends(history) if history else [],
        "assessments": every,
        "progress": collection_progress(events, config, now=now),
        "badge": badges[0] if badges else None,
        "trust_history": trust_history,
        "trust_chart": trust_chart,
        "trust_now": trust_now,
        "trust_note": trust_note,
        "stress": stress,
        "raises": raises,
        "standing": standing,
    }


def assessment_page(org: OrgStore, assessment_id: str) -> dict[str, Any]:
    """One assessment: every dimension with its evidence counts and the tasks that moved it."""
    from aaaf.services.explain import explain_assessment

    assessment = org.get_assessment(assessment_id)
    badge = org.current_badge(assessment.id) if assessment.status == "completed" else None
    explanation: Mapping[str, Any] | None = None
    if assessment.status == "completed" and assessment.result:
        explanation = explain_assessment(org, str(assessment.id)).to_dict(top=5)
    return {
        "assessment": assessment,
        "json": assess_service.assessment_json(assessment, extended=True),
        "explanation": explanation,
        "appeals": org.appeals(assessment.id),
        "hold_reason": fleet_view.hold_reason(assessment)
        if assessment.review_state == "pending_review"
        else None,
        "review_words": REVIEW_WORDS.get(assessment.review_state, assessment.review_state),
        "badge": badge,
        # where each axis's evidence came from: stress-tested here or reported (docs/stress-tests.md)
        "provenance": provenance_lines((assessment.result or {}).get("evidence_sources"))
        if assessment.status == "completed"
        else [],
    }


def webhooks_page(org: OrgStore) -> list[dict[str, Any]]:
    """Each webhook with its deliveries, newest first (the webhook API's own listing)."""
    out = []
    for hook in org.webhooks():
        deliveries = sorted(org.webhook_deliveries(hook.id), key=lambda d: d.created_at, reverse=True)
        out.append({"webhook": hook, "deliveries": deliveries})
    return out
