"""``assess --all`` in parallel: chunks of agents sized by their events, scored by spawned helper
processes and by this one (issue 10 §7: the cost follows the events, not the number of agents).

The engine is pure, so a helper needs only where the events are and the config.
"""

from __future__ import annotations

import gc
import logging
import multiprocessing
import os
import sqlite3
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple

from aaaf.errors import AAAFError
from aaaf.scoring import aaaf as aaaf_scheme
from aaaf.scoring.records import EventRecord
from aaaf.scoring.results import AAAFResult
from aaaf.scoring.trace import DimensionEvidence
from aaaf.scoring.trace import of_result as trace_of
from aaaf.services.assessment_rows import composites, dimension_rows
from aaaf.sqlite_events import read_sqlite_events

if TYPE_CHECKING:
    from aaaf.store.org_store import OrgStore

log = logging.getLogger(__name__)

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


def _event_source(org: OrgStore) -> tuple[str, str]:
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


def _workers_for(org: OrgStore, events: int, chunks: int) -> int:
    url = str(org.engine.url)
    if events < PARALLEL_MIN_EVENTS or ":memory:" in url or url in ("sqlite://", "sqlite:///"):
        return 1
    return max(1, min(os.cpu_count() or 1, chunks))


def _score_all(
    org: OrgStore,
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
    org: OrgStore,
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
