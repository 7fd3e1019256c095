"""``assess --all`` in parallel: chunks of agents sized by their events, scored by spawned helper
processes and by this one (issue 10 §7: the cost follows the events, not the number of agents).

The engine is pure, so a helper needs only where the events are and the config.
"""

from __future__ import annotations

import logging
import math
import multiprocessing
import os
import sys
import time
import types
import uuid
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from aaaf.errors import AAAFError
from aaaf.memory import gc_paused, keep_allocations
from aaaf.scoring import aaaf as aaaf_scheme
from aaaf.scoring.evidence_sources import evidence_for, recorded_sources, require_stress_evidence, scheme_type
from aaaf.scoring.records import EventRecord
from aaaf.scoring.results import AAAFResult
from aaaf.scoring.trace import of_result as trace_of
from aaaf.services.assessment_rows import Composites, composites, dimension_rows
from aaaf.services.provenance import AgentRuns, runs_by_agent
from aaaf.store.event_source import EventSource, EventSourceAddress, event_source_address, open_event_source
from aaaf.store.sqlite_events import SqliteEventSource
from aaaf.store.trace_codec import PackedTrace, pack_trace

if TYPE_CHECKING:
    from aaaf.scoring.defaults import AAAFConfig
    from aaaf.store.org_store import OrgStore
    from aaaf.store.records import Agent

log = logging.getLogger(__name__)

# An organization-wide run scores agents in chunks and writes every assessment in one
# transaction.  The work is measured in events, not agents (a fleet of 100 agents × 10 000
# events is as much work as 1 000 × 1 000): chunks hold about CHUNK_EVENTS events (at least
# one agent), and when the fleet holds enough events to repay a worker's start-up (a spawned
# interpreter: about 0.2 s on SQLite, whose workers read through the DB-API and never import
# SQLAlchemy or the main script; about 1.5 s with the store; started when the run is planned,
# so that it overlaps this process's preparations), ``workers - 1`` spawned processes score chunks from
# the front of the queue while this process scores chunks from the back, so no core waits on a
# start-up, and small chunks keep the tail balanced.  The engine is pure, so a worker needs
# only where the events are and the config; it sends back plain values (:class:`ScoredAgent`),
# the event ids already in the form SQLite stores them (:class:`~aaaf.store.trace_codec.PackedTrace`).
CHUNK_EVENTS = 10_000
# chunks left to the helpers per helper when this process turns to writing (all queued for
# them then), at least: more when the write will take longer (:class:`WriteReserve`)
WRITE_RESERVE_CHUNKS = 2
# the write's time per second spent preparing the rows it writes (``keep``): the SQLite write
# of a thousand-agent run (inserts, summaries, webhook events, commit) took 2.2-2.3 times
# their preparation (CPU and wall, measured on a loaded machine)
WRITE_PER_KEEP = 2.0
PARALLEL_MIN_EVENTS = 200_000
SQLITE_READ_TIMEOUT_S = 30.0


class ScoredAgent(NamedTuple):
    """One agent's successful score as ``assess_many`` stores it (everything but calibration)."""

    result: dict[str, Any]
    dimension_rows: list[tuple[str, str, float | None, int, int, dict[str, Any], str | None]]
    evidence_summary: dict[str, Any]
    composites: Composites
    trace: PackedTrace


T = TypeVar("T")
Scored = tuple[uuid.UUID, ScoredAgent | None, dict[str, Any] | None]


def _plain(result: AAAFResult) -> ScoredAgent:
    return ScoredAgent(
        result.to_dict(),
        dimension_rows(result),
        dict(result.evidence_summary),
        composites(result),
        pack_trace(trace_of(result)),
    )


def score_agent(
    loaded: Sequence[EventRecord],
    config: AAAFConfig,
    end: datetime,
    assessment_type: str,
    dimension: str | None,
    stored: AgentRuns,
    label: str,
    window_start: datetime | None = None,
) -> ScoredAgent:
    """One agent's score from its loaded events (the pure engine, then where the scored
    evidence came from, as every path records it); ``stored`` are its stored stress runs,
    which decide what is stress-tested (:mod:`aaaf.scoring.evidence_sources`); ``window_start``
    the recorded window's start (``window_days`` before ``end`` unless given).  Raises the
    engine's :class:`~aaaf.errors.AAAFError` (too little evidence, …)."""
    require_stress_evidence(loaded, assessment_type, label, harness_runs=stored.harness)
    events = evidence_for(loaded, assessment_type, harness_runs=stored.harness)
    result = aaaf_scheme.assess(
        events, config, end, assessment_type=scheme_type(assessment_type), dimension=dimension
    )
    plain = _plain(result)
    plain.result["evidence_sources"] = recorded_sources(
        events,
        window_start or end - timedelta(days=config.window_days),
        end,
        result=result,
        harness_runs=stored.harness,
        imported_runs=stored.imported,
    )
    return plain


