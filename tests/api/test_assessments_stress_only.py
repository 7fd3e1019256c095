"""``POST /api/v1/assessments`` with ``type: stress_test_only`` (issue 15 §4-5; document 004 §6.2
assessment types): the agent is scored on its stored stress-test evidence alone, by the same
service as ``aaaf assess NAME --type stress_test_only``; an agent without stress evidence is a
422 ``INSUFFICIENT_EVIDENCE`` at once (§6.4), and ``include_stress_test`` stays 501 — on
SQLite and PostgreSQL (the session's live servers)."""

from __future__ import annotations

import sys
import uuid
from pathlib import Path

from aaaf.services.stress import run_stress_test
from aaaf.store import open_store
from aaaf.stress.runner import AgentSpec
from tests.api.conftest import LiveServer, agent_evidence, assert_error, wait_for_status

SMALL_MINIMUMS = {"minimum_tasks_performance": 6, "minimum_tasks_capability": 6}
TASKS = [f"probe-{domain}-{i}" for domain in ("code", "legal") for i in (1, 2, 3)]


def test_stress_test_only_scores_the_stored_stress_evidence_alone(live: LiveServer, tmp_path: Path) -> None:
    org = live.organization(**SMALL_MINIMUMS)
    agent = org.client.post("/api/v1/agents", json={"name": "probed"}).json()
    # passive evidence too: stress_test_only must leave it out
    org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 8)})
    # the stress run the CLI's `aaaf stress-test` makes, stored in the server's database
    with open_store(live.database_url) as store:
        scoped = store.scope(uuid.UUID(org.id))
        run, records = run_stress_test(
            scoped,
            "probed",
            AgentSpec(command=f"{sys.executable} -m aaaf.stress.reference_agents oracle"),
            task_ids=TASKS,
            parallel=2,
            log_dir=tmp_path / "logs",
        )
    assert run.status == "finished" and len(records) == len(TASKS)
    started = org.client.post(
        "/api/v1/assessments", json={"agent_id": agent["id"], "type": "stress_test_only"}
    )
    assert started.status_code == 202, started.text
    assert started.json()["type"] == "stress_test_only"
    done = wait_for_status(org.client, started.json()["id"], timeout=120)
    assert done["status"] == "completed", done
    assert done["type"] == "stress_test_only"
    sources = done["evidence_sources"]
    assert sources["passive_events"] == 0 and sources["stress_runs"] == [str(run.id)]
    completion = done["performance"]["dimensions"]["task_completion_rate"]
    assert completion["sample_size"] == len(TASKS) and completion["score"] == 1.0  # the oracle's
    # the run is recorded as merged into the assessment that used it
    stress_run = org.client.get(f"/api/v1/stress-runs/{run.id}").json()
    assert stress_run["assessment_id"] == done["id"]


def test_stress_test_only_without_stress_evidence_is_a_clear_422(live: LiveServer) -> None:
    org = live.organization(**SMALL_MINIMUMS)
    agent = org.client.post("/api/v1/agents", json={"name": "passive"}).json()
    org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 8)})
    error = assert_error(
        org.client.post("/api/v1/assessments", json={"agent_id": agent["id"], "type": "stress_test_only"}),
        422,
        "INSUFFICIENT_EVIDENCE",
    )
    assert "no stress-test evidence" in error["message"] and "stress-test" in error["message"]
    assert error["details"] == {
        "field": "type",
        "assessment_type": "stress_test_only",
        "stress_test_events": 0,
        "reported_stress_events": 0,
    }
    assert org.client.get("/api/v1/assessments", params={"agent_id": agent["id"]}).json()["items"] == []
    # include_stress_test names no endpoint to run the library against: still 501
    refused = assert_error(
        org.client.post(
            "/api/v1/assessments", json={"agent_id": agent["id"], "type": "full", "include_stress_test": True}
        ),
        501,
        "NOT_IMPLEMENTED",
    )
    assert refused["details"] == {"field": "include_stress_test"}
    assert "/stress-test" in refused["message"]
