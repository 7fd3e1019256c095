"""``aaaf worker`` when its database goes away (issue 14 §7), with real worker processes on a
PostgreSQL database of the test's own:

* its connections terminated again and again, and the database out of reach for longer than
  a heartbeat, while it runs assessments: it reconnects and goes on — every assessment
  completes, once; none fails, no ``assessment.failed`` is emitted (a lost database fails an
  attempt, never the assessment);
* out of reach for longer than ``AAAF_JOBS_DATABASE_OUTAGE_SECONDS``: it exits with status 75
  (EX_TEMPFAIL) for its supervisor, at start and while it runs;
* a dead worker's job is retried by the sweep ahead of a backlog: the sweep runs on a queue of
  its own, not behind the assessments waiting.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select, text

from aaaf.jobs.queue import ProcrastinateQueue, build_app
from aaaf.jobs.runner import EXIT_DATABASE_UNAVAILABLE
from aaaf.services.assessment_jobs import trigger_assessment
from aaaf.store import open_store
from aaaf.store import tables as t
from tests.api.conftest import aaaf_script, start_worker
from tests.jobs.helpers import assessable_agent
from tests.jobs.test_crash_safety import FAST_SWEEP, wait_for
from tests.outages.conftest import OwnDatabase

pytestmark = pytest.mark.postgres


def _trigger(store: Any, count: int, *, prefix: str) -> tuple[Any, list[Any]]:
    now = datetime.now(UTC)
    org = store.scope(store.default_organization().id)
    queue = ProcrastinateQueue(
        build_app(str(store.engine.url.render_as_string(hide_password=False)), lambda: store)
    )
    records = [
        trigger_assessment(org, assessable_agent(org, f"{prefix}-{index}", now=now), queue, now=now)
        for index in range(count)
    ]
    return org, records


def test_a_worker_reconnects_after_its_connections_drop_and_fails_no_assessment(
    own_database: OwnDatabase, tmp_path: Path
) -> None:
    with open_store(own_database.url) as store:
        org, records = _trigger(store, 12, prefix="steady")
        worker = start_worker(
            own_database.url,
            tmp_path,
            env={
                **FAST_SWEEP,
                "AAAF_TEST_JOB_DELAY_S": "0.7",
                "AAAF_JOBS_DATABASE_OUTAGE_SECONDS": "120",
                # one job a run, so the jobs outlast the outage (a batch could take all twelve first)
                "AAAF_JOBS_ASSESSMENTS_AT_ONCE": "1",
            },
        )
        try:
            wait_for(lambda: org.get_assessment(records[1].id).status != "pending", what="the first jobs")
            with own_database.terminating_every(0.5) as rounds:
                time.sleep(3)
            with own_database.down():  # longer than a heartbeat: the queue's side tasks fail
                time.sleep(4)
            with own_database.terminating_every(0.7):
                time.sleep(2)

            def finished() -> list[Any] | None:
                current = [org.get_assessment(r.id) for r in records]
                return None if any(a.status in ("pending", "in_progress") for a in current) else current

            done = wait_for(finished, timeout=240, what=f"every assessment to finish:\n{worker.log()}")
            assert worker.process.poll() is None, worker.log()  # still running: it went on
        finally:
            worker.stop()
        log = worker.log_path.read_text(errors="replace")
        assert sum(rounds) > 0
        # on failure: each failed assessment's reason and the log's error lines (the tail alone
        # showed neither, in a run under load)
        assert [a.status for a in done] == ["completed"] * len(records), (
            [(str(a.id), a.error) for a in done if a.status != "completed"],
            "\n".join(line for line in log.splitlines() if re.search("rror|fail|Traceback|gave up", line))[
                -6000:
            ],
        )
        assert "starting them again on fresh connections" in log
        with store.engine.connect() as connection:
            failed_events = connection.execute(
                select(func.count())
                .select_from(t.webhook_events)
                .where(t.webhook_events.c.type == "assessment.failed")
            ).scalar_one()
            per_assessment = connection.execute(
                select(t.dimension_scores.c.assessment_id, func.count()).group_by(
                    t.dimension_scores.c.assessment_id
                )
            ).all()
            job_states = (
                connection.execute(
                    text("SELECT status::text FROM procrastinate_jobs WHERE task_name = 'aaaf.assess'")
                )
                .scalars()
                .all()
            )
        assert failed_events == 0
        assert {row[0] for row in per_assessment} == {r.id for r in records}
        assert len({row[1] for row in per_assessment}) == 1  # each scored once, the same dimensions
        assert "failed" not in job_states


def test_a_worker_that_cannot_reach_its_database_exits_75(own_database: OwnDatabase, tmp_path: Path) -> None:
    # a pool that gives up on its database after 2 s rather than 10: the worker notices the outage
    # sooner (each of its listener, heartbeat and job status waits that long), the claim is the same
    outage = {"AAAF_JOBS_DATABASE_OUTAGE_SECONDS": "4", "AAAF_JOBS_POOL_TIMEOUT_SECONDS": "2", **FAST_SWEEP}
    worker = start_worker(own_database.url, tmp_path, env=outage)
    try:
        with own_database.down():
            code = worker.process.wait(timeout=90)
            assert code == EXIT_DATABASE_UNAVAILABLE, worker.log()
            # the whole log: the pool's traceback may follow the line past log()'s last 4 000 characters
            assert "exiting with status 75" in worker.log_path.read_text(errors="replace"), worker.log()
            log_path = tmp_path / "worker-at-start.log"
            with log_path.open("wb") as log:
                at_start = subprocess.run(
                    [aaaf_script(), "worker"],
                    env={**os.environ, "AAAF_DATABASE_URL": own_database.url, **outage},
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    timeout=90,
                )
            assert at_start.returncode == EXIT_DATABASE_UNAVAILABLE, log_path.read_text()
            assert "Traceback" not in log_path.read_text()
    finally:
        worker.stop()


def test_the_sweep_retries_a_dead_workers_job_ahead_of_the_backlog(
    own_database: OwnDatabase, tmp_path: Path
) -> None:
    with open_store(own_database.url) as store:
        org, (stuck,) = _trigger(store, 1, prefix="stuck")
        first = start_worker(own_database.url, tmp_path, env={**FAST_SWEEP, "AAAF_TEST_JOB_DELAY_S": "600"})
        second = None
        try:
            wait_for(lambda: org.get_assessment(stuck.id).status == "in_progress", what="the claim")
            _, backlog = _trigger(store, 16, prefix="backlog")
            os.kill(first.process.pid, signal.SIGKILL)
            first.process.wait(timeout=30)
            second = start_worker(  # one assessment a job: the backlog drains one a second
                own_database.url,
                tmp_path,
                env={**FAST_SWEEP, "AAAF_TEST_JOB_DELAY_S": "1", "AAAF_JOBS_ASSESSMENTS_AT_ONCE": "1"},
            )
            wait_for(
                lambda: org.get_assessment(stuck.id).status == "completed",
                timeout=240,
                what=f"the dead worker's assessment:\n{second.log()}",
            )
            waiting = [b for b in backlog if org.get_assessment(b.id).status in ("pending", "in_progress")]
        finally:
            first.stop()
            if second is not None:
                second.stop()
        # the backlog takes 16 s or more; the dead worker's job was retried before it drained
        assert len(waiting) >= 4, f"only {len(waiting)} of the backlog still waited"
        # 1, or more when the kill also caught one of the dead worker's periodic duties or sweeps
        # mid-run (they run on queues of their own beside the stuck assessment)
        assert re.search(r"retried [1-9]\d* stalled job", second.log_path.read_text(errors="replace"))
