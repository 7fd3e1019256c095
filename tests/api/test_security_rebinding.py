"""DNS rebinding (docs/security.md "Outbound requests"): a webhook host that answers a public
address to every check and 127.0.0.1 afterwards gets nothing delivered to loopback — the
connection goes to the address that was checked, resolved once per request."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.api.conftest import LiveServer, Server, agent_evidence, poll_until, start_server
from tests.webhook_receiver import WebhookReceiver

# in the server process each name below resolves to a public address as many times as it is
# checked before its requests, then to loopback: "hook.rebind.test" once (the check when the
# webhook is created; each delivery's one lookup is the one it connects to),
# "agent.rebind.test" twice (when the stress run is created and when its job starts)
SITECUSTOMIZE = """
import socket
_real = socket.getaddrinfo
_public = {"hook.rebind.test": 1, "agent.rebind.test": 2}
_calls = {}

def _rebinding(host, port, *args, **kwargs):
    if host in _public:
        _calls[host] = _calls.get(host, 0) + 1
        address = "93.184.216.34" if _calls[host] <= _public[host] else "127.0.0.1"
        return _real(address, port, *args, **kwargs)
    return _real(host, port, *args, **kwargs)

socket.getaddrinfo = _rebinding
"""


@pytest.fixture()
def rebinding_server(tmp_path: Path, sqlite_at_head: Path) -> Iterator[Server]:
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE)
    server = start_server(
        f"sqlite:///{sqlite_at_head}",
        tmp_path,
        extra_env={"PYTHONPATH": str(site), "AAAF_BACKGROUND_INTERVAL_SECONDS": "0.1"},
    )
    try:
        yield server
    finally:
        server.stop()


def test_a_rebound_webhook_host_gets_nothing_on_loopback(rebinding_server: Server) -> None:
    live = LiveServer(rebinding_server, "sqlite", "")
    try:
        with WebhookReceiver() as receiver:
            org = live.organization(minimum_tasks_performance=2, minimum_tasks_capability=2)
            port = receiver.base_url.rsplit(":", 1)[1]
            created = org.client.post(
                "/api/v1/webhooks",
                json={"url": f"http://hook.rebind.test:{port}/hook", "event_types": ["assessment.started"]},
            )
            assert created.status_code == 201, created.text
            hook = created.json()
            agent = org.client.post("/api/v1/agents", json={"name": "rebound"}).json()
            org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 3)})
            org.client.post("/api/v1/assessments", json={"agent_id": agent["id"]})
            deliveries = poll_until(
                lambda: org.client.get(f"/api/v1/webhooks/{hook['id']}/deliveries").json()["items"],
                # an attempt is logged when it starts (as interrupted) and again with its outcome
                lambda found: any(
                    not (a.get("interrupted") or a.get("in_progress"))
                    for d in found
                    for a in d.get("attempts") or []
                ),
            )
            assert deliveries, "no delivery was attempted"
            assert receiver.received() == [], "a signed webhook was delivered to loopback"
            errors = " ".join(str(d.get("attempts")) for d in deliveries)
            assert "127.0.0.1" in errors and "refused" in errors, deliveries
    finally:
        live.close()


def test_a_rebound_agent_endpoint_gets_nothing_on_loopback(rebinding_server: Server) -> None:
    """A stress run's agent endpoint is checked when the run is created and when its job
    starts (the two public answers), then every request of the run resolves, checks and pins
    again: the loopback endpoint behind the rebound name is never reached, and the task is
    infrastructure-failed (the harness's side), not graded."""
    from tests.api.conftest import wait_for_status
    from tests.stress.endpoints import agent_endpoint

    live = LiveServer(rebinding_server, "sqlite", "")
    try:
        org = live.organization(minimum_tasks_performance=2, minimum_tasks_capability=2)
        agent = org.client.post("/api/v1/agents", json={"name": "rebound-agent"}).json()
        org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 3)})
        started = org.client.post("/api/v1/assessments", json={"agent_id": agent["id"], "type": "full"})
        assert started.status_code == 202, started.text
        assessment = wait_for_status(org.client, started.json()["id"], timeout=120)
        with agent_endpoint(answer="30") as endpoint:
            port = endpoint.url.split("://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1]
            url = endpoint.url.replace(f"127.0.0.1:{port}", f"agent.rebind.test:{port}")
            assert "agent.rebind.test" in url
            answer = org.client.post(
                f"/api/v1/assessments/{assessment['id']}/stress-test",
                json={"agent_url": url, "model": "m", "task_ids": ["probe-legal-1"]},
            )
            assert answer.status_code == 202, answer.text
            run = poll_until(
                lambda: org.client.get(f"/api/v1/stress-runs/{answer.json()['stress_run']['id']}").json(),
                lambda body: body["status"] in ("finished", "failed"),
                timeout=180,
            )
            assert endpoint.requests == [], "the rebound agent endpoint on loopback was reached"
        assert run["status"] == "finished", run
        assert run["summary"]["infrastructure_failed"]["task_ids"] == ["probe-legal-1"], run["summary"]
    finally:
        live.close()