def _score_loaded(
    events_by_agent: Mapping[Any, Sequence[EventRecord]],
    agent_ids: Sequence[uuid.UUID],
    config: AAAFConfig,
    end: datetime,
    assessment_type: str,
    dimension: str | None,
    runs: Mapping[Any, AgentRuns],
) -> list[Scored]:
    """Score each agent; ``runs`` are the agents' stored stress runs (absent: none)."""
    scored: list[Scored] = []
    with one_blas_thread(config.uncertainty_resamples > 0):
        for agent_id in agent_ids:
            try:
                plain = score_agent(
                    events_by_agent.get(agent_id, []),
                    config,
                    end,
                    assessment_type,
                    dimension,
                    runs.get(agent_id) or AgentRuns(),
                    str(agent_id),
                )
                scored.append((agent_id, plain, None))
            except AAAFError as error:
                scored.append((agent_id, None, error.to_dict()["error"]))
    return scored


@contextmanager
def one_blas_thread(bootstrap: bool = True) -> Iterator[None]:
    """One BLAS thread while scoring: the SCORING.md §2.5 bootstrap's products are small
    (B × tasks), and a threaded BLAS spends more on its threads than on them — several times
    more on a loaded machine (a 1 000 × 188 by 188 × 6 product: 0.16 ms with one thread,
    28 ms median with two on a loaded two-core machine, measured).  threadpoolctl limits only
    libraries already loaded, and the engine imports NumPy on its first bootstrap, so with
    ``bootstrap`` (the scoring will resample) NumPy is imported first; without, NumPy is not
    needed and not imported.  With ``bootstrap`` the C allocator also keeps the bootstrap's
    large temporaries for reuse (:func:`aaaf.memory.keep_allocations`)."""
    from threadpoolctl import threadpool_limits

    if bootstrap:
        import numpy  # noqa: F401  (loads the BLAS that the limit below applies to)

        keep_allocations()

    with threadpool_limits(limits=1, user_api="blas"):
        yield


# a worker process's event source, opened on its first chunk and kept for the next ones
_WORKER_SOURCES: dict[tuple[EventSourceAddress, uuid.UUID], EventSource] = {}


def _load_in_worker(
    source: EventSourceAddress, organization_id: uuid.UUID, agent_ids: list[uuid.UUID]
) -> dict[uuid.UUID, list[EventRecord]]:
    """The chunk's events.  The SQLite path does not re-check organization scoping: the
    dispatching process checked every agent id against the organization first."""
    events = _WORKER_SOURCES.get((source, organization_id))
    if events is None:
        events = _WORKER_SOURCES[(source, organization_id)] = open_event_source(
            source, organization_id, timeout=SQLITE_READ_TIMEOUT_S
        )
    return events.events_for_agents(agent_ids)


def _score_chunk_in_worker(
    source: EventSourceAddress,
    organization_id: uuid.UUID,
    agent_ids: list[uuid.UUID],
    config: AAAFConfig,
    end: datetime,
    assessment_type: str,
    dimension: str | None,
    runs: Mapping[Any, AgentRuns],
) -> list[Scored]:
    """Runs in a worker process: its own connection, the pure engine, plain results back."""
    with gc_paused():
        events = _load_in_worker(source, organization_id, agent_ids)
        return _score_loaded(events, agent_ids, config, end, assessment_type, dimension, runs)


def plan_chunks(ids: Sequence[uuid.UUID], counts: Mapping[uuid.UUID, int]) -> list[list[uuid.UUID]]:
    """Consecutive runs of ``ids`` holding about ``CHUNK_EVENTS`` events each (at least one
    agent a chunk; an agent is never split)."""
    chunks: list[list[uuid.UUID]] = []
    current: list[uuid.UUID] = []
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


def _helper_ready() -> None:
    """A helper's first task: unpickling it imports this module (the engine with it), so that
    the helper is ready before the first chunk comes."""


