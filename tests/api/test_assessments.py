"""Assessments over HTTP: trigger → 202 → scored off the request path (SCORING.md §7)."""

from __future__ import annotations

import uuid

from tests.api.conftest import LiveServer, agent_evidence, assert_error, poll_until, wait_for_status

SMALL_MINIMUMS = {"minimum_tasks_performance": 6, "minimum_tasks_capability": 6}


def test_a_triggered_assessment_completes_off_the_request_path(live: LiveServer) -> None:
    org = live.organization(**SMALL_MINIMUMS)
    agent = org.client.post("/api/v1/agents", json={"name": "worker"}).json()
    # 5 tasks: one short of the organization's minimum of 6 — refused at once, nothing recorded
    assert (
        org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 5)}).json()[
            "accepted"
        ]
        == 10
    )
    error = assert_error(
        org.client.post("/api/v1/assessments", json={"agent_id": agent["id"], "type": "full"}),
        422,
        "INSUFFICIENT_EVIDENCE",
    )
    assert (error["details"]["current_count"], error["details"]["required_count"]) == (5, 6)
    assert org.client.get("/api/v1/assessments", params={"agent_id": agent["id"]}).json()["items"] == []
    assert (
        org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 8)}).json()[
            "accepted"
        ]
        == 6
    )  # tasks 0-4 are re-sends
    started = org.client.post("/api/v1/assessments", json={"agent_id": agent["id"], "type": "full"})
    assert started.status_code == 202, started.text
    body = started.json()
    assert body["agent_id"] == agent["id"] and body["status"] == "pending"
    done = wait_for_status(org.client, body["id"])
    assert done["status"] == "completed", done
    performance = done["performance"]
    # 8 accepted tasks, none revised or late: every task counts as completed
    assert performance["dimensions"]["task_completion_rate"]["score"] == 1.0
    assert performance["dimensions"]["task_completion_rate"]["sample_size"] == 8
    assert performance["composite_score"] is not None and performance["tier"]
    assert done["badge_urls"]["svg"].endswith(f"/api/v1/badges/{body['id']}.svg")
    listed = org.client.get("/api/v1/assessments", params={"agent_id": agent["id"]}).json()
    assert [item["id"] for item in listed["items"]] == [body["id"]]
    assert org.client.get("/api/v1/assessments", params={"status": "failed"}).json()["items"] == []


def test_single_dimension_and_the_refused_kinds(live: LiveServer) -> None:
    org = live.organization(**SMALL_MINIMUMS)
    agent = org.client.post("/api/v1/agents", json={"name": "worker"}).json()
    org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 6)})
    started = org.client.post(
        "/api/v1/assessments",
        json={"agent_id": agent["id"], "type": "single_dimension", "dimension": "speed"},
    )
    assert started.status_code == 202, started.text
    done = wait_for_status(org.client, started.json()["id"])
    assert done["status"] == "completed" and done["capability"] is None
    assert list(done["performance"]["dimensions"]) == ["speed"]
    assert_error(
        org.client.post("/api/v1/assessments", json={"agent_id": agent["id"], "type": "single_dimension"}),
        400,
        "INVALID_REQUEST",
    )
    assert_error(
        org.client.post("/api/v1/assessments", json={"agent_id": agent["id"], "type": "stress_test_only"}),
        422,  # no stress-test evidence (tests/api/test_assessments_stress_only.py)
        "INSUFFICIENT_EVIDENCE",
    )
    assert_error(
        org.client.post("/api/v1/assessments", json={"agent_id": agent["id"], "type": "weekly"}),
        400,
        "INVALID_REQUEST",
    )
    assert_error(org.client.post("/api/v1/assessments", json={"agent_id": "nobody"}), 404, "NOT_FOUND")
    assert_error(
        org.client.post(f"/api/v1/assessments/{done['id']}/stress-test", json={}), 400, "INVALID_REQUEST"
    )
    # an agent reached from the server is checked like a webhook target: no loopback by default
    refused = assert_error(
        org.client.post(
            f"/api/v1/assessments/{done['id']}/stress-test",
            json={"agent_url": "http://127.0.0.1:9/v1", "model": "m"},
        ),
        400,
        "INVALID_REQUEST",
    )
    assert refused["details"]["field"] == "agent_url"
    assert_error(org.client.get("/api/v1/assessments/not-an-id"), 404, "NOT_FOUND")


