"""Assessment: load an agent's evidence, call the pure AAAF scheme, apply the calibration check
and validity (SCORING.md §2.4), and store the record.

The clock is the caller's (``now``); the engine never reads it.
"""

from __future__ import annotations

import gc
import logging
import multiprocessing
import os
import sqlite3
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from aaaf.errors import AAAFError
from aaaf.scoring import aaaf as aaaf_scheme
from aaaf.scoring.calibration import calibration_check, reassessment_due, valid_until
from aaaf.scoring.defaults import AXES
from aaaf.scoring.records import EventRecord
from aaaf.scoring.results import AAAFResult
from aaaf.scoring.spec import aaaf_spec
from aaaf.scoring.trace import DimensionEvidence
from aaaf.scoring.trace import of_result as trace_of
from aaaf.sqlite_events import read_sqlite_events

log = logging.getLogger(__name__)

ASSESSMENT_TYPES = ("full", "passive_only", "single_dimension")


@dataclass
class AssessOutcome:
    """One agent's outcome in a batch: an assessment, or the error that stopped it."""

    agent: Any
    assessment: Any | None = None
    error: AAAFError | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"agent": self.agent.name}
        if self.assessment is not None:
            out["assessment"] = assessment_json(self.assessment)
        if self.error is not None:
            out.update(self.error.to_dict())
        return out


def _check_type(assessment_type: str, dimension: str | None) -> None:
    if assessment_type not in ASSESSMENT_TYPES:
        raise AAAFError(
            "INVALID_REQUEST",
            f"unknown assessment type {assessment_type!r}; expected one of {', '.join(ASSESSMENT_TYPES)}",
            {"field": "type"},
        )
    if assessment_type == "single_dimension":
        known = [d for dims in AXES.values() for d in dims]
        if dimension is None:
            raise AAAFError(
                "INVALID_REQUEST", "a single_dimension assessment needs --dimension", {"field": "dimension"}
            )
        if dimension not in known:
            raise AAAFError(
                "INVALID_REQUEST",
                f"unknown dimension {dimension!r}; expected one of {', '.join(known)}",
                {"field": "dimension"},
            )
    elif dimension is not None:
        raise AAAFError(
            "INVALID_REQUEST", "--dimension goes with --type single_dimension", {"field": "dimension"}
        )


def dimension_rows(
    result: AAAFResult,
) -> list[tuple[str, str, float | None, int, int, dict[str, Any], str | None]]:
    rows = []
    for axis_name in ("performance", "capability"):
        axis = result.axis(axis_name)
        if axis is None:
            continue
        for name, dim in axis.dimensions.items():
            reason = None if dim.score is not None else (dim.reason or "no valid evidence")
            rows.append(
                (axis_name, name, dim.score, dim.sample_size, dim.evidence_count, dict(dim.details), reason)
            )
    return rows


def composites(result: AAAFResult) -> dict[str, Any]:
    perf, cap = result.performance, result.capability
    return {
        "performance_composite": perf.composite.score if perf else None,
        "performance_tier": perf.composite.tier if perf else None,
        "capability_composite": cap.composite.score if cap else None,
        "capability_tier": cap.composite.tier if cap else None,
    }


def _previous_composites(previous: Any) -> dict[str, float | None] | None:
    if previous is None:
        return None
    return {"performance": previous.performance_composite, "capability": previous.capability_composite}


def self_report_unreliable(result: Mapping[str, Any]) -> bool:
    """Whether an assessment result is flagged ``self_report_unreliable`` (SCORING.md §2.6):
    held for review exactly like an anomalous one (§2.4)."""
    audit = result.get("audit")
    return isinstance(audit, Mapping) and audit.get("self_report_unreliable") is True


def assess_with_events(
    org: Any,
    agent: Any,
    events: Sequence[EventRecord],
    *,
    now: datetime,
    assessment_type: str = "passive_only",
    dimension: str | None = None,
    window_end: datetime | None = None,
    config: Any = None,
) -> Any:
    """Score one agent from already-loaded events and store the assessment (completed or failed)."""
    _check_type(assessment_type, dimension)
    config = config or org.config()
    end = window_end or now
    start = end - timedelta(days=config.window_days)
    previous = org.latest_completed_assessment(agent.id)
    record = org.create_assessment(
        agent.id, type=assessment_type, window_start=start, window_end=end, dimension=dimension
    )
    return score_assessment(org, agent, record, events, now=now, config=config, previous=previous)


