"""Audits over HTTP (SCORING.md §2.6; issue 16 §4): the sample, findings, the status, scopes.

Expected numbers are worked from §2.6's formulas: the sample is
``default_rng(seed).choice(n, size=ceil(rate × n), replace=False)`` over the completed
tasks in ``task_id`` order; honesty = honest facts / audited facts (each checklist item
given, the completion status when given); coverage = audited completed / completed tasks.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest

from tests.api.conftest import LiveServer, Org, agent_evidence, assert_error, poll_until, wait_for_status

# what every task of ``agent_evidence`` reports (tests/api/conftest.py)
REPORTED = {
    "memory_search_performed": True,
    "output_format_correct": True,
    "verification_evidence_provided": True,
    "memory_written": False,
}
# what the auditor finds on each audited task: one of the two items given is false
FOUND = {"memory_search_performed": False, "output_format_correct": True}


def expected_sample(n: int, rate: float, seed: int) -> list[str]:
    """§2.6's draw over ``task-000`` … in task_id order, worked here from the formula."""
    ordered = [f"task-{index:03d}" for index in range(n)]
    picks = np.random.default_rng(seed).choice(n, size=math.ceil(rate * n), replace=False)
    return sorted(ordered[int(i)] for i in picks)


def _agent(org: Org, name: str, tasks: int) -> str:
    agent = org.client.post("/api/v1/agents", json={"name": name}).json()
    stored = org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], tasks)})
    assert stored.json()["accepted"] == 2 * tasks, stored.text
    return str(agent["id"])


def _auditor(live: LiveServer, org: Org) -> Any:
    key = org.client.post("/api/v1/keys", json={"scopes": ["auditor"]}).json()["api_key"]
    return live.client(key)


AUDITED_AT = (datetime.now(UTC) - timedelta(minutes=1)).isoformat()


def _fill(task: dict[str, Any]) -> dict[str, Any]:
    """A sampled task as the answer gave it, with its finding filled in (and dated: the same
    finding sent twice is then one event)."""
    finding = {
        **task["finding"],
        "completion_status": "accepted",
        "checklist": dict(FOUND),
        "audited_at": AUDITED_AT,
    }
    return {**task, "finding": finding}


def test_an_auditor_draws_a_sample_records_findings_and_reads_the_status(live: LiveServer) -> None:
    org = live.organization()
    agent_id = _agent(org, "self-reporter", 10)
    auditor = _auditor(live, org)
    base = f"/api/v1/agents/{agent_id}/audits"

    # nothing audited yet: coverage 0 of 10, honesty null, the 0.20 rate not met
    status = auditor.get(base)
    assert status.status_code == 200, status.text
    before = status.json()
    assert before["agent_id"] == agent_id and before["agent"] == "self-reporter"
    assert (before["coverage"], before["honesty"], before["audited_tasks"]) == (0.0, None, 0)
    assert (before["required_rate"], before["met"], before["completed_tasks"]) == (0.2, False, 10)

    # the default draw: rate 0.20, seed 0, window ending now → ceil(0.2 × 10) = 2 tasks
    drawn = auditor.post(base)
    assert drawn.status_code == 200, drawn.text
    sample = drawn.json()
    assert (sample["rate"], sample["seed"], sample["completed_tasks"], sample["sampled"]) == (0.2, 0, 10, 2)
    assert [task["task_id"] for task in sample["tasks"]] == expected_sample(10, 0.2, 0)
    for task in sample["tasks"]:
        assert task["agent"] == "self-reporter"
        assert task["self_reported"]["completion_status"] == "accepted"
        assert task["self_reported"]["checklist"] == REPORTED
        assert task["finding"]["checklist"] == dict.fromkeys(REPORTED)
        assert task["finding"]["auditor"] is None
    # the answer's parameters draw the same tasks again; another seed and rate draw others
    again = auditor.post(
        base, json={"rate": sample["rate"], "seed": sample["seed"], "window_end": sample["window_end"]}
    ).json()
    assert again["tasks"] == sample["tasks"] and again["window_end"] == sample["window_end"]
    other = auditor.post(base, json={"rate": 0.5, "seed": 7}).json()
    assert [task["task_id"] for task in other["tasks"]] == expected_sample(10, 0.5, 7)
    # drawing stored nothing
    assert auditor.get(base).json()["audited_tasks"] == 0

    # findings: the sampled tasks filled in, the auditor named once for all of them
    recorded = auditor.post(
        f"{base}/findings", json={"auditor": "ext-auditor", "findings": [_fill(t) for t in sample["tasks"]]}
    )
    assert recorded.status_code == 201, recorded.text
    assert recorded.json() == {"accepted": 2, "duplicates": 0, "rejected": 0, "errors": []}
    # each audited task: 3 facts (two checklist items given, the completion status), 1 refuted
    # → honesty (6 − 2) / 6 = 2/3; coverage 2 / 10 = 0.2 ≥ 0.2: met; < 5 audited: not flagged
    after = auditor.get(base).json()
    assert after["audited_tasks"] == 2 and after["audited_completed_tasks"] == 2
    assert after["coverage"] == pytest.approx(0.2) and after["met"] is True
    assert (after["facts_checked"], after["facts_refuted"]) == (6, 2)
    assert after["honesty"] == pytest.approx(4 / 6)
    assert after["self_report_unreliable"] is False
    refuted = sorted((item["task_id"], item["fact"]) for item in after["refuted"])
    assert refuted == [
        (task_id, "checklist.memory_search_performed") for task_id in expected_sample(10, 0.2, 0)
    ]
    # re-sending the same (dated) findings is idempotent, as for events
    resent = auditor.post(
        f"{base}/findings", json={"auditor": "ext-auditor", "findings": [_fill(t) for t in sample["tasks"]]}
    ).json()
    assert (resent["accepted"], resent["duplicates"]) == (0, 2)
    # the findings are task_audited events of the agent, naming the auditor
    events = org.client.get("/api/v1/events", params={"agent_id": agent_id, "type": "task_audited"}).json()
    assert sorted(e["task_id"] for e in events["items"]) == expected_sample(10, 0.2, 0)
    assert {e["data"]["auditor"] for e in events["items"]} == {"ext-auditor"}