def test_a_completed_assessment_has_its_badge_verifiable_by_anyone(live: LiveServer) -> None:
    from joserfc import jws
    from joserfc.jwk import KeySet

    org = live.organization(**SMALL_MINIMUMS)
    agent = org.client.post("/api/v1/agents", json={"name": "badge-holder"}).json()
    org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 6)})
    started = org.client.post("/api/v1/assessments", json={"agent_id": agent["id"]}).json()
    done = wait_for_status(org.client, started["id"])
    assert done["status"] == "completed"
    # issued right after scoring (a moment after the status turns completed); no key needed
    verified = poll_until(
        lambda: live.anonymous.get(f"/api/v1/badges/{started['id']}/verify"),
        lambda response: response.status_code != 404,
    )
    assert verified.status_code == 200, verified.text
    body = verified.json()
    assert body["valid"] is True and body["expired"] is False and body["revoked"] is False
    assert (body["assessment_id"], body["agent_name"], body["organization"]) == (
        started["id"],
        "badge-holder",
        org.name,
    )
    assert (body["performance_tier"], body["capability_tier"]) == (
        done["performance"]["tier"],
        done["capability"]["tier"],
    )
    assert body["valid_until"] and body["issued"]
    # the JWT checks out against the published JWKS with a third-party JOSE library
    keys = KeySet.import_key_set(live.anonymous.get("/.well-known/jwks.json").json())
    token = live.anonymous.get(f"/api/v1/badges/{started['id']}.jwt").text.strip()
    header = jws.extract_compact(token.encode()).protected
    assert header["alg"] == "EdDSA"
    jws.deserialize_compact(token, keys.get_by_kid(header["kid"]), algorithms=["EdDSA"])
    svg = live.anonymous.get(f"/api/v1/badges/{started['id']}.svg")
    assert svg.headers["content-type"].startswith("image/svg+xml") and "<svg" in svg.text
    png = live.anonymous.get(f"/api/v1/badges/{started['id']}.png")
    assert png.headers["content-type"] == "image/png" and png.content.startswith(b"\x89PNG\r\n\x1a\n")
    document = live.anonymous.get(f"/api/v1/badges/{started['id']}.json").json()
    assert "OpenBadgeCredential" in document["type"]
    record = org.client.get(f"/api/v1/badges/{started['id']}")
    assert record.status_code == 200 and record.json()["credential_jwt"] == token
    assert record.json()["current"] is True and record.json()["revoked"] is False
    assert_error(live.anonymous.get(f"/api/v1/badges/{started['id']}"), 401, "UNAUTHORIZED")
    missing = "00000000-0000-0000-0000-000000000000"
    assert_error(live.anonymous.get(f"/api/v1/badges/{missing}/verify"), 404, "NOT_FOUND")
    assert_error(live.anonymous.get(f"/api/v1/badges/{missing}.svg"), 404, "NOT_FOUND")


def test_a_second_trigger_while_one_runs_is_409(live: LiveServer) -> None:
    """The running assessment is made in the server's database directly, so that the test does
    not race the background scoring."""
    from datetime import UTC, datetime, timedelta

    from aaaf.store import open_store

    org = live.organization(**SMALL_MINIMUMS)
    agent = org.client.post("/api/v1/agents", json={"name": "busy"}).json()
    org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 6)})
    now = datetime.now(UTC)
    with open_store(live.database_url) as store:
        running = store.scope(org.id).create_assessment(
            agent["id"], type="passive_only", window_start=now - timedelta(days=30), window_end=now
        )
    error = assert_error(
        org.client.post("/api/v1/assessments", json={"agent_id": agent["id"]}), 409, "ASSESSMENT_IN_PROGRESS"
    )
    assert error["details"]["assessment_id"] == str(running.id)


def test_a_badge_is_revoked_and_a_held_one_is_decided_on_review(live: LiveServer) -> None:
    from aaaf.store import open_store

    org = live.organization(**SMALL_MINIMUMS)
    agent = org.client.post("/api/v1/agents", json={"name": "revoked"}).json()
    org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 6)})
    started = org.client.post("/api/v1/assessments", json={"agent_id": agent["id"]}).json()
    assert wait_for_status(org.client, started["id"])["status"] == "completed"
    poll_until(
        lambda: live.anonymous.get(f"/api/v1/badges/{started['id']}/verify"),
        lambda response: response.status_code != 404,
    )
    auditor = live.client(org.client.post("/api/v1/keys", json={"scopes": ["auditor"]}).json()["api_key"])
    assert_error(
        auditor.post(f"/api/v1/badges/{started['id']}/revoke", json={"reason": "x"}), 403, "FORBIDDEN"
    )
    assert_error(org.client.post(f"/api/v1/badges/{started['id']}/revoke", json={}), 400, "INVALID_REQUEST")
    revoked = org.client.post(f"/api/v1/badges/{started['id']}/revoke", json={"reason": "key compromised"})
    assert revoked.status_code == 200, revoked.text
    assert revoked.json()["revoked"] is True and revoked.json()["revoke_reason"] == "key compromised"
    verified = live.anonymous.get(f"/api/v1/badges/{started['id']}/verify").json()
    assert verified["valid"] is False and verified["revoked"] is True

    # nothing is held: 409; held (an anomalous assessment, recorded here directly): approved
    assert_error(
        auditor.post(f"/api/v1/badges/{started['id']}/review", json={"decision": "approve"}), 409, "CONFLICT"
    )
    with open_store(live.database_url) as store:
        store.scope(org.id).set_review_state(uuid.UUID(started["id"]), "pending_review")
    decided = auditor.post(
        f"/api/v1/badges/{started['id']}/review", json={"decision": "approve", "reviewer": "ada"}
    )
    assert decided.status_code == 200, decided.text
    assert decided.json()["review_state"] == "approved"
