"""``GET /api/v1/assessments/{id}/changes`` on a live server, SQLite and PostgreSQL: per
dimension what changed since the agent's previous assessment and why — new evidence (samples
before → after), the weights reconfigured between the two assessments (from the configuration
history, with who changed them), the composite's change, audit findings recorded in between
with their honesty result, appeals decided in between — and the dashboard's agent page shows
the same."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import httpx

from tests.api.conftest import LiveServer, task_events, wait_for_status

MINIMUMS = {"minimum_tasks_performance": 6, "minimum_tasks_capability": 6}


def _assess(client, agent_id: str) -> dict:  # type: ignore[no-untyped-def]
    started = client.post("/api/v1/assessments", json={"agent_id": agent_id, "type": "full"})
    assert started.status_code == 202, started.text
    done = wait_for_status(client, started.json()["id"], timeout=120)
    assert done["status"] == "completed", done
    return dict(done)


def _send(client, agent_id: str, first: int, count: int) -> None:  # type: ignore[no-untyped-def]
    now = datetime.now(UTC)
    events: list[dict] = []
    for index in range(first, first + count):
        events += task_events(agent_id, f"task-{index:03d}", now - timedelta(hours=1 + 3 * index))
    sent = client.post("/api/v1/events/batch", json={"events": events})
    assert sent.status_code == 201, sent.text


def test_changes_name_new_evidence_and_the_reconfigured_weights(live: LiveServer) -> None:
    org = live.organization(**MINIMUMS)
    agent = org.client.post("/api/v1/agents", json={"name": "changing"}).json()
    _send(org.client, agent["id"], 0, 7)
    first = _assess(org.client, agent["id"])
    alone = org.client.get(f"/api/v1/assessments/{first['id']}/changes")
    assert alone.status_code == 200, alone.text
    assert alone.json() == {
        "assessment_id": first["id"],
        "previous_id": None,
        "axes": [],
        "configuration_changes": [],
        "audits": [],
        "appeals": [],
    }
    config = org.client.get(f"/api/v1/organizations/{org.id}/config").json()
    weights = dict(config["performance_weights"])
    weights["accuracy"], weights["speed"] = weights["accuracy"] + 0.05, weights["speed"] - 0.05
    patched = org.client.patch(
        f"/api/v1/organizations/{org.id}/config", json={"performance_weights": weights}
    )
    assert patched.status_code == 200, patched.text
    _send(org.client, agent["id"], 7, 5)
    second = _assess(org.client, agent["id"])
    answer = org.client.get(f"/api/v1/assessments/{second['id']}/changes")
    assert answer.status_code == 200, answer.text
    changes = answer.json()
    assert changes["previous_id"] == first["id"]
    settings = [change["setting"] for change in changes["configuration_changes"]]
    assert settings == ["performance_weights"]
    performance = next(axis for axis in changes["axes"] if axis["axis"] == "performance")
    assert performance["composite_before"] == first["performance"]["composite_score"]
    assert performance["composite_after"] == second["performance"]["composite_score"]
    completion = next(d for d in performance["dimensions"] if d["dimension"] == "task_completion_rate")
    before = first["performance"]["dimensions"]["task_completion_rate"]["sample_size"]
    after = second["performance"]["dimensions"]["task_completion_rate"]["sample_size"]
    assert (completion["samples_before"], completion["samples_after"]) == (before, after)
    assert after > before
    assert f"evidence: {before} → {after} samples" in completion["causes"]
    accuracy = next(d for d in performance["dimensions"] if d["dimension"] == "accuracy")
    assert any("the weights were reconfigured" in cause for cause in accuracy["causes"]), accuracy
    # another organization's assessment is a 404
    other = live.organization()
    assert other.client.get(f"/api/v1/assessments/{second['id']}/changes").status_code == 404


def test_changes_name_who_reconfigured_an_audit_and_an_appeal_decided_in_between(live: LiveServer) -> None:
    org = live.organization(**MINIMUMS)
    agent = org.client.post("/api/v1/agents", json={"name": "audited"}).json()
    _send(org.client, agent["id"], 0, 7)
    first = _assess(org.client, agent["id"])
    # between the two assessments: a weight change, an audit finding, an appeal decided
    config = org.client.get(f"/api/v1/organizations/{org.id}/config").json()
    weights = dict(config["capability_weights"])
    names = sorted(weights)
    weights[names[0]], weights[names[1]] = weights[names[0]] + 0.05, weights[names[1]] - 0.05
    patched = org.client.put(
        f"/api/v1/organizations/{org.id}/config/weights", json={"capability_weights": weights}
    )
    assert patched.status_code == 200, patched.text
    audited = org.client.post(
        "/api/v1/events/batch",
        json={
            "events": [
                {
                    "id": "audit-000",
                    "agent_id": agent["id"],
                    "type": "task_audited",
                    "timestamp": datetime.now(UTC).isoformat(),
                    "data": {"task_id": "task-000", "auditor": "ann", "completion_status": "rejected"},
                }
            ]
        },
    )
    assert audited.status_code == 201, audited.text
    filed = org.client.post(
        f"/api/v1/assessments/{first['id']}/appeals",
        json={
            "dimensions_challenged": ["accuracy"],
            "justification": "The revisions were asked for by the customer.",
            "counter_evidence": [{"task_id": "task-001", "claim": "Scope change requested."}],
        },
    )
    assert filed.status_code == 201, filed.text
    decided = org.client.post(
        f"/api/v1/assessments/{first['id']}/appeals/{filed.json()['id']}/resolve",
        json={"decision": "rejected", "notes": "The revisions fixed errors."},
    )
    assert decided.status_code == 200, decided.text
    _send(org.client, agent["id"], 7, 2)
    second = _assess(org.client, agent["id"])
    changes = org.client.get(f"/api/v1/assessments/{second['id']}/changes").json()
    keys = {key["id"] for key in org.client.get("/api/v1/keys").json()["items"]}
    [weights_change] = changes["configuration_changes"]
    assert weights_change["setting"] == "capability_weights"
    author = weights_change["changed_by"]
    assert author.startswith("API key ") and author.removeprefix("API key ") in keys, author
    capability = next(axis for axis in changes["axes"] if axis["axis"] == "capability")
    assert any(
        f"the weights were reconfigured by {author}" in cause
        for dimension in capability["dimensions"]
        for cause in dimension["causes"]
    ), capability
    [audit] = changes["audits"]
    assert (audit["audited_tasks"], audit["auditors"]) == (1, ["ann"])
    assert audit["facts_refuted"] >= 1 and audit["facts_checked"] >= audit["facts_refuted"]
    assert audit["honesty"] == second["audit"]["honesty"]
    [appeal] = changes["appeals"]
    assert (appeal["status"], appeal["assessment_id"], appeal["dimensions_challenged"]) == (
        "rejected",
        first["id"],
        ["accuracy"],
    )
    assert appeal["reviewer_notes"] == "The revisions fixed errors."
    performance = next(axis for axis in changes["axes"] if axis["axis"] == "performance")
    accuracy = next(d for d in performance["dimensions"] if d["dimension"] == "accuracy")
    assert f"appeal rejected on {appeal['resolved_at'][:10]}" in accuracy["causes"]
    # the dashboard's agent page shows the same causes
    page = _dashboard(live, org.key).get(f"/agents/{agent['id']}")
    assert page.status_code == 200, page.text
    assert f'by <span data-field="changed-by">{author}</span>' in page.text
    assert 'data-field="audit-cause"' in page.text and "by ann" in page.text
    assert f"{audit['facts_refuted']} of {audit['facts_checked']} checked facts refuted" in page.text
    assert "rejected on" in page.text and "The revisions fixed errors." in page.text


def _dashboard(live: LiveServer, key: str) -> httpx.Client:
    """A browser-like client signed in to the dashboard with ``key`` through its form."""
    browser = httpx.Client(base_url=live.base_url, timeout=30.0)
    form = browser.get("/sign-in")
    token = re.search(r'name="csrf_token" value="([^"]+)"', form.text)
    assert token
    signed = browser.post(
        "/sign-in", data={"csrf_token": token.group(1), "api_key": key, "next": "/"}, follow_redirects=False
    )
    assert signed.status_code == 303, signed.text
    return browser
