"""Agents and events over HTTP (document 004 §6.2; SCORING.md §1, §7 "Shapes")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tests.api.conftest import LiveServer, agent_evidence, assert_error, task_events


def test_agents_create_get_list_patch_archive(live: LiveServer) -> None:
    org = live.organization()
    created = org.client.post(
        "/api/v1/agents",
        json={
            "organization_id": org.id,
            "name": "security-auditor",
            "claimed_domains": ["security", "code"],
            "tools": ["bash", "grep"],
            "description": "Finds vulnerabilities.",
            "metadata": {"model": "m", "version": "3.2"},
        },
    )
    assert created.status_code == 201, created.text
    agent = created.json()
    assert agent["organization_id"] == org.id and agent["status"] == "enrolled"
    assert agent["metadata"] == {"model": "m", "version": "3.2"}
    assert org.client.get(f"/api/v1/agents/{agent['id']}").json() == agent
    assert_error(org.client.post("/api/v1/agents", json={"name": "security-auditor"}), 409, "CONFLICT")
    for name in ("b-agent", "c-agent", "d-agent"):
        assert org.client.post("/api/v1/agents", json={"name": name}).status_code == 201
    # pages of two, by name, following next_cursor to the end
    names, cursor = [], None
    while True:
        params = {"limit": 2} | ({"cursor": cursor} if cursor else {})
        page = org.client.get("/api/v1/agents", params=params).json()
        assert len(page["items"]) <= 2
        names += [item["name"] for item in page["items"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert names == ["b-agent", "c-agent", "d-agent", "security-auditor"]
    patched = org.client.patch(
        f"/api/v1/agents/{agent['id']}", json={"description": "Audits code.", "status": "active"}
    )
    assert patched.status_code == 200
    assert patched.json()["description"] == "Audits code." and patched.json()["status"] == "active"
    assert patched.json()["tools"] == ["bash", "grep"]
    assert_error(org.client.patch(f"/api/v1/agents/{agent['id']}", json={"name": "b-agent"}), 409, "CONFLICT")
    archived = org.client.delete(f"/api/v1/agents/{agent['id']}")
    assert archived.status_code == 200 and archived.json()["status"] == "archived"
    # archived: kept and readable, no longer listed by default, listed when asked for
    assert org.client.get(f"/api/v1/agents/{agent['id']}").json()["status"] == "archived"
    listed = [item["name"] for item in org.client.get("/api/v1/agents").json()["items"]]
    assert "security-auditor" not in listed
    only_archived = org.client.get("/api/v1/agents", params={"status": "archived"}).json()["items"]
    assert [item["name"] for item in only_archived] == ["security-auditor"]
    assert_error(org.client.patch(f"/api/v1/agents/{agent['id']}", json={"tools": []}), 409, "CONFLICT")
    assert_error(org.client.get("/api/v1/agents/no-such-agent"), 404, "NOT_FOUND")


def test_single_events_are_stored_once_and_refused_with_their_field(live: LiveServer) -> None:
    org = live.organization()
    agent = org.client.post("/api/v1/agents", json={"name": "worker"}).json()
    event = task_events(agent["id"], "t-1", datetime.now(UTC) - timedelta(hours=1))[0]
    first = org.client.post("/api/v1/events", json=event)
    assert first.status_code == 201
    assert first.json() == {"accepted": 1, "duplicates": 0, "id": "t-1-a"}
    again = org.client.post("/api/v1/events", json=event)
    assert again.status_code == 201 and again.json() == {"accepted": 0, "duplicates": 1, "id": "t-1-a"}
    error = assert_error(
        org.client.post("/api/v1/events", json={**event, "id": "x", "type": "task_exploded"}),
        400,
        "INVALID_EVENT_TYPE",
    )
    assert error["details"] == {"field": "type", "id": "x"}
    bad_level = {**event, "id": "y", "data": {**event["data"], "complexity_level": 9}}
    error = assert_error(org.client.post("/api/v1/events", json=bad_level), 400, "INVALID_REQUEST")
    assert error["details"]["field"] == "data.complexity_level"
    assert_error(org.client.post("/api/v1/events", json={**event, "agent_id": "nobody"}), 404, "NOT_FOUND")
    assert_error(org.client.post("/api/v1/events", json=[event]), 400, "INVALID_REQUEST")


def test_a_batch_answers_accepted_rejected_and_each_error_with_its_index_and_id(live: LiveServer) -> None:
    org = live.organization()
    agent = org.client.post("/api/v1/agents", json={"name": "worker"}).json()
    good = agent_evidence(agent["id"], 3)  # 6 events
    future = datetime.now(UTC) + timedelta(hours=2)
    batch = [
        good[0],
        {**good[1], "type": "not_a_type", "id": "bad-type"},
        good[2],
        {**good[3], "id": "no-agent", "agent_id": None},
        good[4],
        {**good[5], "id": "future", "timestamp": future.isoformat()},
        "not an event",
        good[0],  # re-sent in the same batch: a duplicate, not an error
    ]
    response = org.client.post("/api/v1/events/batch", json={"events": batch})
    assert response.status_code == 201, response.text
    body = response.json()
    assert (body["accepted"], body["duplicates"], body["rejected"]) == (3, 1, 4)
    assert [(e["index"], e["id"], e["code"]) for e in body["errors"]] == [
        (1, "bad-type", "INVALID_EVENT_TYPE"),
        (3, "no-agent", "INVALID_REQUEST"),
        (5, "future", "INVALID_REQUEST"),
        (6, None, "INVALID_REQUEST"),
    ]
    assert body["errors"][0]["field"] == "type"
    assert "future" in body["errors"][2]["error"].lower()
    # what was acknowledged is stored: the 3 accepted events, nothing else
    stored = org.client.get("/api/v1/events", params={"agent_id": agent["id"], "limit": 1000}).json()
    assert sorted(item["key"] for item in stored["items"]) == sorted(
        [good[0]["id"], good[2]["id"], good[4]["id"]]
    )


def test_events_are_queried_by_agent_type_and_time_and_paged(live: LiveServer) -> None:
    org = live.organization()
    agent = org.client.post("/api/v1/agents", json={"name": "worker"}).json()
    events = agent_evidence(agent["id"], 5)  # 10 events, newest task first
    assert org.client.post("/api/v1/events/batch", json={"events": events}).json()["accepted"] == 10
    everything = org.client.get("/api/v1/events", params={"agent_id": agent["id"]}).json()
    stamps = [item["timestamp"] for item in everything["items"]]
    assert len(stamps) == 10 and stamps == sorted(stamps) and everything["next_cursor"] is None
    completed = org.client.get(
        "/api/v1/events", params={"agent_id": agent["id"], "type": "task_completed"}
    ).json()["items"]
    assert {item["key"] for item in completed} == {f"task-{i:03d}-c" for i in range(5)}
    # from/to are inclusive bounds on the event timestamp
    middle = completed[1]["timestamp"]
    after = org.client.get("/api/v1/events", params={"agent_id": agent["id"], "from": middle}).json()["items"]
    assert all(item["timestamp"] >= middle for item in after) and after[0]["timestamp"] == middle
    before = org.client.get("/api/v1/events", params={"agent_id": agent["id"], "to": middle}).json()["items"]
    assert before[-1]["timestamp"] == middle and len(before) + len(after) == 11
    keys, cursor = [], None
    while True:
        params = {"agent_id": agent["id"], "limit": 3} | ({"cursor": cursor} if cursor else {})
        page = org.client.get("/api/v1/events", params=params).json()
        keys += [item["key"] for item in page["items"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert keys == [item["key"] for item in everything["items"]]
    assert_error(org.client.get("/api/v1/events"), 400, "INVALID_REQUEST")
    assert_error(
        org.client.get("/api/v1/events", params={"agent_id": agent["id"], "from": "yesterday"}),
        400,
        "INVALID_REQUEST",
    )