def start_assessment(
    org: Any,
    agent: Any,
    events: Sequence[EventRecord],
    *,
    now: datetime,
    assessment_type: str = "passive_only",
    dimension: str | None = None,
    window_end: datetime | None = None,
) -> Any:
    """Check an assessment can run and record it ``in_progress``, scoring nothing (the API's
    trigger, SCORING.md §7 "Assessments"): ``INVALID_REQUEST`` for a bad type or dimension,
    ``INSUFFICIENT_EVIDENCE`` below the minimums (no record is made), ``ASSESSMENT_IN_PROGRESS``
    when the agent has one running.  :func:`score_assessment` finishes it."""
    _check_type(assessment_type, dimension)
    config = org.config()
    end = window_end or now
    aaaf_scheme.check_minimums(events, config, end, assessment_type=assessment_type, dimension=dimension)
    return org.create_assessment(
        agent.id,
        type=assessment_type,
        window_start=end - timedelta(days=config.window_days),
        window_end=end,
        dimension=dimension,
    )


def score_assessment(
    org: Any,
    agent: Any,
    record: Any,
    events: Sequence[EventRecord],
    *,
    now: datetime,
    config: Any = None,
    previous: Any = None,
) -> Any:
    """Score an ``in_progress`` assessment record and store it completed (or failed, with the
    error that stopped it); ``previous`` is the completed assessment the calibration check
    (SCORING.md §2.4) compares against."""
    config = config or org.config()
    spec = aaaf_spec(config)  # recorded with the assessment (SCORING.md §2.4 appeals, §6)
    assessment_type, dimension, end = record.type, record.dimension, record.window_end
    try:
        result = aaaf_scheme.assess(events, config, end, assessment_type=assessment_type, dimension=dimension)
    except AAAFError as error:
        org.fail_assessment(record.id, error=error.to_dict()["error"], completed_at=now, spec=spec)
        raise
    except Exception as error:
        org.fail_assessment(
            record.id, error={"code": "INTERNAL_ERROR", "message": str(error)}, completed_at=now, spec=spec
        )
        raise
    values = composites(result)
    current = {"performance": values["performance_composite"], "capability": values["capability_composite"]}
    # The calibration check compares full assessments only: a single dimension has no composite.
    calibration = calibration_check(
        _previous_composites(previous) if assessment_type != "single_dimension" else None,
        current,
        config.calibration_threshold,
    )
    result_dict = result.to_dict()
    result_dict["calibration"] = {
        "anomalous": calibration.anomalous,
        "deltas": calibration.deltas,
        "previous_assessment_id": str(previous.id) if previous else None,
    }
    from aaaf.store.org_config import config_snapshot

    result_dict["config"] = config_snapshot(config)  # the configuration in force (issue 21)
    unreliable = self_report_unreliable(result_dict)
    org.complete_assessment(
        record.id,
        result=result_dict,
        dimension_rows=dimension_rows(result),
        evidence_summary=dict(result.evidence_summary),
        valid_until=valid_until(now, config),
        completed_at=now,
        anomalous=calibration.anomalous,
        review_state="pending_review" if calibration.anomalous or unreliable else "not_required",
        spec=spec,
        trace=trace_of(result),
        **values,
    )
    if unreliable:
        log.warning(
            "assessment %s of %s: self-reports unreliable (audit): badge held for review",
            record.id,
            agent.name,
        )
    if calibration.anomalous:
        log.warning(
            "assessment %s of %s is anomalous (%s): badge held for review",
            record.id,
            agent.name,
            calibration.deltas,
        )
    return org.get_assessment(record.id)


def assess_agent(org: Any, agent_ref: str, *, now: datetime, **options: Any) -> Any:
    agent = org.get_agent(agent_ref)
    return assess_with_events(org, agent, org.events(agent.id), now=now, **options)


