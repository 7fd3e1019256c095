"""Round trips to PostgreSQL of the queue path, counted at libpq (not timed): ``assess --all``
of a synthetic fleet, then the fleet triggered and run by a procrastinate worker in this
process (one job at a time), each query sent attributed to what sent it — the trigger, an
assessment job's body, a badge job's body, or procrastinate itself (fetch, finish, heartbeat).

The counts are :mod:`libpq_counts`' (run with ``PSYCOPG_IMPL=python``).
``python benchmarks/count_queue_round_trips.py [--agents N --events-per-agent M] [-v]``
(``-v``: every statement with its count).

Under callgrind, with ``COUNT_QUEUE_CALLGRIND=1`` (and psycopg's C libpq wrapper: no round
trips are counted then), the same run's instructions are dumped in three parts — 1 ``assess
--all``, 2 the trigger, 3 the worker from its start to its first badge job (the assessment
jobs run first: the badge jobs' priority is lower), its heartbeat off::

    COUNT_QUEUE_CALLGRIND=1 PYTHONHASHSEED=0 valgrind --tool=callgrind --instr-atstart=no \\
        --callgrind-out-file=/tmp/queue.out python benchmarks/count_queue_round_trips.py

then ``grep totals /tmp/queue.out.N`` per dump.  The worker's time under callgrind is some
fifty times its own, so its heartbeat would beat a varying number of times: it is off.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import threading
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from callgrind import control
from libpq_counts import patch_libpq, recording, round_trips, statements, texts

POSTGRES_URL = os.environ.get("AAAF_BENCH_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
OTHER = "procrastinate (fetch, finish, heartbeat, ...)"
CALLGRIND = "COUNT_QUEUE_CALLGRIND"

_phase = threading.local()


def _label() -> str:
    return getattr(_phase, "name", None) or OTHER


def _as(phase: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any, **kwargs: Any) -> Any:
        _phase.name = phase
        try:
            return function(*args, **kwargs)
        finally:
            _phase.name = None

    return run


_counting = threading.Event()
"""Set while callgrind counts the worker."""


def _stop_counting(part: str) -> None:
    """Switch callgrind's counting off and dump what it counted as ``part``."""
    _counting.clear()
    control(CALLGRIND, "-i", "off")
    control(CALLGRIND, f"--dump={part}")


def _until_badges(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` (the badge jobs' body), which first ends callgrind's count of the worker."""

    def run(*args: Any, **kwargs: Any) -> Any:
        if _counting.is_set():
            _stop_counting("worker")
        return function(*args, **kwargs)

    return run


def run(agents: int, events_per_agent: int) -> dict[str, dict[str, int]]:
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url
    from sqlalchemy.pool import NullPool

    from aaaf.evidence.collectors.task_logs import read_jsonl
    from aaaf.jobs import tasks, warm
    from aaaf.jobs.blueprint import QUEUE
    from aaaf.jobs.queue import ProcrastinateQueue, build_app
    from aaaf.services.assess import assess_all
    from aaaf.services.assessment_jobs import trigger_assessments
    from aaaf.services.collect import collect
    from aaaf.services.issuer import secret_box
    from aaaf.store import open_store
    from synthetic import write_fleet

    os.environ.setdefault("AAAF_SECRET_KEY", "YmVuY2gtc2VjcmV0LW9mLXRoZS1hYWFmLWJlbmNoLTMyYnl0ZXMhIQ==")
    tasks.assessment_jobs_at_once = _as("assessment job body", tasks.assessment_jobs_at_once)
    tasks.badge_jobs_at_once = _until_badges(_as("badge job body", tasks.badge_jobs_at_once))
    name = f"aaaf_count_{uuid.uuid4().hex[:10]}"
    admin = create_engine(POSTGRES_URL, poolclass=NullPool)
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{name}"'))
    url = make_url(POSTGRES_URL).update_query_dict({"options": f"-csearch_path={name}"})
    address = url.render_as_string(hide_password=False)
    try:
        with tempfile.TemporaryDirectory() as tmp, open_store(address) as store:
            write_fleet(Path(tmp) / "fleet.jsonl", agents, events_per_agent, datetime.now(UTC))
            org = store.scope(store.default_organization().id)
            collect(org, read_jsonl(Path(tmp) / "fleet.jsonl"), now=datetime.now(UTC), enroll=True)
            secret_box(store)
            warm.warm_up()  # as aaaf worker does before it takes jobs
            app = build_app(address, lambda: store)
            recording.set()
            control(CALLGRIND, "-i", "on")
            _as("assess --all", assess_all)(org, now=datetime.now(UTC))
            _stop_counting("assess_all")
            queue = ProcrastinateQueue(app)
            agents_now = org.agents()
            control(CALLGRIND, "-i", "on")
            _as("trigger", trigger_assessments)(org, agents_now, queue, now=datetime.now(UTC))
            _stop_counting("trigger")
            beat = {"update_heartbeat_interval": 3600.0} if os.environ.get(CALLGRIND) else {}

            async def work() -> None:
                async with app.open_async():
                    control(CALLGRIND, "-i", "on")
                    _counting.set()
                    await app.run_worker_async(
                        queues=[QUEUE], concurrency=1, wait=False, install_signal_handlers=False, **beat
                    )

            asyncio.run(work())
            if _counting.is_set():  # no badge job ran
                _stop_counting("worker")
            recording.clear()
    finally:
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{name}" CASCADE'))
        admin.dispose()
    return {
        phase: {"statements": statements[phase], "round_trips": round_trips[phase]} for phase in statements
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--agents", type=int, default=40)
    parser.add_argument("--events-per-agent", type=int, default=200)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    if not os.environ.get(CALLGRIND):
        patch_libpq(_label)
    counts = run(args.agents, args.events_per_agent)
    for phase, count in sorted(counts.items()):
        print(f"{phase}: {count['statements']} statements, {count['round_trips']} round trips")
        if args.verbose:
            for statement, times in texts[phase].most_common():
                print(f"  {times:5d}  {statement}")


if __name__ == "__main__":
    main()
