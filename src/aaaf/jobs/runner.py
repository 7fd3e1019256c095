"""Choosing the queue of a process (issue 14): what ``aaaf serve`` and ``aaaf worker`` start.

* :func:`queue_for_server` — PostgreSQL: the procrastinate queue, used by the server only to
  defer (its workers are ``aaaf worker`` processes); SQLite: the in-process runner, started.
* :func:`run_worker` — ``aaaf worker``: a procrastinate worker with ``concurrency`` jobs at
  a time, its heartbeat every ``AAAF_JOBS_HEARTBEAT_SECONDS``, until SIGINT/SIGTERM; beside it
  (unless ``stress_runs`` is off) a second worker on the stress queue taking one stress run at
  a time — a queue of its own so that a long run never holds the assessments, one at a time
  because inspect_ai runs one evaluation per process; and a third on the sweep's queue; while
  they run, the process holds its presence (:mod:`aaaf.jobs.presence`: one lock per job slot
  on a connection of its own, for a job run to take its share of a fleet).  When
  the database goes away the workers start again on fresh connections (backoff up to 10 s);
  out of reach for ``AAAF_JOBS_DATABASE_OUTAGE_SECONDS`` (or at start) the process exits with
  status 75 (:data:`EXIT_DATABASE_UNAVAILABLE`) for its supervisor to restart it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import AsyncIterator
from typing import Any

from aaaf.errors import AAAFError
from aaaf.jobs import warm
from aaaf.settings import get_settings

log = logging.getLogger(__name__)

STRESS_POLL_SECONDS = 2.0
"""How often a worker's stress queue is polled: a run lasts minutes, a connection held for
LISTEN by every worker process is the scarcer resource."""


def database_url_of(store: Any) -> str:
    """The store's URL with its password (``Store.url`` hides it)."""
    return str(store.engine.url.render_as_string(hide_password=False))


def is_postgresql(store: Any) -> bool:
    return bool(store.engine.dialect.name == "postgresql")


class ServerQueue:
    """The job queue of one server process and how to stop it."""

    def __init__(self, queue: Any, stop: Any = None) -> None:
        self.queue = queue
        self._stop = stop

    def close(self) -> None:
        if self._stop is not None:
            self._stop()


def queue_for_server(store: Any) -> ServerQueue:
    """The job queue the server defers to (module docstring)."""
    if is_postgresql(store):
        from aaaf.jobs.queue import ProcrastinateQueue, build_app

        return ServerQueue(ProcrastinateQueue(build_app(database_url_of(store), lambda: store)))
    from aaaf.jobs.inprocess import InProcessQueue

    runner = InProcessQueue(store)
    runner.start()
    return ServerQueue(runner, runner.stop)


def run_worker(database_url: str | None, *, concurrency: int = 1, stress_runs: bool = True) -> None:
    """Run one worker process until it is told to stop (SIGINT/SIGTERM: it finishes its jobs)."""
    from aaaf.services.issuer import secret_box
    from aaaf.store import open_store
    from aaaf.store.availability import database_unavailable

    try:
        store = open_store(database_url)
    except Exception as error:
        if database_unavailable(error):
            _exit_unavailable(
                str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            )
        raise
    try:
        if not is_postgresql(store):
            raise AAAFError(
                "INVALID_REQUEST",
                "aaaf worker needs a PostgreSQL database (AAAF_DATABASE_URL or --db); with SQLite "
                "`aaaf serve` runs the jobs itself.",
                {"field": "database_url"},
            )
        secret_box(store)  # SCORING.md §7: a worker signs badges with the one issuer key
        warm.warm_up()  # before it registers: its first job pays no start-up (aaaf.jobs.warm)
        asyncio.run(_work(store, concurrency, stress_runs))
    except DatabaseOutage as outage:
        _exit_unavailable(str(outage))
    except Exception as error:
        if database_unavailable(error):
            _exit_unavailable(
                str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            )
        raise
    finally:
        store.close()


def _exit_unavailable(reason: str) -> None:
    log.error(
        "aaaf worker: cannot reach the database, exiting with status %d: %s",
        EXIT_DATABASE_UNAVAILABLE,
        reason,
    )
    raise SystemExit(EXIT_DATABASE_UNAVAILABLE)


EXIT_DATABASE_UNAVAILABLE = 75
"""``aaaf worker``'s exit status when its database stayed out of reach for
``AAAF_JOBS_DATABASE_OUTAGE_SECONDS`` (EX_TEMPFAIL of sysexits.h: a supervisor restarts it)."""

SWEEP_POLL_SECONDS = 1.0
PERIODIC_POLL_SECONDS = 2.0
"""The periodic duties run each minute at the finest: polled, like the stress queue."""
RECONNECT_FIRST_SECONDS = 0.5
RECONNECT_MAX_SECONDS = 10.0


class DatabaseOutage(Exception):
    """The worker's database stayed out of reach for ``AAAF_JOBS_DATABASE_OUTAGE_SECONDS``."""


