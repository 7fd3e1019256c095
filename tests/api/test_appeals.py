"""Appeals over HTTP (document 004 §5.4, §6.2; SCORING.md §2.4)."""

from __future__ import annotations

from tests.api.conftest import LiveServer, agent_evidence, assert_error, poll_until, wait_for_status


def test_an_appeal_is_filed_read_and_resolved_with_its_checks(live: LiveServer) -> None:
    org = live.organization(minimum_tasks_performance=6, minimum_tasks_capability=6)
    agent = org.client.post("/api/v1/agents", json={"name": "appellant"}).json()
    org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 6)})
    started = org.client.post("/api/v1/assessments", json={"agent_id": agent["id"]}).json()
    assert wait_for_status(org.client, started["id"])["status"] == "completed"
    base = f"/api/v1/assessments/{started['id']}/appeals"
    appeal = {
        "dimensions_challenged": ["accuracy"],
        "justification": "The revision was a scope change, not an error.",
        "counter_evidence": [{"task_id": "task-000", "claim": "Scope expansion requested."}],
    }
    error = assert_error(
        org.client.post(base, json={**appeal, "dimensions_challenged": ["charisma"]}),
        422,
        "APPEAL_NOT_ALLOWED",
    )
    assert "charisma" in error["message"]
    error = assert_error(
        org.client.post(base, json={**appeal, "counter_evidence": [{"task_id": "elsewhere", "claim": "x"}]}),
        422,
        "APPEAL_NOT_ALLOWED",
    )
    assert "elsewhere" in error["message"]
    error = assert_error(org.client.post(base, json={**appeal, "justification": ""}), 400, "INVALID_REQUEST")
    assert error["details"]["field"] == "body.justification"
    filed = org.client.post(base, json=appeal)
    assert filed.status_code == 201, filed.text
    body = filed.json()
    assert body["status"] == "filed" and body["dimensions_challenged"] == ["accuracy"]
    assert org.client.get(f"{base}/{body['id']}").json() == body
    assert_error(org.client.get(f"{base}/00000000-0000-0000-0000-000000000000"), 404, "NOT_FOUND")

    operator = live.client(
        org.client.post("/api/v1/keys", json={"scopes": ["assessments:write", "read"]}).json()["api_key"]
    )
    assert_error(
        operator.post(f"{base}/{body['id']}/resolve", json={"decision": "accepted"}), 403, "FORBIDDEN"
    )
    auditor = live.client(org.client.post("/api/v1/keys", json={"scopes": ["auditor"]}).json()["api_key"])
    resolved = auditor.post(f"{base}/{body['id']}/resolve", json={"decision": "accepted", "notes": "agreed"})
    assert resolved.status_code == 200, resolved.text
    outcome = resolved.json()
    assert outcome["status"] == "accepted" and outcome["resolution"]["rescored"] is True
    assert outcome["resolution"]["excluded_tasks"] == ["task-000"]
    assert_error(auditor.post(f"{base}/{body['id']}/resolve", json={"decision": "rejected"}), 409, "CONFLICT")
    # the badge issued for the old scores was superseded; a new one carries the corrected scores
    verified = poll_until(
        lambda: live.anonymous.get(f"/api/v1/badges/{started['id']}/verify").json(),
        lambda answer: answer.get("valid") is True,
    )
    assert verified["valid"] is True and verified["revoked"] is False
