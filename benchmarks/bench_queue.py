"""Assessments per second through the job queue (issue 14 §6), beside ``aaaf assess --all``.

On PostgreSQL (``AAAF_BENCH_POSTGRES_URL``, default the local test server; a schema of its
own, dropped afterwards): a synthetic fleet (smaller than the main bench, to stay bounded) is
collected, then

* baseline — ``assess_all`` in this process, the same data (``aaaf assess --all``), timed on
  its second run: the first warms this process as the workers are warmed before they are timed
  (cold, it spent its first run's imports and first calls in the floor: 0.88-0.94 standalone
  against 0.71-0.76 inside ``benchmarks/run.py``, whose earlier phases had warmed it), and
  leaves each agent the one earlier assessment the queue's run also finds;
* queue — the fleet triggered at once (``trigger_assessments``: every ``pending`` row and its
  job in one transaction), run by
  1, then 2 ``aaaf worker`` processes already started and idle (their start-up periodic
  duties run); timed from the first trigger to the last
  assessment completed, and to the last badge issued.  The badge jobs the assessments queue
  share those workers (after the assessments waiting: they have a lower priority).

Beside the times, the CPU seconds of each side (``*_cpu_s``; the database server's left out):
on a loaded machine the wall-clock ratio is noise, the CPU ratio much less so.  Nothing
asserts on time.  ``python benchmarks/bench_queue.py [--agents N --events-per-agent M]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

POSTGRES_URL = os.environ.get("AAAF_BENCH_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def _schema_url(name: str) -> str:
    from sqlalchemy.engine import make_url

    return (
        make_url(POSTGRES_URL)
        .update_query_dict({"options": f"-csearch_path={name}"})
        .render_as_string(hide_password=False)
    )


def _start_worker(url: str, log_dir: Path) -> subprocess.Popen[bytes]:
    log_path = log_dir / f"worker-{uuid.uuid4().hex[:6]}.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [str(Path(sys.executable).with_name("aaaf")), "worker", "--log-level", "warning"],
            env={**os.environ, "AAAF_DATABASE_URL": url},
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    return process


def _unfinished(store: Any) -> int:
    from sqlalchemy import func, select

    from aaaf.store import tables as t

    with store.engine.connect() as connection:
        return int(
            connection.execute(
                select(func.count())
                .select_from(t.assessments)
                .where(t.assessments.c.status.in_(("pending", "in_progress")))
            ).scalar_one()
        )


def _until_assessed(store: Any, listener: Any) -> None:
    """Wait until no assessment is pending or running, looking each time a job is queued in
    the database — a batch's commit queues its badges, and procrastinate's trigger notifies
    (``LISTEN`` on ``listener``, an autocommit psycopg connection) — and at least every 0.05 s.
    Polled every 0.05 s alone, the last commit is seen 0-50 ms late (25 ms on average): about
    5 % against the queue at the quiet bench's 0.46 s, and nothing against ``assess --all``,
    which returns as it commits."""
    while _unfinished(store):
        for _ in listener.notifies(timeout=0.05, stop_after=1):
            pass


def _badges_waiting(store: Any) -> int:
    from sqlalchemy import text

    with store.engine.connect() as connection:
        return int(
            connection.execute(
                text(
                    "SELECT count(*) FROM procrastinate_jobs"
                    " WHERE task_name = 'aaaf.issue_badge' AND status IN ('todo', 'doing')"
                )
            ).scalar_one()
        )


def _cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) process ``pid`` has used so far (Linux ``/proc``; NaN elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _backends_cpu(store: Any, application_name: str) -> dict[int, float]:
    """CPU seconds each database backend of ``application_name`` (the workers' connections)
    has used so far: the server's side of the workers' work, read in ``/proc`` when the
    server runs on this host (NaN otherwise)."""
    from sqlalchemy import text

    with store.engine.connect() as connection:
        pids = connection.execute(
            text("SELECT pid FROM pg_stat_activity WHERE application_name = :name"),
            {"name": application_name},
        ).scalars()
        return {int(pid): _cpu_seconds(int(pid)) for pid in pids}


def _until_start_up_duties_ran(store: Any, deadline: float) -> None:
    """Wait until the periodic duties a worker defers as it starts have run: in the same
    process as the first assessments, they took 0.05-0.14 s of its CPU (and its interpreter
    lock) beside them — a worker's start, not its throughput."""
    from sqlalchemy import text

    from aaaf.jobs.blueprint import PERIODIC_QUEUE

    while time.monotonic() < deadline:
        with store.engine.connect() as connection:
            waiting, ran = connection.execute(
                text(
                    "SELECT count(*) FILTER (WHERE status IN ('todo', 'doing')),"
                    " count(*) FILTER (WHERE status = 'succeeded')"
                    " FROM procrastinate_jobs WHERE queue_name = :queue"
                ),
                {"queue": PERIODIC_QUEUE},
            ).one()
        if waiting == 0 and ran > 0:
            return
        time.sleep(0.2)


def _through_queue(store: Any, url: str, workers: int, log_dir: Path) -> tuple[float, float, float, float]:
    """Seconds from the first trigger to the last completed assessment with ``workers``
    workers, and to the last badge issued; the CPU seconds of the trigger and of the
    workers until the last assessment completed (a load-independent measure, beside wall time
    on a shared machine); and those of the workers' database backends meanwhile."""
    import psycopg
    from sqlalchemy.engine import make_url

    from aaaf.jobs.blueprint import QUEUE
    from aaaf.jobs.queue import ProcrastinateQueue, build_app, conninfo
    from aaaf.services.assessment_jobs import trigger_assessments

    org = store.scope(store.default_organization().id)
    application_name = f"aaaf_bench_worker_{uuid.uuid4().hex[:8]}"
    worker_url = (
        make_url(url)
        .update_query_dict({"application_name": application_name})
        .render_as_string(hide_password=False)
    )
    processes = [_start_worker(worker_url, log_dir) for _ in range(workers)]
    try:
        time.sleep(0)  # the workers start while the queue is prepared
        queue = ProcrastinateQueue(build_app(url, lambda: store))
        agents = org.agents()
        # wait until every worker registered (its first heartbeat), outside the timing
        from sqlalchemy import text

        deadline = time.monotonic() + 300
        while True:
            with store.engine.connect() as connection:
                alive = connection.execute(text("SELECT count(*) FROM procrastinate_workers")).scalar_one()
            if alive >= workers or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        _until_start_up_duties_ran(store, deadline)
        with psycopg.connect(conninfo(url), autocommit=True) as listener:
            listener.execute(f'LISTEN "procrastinate_queue_v1#{QUEUE}"')
            workers_cpu = sum(_cpu_seconds(process.pid) for process in processes)
            server_cpu = _backends_cpu(store, application_name)
            start, trigger_cpu = time.perf_counter(), time.process_time()
            trigger_assessments(org, agents, queue, now=datetime.now(UTC))
            trigger_cpu = time.process_time() - trigger_cpu
            _until_assessed(store, listener)
            assessed = time.perf_counter() - start
        workers_cpu = sum(_cpu_seconds(process.pid) for process in processes) - workers_cpu
        server_cpu = sum(
            seconds - server_cpu.get(pid, 0.0)
            for pid, seconds in _backends_cpu(store, application_name).items()
        )
        while _badges_waiting(store):
            time.sleep(0.05)
        return assessed, time.perf_counter() - start, trigger_cpu + workers_cpu, server_cpu
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=60)