async def _work(store: Any, concurrency: int, stress_runs: bool) -> None:
    """Run the procrastinate workers until SIGINT/SIGTERM; when the database goes away (a
    side task of procrastinate's fails, or opening fails) start them again on fresh
    connections, with backoff, for at most ``jobs_database_outage_seconds`` of outage
    (docs/jobs.md "When the database goes away")."""
    import signal

    from aaaf.store.availability import database_unavailable

    settings = get_settings()
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    outage_since: float | None = None
    wait = RECONNECT_FIRST_SECONDS
    try:
        while not stop.is_set():
            life: dict[str, float] = {}
            try:
                await asyncio.to_thread(_probe, store)  # fails at once while the database refuses
                await _run_workers(store, concurrency, stress_runs, stop, life)
            except Exception as error:
                if not database_unavailable(error):
                    raise
                log.warning("database unavailable: %s: %s", type(error).__name__, str(error).strip()[:300])
            if stop.is_set():
                break
            now = loop.time()
            healthy = now - life.get("opened_at", now) > 3 * settings.jobs_heartbeat_seconds
            if outage_since is None or healthy:  # a new outage, after a good while of work
                outage_since, wait = now, RECONNECT_FIRST_SECONDS
            if now - outage_since > settings.jobs_database_outage_seconds:
                raise DatabaseOutage(
                    f"the database stayed out of reach for {now - outage_since:.0f} s "
                    f"(AAAF_JOBS_DATABASE_OUTAGE_SECONDS={settings.jobs_database_outage_seconds:g})"
                )
            log.warning("workers stopped; starting them again on fresh connections in %.1f s", wait)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=wait)
            wait = min(wait * 2, RECONNECT_MAX_SECONDS)
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)


def _probe(store: Any) -> None:
    from sqlalchemy import text

    with store.engine.connect() as connection:
        connection.execute(text("SELECT 1"))


async def _run_workers(
    store: Any, concurrency: int, stress_runs: bool, stop: asyncio.Event, life: dict[str, float]
) -> None:
    """One life of the procrastinate workers on one connection pool: until ``stop`` is set
    or a worker ends (procrastinate stops a worker whose heartbeat or listener failed);
    ``life["opened_at"]`` records when its pool opened."""
    from procrastinate.worker import FETCH_JOB_POLLING_INTERVAL

    from aaaf.jobs.blueprint import PERIODIC_QUEUE, QUEUE, STRESS_QUEUE, SWEEP_QUEUE
    from aaaf.jobs.queue import build_app

    settings = get_settings()
    app = build_app(database_url_of(store), lambda: store)
    name = f"aaaf-worker-{socket.gethostname()}-{os.getpid()}"

    def worker(queue: str, worker_name: str, jobs_at_once: int, *, poll: float | None) -> asyncio.Task[None]:
        return asyncio.create_task(
            app.run_worker_async(
                queues=[queue],
                name=worker_name,
                concurrency=jobs_at_once,
                update_heartbeat_interval=settings.jobs_heartbeat_seconds,
                stalled_worker_timeout=settings.jobs_stalled_after_seconds,
                install_signal_handlers=False,  # one handler stops every worker
                listen_notify=poll is None,
                fetch_job_polling_interval=FETCH_JOB_POLLING_INTERVAL if poll is None else poll,
            )
        )

    async with app.open_async(), _present(database_url_of(store), concurrency):
        life["opened_at"] = asyncio.get_running_loop().time()
        log.info(
            "worker on %s, %d job(s) at a time%s",
            store.url,
            concurrency,
            ", and one stress run" if stress_runs else " (no stress runs)",
        )
        workers = [
            worker(QUEUE, name, concurrency, poll=None),
            # the sweep on a queue of its own: never behind a backlog of assessments
            worker(SWEEP_QUEUE, f"{name}-sweep", 1, poll=SWEEP_POLL_SECONDS),
            # the periodic duties on another: the minute's duties, deferred as a worker starts,
            # ran before a waiting fleet's assessments on theirs (0.6-7 s under load)
            worker(PERIODIC_QUEUE, f"{name}-periodic", 1, poll=PERIODIC_POLL_SECONDS),
        ]
        if stress_runs:  # polls instead of holding a LISTEN connection of its own
            workers.append(worker(STRESS_QUEUE, f"{name}-stress", 1, poll=STRESS_POLL_SECONDS))
        await _until_stopped(workers, stop)


@contextlib.asynccontextmanager
async def _present(database_url: str, slots: int) -> AsyncIterator[None]:
    """This process's ``slots`` presence locks, held on a connection of its own while in the
    block (:mod:`aaaf.jobs.presence`); closed after it — whatever became of it meanwhile — they
    are released."""
    import psycopg

    from aaaf.jobs.presence import HOLD
    from aaaf.jobs.queue import conninfo

    connection = await psycopg.AsyncConnection.connect(conninfo(database_url), autocommit=True)
    try:
        await connection.execute(HOLD, {"slots": slots})
        yield
    finally:
        await connection.close()


async def _until_stopped(workers: list[asyncio.Task[None]], stop: asyncio.Event) -> None:
    """Wait for ``stop`` (SIGINT/SIGTERM) or a worker that ends, then stop every worker; each
    finishes the jobs it is running (procrastinate's graceful stop on cancellation).  A worker
    that ended while not asked to stop raises what ended it (or a lost-connection error)."""
    stopped = asyncio.create_task(stop.wait())
    try:
        await asyncio.wait([stopped, *workers], return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopped.cancel()
        for worker in workers:
            worker.cancel()
        results = await asyncio.gather(*workers, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException) and not isinstance(result, asyncio.CancelledError):
            raise result
    if not stop.is_set():
        raise ConnectionError("a worker stopped on its own (its heartbeat or listener lost the database)")