def test_findings_are_validated_one_by_one(live: LiveServer) -> None:
    org = live.organization()
    agent_id = _agent(org, "checked", 5)
    auditor = _auditor(live, org)
    now = datetime.now(UTC).isoformat()
    event = {
        "type": "task_audited",
        "timestamp": now,
        "data": {"task_id": "task-001", "auditor": "a", "completion_status": "rejected"},
    }
    answer = auditor.post(
        f"/api/v1/agents/{agent_id}/audits/findings",
        json={
            "findings": [
                event,  # a task_audited event as it is: accepted
                {**event, "data": {**event["data"], "completion_status": "maybe"}},
                {"type": "task_completed", "timestamp": now, "data": {"task_id": "task-002"}},
                {"task_id": "task-003", "finding": {"checklist": {"memory_written": True}}},  # no auditor
                {"task_id": "task-004", "finding": "not an object"},
                {**event, "agent_id": "someone-else"},
                "not an object",
            ]
        },
    )
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert (body["accepted"], body["rejected"]) == (1, 6)
    errors = {error["index"]: (error["code"], error["field"]) for error in body["errors"]}
    assert errors[1] == ("INVALID_REQUEST", "data.completion_status")
    assert errors[2] == ("INVALID_EVENT_TYPE", "type")
    assert errors[3] == ("INVALID_REQUEST", "data.auditor")
    assert errors[4] == ("INVALID_REQUEST", "finding")
    assert errors[5][0] == "AGENT_MISMATCH"
    assert errors[6][0] == "INVALID_REQUEST"
    # the one accepted finding: task-001 was reported accepted, found rejected
    status = auditor.get(f"/api/v1/agents/{agent_id}/audits").json()
    assert (status["audited_tasks"], status["facts_checked"], status["facts_refuted"]) == (1, 1, 1)
    assert status["honesty"] == 0.0


def test_bad_requests_are_named(live: LiveServer) -> None:
    org = live.organization()
    agent_id = _agent(org, "asked-badly", 3)
    base = f"/api/v1/agents/{agent_id}/audits"
    for body, field in (
        ({"rate": 1.5}, "body.rate"),
        ({"rate": 0}, "body.rate"),
        ({"seed": -1}, "body.seed"),
        ({"window_end": "2026-11-01T00:00:00"}, "body.window_end"),  # no offset
        ({"window_end": "yesterday"}, "body.window_end"),
        ({"sample_size": 3}, "body.sample_size"),
    ):
        error = assert_error(org.client.post(base, json=body), 400, "INVALID_REQUEST")
        assert error["details"]["field"] == field, error
    error = assert_error(org.client.get(base, params={"window_end": "soon"}), 400, "INVALID_REQUEST")
    assert error["details"]["field"] == "query.window_end"
    error = assert_error(
        org.client.post(f"{base}/findings", json={"findings": {"task_id": "x"}}), 400, "INVALID_REQUEST"
    )
    assert error["details"]["field"] == "body.findings"
    assert_error(org.client.post(f"{base}/findings", json=[]), 400, "INVALID_REQUEST")
    too_many = {"findings": [{}] * 1001, "auditor": "a"}
    assert_error(org.client.post(f"{base}/findings", json=too_many), 413, "PAYLOAD_TOO_LARGE")
    for method, path in (("POST", ""), ("GET", ""), ("POST", "/findings")):
        missing = "/api/v1/agents/no-such-agent/audits" + path
        body = {"findings": []} if path else None
        assert_error(org.client.request(method, missing, json=body), 404, "NOT_FOUND")
    # a window with no completed task: nothing to sample, coverage null
    early = (datetime.now(UTC) - timedelta(days=400)).isoformat()
    empty = org.client.post(base, json={"window_end": early}).json()
    assert (empty["completed_tasks"], empty["sampled"], empty["tasks"]) == (0, 0, [])
    assert org.client.get(base, params={"window_end": early}).json()["coverage"] is None