def run(agents: int = 40, events_per_agent: int = 200) -> dict[str, Any]:
    from sqlalchemy import create_engine, text
    from sqlalchemy.pool import NullPool

    from aaaf.evidence.collectors.task_logs import read_jsonl
    from aaaf.services.assess import assess_all
    from aaaf.services.collect import collect
    from aaaf.store import open_store
    from synthetic import write_fleet

    os.environ.setdefault("AAAF_SECRET_KEY", "YmVuY2gtc2VjcmV0LW9mLXRoZS1hYWFmLWJlbmNoLTMyYnl0ZXMhIQ==")
    name = f"aaaf_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(POSTGRES_URL, poolclass=NullPool)
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{name}"'))
    url = _schema_url(name)
    try:
        with tempfile.TemporaryDirectory(prefix="aaaf-bench-queue-") as tmp:
            work = Path(tmp)
            events = write_fleet(work / "fleet.jsonl", agents, events_per_agent, datetime.now(UTC))
            with open_store(url) as store:
                org = store.scope(store.default_organization().id)
                collect(org, read_jsonl(work / "fleet.jsonl"), now=datetime.now(UTC), enroll=True)
                assess_all(org, now=datetime.now(UTC))  # the warm-up (module docstring)
                start, baseline_cpu = time.perf_counter(), time.process_time()
                outcomes = assess_all(org, now=datetime.now(UTC))
                baseline_s, baseline_cpu = time.perf_counter() - start, time.process_time() - baseline_cpu
                assessed = sum(1 for outcome in outcomes if outcome.assessment is not None)
                one_s, one_badges_s, one_cpu, one_server_cpu = _through_queue(store, url, 1, work)
                two_s, two_badges_s, two_cpu, _ = _through_queue(store, url, 2, work)
    finally:
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{name}" CASCADE'))
        admin.dispose()
    return {
        "database": "postgresql",
        "agents": agents,
        "events": events,
        "agents_assessed": assessed,
        "assess_all_assessments_per_s": round(agents / baseline_s, 2),
        "queue_1_worker_assessments_per_s": round(agents / one_s, 2),
        "queue_2_workers_assessments_per_s": round(agents / two_s, 2),
        "queue_1_worker_vs_assess_all": round(baseline_s / one_s, 3),
        # the same runs until every badge was issued too (badge jobs run after the assessments)
        "queue_1_worker_with_badges_per_s": round(agents / one_badges_s, 2),
        "queue_2_workers_with_badges_per_s": round(agents / two_badges_s, 2),
        "queue_2_workers_vs_1_worker": round(one_s / two_s, 3),
        # CPU seconds (the database server's left out): assess --all's; the trigger's and the
        # workers' until the last assessment completed (the worker's warm-up is before it)
        "assess_all_cpu_s": round(baseline_cpu, 3),
        "queue_1_worker_cpu_s": round(one_cpu, 3),
        "queue_2_workers_cpu_s": round(two_cpu, 3),
        "queue_1_worker_vs_assess_all_cpu": round(baseline_cpu / one_cpu, 3),
        # the database server's CPU seconds for the 1 worker's connections meanwhile (its
        # backends, read in /proc: NaN when the server runs on another host)
        "queue_1_worker_server_cpu_s": round(one_server_cpu, 3),
        "cpus": os.cpu_count() or 1,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--agents", type=int, default=40)
    parser.add_argument("--events-per-agent", type=int, default=200)
    args = parser.parse_args()
    print(json.dumps(run(args.agents, args.events_per_agent), indent=2))


if __name__ == "__main__":
    main()