@contextmanager
def _main_module_hidden() -> Iterator[None]:
    """Helpers spawned in this block do not run the main script again.

    A spawned process imports the parent's ``__main__`` (its file or module) before its first
    task, so that what the parent pickled by reference to it can be found; the helpers' tasks
    and their arguments are all :mod:`aaaf` names, and the main script (the ``aaaf`` command,
    a benchmark's script, a user's program importing SQLAlchemy and the whole store) was most
    of a helper's start-up.  Without ``__file__`` or ``__spec__`` on ``__main__``,
    :mod:`multiprocessing` leaves it out (tests/perf/test_assess_parallel.py)."""
    # for the length of a submit (which starts the process): the ``__main__`` other threads of
    # this process would see meanwhile is an empty module
    main = sys.modules.get("__main__")
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        if main is None:
            del sys.modules["__main__"]
        else:
            sys.modules["__main__"] = main


def _start_helpers(helpers: int) -> ProcessPoolExecutor:
    """``helpers`` spawned processes, started now (each with its first, empty task) so that
    their start-up overlaps this process's own preparations."""
    pool = ProcessPoolExecutor(max_workers=helpers, mp_context=multiprocessing.get_context("spawn"))
    for _ in range(helpers):  # a submit starts a process while none is idle, up to ``helpers``
        _submit(pool, _helper_ready)
    return pool


def _submit(pool: ProcessPoolExecutor, task: Callable[..., T], *args: object) -> Future[T]:
    """``pool.submit``, the main script hidden from any helper it starts (a submit starts one
    when none is idle and fewer than the pool's size run: a helper whose first task ended
    before the next submit leaves the next process to start with a later one)."""
    with _main_module_hidden():
        return pool.submit(task, *args)


