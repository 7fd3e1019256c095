"""How often an events request is handed to the thread pool (aaaf.api.routes.events,
aaaf.api.deps): twice — the caller (its key may be read, its rate counted in Redis) and the
route's work.  The dependencies that do no I/O run on the event loop and the answer is checked
there: each dispatch waits for the interpreter lock while another request in the same server
process validates its batch (nine dispatches a request before)."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

import anyio.to_thread
import pytest
from fastapi.testclient import TestClient

from aaaf.api import create_app
from tests.api.conftest import ADMIN_KEY, task_events


def test_an_events_request_is_two_dispatches(store_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    dispatched: Counter[str] = Counter()
    run_sync = anyio.to_thread.run_sync

    async def counted(function: Any, *args: Any, **kwargs: Any) -> Any:
        named = getattr(function, "func", function)  # functools.partial of a route's function
        dispatched[getattr(named, "__name__", repr(named))] += 1
        return await run_sync(function, *args, **kwargs)

    monkeypatch.setattr(anyio.to_thread, "run_sync", counted)
    with TestClient(create_app(store_url, admin_key=ADMIN_KEY)) as client:
        created = client.post(
            "/api/v1/organizations",
            json={"name": "threads"},
            headers={"Authorization": f"Bearer {ADMIN_KEY}"},
        ).json()
        headers = {"Authorization": f"Bearer {created['api_key']}"}
        agent = client.post("/api/v1/agents", json={"name": "counted"}, headers=headers).json()["id"]
        now = datetime.now(UTC)
        batch = [e for i in range(5) for e in task_events(agent, f"t{i}", now - timedelta(hours=i + 1))]

        dispatched.clear()
        answer = client.post("/api/v1/events/batch", json={"events": batch}, headers=headers)
        assert answer.status_code == 201 and answer.json()["accepted"] == 10
        assert sum(dispatched.values()) == 2, dispatched

        dispatched.clear()
        single = task_events(agent, "single", now)[0]
        answer = client.post("/api/v1/events", json=single, headers=headers)
        assert answer.status_code == 201 and answer.json()["accepted"] == 1
        assert sum(dispatched.values()) == 2, dispatched

        dispatched.clear()  # an error raised in the worker thread answers as before
        wrong = client.post("/api/v1/events", json={**single, "type": "no_such_type"}, headers=headers)
        assert wrong.status_code == 400 and wrong.json()["error"]["code"] == "INVALID_EVENT_TYPE"
