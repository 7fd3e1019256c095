"""``GET /api/v1/assessments/{id}/changes`` on a live server, SQLite and PostgreSQL: per
dimension what changed since the agent's previous assessment and why — new evidence (samples
before → after), the weights reconfigured between the two assessments (from the configuration
history), the composite's change — and the dashboard's agent page shows the same."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

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