# An organization-wide run scores agents in chunks and writes every assessment in one
# transaction.  The work is measured in events, not agents (a fleet of 100 agents × 10 000
# events is as much work as 1 000 × 1 000): chunks hold about CHUNK_EVENTS events (at least
# one agent), and when the fleet holds enough events to repay a worker's start-up (a spawned
# interpreter: about 0.2 s on SQLite, whose workers read through the DB-API and never import
# SQLAlchemy; about 1.5 s with the store), ``workers - 1`` spawned processes score chunks from
# the front of the queue while this process scores chunks from the back, so no core waits on a
# start-up, and small chunks keep the tail balanced.  The engine is pure, so a worker needs
# only where the events are and the config; it sends back plain values (:class:`ScoredAgent`),
# the event ids already in their compact stored form (:mod:`aaaf.scoring.trace`).
CHUNK_EVENTS = 10_000
PARALLEL_MIN_EVENTS = 200_000
SQLITE_READ_TIMEOUT_S = 30.0


class ScoredAgent(NamedTuple):
    """One agent's successful score as ``assess_many`` stores it (everything but calibration)."""

    result: dict[str, Any]
    dimension_rows: list[tuple[str, str, float | None, int, int, dict[str, Any], str | None]]
    evidence_summary: dict[str, Any]
    composites: dict[str, Any]
    trace: DimensionEvidence


Scored = tuple[Any, ScoredAgent | None, dict[str, Any] | None]


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a chunk is loaded and scored.

    Loading keeps a million small containers alive (records, their JSON dicts) and makes
    almost no reference cycles, so every automatic collection re-scans live objects for
    nothing (measured: about a third of the load time).  Reference counting still frees
    everything; the previous state is restored after.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _plain(result: AAAFResult) -> ScoredAgent:
    return ScoredAgent(
        result.to_dict(),
        dimension_rows(result),
        dict(result.evidence_summary),
        composites(result),
        trace_of(result),
    )


def _score_loaded(
    events_by_agent: Mapping[Any, Sequence[EventRecord]],
    agent_ids: Sequence[Any],
    config: Any,
    end: datetime,
    assessment_type: str,
    dimension: str | None,
) -> list[Scored]:
    scored: list[Scored] = []
    for agent_id in agent_ids:
        try:
            result = aaaf_scheme.assess(
                events_by_agent.get(agent_id, []),
                config,
                end,
                assessment_type=assessment_type,
                dimension=dimension,
            )
            scored.append((agent_id, _plain(result), None))
        except AAAFError as error:
            scored.append((agent_id, None, error.to_dict()["error"]))
    return scored


# a worker process's database handle, opened on its first chunk and kept for the next ones
_WORKER_HANDLES: dict[tuple[str, str], Any] = {}


def _event_source(org: Any) -> tuple[str, str]:
    """Where a worker reads events: a SQLite file straight through the DB-API (the worker
    then never imports SQLAlchemy: 0.2 s to start instead of 1.5 s), else the store URL."""
    url = org.engine.url
    if url.get_backend_name() == "sqlite" and url.database and not url.query:
        return ("sqlite", os.path.abspath(url.database))
    return ("url", url.render_as_string(hide_password=False))


def _load_in_worker(source: tuple[str, str], organization_id: Any, agent_ids: list[Any]) -> Any:
    """The chunk's events.  The SQLite path does not re-check organization scoping: the
    dispatching process checked every agent id against the organization first."""
    kind, where = source
    handle = _WORKER_HANDLES.get(source)
    if kind == "sqlite":
        if handle is None:
            handle = _WORKER_HANDLES[source] = sqlite3.connect(where, timeout=SQLITE_READ_TIMEOUT_S)
        return read_sqlite_events(handle, agent_ids)
    if handle is None:
        from aaaf.store import open_store

        handle = _WORKER_HANDLES[source] = open_store(where)
    return handle.scope(organization_id).events_for_agents(agent_ids)


