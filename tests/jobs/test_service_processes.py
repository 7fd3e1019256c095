"""The service with its jobs, as real processes on loopback (issue 14 §2, §1):

* concurrent triggers for one agent over HTTP: exactly one 202, the rest 409
  ``ASSESSMENT_IN_PROGRESS`` (the test-only ``AAAF_TEST_JOB_DELAY_S`` keeps the first one
  running on SQLite; on PostgreSQL no worker runs, so it stays pending) — both databases;
* SQLite: ``aaaf serve`` runs the jobs itself, and a restarted server completes the pending
  assessments a stopped one left behind.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest

from aaaf.store import open_store
from tests.api.conftest import LiveServer, agent_evidence, start_server
from tests.jobs.helpers import RecordingQueue, assessable_agent
from tests.jobs.test_crash_safety import wait_for


def test_concurrent_triggers_over_http_make_exactly_one(
    store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AAAF_TEST_JOB_DELAY_S", "60")  # the server's job thread (SQLite)
    server = start_server(store_url, tmp_path)
    live = LiveServer(server, "sqlite" if store_url.startswith("sqlite") else "postgresql", store_url)
    try:
        org = live.organization(minimum_tasks_performance=6, minimum_tasks_capability=6)
        agent = org.client.post("/api/v1/agents", json={"name": "contested"}).json()
        org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 6)})
        barrier = threading.Barrier(8)
        answers: list[tuple[int, str | None]] = []

        def trigger() -> None:
            barrier.wait()
            with httpx.Client(base_url=server.base_url, headers=org.client.headers, timeout=60) as client:
                response = client.post("/api/v1/assessments", json={"agent_id": agent["id"]})
            code = None if response.status_code == 202 else response.json()["error"]["code"]
            answers.append((response.status_code, code))

        threads = [threading.Thread(target=trigger) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert sorted(answers, key=str) == sorted(
            [(202, None)] + [(409, "ASSESSMENT_IN_PROGRESS")] * 7, key=str
        )
        listed = org.client.get("/api/v1/assessments", params={"agent_id": agent["id"]}).json()["items"]
        assert len(listed) == 1 and listed[0]["status"] in ("pending", "in_progress")
    finally:
        live.close()
        server.stop()


def test_sqlite_server_runs_jobs_and_finishes_what_a_stopped_one_left(
    tmp_path: Path, sqlite_at_head: Path
) -> None:
    url = f"sqlite:///{sqlite_at_head}"
    now = datetime.now(UTC)
    with open_store(url) as store:
        org = store.scope(store.default_organization().id)
        agent = assessable_agent(org, "left-behind", now=now)
        from aaaf.services.assessment_jobs import trigger_assessment

        # recorded pending, its job lost with the process that queued it
        left = trigger_assessment(org, agent, RecordingQueue(), now=now)
    server = start_server(url, tmp_path)
    try:
        with open_store(url) as store:
            org = store.scope(store.default_organization().id)
            done = wait_for(
                lambda: (a := org.get_assessment(left.id)).status == "completed" and a,
                what=f"the restarted server to complete it:\n{server.log()}",
            )
            assert done.status == "completed"
            wait_for(lambda: org.badge_credentials(left.id), what="its badge")
    finally:
        server.stop()
