"""Assessments off the request path (issue 14; document 004 §5.1 step 6, §5.2 steps 5-6).

* :func:`trigger_assessment` (:func:`trigger_assessments` for many agents at once) — the
  API's trigger: checks what can be checked at once, records
  the assessment ``pending`` and queues its job in the same transaction (a server killed
  mid-trigger leaves both or neither); ``ASSESSMENT_IN_PROGRESS`` when the agent already has
  one pending or running (the partial unique index ``uq_assessments_one_running``).
* :func:`run_triggered_assessments` — the job, for one or several assessments at once:
  idempotent.  It claims them (``pending`` → ``in_progress``); one already ``completed`` or
  ``failed`` (a job run again after its worker died past the commit) is left as it is; the
  scores, dimension rows, evidence and webhook events are written in one transaction that
  re-checks each status, so a result is stored once however many times its job runs.
* :func:`issue_badge_of` — the badge job: issuing is idempotent (``services.badges.issue``
  re-renders a current credential); a held, rejected or superseded assessment gets none.
* :func:`requeue_pending` — the sweep's half of the outbox: a ``pending`` assessment older
  than ``grace`` whose job was lost is queued again (the queue refuses a duplicate).

The clock is the caller's (``now``).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection

from aaaf.errors import AAAFError
from aaaf.memory import gc_paused
from aaaf.scoring.fold import PLACING_EVENT_TYPES
from aaaf.services import assess as assess_service
from aaaf.services.assess_parallel import one_blas_thread, score_agent
from aaaf.services.assessment_completion import finished_assessment, store_finished
from aaaf.services.job_port import JobQueue
from aaaf.services.provenance import AgentRuns
from aaaf.store.availability import database_unavailable
from aaaf.store.engine import write_transaction

if TYPE_CHECKING:
    from aaaf.badges.keys import IssuerKey
    from aaaf.scoring.defaults import AAAFConfig
    from aaaf.scoring.records import EventRecord
    from aaaf.scoring.schemes import SchemeSpec
    from aaaf.services.badges import IssuedBadge
    from aaaf.store.assessment_batch import FinishedAssessment, PreviousComposites
    from aaaf.store.claimed_assessments import ClaimedAssessment
    from aaaf.store.org_store import OrgStore
    from aaaf.store.records import Agent, Assessment
    from aaaf.store.store import Store

log = logging.getLogger(__name__)


def trigger_assessment(
    org: OrgStore,
    agent: Agent,
    queue: JobQueue,
    *,
    now: datetime,
    assessment_type: str = "passive_only",
    dimension: str | None = None,
    window_end: datetime | None = None,
) -> Assessment:
    """Check, record ``pending`` and queue an assessment, in one transaction (module
    docstring): :func:`trigger_assessments` of one agent."""
    (record,) = trigger_assessments(
        org,
        [agent],
        queue,
        now=now,
        assessment_type=assessment_type,
        dimension=dimension,
        window_end=window_end,
    )
    return record


def trigger_assessments(
    org: OrgStore,
    agents: Sequence[Agent],
    queue: JobQueue,
    *,
    now: datetime,
    assessment_type: str = "passive_only",
    dimension: str | None = None,
    window_end: datetime | None = None,
) -> list[Assessment]:
    """Check, record ``pending`` and queue an assessment of each of ``agents`` (a fleet
    triggered at once), all in one transaction: every record with its job, or — the first
    refusal raised (``INSUFFICIENT_EVIDENCE``, ``ASSESSMENT_IN_PROGRESS``, …) — nothing.  On
    PostgreSQL an agent whose completed tasks in the window, counted by the database, meet the
    minimums is accepted without reading its events (:func:`_met_by_completed_tasks`).  The
    evidence of the others is read in one query — only the events that place tasks, all the
    check counts (but every event for ``stress_test_only``, whose refusal counts them all); each
    job keeps its own queueing lock."""
    if not agents:
        return []
    # the bench fleet (40 agents x 200 events): 8 000 rows read and folded -> 3 052; the trigger
    # 1.45-3.02 s -> 0.86-1.25 s in 4 alternating pairs (load 20)
    types = None if assessment_type == "stress_test_only" else PLACING_EVENT_TYPES
    # the collector paused while the evidence is loaded and checked, as assess --all does: a
    # collection of the old objects, falling in 3 of 9 triggers of the bench fleet (40 agents)
    # as its rows were read, made them 0.13-0.15 s of CPU instead of 0.03-0.05 (0 of 9 paused)
    with gc_paused():
        # the bench fleet: 8 000 -> 0 rows read and folded (3 052 before, the placing events)
        checked = _met_by_completed_tasks(org, agents, assessment_type, window_end or now)
        unsettled = [agent for agent in agents if agent.id not in checked]
        events: Mapping[uuid.UUID, Sequence[EventRecord]] = {}
        if len(unsettled) == 1:
            events = {unsettled[0].id: org.events(unsettled[0].id, types=types)}
        elif unsettled:
            events = org.events_for_agents([agent.id for agent in unsettled], types=types)
        with org.unit_of_work() as uow:
            records = assess_service.start_assessments(
                uow,
                [(agent, events.get(agent.id, ())) for agent in agents],
                now=now,
                assessment_type=assessment_type,
                dimension=dimension,
                window_end=window_end,
                status="pending",
                checked=checked,
            )
            ids = [record.id for record in records]
            uow.in_transaction(
                lambda connection: queue.defer_assessments(connection, org.organization_id, ids)
            )
    return records


def _met_by_completed_tasks(
    org: OrgStore, agents: Sequence[Agent], assessment_type: str, window_end: datetime
) -> frozenset[uuid.UUID]:
    """The agents of a ``passive_only`` or ``full`` trigger whose completed tasks placed in the
    window, counted by the database (:mod:`aaaf.store.placed_tasks`, PostgreSQL), already meet
    both minimums: the tasks the rule counts (docs/scoring.md §2.1) are at least those, so
    their events need not be read and folded.  An agent with stress runs of this installation
    is left to the fold (a ``passive_only`` assessment leaves their events out); so is every
    other (fewer completed tasks: the assigned ones may make up the difference, and a refusal
    says how many there are)."""
    from aaaf.scoring.aaaf_window import window_bounds
    from aaaf.services.provenance import agent_runs, runs_by_agent
    from aaaf.store.placed_tasks import completed_tasks_placed

    if assessment_type not in ("passive_only", "full") or org.engine.dialect.name != "postgresql":
        return frozenset()
    config = org.config()
    runs = {agents[0].id: agent_runs(org, agents[0].id)} if len(agents) == 1 else runs_by_agent(org)
    plain = [agent.id for agent in agents if not (runs.get(agent.id) or AgentRuns()).harness]
    start, end = window_bounds(window_end, config)
    with org.reading() as connection:
        counts = completed_tasks_placed(connection, org.organization_id, plain, start, end)
    required = max(config.min_tasks_performance, config.min_tasks_capability)
    return frozenset(agent for agent, count in (counts or {}).items() if count >= required)


def run_triggered_assessment(
    store: Store,
    organization_id: uuid.UUID,
    assessment_id: uuid.UUID,
    *,
    now: datetime,
    after_claim: Callable[[], None] | None = None,
) -> Assessment:
    """Score one triggered assessment once (:func:`run_triggered_assessments`); returns the
    assessment as stored."""
    run_triggered_assessments(store, organization_id, [assessment_id], now=now, after_claim=after_claim)
    return store.scope(organization_id).get_assessment(assessment_id)


def run_triggered_assessments(
    store: Store,
    organization_id: uuid.UUID,
    assessment_ids: Sequence[uuid.UUID],
    *,
    now: datetime,
    after_claim: Callable[[], None] | None = None,
    also: Callable[[Connection, list[uuid.UUID], list[Any]], None] | None = None,
) -> list[Any]:
    """Score triggered assessments of one organization at once, each once (module docstring):
    claimed in a transaction of their own, then :func:`run_claimed_assessments`."""
    from aaaf.store.claimed_assessments import claim_assessments

    org = store.scope(organization_id)
    claimed = claim_assessments(org.engine, organization_id, assessment_ids)
    return run_claimed_assessments(
        store, organization_id, assessment_ids, claimed, now=now, after_claim=after_claim, also=also
    )


def claim_triggered(
    store: Store,
    first: tuple[uuid.UUID, uuid.UUID],
    take: Callable[[Connection], list[tuple[uuid.UUID, uuid.UUID]]],
) -> dict[uuid.UUID, tuple[list[uuid.UUID], list[Any]]]:
    """A worker's claim of a batch, in one write transaction: ``take(connection)`` marks the
    further due jobs running (the queue's bookkeeping) and gives their (organization id,
    assessment id), then every assessment of ``first`` and of those is claimed
    (:func:`~aaaf.store.claimed_assessments.claim_assessments_on`) — the jobs are running if
    and only if their assessments are claimed, and one commit (one pool checkout, one WAL
    flush) does both.  Organization id → (the assessment ids asked, those found as claimed)."""
    from aaaf.store.claimed_assessments import claim_assessments_on

    with write_transaction(store.engine) as connection:
        asked: dict[uuid.UUID, list[uuid.UUID]] = {}
        for organization_id, assessment_id in [first, *take(connection)]:
            asked.setdefault(organization_id, []).append(assessment_id)
        return {
            organization_id: (ids, claim_assessments_on(connection, organization_id, ids))
            for organization_id, ids in asked.items()
        }


def run_claimed_assessments(
    store: Store,
    organization_id: uuid.UUID,
    assessment_ids: Sequence[uuid.UUID],
    claimed: Sequence[Any],
    *,
    now: datetime,
    after_claim: Callable[[], None] | None = None,
    also: Callable[[Connection, list[uuid.UUID], list[Any]], None] | None = None,
) -> list[Any]:
    """Score claimed assessments of one organization (``claimed``: those of ``assessment_ids``
    found, with their status after the claim) at once, each once; returns the records written
    now (an assessment finished already is left as it is).

    One read transaction for the configuration, the stress runs, the previous composites and
    the evidence of all their agents, the pure engine on each, and one transaction that
    stores every result with its webhook events
    (:mod:`aaaf.services.assessment_completion`, as on every path) and ``also(connection,
    assessment_ids, records)`` — every id asked (written now, found finished, or not found:
    nothing is left to do for it) and the records written now — for the queue to mark their
    jobs done and queue their badges in that transaction.  A failure of an assessment's
    scoring is recorded on it (``failed`` with its error) and not raised.  A database that
    cannot be reached is not a failure of the scoring: that error is raised, nothing is
    stored, and the queue runs the jobs again with backoff (docs/jobs.md "When the database
    goes away")."""
    from aaaf.store.claimed_assessments import RUNNING

    running = [c for c in claimed if c.status in RUNNING]
    handled = list(dict.fromkeys(assessment_ids))

    def beside(connection: Connection, records: list[Any]) -> None:
        if also is not None:
            also(connection, handled, records)

    if not running:
        for c in claimed:
            log.info("assessment %s is already %s: nothing to do", c.id, c.status)
        if handled and also is not None:
            with write_transaction(store.engine) as connection:
                also(connection, handled, [])
        return []
    # its agents were found in the organization in the claim: it exists, no need to read it
    org = store.scope(organization_id, exists=True)
    if after_claim is not None:
        after_claim()
    try:
        items = _finished_items(org, running, now)
        records = store_finished(org, items, now=now, also=beside)
    except Exception as error:
        if database_unavailable(error):
            log.warning(
                "assessment(s) %s: database unavailable, the job will run again: %s",
                ", ".join(str(c.id) for c in running),
                error,
            )
        raise
    for record in records:
        if record.status == "completed":  # the stress runs it used, as assess NAME records them
            assess_service.merge_runs(org, record.result or {}, record.id)
        else:
            log.info("assessment %s failed: %s", record.id, (record.error or {}).get("code"))
    return records


def _finished_items(org: OrgStore, running: Sequence[Any], now: datetime) -> list[Any]:
    """Each claimed assessment scored (or failed with its reason): the configuration, stress
    runs, calibration baselines and evidence read once for all of them, on one read
    connection in one read transaction (:meth:`~aaaf.store.OrgStore.reading_together`),
    closed before the scoring: one pool checkout instead of four (each a ping, BEGIN and
    ROLLBACK)."""
    from aaaf.scoring.spec import aaaf_spec
    from aaaf.services.provenance import runs_by_agent
    from aaaf.store.assessment_batch import latest_completed_composites
    from aaaf.store.org_config import config_snapshot

    agent_ids = list(dict.fromkeys(c.agent_id for c in running))
    # the collector paused while the evidence is loaded and scored, as assess --all does: the
    # job body on 40 agents x 200 events, in-process, 4.08 s with vs 4.63 s without (4 runs each)
    with gc_paused():
        with org.reading_together() as reading, reading.reading() as connection:
            config = reading.config()
            runs = runs_by_agent(reading)
            previous = latest_completed_composites(connection, org.organization_id, agent_ids)
            events = reading.events_for_agents(agent_ids)
        snapshot, spec = config_snapshot(config), aaaf_spec(config)
        with one_blas_thread(config.uncertainty_resamples > 0):
            items = [
                _finished_item(claimed, events, config, snapshot, spec, runs, previous, now)
                for claimed in running
            ]
    return items


def _finished_item(
    claimed: ClaimedAssessment,
    events: Mapping[uuid.UUID, Sequence[EventRecord]],
    config: AAAFConfig,
    snapshot: Mapping[str, Any],
    spec: SchemeSpec,
    runs: Mapping[uuid.UUID, AgentRuns],
    previous: Mapping[uuid.UUID, PreviousComposites],
    now: datetime,
) -> FinishedAssessment:
    """One claimed assessment scored, or failed with its reason (an unexpected error logged)."""
    scored, error = None, None
    try:
        scored = score_agent(
            events.get(claimed.agent_id, []),
            config,
            claimed.window_end,
            claimed.type,
            claimed.dimension,
            runs.get(claimed.agent_id) or AgentRuns(),
            claimed.agent_name,
            window_start=claimed.window_start,
        )
    except AAAFError as refused:
        error = refused.to_dict()["error"]
    except Exception as failure:
        if database_unavailable(failure):
            raise
        log.exception("assessment %s failed unexpectedly", claimed.id)
        error = {"code": "INTERNAL_ERROR", "message": "scoring failed unexpectedly"}
    return finished_assessment(
        assessment_id=claimed.id,
        agent_id=claimed.agent_id,
        agent_name=claimed.agent_name,
        assessment_type=claimed.type,
        dimension=claimed.dimension,
        window_start=claimed.window_start,
        window_end=claimed.window_end,
        scored=scored,
        error=error,
        config=config,
        snapshot=snapshot,
        spec=spec,
        previous=previous.get(claimed.agent_id),
        now=now,
    )


def issue_badge_of(
    store: Store,
    organization_id: uuid.UUID,
    assessment_id: uuid.UUID,
    *,
    now: datetime,
    key: IssuerKey | None = None,
) -> IssuedBadge | None:
    """Issue a completed assessment's badge (document 004 §5.1 step 6) unless it is held for
    review, rejected, expired or superseded; returns the issued badge or None (logged why).
    ``key``: the issuer key when the caller read it (a batch of badges), else read here."""
    from aaaf.services import badges as badge_service
    from aaaf.services.org_session import org_session

    try:
        return badge_service.issue(
            org_session(store, store.scope(organization_id)), assessment_id, now=now, key=key
        )
    except AAAFError as error:
        log.info("no badge for assessment %s: %s %s", assessment_id, error.code, error.message)
        return None


def issue_badges_of(
    store: Store,
    badges: Sequence[tuple[uuid.UUID, uuid.UUID]],
    *,
    now: datetime,
    key: IssuerKey | None = None,
) -> list[IssuedBadge | None]:
    """:func:`issue_badge_of` of each (organization id, assessment id) of ``badges``, in their
    order: an organization's reads share one read connection and its record is read once
    (:meth:`~aaaf.store.OrgStore.reading_together`); each badge is still written in a
    transaction of its own, so that two workers issuing at once wait for each other's badge,
    never for a whole batch (the status bit is the organization's next free one).  The bench's
    40 badges, 8 a job: 257 pool checkouts -> 62, 1 749 round trips -> about 1 200; -> 892 with
    each badge's assessment and credentials read once, its new row not read back (:func:`badges.issue`)."""
    from aaaf.services import badges as badge_service
    from aaaf.services.org_session import org_session

    by_organization: dict[uuid.UUID, list[int]] = {}
    for position, (organization_id, _) in enumerate(badges):
        by_organization.setdefault(organization_id, []).append(position)
    issued: list[IssuedBadge | None] = [None] * len(badges)
    for organization_id, positions in by_organization.items():
        # the organization is read once, by org_session, on the shared connection
        with store.scope(organization_id, exists=True).reading_together() as org:
            try:
                session = org_session(store, org)
            except AAAFError as error:  # gone since the badges were queued
                log.info("no badges for organization %s: %s %s", organization_id, error.code, error.message)
                continue
            for position in positions:
                assessment_id = badges[position][1]
                try:
                    issued[position] = badge_service.issue(session, assessment_id, now=now, key=key)
                except AAAFError as error:
                    log.info("no badge for assessment %s: %s %s", assessment_id, error.code, error.message)
    return issued


def requeue_pending(store: Store, queue: JobQueue, *, now: datetime, grace: timedelta) -> list[uuid.UUID]:
    """Queue again every assessment still ``pending`` ``grace`` after its trigger (its job was
    lost); returns their ids.  A queue that already holds the job ignores the duplicate."""
    from aaaf.store.job_state import pending_assessments

    requeued = []
    for organization_id, assessment_id in pending_assessments(store.engine, created_before=now - grace):
        org = store.scope(organization_id)
        org.in_transaction(
            partial(queue.defer_assessments, organization_id=organization_id, assessment_ids=[assessment_id])
        )
        requeued.append(assessment_id)
    if requeued:
        log.warning("queued %d pending assessment(s) again: %s", len(requeued), ", ".join(map(str, requeued)))
    return requeued


def give_up(
    store: Store, organization_id: uuid.UUID, assessment_id: uuid.UUID, *, attempts: int, now: datetime
) -> bool:
    """End ``failed``, with the reason, a ``pending`` or ``in_progress`` assessment whose job
    gave up after ``attempts`` attempts (the database stayed unavailable through all of its
    retries, say) — it would otherwise wait for ever; raises ``assessment.failed``.  False
    when it was finished meanwhile."""
    error = {
        "code": "INTERNAL_ERROR",
        "message": f"the assessment's job gave up after {attempts} attempts "
        "(the worker's log has each error); trigger the assessment again",
    }
    try:
        assess_service.fail_and_emit(store.scope(organization_id), assessment_id, error=error, now=now)
    except AAAFError as refused:  # finished meanwhile
        log.info("assessment %s not failed: %s", assessment_id, refused.code)
        return False
    log.warning("assessment %s failed: its job gave up after %d attempts", assessment_id, attempts)
    return True


def fail_abandoned(store: Store, *, now: datetime) -> list[uuid.UUID]:
    """:func:`give_up` every assessment whose queued job gave up after its retries and that
    has no job waiting (the sweep's, docs/jobs.md); their ids."""
    from aaaf.store.job_state import abandoned_assessments

    return [
        assessment_id
        for organization_id, assessment_id, attempts in abandoned_assessments(store.engine)
        if give_up(store, organization_id, assessment_id, attempts=attempts, now=now)
    ]