def _score_chunk_in_worker(
    source: tuple[str, str],
    organization_id: Any,
    agent_ids: list[Any],
    config: Any,
    end: datetime,
    assessment_type: str,
    dimension: str | None,
) -> list[Scored]:
    """Runs in a worker process: its own connection, the pure engine, plain results back."""
    with _gc_paused():
        events = _load_in_worker(source, organization_id, agent_ids)
        return _score_loaded(events, agent_ids, config, end, assessment_type, dimension)


def plan_chunks(ids: Sequence[Any], counts: Mapping[Any, int]) -> list[list[Any]]:
    """Consecutive runs of ``ids`` holding about ``CHUNK_EVENTS`` events each (at least one
    agent a chunk; an agent is never split)."""
    chunks: list[list[Any]] = []
    current: list[Any] = []
    held = 0
    for agent_id in ids:
        current.append(agent_id)
        held += counts.get(agent_id, 0)
        if held >= CHUNK_EVENTS:
            chunks.append(current)
            current, held = [], 0
    if current:
        chunks.append(current)
    return chunks


def _workers_for(org: Any, events: int, chunks: int) -> int:
    url = str(org.engine.url)
    if events < PARALLEL_MIN_EVENTS or ":memory:" in url or url in ("sqlite://", "sqlite:///"):
        return 1
    return max(1, min(os.cpu_count() or 1, chunks))


def _score_all(
    org: Any,
    agents: list[Any],
    config: Any,
    end: datetime,
    assessment_type: str,
    dimension: str | None,
    workers: int | None,
    keep: Callable[[list[Scored]], None],
) -> None:
    """Score every agent, handing each chunk's scores to ``keep`` as soon as they are known
    (so that the caller's own work on them overlaps the helpers' scoring)."""
    ids = [agent.id for agent in agents]
    counts = org.event_counts(ids)
    chunks = deque(plan_chunks(ids, counts))
    workers = _workers_for(org, sum(counts.values()), len(chunks)) if workers is None else workers
    source = _event_source(org)
    # this process reads a SQLite file through the DB-API too (every agent was checked
    # against the organization before scoring): no pool checkout and scoping query per chunk
    local = sqlite3.connect(source[1], timeout=SQLITE_READ_TIMEOUT_S) if source[0] == "sqlite" else None

    def score_here(chunk: list[Any]) -> None:
        with _gc_paused():
            events = read_sqlite_events(local, chunk) if local is not None else org.events_for_agents(chunk)
            scored = _score_loaded(events, chunk, config, end, assessment_type, dimension)
        keep(scored)

    try:
        if workers <= 1:
            while chunks:
                score_here(chunks.popleft())
        else:
            _score_with_helpers(
                org, chunks, workers - 1, source, config, end, assessment_type, dimension, score_here, keep
            )
    finally:
        if local is not None:
            local.close()


def _score_with_helpers(
    org: Any,
    chunks: deque[list[Any]],
    helpers: int,
    source: tuple[str, str],
    config: Any,
    end: datetime,
    assessment_type: str,
    dimension: str | None,
    score_here: Callable[[list[Any]], None],
    keep: Callable[[list[Scored]], None],
) -> None:
    """``helpers`` spawned processes take chunks from the front, this process from the back."""
    context = multiprocessing.get_context("spawn")
    here = 0
    waited = 0.0
    with ProcessPoolExecutor(max_workers=helpers, mp_context=context) as pool:
        in_flight: set[Future[list[Scored]]] = set()
        while chunks or in_flight:
            # each helper has a chunk running and one queued; this process takes the rest
            while chunks and len(in_flight) < 2 * helpers:
                in_flight.add(
                    pool.submit(
                        _score_chunk_in_worker,
                        source,
                        org.organization_id,
                        chunks.popleft(),
                        config,
                        end,
                        assessment_type,
                        dimension,
                    )
                )
            if chunks:
                score_here(chunks.pop())
                here += 1
                finished = {future for future in in_flight if future.done()}
            else:
                started = time.perf_counter()
                finished, _ = wait(in_flight, return_when=FIRST_COMPLETED)
                waited += time.perf_counter() - started
            for future in finished:
                keep(future.result())
            in_flight -= finished
    log.debug(
        "assess: %d chunks of ~%d events scored here (%.2f s waiting on the last), the rest by %d helper(s)",
        here,
        CHUNK_EVENTS,
        waited,
        helpers,
    )


