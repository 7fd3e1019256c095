"""Crash safety on PostgreSQL with real processes (issue 14 §3).

* A worker killed with SIGKILL mid-assessment (the test-only ``AAAF_TEST_JOB_DELAY_S`` holds
  it between claiming and scoring) loses nothing: another worker's sweep finds the job of a
  worker that stopped beating, runs it again, and the result is stored once.
* A server killed mid-trigger leaves, for every agent, either no assessment or one that a
  worker completes: the assessment and its job are committed together.
* An assessment left ``pending`` whose job was lost is queued again by a running worker's
  sweep (on the sweep's own connection, inside the worker's open queue) and completes.
"""

from __future__ import annotations

import os
import re
import signal
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select, text

from aaaf.jobs.queue import ProcrastinateQueue, build_app
from aaaf.services.assessment_jobs import trigger_assessment
from aaaf.store import open_store
from aaaf.store import tables as t
from tests.api.conftest import LiveServer, agent_evidence, start_server, start_worker
from tests.jobs.helpers import RecordingQueue, assessable_agent

# a dead worker is noticed within seconds, not the production half-minute
FAST_SWEEP = {
    "AAAF_JOBS_HEARTBEAT_SECONDS": "0.5",
    "AAAF_JOBS_STALLED_AFTER_SECONDS": "3",
    "AAAF_JOBS_SWEEP_SECONDS": "1",
}


def wait_for(check: Callable[[], Any], *, timeout: float = 180.0, what: str = "") -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)


def _kill(process: Any) -> None:
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=30)


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_a_worker_killed_mid_assessment_loses_nothing(store_url: str, tmp_path: Path) -> None:
    now = datetime.now(UTC)
    with open_store(store_url) as store:
        org = store.scope(store.default_organization().id)
        agent = assessable_agent(org, "coder", now=now)
        record = trigger_assessment(
            org, agent, ProcrastinateQueue(build_app(store_url, lambda: store)), now=now
        )
        first = start_worker(store_url, tmp_path, env={**FAST_SWEEP, "AAAF_TEST_JOB_DELAY_S": "600"})
        second = None
        try:
            wait_for(lambda: org.get_assessment(record.id).status == "in_progress", what="the claim")
            _kill(first.process)
            assert org.get_assessment(record.id).status == "in_progress"
            second = start_worker(store_url, tmp_path, env=FAST_SWEEP)
            done = wait_for(
                lambda: (a := org.get_assessment(record.id)).status == "completed" and a,
                what=f"the assessment to complete:\n{second.log() if second else ''}",
            )
            wait_for(lambda: org.badge_credentials(record.id), what="the badge")
        finally:
            first.stop()
            if second is not None:
                second.stop()
        with store.engine.connect() as connection:
            rows = connection.execute(
                select(func.count())
                .select_from(t.dimension_scores)
                .where(t.dimension_scores.c.assessment_id == record.id)
            ).scalar_one()
            attempts = connection.execute(
                text("SELECT status::text, attempts FROM procrastinate_jobs WHERE task_name = 'aaaf.assess'")
            ).all()
        assert rows == len(done.dimensions) > 0  # stored once
        assert len(org.badge_credentials(record.id)) == 1
        # one job, put back once by a sweep (+1) and finished (+1)
        assert attempts == [("succeeded", 2)]
        # the whole log: its last 4000 characters may hold only the sweeps that ran since; the
        # count may be 2 when the kill also caught one of the dead worker's own sweeps mid-run
        assert re.search(r"retried [1-9]\d* stalled job", second.log_path.read_text(errors="replace"))


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_a_server_killed_mid_trigger_leaves_nothing_half_done(store_url: str, tmp_path: Path) -> None:
    server = start_server(store_url, tmp_path)
    live = LiveServer(server, "postgresql", store_url)
    worker = None
    try:
        org = live.organization(minimum_tasks_performance=6, minimum_tasks_capability=6)
        agents = []
        for index in range(12):
            agent = org.client.post("/api/v1/agents", json={"name": f"agent-{index}"}).json()
            org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 6)})
            agents.append(agent["id"])
        accepted: list[str] = []
        first_answer = threading.Event()
        barrier = threading.Barrier(len(agents))

        def trigger(agent_id: str) -> None:
            barrier.wait()
            try:
                with httpx.Client(base_url=server.base_url, headers=org.client.headers, timeout=30) as client:
                    response = client.post("/api/v1/assessments", json={"agent_id": agent_id})
                if response.status_code == 202:
                    accepted.append(response.json()["id"])
                    first_answer.set()
            except httpx.TransportError:
                pass  # the server died under this request

        threads = [threading.Thread(target=trigger, args=(agent_id,)) for agent_id in agents]
        for thread in threads:
            thread.start()
        assert first_answer.wait(120), server.log()
        _kill(server.process)
        for thread in threads:
            thread.join(60)
        worker = start_worker(store_url, tmp_path, env=FAST_SWEEP)
        with open_store(store_url) as store:
            scoped = store.scope(org.id)

            def all_finished() -> list[Any] | None:
                records = scoped.assessments()
                return None if any(r.status in ("pending", "in_progress") for r in records) else records

            records = wait_for(all_finished, what=f"every recorded assessment to finish:\n{worker.log()}")
            with store.engine.connect() as connection:
                jobs = connection.execute(
                    text("SELECT count(*) FROM procrastinate_jobs WHERE task_name = 'aaaf.assess'")
                ).scalar_one()
        assert set(accepted) <= {str(r.id) for r in records}  # every 202 was recorded...
        assert all(r.status == "completed" for r in records)  # ...and every record completed
        assert jobs == len(records)  # one job per assessment, none without
        assert len({r.agent_id for r in records}) == len(records)
    finally:
        live.close()
        server.stop()
        if worker is not None:
            worker.stop()


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_a_worker_sweep_queues_a_pending_assessment_whose_job_was_lost(
    store_url: str, tmp_path: Path
) -> None:
    now = datetime.now(UTC)
    with open_store(store_url) as store:
        org = store.scope(store.default_organization().id)
        agent = assessable_agent(org, "coder", now=now)
        lost = RecordingQueue()  # records the assessment pending, queues no job: the job is lost
        record = trigger_assessment(org, agent, lost, now=now)
        assert lost.assessments == [record.id]
        worker = start_worker(store_url, tmp_path, env={**FAST_SWEEP, "AAAF_JOBS_REQUEUE_AFTER_SECONDS": "1"})
        try:
            wait_for(
                lambda: org.get_assessment(record.id).status == "completed",
                timeout=60,
                what=f"the assessment to complete:\n{worker.log()}",
            )
            wait_for(lambda: org.badge_credentials(record.id), timeout=60, what=f"the badge:\n{worker.log()}")
        finally:
            worker.stop()
        with store.engine.connect() as connection:
            jobs = (
                connection.execute(
                    text("SELECT status::text FROM procrastinate_jobs WHERE task_name = 'aaaf.assess'")
                )
                .scalars()
                .all()
            )
        # the whole log: its last characters may hold only the sweeps that ran since (every second)
        log = worker.log_path.read_text(errors="replace")
        assert jobs == ["succeeded"]  # the one job the sweep queued
        assert f"queued 1 pending assessment(s) again: {record.id}" in log
        assert "Traceback" not in log, log
