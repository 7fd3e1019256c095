"""Choosing the queue of a process (issue 14): what ``aaaf serve`` and ``aaaf worker`` start.

* :func:`queue_for_server` — PostgreSQL: the procrastinate queue, used by the server only to
  defer (its workers are ``aaaf worker`` processes); SQLite: the in-process runner, started.
* :func:`run_worker` — ``aaaf worker``: a procrastinate worker with ``concurrency`` jobs at
  a time, its heartbeat every ``AAAF_JOBS_HEARTBEAT_SECONDS``, until SIGINT/SIGTERM; beside it
  (unless ``stress_runs`` is off) a second worker on the stress queue taking one stress run at
  a time — a queue of its own so that a long run never holds the assessments, one at a time
  because inspect_ai runs one evaluation per process.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from typing import Any

from aaaf.errors import AAAFError
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

    store = open_store(database_url)
    try:
        if not is_postgresql(store):
            raise AAAFError(
                "INVALID_REQUEST",
                "aaaf worker needs a PostgreSQL database (AAAF_DATABASE_URL or --db); with SQLite "
                "`aaaf serve` runs the jobs itself.",
                {"field": "database_url"},
            )
        secret_box(store)  # SCORING.md §7: a worker signs badges with the one issuer key
        asyncio.run(_work(store, concurrency, stress_runs))
    finally:
        store.close()


async def _work(store: Any, concurrency: int, stress_runs: bool) -> None:
    from procrastinate.worker import FETCH_JOB_POLLING_INTERVAL

    from aaaf.jobs.queue import QUEUE, STRESS_QUEUE, build_app

    settings = get_settings()
    app = build_app(database_url_of(store), lambda: store)
    name = f"aaaf-worker-{socket.gethostname()}-{os.getpid()}"

    def worker(queue: str, worker_name: str, jobs_at_once: int, *, listen: bool) -> asyncio.Task[None]:
        return asyncio.create_task(
            app.run_worker_async(
                queues=[queue],
                name=worker_name,
                concurrency=jobs_at_once,
                update_heartbeat_interval=settings.jobs_heartbeat_seconds,
                stalled_worker_timeout=settings.jobs_stalled_after_seconds,
                install_signal_handlers=False,  # one handler stops both workers
                listen_notify=listen,
                fetch_job_polling_interval=FETCH_JOB_POLLING_INTERVAL if listen else STRESS_POLL_SECONDS,
            )
        )

    async with app.open_async():
        log.info(
            "worker on %s, %d job(s) at a time%s",
            store.url,
            concurrency,
            ", and one stress run" if stress_runs else " (no stress runs)",
        )
        workers = [worker(QUEUE, name, concurrency, listen=True)]
        if stress_runs:  # polls instead of holding a LISTEN connection of its own
            workers.append(worker(STRESS_QUEUE, f"{name}-stress", 1, listen=False))
        await _until_stopped(workers)


async def _until_stopped(workers: list[asyncio.Task[None]]) -> None:
    """Wait for SIGINT/SIGTERM (or a worker that ends), then stop every worker; each finishes
    the jobs it is running (procrastinate's graceful stop on cancellation)."""
    import signal

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    stopped = asyncio.create_task(stop.wait())
    try:
        await asyncio.wait([stopped, *workers], return_when=asyncio.FIRST_COMPLETED)
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
        stopped.cancel()
        for worker in workers:
            worker.cancel()
        results = await asyncio.gather(*workers, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException) and not isinstance(result, asyncio.CancelledError):
            raise result