def assess_many(
    org: Any,
    agents: Iterable[Any],
    *,
    now: datetime,
    assessment_type: str = "passive_only",
    dimension: str | None = None,
    window_end: datetime | None = None,
    workers: int | None = None,
) -> list[AssessOutcome]:
    """Assess each agent; one agent's insufficient evidence does not stop the rest.

    Every assessment (completed or failed) is stored; the calibration check (SCORING.md §2.4)
    compares each with the agent's previous completed assessment.
    """
    _check_type(assessment_type, dimension)
    agents = list(agents)
    if not agents:
        return []
    with _gc_paused():
        return _assess_many(org, agents, now, assessment_type, dimension, window_end, workers)


def _assess_many(
    org: Any,
    agents: list[Any],
    now: datetime,
    assessment_type: str,
    dimension: str | None,
    window_end: datetime | None,
    workers: int | None,
) -> list[AssessOutcome]:
    from aaaf.store.assessment_batch import (
        FinishedAssessment,
        PreparedAssessments,
        latest_completed_composites,
        prepare_finished_assessments,
        store_prepared_assessments,
    )
    from aaaf.store.org_config import config_snapshot

    config = org.config()
    snapshot = config_snapshot(config)  # recorded in every result: the configuration in force
    spec = aaaf_spec(config)
    end = window_end or now
    start = end - timedelta(days=config.window_days)
    # first: it checks every agent against the organization (NOT_FOUND), which workers rely on
    previous = latest_completed_composites(org.engine, org.organization_id, [a.id for a in agents])
    names = {agent.id: agent.name for agent in agents}
    sqlite = org.engine.dialect.name == "sqlite"
    batches: list[PreparedAssessments] = []
    errors: dict[Any, AAAFError] = {}

    def finished(agent_id: Any, item: ScoredAgent | None, error: dict[str, Any] | None) -> FinishedAssessment:
        common = {
            "agent_id": agent_id,
            "agent_name": names[agent_id],
            "type": assessment_type,
            "dimension": dimension,
            "window_start": start,
            "window_end": end,
            "completed_at": now,
            "spec": spec,
        }
        if item is None:
            assert error is not None
            errors[agent_id] = AAAFError(error["code"], error["message"], error.get("details"))
            return FinishedAssessment(status="failed", error=error, **common)
        values = item.composites
        before = previous.get(agent_id)
        calibration = calibration_check(
            None
            if before is None or assessment_type == "single_dimension"
            else {"performance": before.performance, "capability": before.capability},
            {"performance": values["performance_composite"], "capability": values["capability_composite"]},
            config.calibration_threshold,
        )
        result_dict = dict(item.result)
        result_dict["calibration"] = {
            "anomalous": calibration.anomalous,
            "deltas": calibration.deltas,
            "previous_assessment_id": str(before.assessment_id) if before else None,
        }
        result_dict["config"] = snapshot  # the configuration in force (issue 21)
        unreliable = self_report_unreliable(result_dict)  # SCORING.md §2.6: held like an anomaly
        if unreliable:
            log.warning(
                "assessment of %s: self-reports unreliable (audit): badge held for review", names[agent_id]
            )
        if calibration.anomalous:
            log.warning(
                "assessment of %s is anomalous (%s): badge held for review",
                names[agent_id],
                calibration.deltas,
            )
        return FinishedAssessment(
            status="completed",
            result=result_dict,
            dimension_rows=item.dimension_rows,
            evidence_summary=item.evidence_summary,
            valid_until=valid_until(now, config),
            anomalous=calibration.anomalous,
            review_state="pending_review" if calibration.anomalous or unreliable else "not_required",
            trace=item.trace,
            **values,
            **common,
        )

    def keep(scored: list[Scored]) -> None:
        # rows and records are prepared here, chunk by chunk, while helpers are still scoring
        items = [finished(agent_id, item, error) for agent_id, item, error in scored]
        batches.append(prepare_finished_assessments(org.organization_id, items, sqlite=sqlite))

    _score_all(org, agents, config, end, assessment_type, dimension, workers, keep)
    records = store_prepared_assessments(org.engine, org.organization_id, batches)
    # the outcomes in the order of ``agents`` (chunks finish in any order)
    by_agent: dict[Any, deque[Any]] = {}
    for record in records:
        by_agent.setdefault(record.agent_id, deque()).append(record)
    outcomes = []
    for agent in agents:
        record = by_agent[agent.id].popleft()
        outcomes.append(
            AssessOutcome(
                agent=agent,
                assessment=record if record.status == "completed" else None,
                error=errors.get(agent.id),
            )
        )
    return outcomes


