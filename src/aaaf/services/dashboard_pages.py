"""What each dashboard page reads (issue 17 §2), behind the services door (docs/architecture.md
"Services are the only door"): the dashboard's page builders (:mod:`aaaf.api.web.views`) shape
these records into a template's data and read nothing themselves.

Each function reads one page's records from an organization's repositories — on the page's
one read connection when the caller opened one (:func:`aaaf.services.org_session.page_reads`)
— and decides what the engine decides: which agents are due (the engine's own
:func:`aaaf.scoring.calibration.reassessment_due`), the collection progress (the engine's
window and dimensions against the configured minimums, docs/scoring.md §2.1), what would raise
each tier (the report's :func:`aaaf.reports.markdown.tier_raise` under the weights the
assessment was scored with, as ``aaaf explain``).  No number is computed twice: the fleet's
counts and page are the per-agent summaries' (:mod:`aaaf.store.agent_summaries`), trust
:mod:`aaaf.services.trust`, the explanation :func:`aaaf.services.explain.explain_assessment`.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from aaaf.models.benchmark import AgentStanding
from aaaf.models.changes import AssessmentChanges
from aaaf.reports.markdown import TierRaise, tier_raise, title_of
from aaaf.reports.wording import reassessment_text
from aaaf.scoring.calibration import reassessment_due
from aaaf.scoring.defaults import AXES, AAAFConfig
from aaaf.scoring.records import EventRecord
from aaaf.scoring.spec import SchemeSpec, aaaf_config_of
from aaaf.services import benchmarks as benchmark_service
from aaaf.services import reports as report_service
from aaaf.services import trust as trust_service
from aaaf.services.changes import changes_of
from aaaf.services.explain import Explanation, explain_assessment
from aaaf.store import OrgStore
from aaaf.store.agent_summaries import FleetAgent, FleetCounts, FleetPage
from aaaf.store.agent_trend import COMPOSITE_TYPES, TrendAssessment
from aaaf.store.records import Agent, Appeal, Assessment, Badge, ScoreHistoryEntry, Webhook, WebhookDelivery
from aaaf.store.repositories.stress_runs import StressRun

RECENT_FAILURES = 10
"""The webhook failures the overview lists, newest first."""


# ------------------------------------------------------------------------------- overview
@dataclass(frozen=True)
class DueAgent:
    """An agent due for re-assessment, with the reason in words (docs/scoring.md §2.4)."""

    agent: FleetAgent
    reason: str


@dataclass(frozen=True)
class CollectingAgent:
    """A never-assessed agent with fewer completed tasks in the window than the minimum."""

    agent: FleetAgent
    tasks: int
    required: int


@dataclass(frozen=True)
class OpenAppeal:
    """An appeal not yet resolved, with its agent (read with it, not per appealed assessment)."""

    appeal: Appeal
    agent_id: uuid.UUID
    agent_name: str


@dataclass(frozen=True)
class WebhookLog:
    """A webhook with its deliveries, newest first (the webhook API's own listing)."""

    webhook: Webhook
    deliveries: list[WebhookDelivery]


@dataclass(frozen=True)
class FailedDelivery:
    webhook: Webhook
    delivery: WebhookDelivery


@dataclass(frozen=True)
class OverviewReads:
    """The overview's records: the fleet's counts and the page shown (from the summaries),
    due and collecting agents, held assessments, open appeals, and — for an admin, else
    None — the recent webhook failures."""

    counts: FleetCounts
    shown: FleetPage
    due: list[DueAgent]
    collecting: list[CollectingAgent]
    held: list[Assessment]
    appeals: list[OpenAppeal]
    failures: list[FailedDelivery] | None


def due_and_collecting(org: OrgStore, *, now: datetime) -> tuple[list[DueAgent], list[CollectingAgent]]:
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
    due: list[DueAgent] = []
    collecting: list[CollectingAgent] = []
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
            collecting.append(CollectingAgent(agent, tasks.get(agent.id, 0), required))
            continue
        due.append(DueAgent(agent, reassessment_text(decided)))
    return due, collecting


def webhook_logs(org: OrgStore) -> list[WebhookLog]:
    """Each webhook with its deliveries, newest first."""
    return [
        WebhookLog(hook, sorted(org.webhook_deliveries(hook.id), key=lambda d: d.created_at, reverse=True))
        for hook in org.webhooks()
    ]


def recent_failures(logs: list[WebhookLog]) -> list[FailedDelivery]:
    """The failed deliveries of every webhook, newest first, at most ``RECENT_FAILURES``."""
    failed = [FailedDelivery(log.webhook, d) for log in logs for d in log.deliveries if d.status == "failed"]
    failed.sort(key=lambda f: f.delivery.created_at, reverse=True)
    return failed[:RECENT_FAILURES]


def overview_reads(
    org: OrgStore,
    *,
    now: datetime,
    with_webhooks: bool,
    flag: str | None,
    tier: str | None,
    sort: str,
    page: int,
    size: int,
) -> OverviewReads:
    """The overview's records: grouped counts and one page of ``size`` agents (filtered by
    ``flag`` or ``tier``, sorted by ``sort``) whatever the fleet's size, the due and
    collecting agents, held assessments, open appeals, and the webhook failures when
    ``with_webhooks`` (the caller may read webhooks: ``admin``)."""
    counts = org.fleet_counts(now=now)
    due, collecting = due_and_collecting(org, now=now)
    shown = org.fleet_page(now=now, flag=flag, tier=tier, sort=sort, page=page, size=size)
    held = org.assessments(status="completed", review_state="pending_review")
    failures = recent_failures(webhook_logs(org)) if with_webhooks else None
    appeals = [OpenAppeal(appeal, agent_id, name) for appeal, agent_id, name in org.open_appeals()]
    return OverviewReads(counts, shown, due, collecting, held, appeals, failures)


# ------------------------------------------------------------------------------- agent page
@dataclass(frozen=True)
class DimensionProgress:
    name: str
    title: str
    sample_size: int
    evidence_count: int
    scored: bool
    reason: str | None


@dataclass(frozen=True)
class AxisProgress:
    tasks: int
    required: int
    percent: int
    dimensions: list[DimensionProgress]


@dataclass(frozen=True)
class CollectionProgress:
    """Evidence in the window ending now against the minimums (per axis) and, per dimension,
    what the engine would score it on today."""

    window_start: datetime
    window_end: datetime
    axes: dict[str, AxisProgress]


@dataclass(frozen=True)
class StressResultLine:
    task_key: str
    outcome: str
    score: float | None


@dataclass(frozen=True)
class StressRunResults:
    run: StressRun
    results: list[StressResultLine]


@dataclass(frozen=True)
class TrustNow:
    """The agent's trust score computed now (read-only): its composite (0-1000) and tier."""

    composite: float | None
    tier: str | None


@dataclass(frozen=True)
class AgentPageReads:
    """The agent page's records.  ``assessments``: every assessment newest first, reduced to
    what the list and charts read; ``history``: the completed whole-axis ones, oldest first
    (the trend's points); ``latest``: the newest of those, read whole; ``raises``: per axis
    of it, what would raise the tier (None at the top tier's axis without a raise)."""

    agent: Agent
    assessments: list[TrendAssessment]
    history: list[TrendAssessment]
    latest: Assessment | None
    raises: dict[str, TierRaise | None]
    badge: Badge | None
    trust_history: list[ScoreHistoryEntry]
    trust_now: TrustNow | None
    trust_note: str | None
    stress: list[StressRunResults]
    standing: AgentStanding
    changes: AssessmentChanges | None
    progress: CollectionProgress


def composite_history(assessments: list[TrendAssessment]) -> list[TrendAssessment]:
    """The completed whole-axis assessments of ``assessments`` (newest first), oldest first."""
    done = [a for a in assessments if a.status == "completed" and a.type in COMPOSITE_TYPES and a.result]
    return list(reversed(done))


def collection_progress(
    events: list[EventRecord], config: AAAFConfig, *, now: datetime
) -> CollectionProgress:
    """Evidence gathered in the window ending now against the minimums the engine enforces
    (docs/scoring.md §2.1: tasks in the window per axis) and, per dimension, the samples and
    events the engine would score it on today (minimums waived, as ``explain`` does), from the
    agent's ``events`` under the organization's ``config``."""
    from aaaf.scoring.aaaf import dimension_scores
    from aaaf.scoring.fold import fold_evidence

    names = [name for axis in AXES.values() for name in axis]
    window, dims = dimension_scores(fold_evidence(events), config, now, names)
    tasks = len(window.scored)
    required = {"performance": config.min_tasks_performance, "capability": config.min_tasks_capability}
    axes = {
        axis: AxisProgress(
            tasks=tasks,
            required=required[axis],
            percent=min(100, int(100 * tasks / required[axis])) if required[axis] else 100,
            dimensions=[
                DimensionProgress(
                    name=name,
                    title=title_of(name),
                    sample_size=dims[name].sample_size,
                    evidence_count=dims[name].evidence_count,
                    scored=dims[name].score is not None,
                    reason=dims[name].reason,
                )
                for name in axis_names
            ],
        )
        for axis, axis_names in AXES.items()
    }
    return CollectionProgress(window.window_start, window.window_end, axes)


def _raises(org: OrgStore, assessment: Assessment, configured: AAAFConfig) -> dict[str, TierRaise | None]:
    """What would raise each tier under the weights the assessment was scored with (its
    recorded spec, as ``aaaf explain``; the configured ones for an assessment without one)."""
    evidence = org.assessment_evidence(assessment.id)
    config = (
        configured
        if evidence is None
        else aaaf_config_of(SchemeSpec(evidence.scheme, evidence.scheme_version, evidence.config))
    )
    result = assessment.result or {}
    return {axis: tier_raise(axis, result[axis], config.weights(axis)) for axis in AXES if result.get(axis)}


def _trust_now(
    org: OrgStore, agent: Agent, *, now: datetime, events: list[EventRecord], config: AAAFConfig
) -> tuple[TrustNow | None, str | None]:
    score, note = report_service.trust_for(org, agent, at=now, events=events, aaaf_config=config)
    if score is None:
        return None, note
    composite, tier = score.get("composite"), score.get("tier")
    return TrustNow(
        float(composite) if isinstance(composite, int | float) else None, None if tier is None else str(tier)
    ), note


def _stress(org: OrgStore, agent_id: uuid.UUID) -> list[StressRunResults]:
    """The agent's stress runs, oldest first, each with its results: two reads, whatever the
    number of runs."""
    runs = org.stress_runs(agent_id)
    results = org.results_of_stress_runs([run.id for run in runs]) if runs else {}
    return [
        StressRunResults(
            run,
            [
                StressResultLine(str(row["task_key"]), str(row["outcome"]), row["score"])
                for row in results[run.id]
            ],
        )
        for run in runs
    ]


def agent_page_reads(org: OrgStore, agent_ref: str, *, now: datetime) -> AgentPageReads:
    """The agent page's records (issue 17 §2): scores, trend, progress, badge, trust, stress,
    standing, raises, what changed.  The agent, its events and the configuration are read
    once and handed to each reader of them."""
    agent = org.get_agent(agent_ref)
    config, events = org.config(), org.events(agent.id)
    every = org.agent_trend(agent.id)  # newest first, only what the list and charts read
    history = composite_history(every)
    latest = org.get_assessment(history[-1].id) if history else None  # the one read whole
    raises = {} if latest is None else _raises(org, latest, config)
    badges = sorted(org.badges(agent_id=agent.id, current_only=True), key=lambda b: b.issued_at, reverse=True)
    trust_history = trust_service.history(org, agent)
    trust_now, trust_note = _trust_now(org, agent, now=now, events=events, config=config)
    stress = _stress(org, agent.id)
    standing = benchmark_service.agent_standing(org, str(agent.id), now=now, config=config)  # issue 20 §2
    return AgentPageReads(
        agent=agent,
        assessments=every,
        history=history,
        latest=latest,
        raises=raises,
        badge=badges[0] if badges else None,
        trust_history=trust_history,
        trust_now=trust_now,
        trust_note=trust_note,
        stress=stress,
        standing=standing,
        changes=None if len(history) < 2 or latest is None else changes_of(org, latest),
        progress=collection_progress(events, config, now=now),
    )


# ------------------------------------------------------------------------------- assessment page
@dataclass(frozen=True)
class AssessmentPageReads:
    """One assessment with its current badge (completed only), its explanation (completed
    with a result only) and its appeals."""

    assessment: Assessment
    badge: Badge | None
    explanation: Explanation | None
    appeals: list[Appeal]


def assessment_page_reads(org: OrgStore, assessment_id: str) -> AssessmentPageReads:
    """The assessment page's records: every dimension with its evidence counts and the tasks
    that moved it (``aaaf explain``)."""
    assessment = org.get_assessment(assessment_id)
    completed = assessment.status == "completed"
    badge = org.current_badge(assessment.id) if completed else None
    explanation = explain_assessment(org, str(assessment.id)) if completed and assessment.result else None
    return AssessmentPageReads(assessment, badge, explanation, org.appeals(assessment.id))