def test_only_the_auditor_scope_audits(live: LiveServer) -> None:
    org = live.organization()
    agent_id = _agent(org, "guarded", 4)
    base = f"/api/v1/agents/{agent_id}/audits"
    ingest = live.client(
        org.client.post("/api/v1/keys", json={"scopes": ["events:write", "read"]}).json()["api_key"]
    )
    finding = {
        "id": "f-1",
        "agent_id": agent_id,
        "type": "task_audited",
        "timestamp": datetime.now(UTC).isoformat(),
        "data": {"task_id": "task-000", "auditor": "self", "checklist": {"memory_written": True}},
    }
    # the ingest key reaches no audit route
    for method, path, body in (
        ("POST", "", None),
        ("GET", "", None),
        ("POST", "/findings", {"findings": [finding]}),
    ):
        error = assert_error(ingest.request(method, base + path, json=body), 403, "FORBIDDEN")
        assert error["details"]["required_scope"] == "auditor"
    # nor can it send a finding as an event: 403 alone, a per-item FORBIDDEN in a batch
    error = assert_error(ingest.post("/api/v1/events", json=finding), 403, "FORBIDDEN")
    assert error["details"] == {"field": "type", "id": "f-1"}
    assert "auditor" in error["message"]
    other = agent_evidence(agent_id, 6)[-1]  # an ordinary event beside it is stored
    batch = ingest.post("/api/v1/events/batch", json={"events": [other, finding]}).json()
    assert (batch["accepted"], batch["rejected"]) == (1, 1)
    assert batch["errors"] == [
        {"index": 1, "id": "f-1", "code": "FORBIDDEN", "field": "type", "error": batch["errors"][0]["error"]}
    ]
    assert ingest.get(base.replace("/audits", "")).status_code == 200  # read still works
    events = org.client.get("/api/v1/events", params={"agent_id": agent_id, "type": "task_audited"}).json()
    assert events["items"] == []
    # an auditor-only key audits but ingests no evidence
    auditor = _auditor(live, org)
    assert auditor.post(base).status_code == 200
    assert_error(auditor.post("/api/v1/events", json=other), 403, "FORBIDDEN")
    # a key with both may send the finding as an event (the events route checks the scope too)
    both = live.client(
        org.client.post("/api/v1/keys", json={"scopes": ["events:write", "auditor"]}).json()["api_key"]
    )
    stored = both.post("/api/v1/events", json=finding)
    assert stored.status_code == 201 and stored.json()["accepted"] == 1, stored.text
    assert auditor.get(base).json()["audited_tasks"] == 1


def test_an_inflated_self_reporter_is_held_after_an_audit(live: LiveServer) -> None:
    """Issue 16's "done when", through the API: 25 tasks all reporting true, an audit of 20 %
    (5 tasks) finds one of two checked items false on each → honesty 2/3 < 0.90 with 5
    audited tasks: flagged, review compliance lower than before, the badge held."""
    org = live.organization(minimum_tasks_performance=5, minimum_tasks_capability=5)
    agent_id = _agent(org, "inflated", 25)
    auditor = _auditor(live, org)

    def assess() -> dict[str, Any]:
        started = org.client.post("/api/v1/assessments", json={"agent_id": agent_id}).json()
        return wait_for_status(org.client, started["id"])

    first = assess()
    assert first["audit"]["audited_tasks"] == 0 and first["audit"]["honesty"] is None
    before = first["performance"]["dimensions"]["review_compliance"]["score"]
    assert before == pytest.approx(0.75)  # 3 of the 4 checklist items on every task

    sample = auditor.post(f"/api/v1/agents/{agent_id}/audits", json={"seed": 3}).json()
    assert sample["sampled"] == 5 and [t["task_id"] for t in sample["tasks"]] == expected_sample(25, 0.2, 3)
    recorded = auditor.post(
        f"/api/v1/agents/{agent_id}/audits/findings",
        json={"auditor": "ext", "findings": [_fill(t) for t in sample["tasks"]]},
    ).json()
    assert recorded["accepted"] == 5, recorded

    second = assess()
    audit = second["audit"]
    assert (audit["audited_tasks"], audit["coverage"], audit["met"]) == (5, pytest.approx(0.2), True)
    assert audit["honesty"] == pytest.approx(10 / 15)  # 15 facts, 5 refuted
    assert audit["self_report_unreliable"] is True
    assert second["performance"]["dimensions"]["review_compliance"]["score"] < before
    assert second["review_state"] == "pending_review"
    assert_error(live.anonymous.get(f"/api/v1/badges/{second['id']}.json"), 404, "NOT_FOUND")
    # an auditor who approves it on review has the badge issued: its JSON carries the audit
    approved = auditor.post(f"/api/v1/badges/{second['id']}/review", json={"decision": "approve"})
    assert approved.status_code == 200, approved.text
    served = poll_until(
        lambda: live.anonymous.get(f"/api/v1/badges/{second['id']}.json"),
        lambda response: response.status_code == 200,
    )
    assert served.status_code == 200, served.text
    assert served.json()["credentialSubject"]["audit"] == {
        "coverage": pytest.approx(0.2),
        "honesty": pytest.approx(10 / 15),
        "audited_tasks": 5,
        "required_rate": 0.2,
        "met": True,
    }