def assess_all(org: Any, *, now: datetime, **options: Any) -> list[AssessOutcome]:
    return assess_many(org, org.agents(), now=now, **options)


def completed_tasks_since(events: Sequence[EventRecord], since: datetime) -> int:
    """Distinct tasks with an accepted/partial task_completed after ``since`` (the §2.4 trigger)."""
    tasks = {
        e.task_id
        for e in events
        if e.type == "task_completed"
        and e.timestamp > since
        and e.data.get("completion_status") in ("accepted", "partial")
    }
    return len(tasks)


def due_agents(org: Any, *, now: datetime) -> list[tuple[Any, str]]:
    """Agents whose re-assessment is due (SCORING.md §2.4), with the reason."""
    config = org.config()
    due = []
    for agent in org.agents():
        previous = org.latest_completed_assessment(agent.id)
        if previous is None:
            is_due, reason = reassessment_due(
                now=now, valid_until=None, completed_tasks_since_last=0, config=config
            )
        else:
            since = completed_tasks_since(
                org.events(agent.id, types=["task_completed"]), previous.completed_at
            )
            is_due, reason = reassessment_due(
                now=now, valid_until=previous.valid_until, completed_tasks_since_last=since, config=config
            )
        if is_due:
            due.append((agent, reason))
    return due


def assess_due(org: Any, *, now: datetime, **options: Any) -> list[AssessOutcome]:
    due = due_agents(org, now=now)
    return assess_many(org, [agent for agent, _ in due], now=now, **options)


def assessment_json(assessment: Any, *, extended: bool = False) -> dict[str, Any]:
    """The assessment object of document 004 §6.2 (GET /api/v1/assessments/{id}).

    Exactly its fields, plus ``covered``/``total`` per composite and the SCORING.md §0
    traceability fields of each dimension; a dimension without evidence is an object whose
    ``score`` is null.  ``extended`` adds the record's type, window, calibration hold and error
    (for listings such as ``aaaf assessments``).
    """
    from aaaf.settings import get_settings

    result = assessment.result or {}
    out: dict[str, Any] = {
        "id": str(assessment.id),
        "agent_id": str(assessment.agent_id),
        "status": assessment.status,
    }
    for axis in ("performance", "capability"):
        data = result.get(axis)
        out[axis] = (
            None
            if data is None
            else {
                "composite_score": data.get("composite_score"),
                "tier": data.get("tier"),
                "covered": data.get("covered"),
                "total": data.get("total"),
                "dimensions": data.get("dimensions", {}),
            }
        )
    if result.get("audit") is not None:
        out["audit"] = result["audit"]  # SCORING.md §2.6
    base = f"{get_settings().public_base_url.rstrip('/')}/api/v1/badges/{assessment.id}"
    out["badge_urls"] = {"svg": f"{base}.svg", "png": f"{base}.png", "json": f"{base}.json"}
    out["valid_until"] = _iso(assessment.valid_until)
    out["created_at"] = _iso(assessment.created_at)
    out["completed_at"] = _iso(assessment.completed_at)
    if extended:
        out["type"] = assessment.type
        if assessment.dimension:
            out["dimension"] = assessment.dimension
        out["window_start"] = _iso(assessment.window_start)
        out["window_end"] = _iso(assessment.window_end)
        out["anomalous"] = bool(assessment.anomalous)
        out["review_state"] = assessment.review_state
        if assessment.error:
            out["error"] = assessment.error
    return out


def _iso(ts: datetime | None) -> str | None:
    from aaaf.scoring.results import iso

    return iso(ts) if ts is not None else None
