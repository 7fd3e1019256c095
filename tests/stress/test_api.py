"""``POST /api/v1/assessments/{id}/stress-test`` on a live server (issue 15 §5): only an
endpoint agent runs, checked like a webhook target (loopback allowed here by
``AAAF_WEBHOOK_ALLOW_LOOPBACK=true``); the run is a record of its own, read back with
``GET /api/v1/stress-runs/{id}``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from aaaf.errors import AAAFError
from aaaf.services.stress import check_agent_url
from aaaf.settings import Settings
from tests.api.conftest import (
    LiveServer,
    agent_evidence,
    assert_error,
    poll_until,
    start_server,
    wait_for_status,
)
from tests.stress.conftest import _Scripted

SMALL_MINIMUMS = {"minimum_tasks_performance": 6, "minimum_tasks_capability": 6}


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.org/v1",
        "http:///v1",
        "http://127.0.0.1:8000/v1",
        "http://10.1.2.3/v1",
        "http://[::1]/v1",
    ],
)
def test_non_public_or_malformed_agent_urls_are_refused(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AAAF_WEBHOOK_ALLOW_LOOPBACK", raising=False)
    with pytest.raises(AAAFError) as caught:
        check_agent_url(url, Settings())
    assert caught.value.details["field"] == "agent_url"


def test_loopback_is_allowed_only_when_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AAAF_WEBHOOK_ALLOW_LOOPBACK", "true")
    assert check_agent_url("http://127.0.0.1:8000/v1", Settings()) == "http://127.0.0.1:8000/v1"


@pytest.fixture()
def loopback_server(
    tmp_path: Path, sqlite_at_head: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[LiveServer]:
    monkeypatch.setenv("AAAF_WEBHOOK_ALLOW_LOOPBACK", "true")
    url = f"sqlite:///{sqlite_at_head}"
    server = start_server(url, tmp_path)
    live = LiveServer(server, "sqlite", url)
    try:
        yield live
    finally:
        live.close()
        server.stop()


def test_a_stress_test_over_http_runs_an_endpoint_agent_and_records_the_run(
    loopback_server: LiveServer, chat_server: tuple[str, type[_Scripted]]
) -> None:
    endpoint, handler = chat_server
    handler.script = [{"content": "30"}]
    org = loopback_server.organization(**SMALL_MINIMUMS)
    agent = org.client.post("/api/v1/agents", json={"name": "endpoint-agent"}).json()
    org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 30)})
    started = org.client.post("/api/v1/assessments", json={"agent_id": agent["id"], "type": "full"})
    assert started.status_code == 202, started.text
    assessment = wait_for_status(org.client, started.json()["id"])
    assert_error(
        org.client.post(
            "/api/v1/assessments/not-an-id/stress-test", json={"agent_url": endpoint, "model": "m"}
        ),
        404,
        "NOT_FOUND",
    )
    response = org.client.post(
        f"/api/v1/assessments/{assessment['id']}/stress-test",
        json={"agent_url": endpoint, "model": "scripted", "task_ids": ["probe-legal-1", "probe-legal-2"]},
    )
    assert response.status_code == 202, response.text
    run = response.json()["stress_run"]
    assert run["adapter"] == "chat_completions" and run["status"] == "queued"
    finished = poll_until(
        lambda: org.client.get(f"/api/v1/stress-runs/{run['id']}").json(),
        lambda body: body["status"] not in ("queued", "running"),
        timeout=240,
    )
    assert finished["status"] == "finished", finished
    assert sorted(r["outcome"] for r in finished["results"]) == ["fail", "pass"]  # "30" is right for one
    assert handler.requests and handler.requests[0]["body"]["model"] == "scripted"
    assert_error(org.client.get("/api/v1/stress-runs/not-a-run"), 404, "NOT_FOUND")
