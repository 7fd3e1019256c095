"""Lists page in SQL by keyset (SCORING.md §7 "Shapes"; issue 13 §5): default 100, at most
1 000, ``next_cursor`` until null — with more rows than a page, on both databases."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

from tests.api.conftest import LiveServer, agent_evidence, assert_error, wait_for_status


def _walk(client: httpx.Client, url: str, **params: Any) -> tuple[list[dict], int]:
    items: list[dict] = []
    cursor = None
    pages = 0
    while True:
        page = client.get(url, params={**params, **({"cursor": cursor} if cursor else {})})
        assert page.status_code == 200, page.text
        body = page.json()
        assert set(body) == {"items", "next_cursor"}
        items += body["items"]
        pages += 1
        cursor = body["next_cursor"]
        if cursor is None:
            return items, pages


def test_events_and_agents_page_past_the_default_limit(live: LiveServer) -> None:
    org = live.organization()
    agent = org.client.post("/api/v1/agents", json={"name": "busy"}).json()
    start = datetime(2026, 11, 1, tzinfo=UTC)
    events = [
        {
            "id": f"tool-{index}",
            "agent_id": agent["id"],
            "type": "tool_invoked",
            # pairs share an instant: the cursor must order ties by id
            "timestamp": (start + timedelta(seconds=index // 2)).isoformat(),
            "data": {
                "task_id": "t-1",
                "tool": "grep",
                "success": True,
                "unnecessary": False,
                "error_recovered": False,
            },
        }
        for index in range(250)
    ]
    sent = org.client.post("/api/v1/events/batch", json={"events": events}).json()
    assert sent["accepted"] == 250, sent
    first = org.client.get("/api/v1/events", params={"agent_id": agent["id"]}).json()
    assert len(first["items"]) == 100 and first["next_cursor"]
    items, pages = _walk(org.client, "/api/v1/events", agent_id=agent["id"])
    assert pages == 3 and len(items) == 250
    assert sorted(item["key"] for item in items) == sorted(event["id"] for event in events)
    assert [(item["timestamp"], item["id"]) for item in items] == sorted(
        (i["timestamp"], i["id"]) for i in items
    )
    everything = org.client.get("/api/v1/events", params={"agent_id": agent["id"], "limit": 1000}).json()
    assert [item["id"] for item in everything["items"]] == [item["id"] for item in items]
    assert everything["next_cursor"] is None
    small, small_pages = _walk(org.client, "/api/v1/events", agent_id=agent["id"], limit=7)
    assert small_pages == 36 and [item["id"] for item in small] == [item["id"] for item in items]
    # a bound and a type filter combine with the cursor
    bounded, _ = _walk(
        org.client,
        "/api/v1/events",
        agent_id=agent["id"],
        limit=10,
        **{"from": (start + timedelta(seconds=100)).isoformat()},
    )
    assert len(bounded) == 50
    assert_error(
        org.client.get("/api/v1/events", params={"agent_id": agent["id"], "cursor": "bm90LWEtY3Vyc29y"}),
        400,
        "INVALID_REQUEST",
    )

    for index in range(105):
        assert org.client.post("/api/v1/agents", json={"name": f"agent-{index:03d}"}).status_code == 201
    agents, agent_pages = _walk(org.client, "/api/v1/agents")
    names = [item["name"] for item in agents]
    assert agent_pages == 2 and len(names) == 106 and names == sorted(names)


def test_keys_assessments_and_appeals_page(live: LiveServer) -> None:
    org = live.organization(minimum_tasks_performance=2, minimum_tasks_capability=2)
    made = [org.client.post("/api/v1/keys", json={"scopes": ["read"]}).json()["id"] for _ in range(4)]
    keys, key_pages = _walk(org.client, "/api/v1/keys", limit=2)
    assert key_pages == 3 and [key["id"] for key in keys][1:] == made  # the first is the organization's own

    agent = org.client.post("/api/v1/agents", json={"name": "assessed"}).json()
    org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 3)})
    started = []
    for _ in range(3):
        assessment = org.client.post("/api/v1/assessments", json={"agent_id": agent["id"]}).json()
        assert wait_for_status(org.client, assessment["id"])["status"] == "completed"
        started.append(assessment["id"])
    assessments, assessment_pages = _walk(org.client, "/api/v1/assessments", limit=2, agent_id=agent["id"])
    assert assessment_pages == 2 and [item["id"] for item in assessments] == started[::-1]  # newest first

    appeal = org.client.post(
        f"/api/v1/assessments/{started[0]}/appeals",
        json={
            "dimensions_challenged": ["accuracy"],
            "justification": "listed",
            "counter_evidence": [{"task_id": "task-000", "claim": "scope change"}],
        },
    ).json()
    appeals, _ = _walk(org.client, f"/api/v1/assessments/{started[0]}/appeals", limit=1)
    assert [item["id"] for item in appeals] == [appeal["id"]]
    assert org.client.get(f"/api/v1/assessments/{started[1]}/appeals").json() == {
        "items": [],
        "next_cursor": None,
    }
    assert_error(org.client.get("/api/v1/assessments/not-an-id/appeals"), 404, "NOT_FOUND")
