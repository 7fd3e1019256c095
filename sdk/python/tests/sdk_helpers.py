"""Helpers of the Python SDK's tests (a module of its own, not conftest: test modules import it)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx


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