class FleetScoring:
    """An organization-wide run's chunks and, when the fleet holds enough events, its helper
    processes, started when the run is planned (before the caller's own preparations: reading
    the previous assessments, opening the write) rather than when the first chunk is ready."""

    def __init__(self, org: OrgStore, agents: Sequence[Agent], workers: int | None) -> None:
        ids = [agent.id for agent in agents]
        counts = org.event_counts(ids)
        self._org = org
        self._chunks = deque(plan_chunks(ids, counts))
        self.workers = (
            _workers_for(org, sum(counts.values()), len(self._chunks)) if workers is None else workers
        )
        self._pool = _start_helpers(self.workers - 1) if self.workers > 1 and self._chunks else None

    def score(
        self,
        config: AAAFConfig,
        end: datetime,
        assessment_type: str,
        dimension: str | None,
        keep: Callable[[list[Scored]], None],
        drained: Callable[[], None] = lambda: None,
    ) -> None:
        """Score every agent, handing each chunk's scores to ``keep`` as soon as they are known
        (so that the caller's own work on them overlaps the helpers' scoring).  ``drained`` is
        called once, when helpers still score but this process has no chunk left: the caller's
        work that needs no more scores (opening the write) can overlap theirs too."""
        org, chunks = self._org, self._chunks
        runs = runs_by_agent(org)  # one query: which stored stress runs vouch for stress evidence
        source = event_source_address(org)
        # this process reads a SQLite file through the DB-API too (every agent was checked
        # against the organization before scoring): no pool checkout and scoping query per chunk
        local = SqliteEventSource(source[1], timeout=SQLITE_READ_TIMEOUT_S) if source[0] == "sqlite" else None
        events_of: EventSource = local if local is not None else org

        def score_here(chunk: list[uuid.UUID]) -> list[Scored]:
            with gc_paused():
                events = events_of.events_for_agents(chunk)
                return _score_loaded(events, chunk, config, end, assessment_type, dimension, runs)

        try:
            if self._pool is None:
                while chunks:
                    keep(score_here(chunks.popleft()))
            else:
                _score_with_helpers(
                    self._pool,
                    org.organization_id,
                    chunks,
                    self.workers - 1,
                    source,
                    config,
                    end,
                    assessment_type,
                    dimension,
                    runs,
                    score_here,
                    keep,
                    drained,
                )
        finally:
            if local is not None:
                local.close()

    def close(self) -> None:
        """Stop the helpers (chunks not yet started are dropped: after an error)."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            pool.shutdown(wait=True, cancel_futures=True)


@contextmanager
def fleet_scoring(org: OrgStore, agents: Sequence[Agent], workers: int | None) -> Iterator[FleetScoring]:
    """Plan a run of ``agents`` (``workers`` processes, or as many as its events repay) and start
    its helpers; they are stopped when the block ends."""
    scoring = FleetScoring(org, agents, workers)
    try:
        yield scoring
    finally:
        scoring.close()


def score_all(
    org: OrgStore,
    agents: list[Agent],
    config: AAAFConfig,
    end: datetime,
    assessment_type: str,
    dimension: str | None,
    workers: int | None,
    keep: Callable[[list[Scored]], None],
    drained: Callable[[], None] = lambda: None,
) -> None:
    """Plan and score a run at once (:class:`FleetScoring`)."""
    with fleet_scoring(org, agents, workers) as scoring:
        scoring.score(config, end, assessment_type, dimension, keep, drained)


class WriteReserve:
    """How many chunks this process leaves to the helpers when it turns to writing.

    The helpers should be busy exactly as long as the write: with too few chunks left they
    idle while this process writes (two a helper left a thousand-agent run's helper idle for
    most of the write, and this process, which also prepares every chunk's rows, did 20-25 %
    more CPU work than it), with too many this process waits on them.  The write's time is
    estimated as :data:`WRITE_PER_KEEP` times the time spent preparing rows so far, a
    helper's chunk as long as one scored here; at least :data:`WRITE_RESERVE_CHUNKS` a
    helper."""

    def __init__(self, helpers: int) -> None:
        self.helpers = helpers
        self.scored = 0  # chunks scored here
        self.scoring = 0.0  # seconds reading and scoring them
        self.keeping = 0.0  # seconds in ``keep`` (every chunk's, the helpers' too)

    def chunks(self) -> int:
        least = WRITE_RESERVE_CHUNKS * self.helpers
        if self.scored == 0 or self.scoring <= 0.0:
            return least
        chunk_s = self.scoring / self.scored
        return max(least, math.ceil(self.helpers * WRITE_PER_KEEP * self.keeping / chunk_s))


def _score_with_helpers(
    pool: ProcessPoolExecutor,
    organization_id: uuid.UUID,
    chunks: deque[list[uuid.UUID]],
    helpers: int,
    source: EventSourceAddress,
    config: AAAFConfig,
    end: datetime,
    assessment_type: str,
    dimension: str | None,
    runs: Mapping[Any, AgentRuns],
    score_here: Callable[[list[uuid.UUID]], list[Scored]],
    keep: Callable[[list[Scored]], None],
    drained: Callable[[], None],
) -> None:
    """The ``helpers`` processes of ``pool`` take chunks from the front, this process from the
    back until :class:`WriteReserve` says the rest is the helpers' while it writes."""
    here = 0
    left = 0
    waited = 0.0
    drained_yet = False
    in_flight: set[Future[list[Scored]]] = set()
    reserve = WriteReserve(helpers)

    def kept(scored: list[Scored]) -> None:
        started = time.perf_counter()
        keep(scored)
        reserve.keeping += time.perf_counter() - started

    def hand_out(chunk: list[uuid.UUID]) -> None:
        in_flight.add(
            _submit(
                pool,
                _score_chunk_in_worker,
                source,
                organization_id,
                chunk,
                config,
                end,
                assessment_type,
                dimension,
                {agent_id: runs[agent_id] for agent_id in chunk if agent_id in runs},
            )
        )

    while chunks or in_flight:
        # each helper has a chunk running and one queued; this process takes the rest
        while chunks and len(in_flight) < 2 * helpers:
            hand_out(chunks.popleft())
        if len(chunks) > reserve.chunks():
            started = time.perf_counter()
            scored = score_here(chunks.pop())
            reserve.scoring += time.perf_counter() - started
            kept(scored)
            reserve.scored += 1
            here += 1
            finished = {future for future in in_flight if future.done()}
        else:
            if not drained_yet:
                drained_yet = True
                left = len(chunks) + len(in_flight)
                # the reserve is queued for the helpers before this process writes: held back
                # until the write's first part was done, it left them idle meanwhile
                while chunks:
                    hand_out(chunks.popleft())
                drained()
            started = time.perf_counter()
            finished, _ = wait(in_flight, return_when=FIRST_COMPLETED)
            waited += time.perf_counter() - started
        for future in finished:
            kept(future.result())
        in_flight -= finished
    log.debug(
        "assess: %d chunks of ~%d events scored here (then %.2f s waiting on the helpers), the rest by %d helper(s)"
        " (%d of them left to them for the write)",
        here,
        CHUNK_EVENTS,
        waited,
        helpers,
        left,
    )
