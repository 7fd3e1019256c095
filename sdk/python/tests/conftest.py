"""Fixtures of the Python SDK's tests (issue 18 §4): the API tests' live ``aaaf serve`` (one per
dialect, SQLite and PostgreSQL), an organization with an all-scopes key, an agent, and helpers
that count an agent's stored events through the API."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from proxy import MisbehavingProxy
from tests.api.conftest import Org, live  # noqa: F401


@pytest.fixture
def org(live: Any) -> Org:  # noqa: F811
    return live.organization()


@pytest.fixture
def agent_id(org: Org) -> str:
    response = org.client.post("/api/v1/agents", json={"name": f"agent-{uuid.uuid4().hex[:8]}"})
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def make_events(
    agent_id: str, count: int, *, prefix: str = "e", with_ids: bool = True
) -> list[dict[str, Any]]:
    """``count`` distinct valid ``tool_invoked`` events (ids ``{prefix}-{n}`` unless ``with_ids``
    is False: then they differ by timestamp and the service derives their ids)."""
    start = datetime.now(UTC) - timedelta(days=1)
    events = []
    for n in range(count):
        event: dict[str, Any] = {
            "agent_id": agent_id,
            "type": "tool_invoked",
            "timestamp": (start + timedelta(milliseconds=n)).isoformat(),
            "data": {
                "task_id": f"{prefix}-task-{n // 10}",
                "tool": "search",
                "success": True,
                "unnecessary": False,
                "error_recovered": False,
            },
        }
        if with_ids:
            event["id"] = f"{prefix}-{n}"
        events.append(event)
    return events


def stored_event_keys(client: httpx.Client, agent_id: str) -> list[str]:
    """Every stored event of the agent (its client key, or the store id), through the API's pages."""
    keys: list[str] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"agent_id": agent_id, "limit": 1000}
        if cursor:
            params["cursor"] = cursor
        page = client.get("/api/v1/events", params=params)
        assert page.status_code == 200, page.text
        body = page.json()
        keys += [item["key"] or item["id"] for item in body["items"]]
        cursor = body["next_cursor"]
        if not cursor:
            return keys


@pytest.fixture
def proxy_for(live: Any) -> Iterator[Any]:  # noqa: F811
    made: list[MisbehavingProxy] = []

    def make(script: list[Any]) -> MisbehavingProxy:
        made.append(MisbehavingProxy(live.base_url, script))
        return made[-1]

    yield make
    for proxy in made:
        proxy.close()
