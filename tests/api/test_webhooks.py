"""Webhooks over HTTP on a live ``aaaf serve`` per database (issue 14 §5–6; document 004 §6.3).

A server started with ``AAAF_WEBHOOK_ALLOW_LOOPBACK=true`` and its background loop on sends
to a real loopback receiver in the test process, which verifies every signature with
``standardwebhooks``: an assessment triggered over HTTP produces a signed
``assessment.completed``; a receiver answering 500 sees the retries with one ``webhook-id``;
410 disables the endpoint; the delivery log and redelivery work.  The shared server (no
flag) refuses loopback targets.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator

import pytest

from tests.api.conftest import (
    LiveServer,
    agent_evidence,
    assert_error,
    poll_until,
    start_server,
    start_worker,
    wait_for_status,
)
from tests.conftest import _PostgresSchema, _require_postgres, copy_sqlite_template
from tests.webhook_receiver import WebhookReceiver

SMALL_MINIMUMS = {"minimum_tasks_performance": 6, "minimum_tasks_capability": 6}
FAST = {"retry_backoff_seconds": 0.05}


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def hooks_live(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    """``aaaf serve`` with loopback targets allowed and its background loop every 0.1 s."""
    log_dir = tmp_path_factory.mktemp(f"hooks-{request.param}")
    schema = None
    if request.param == "sqlite":
        url = f"sqlite:///{copy_sqlite_template(request.getfixturevalue('_sqlite_template'), log_dir / 'aaaf.db')}"
    else:
        _require_postgres()
        schema = _PostgresSchema()
        url = schema.url
    env = {
        "AAAF_WEBHOOK_ALLOW_LOOPBACK": "true",
        "AAAF_BACKGROUND_INTERVAL_SECONDS": "0.1",
        "AAAF_WEBHOOK_TIMEOUT_SECONDS": "5",
    }
    server = start_server(url, log_dir, extra_env=env)
    # on PostgreSQL a worker scores triggered assessments (issue 14); the server sends the
    # deliveries their events leave in the outbox
    worker = (
        start_worker(url, log_dir, env={**env, "AAAF_PUBLIC_BASE_URL": server.base_url})
        if request.param == "postgresql"
        else None
    )
    live = LiveServer(server, request.param, url)
    try:
        yield live
    finally:
        live.close()
        if worker is not None:
            worker.stop()
        server.stop()
        if schema is not None:
            schema.drop()


@pytest.fixture()
def receiver() -> Iterator[WebhookReceiver]:
    with WebhookReceiver() as running:
        yield running


def test_management_create_list_get_patch_delete(hooks_live: LiveServer, receiver: WebhookReceiver) -> None:
    org = hooks_live.organization()
    created = org.client.post(
        "/api/v1/webhooks", json={"url": receiver.url("/m"), "event_types": ["assessment.completed"]}
    )
    assert created.status_code == 201, created.text
    body = created.json()
    assert body["secret"].startswith("whsec_") and len(base64.b64decode(body["secret"][6:])) == 32
    assert (body["active"], body["max_retries"], body["retry_backoff_seconds"]) == (True, 3, 60.0)
    hook_id = body["id"]
    shown = org.client.get(f"/api/v1/webhooks/{hook_id}").json()
    assert "secret" not in shown and shown["url"] == receiver.url("/m")
    listed = org.client.get("/api/v1/webhooks").json()
    assert [item["id"] for item in listed["items"]] == [hook_id] and listed["next_cursor"] is None
    patched = org.client.patch(
        f"/api/v1/webhooks/{hook_id}",
        json={"event_types": ["badge.expiring", "badge.expired"], "max_retries": 5, "active": False},
    )
    assert patched.status_code == 200, patched.text
    assert patched.json()["event_types"] == ["badge.expiring", "badge.expired"]
    assert (patched.json()["max_retries"], patched.json()["active"]) == (5, False)
    assert_error(
        org.client.post(
            "/api/v1/webhooks", json={"url": receiver.url("/x"), "event_types": ["badge.issued"]}
        ),
        400,
        "INVALID_EVENT_TYPE",
    )
    assert_error(
        org.client.post(
            "/api/v1/webhooks", json={"url": "ftp://x.example", "event_types": ["badge.expired"]}
        ),
        400,
        "INVALID_REQUEST",
    )
    reader_key = org.client.post("/api/v1/keys", json={"scopes": ["read"]}).json()["api_key"]
    assert_error(hooks_live.client(reader_key).get("/api/v1/webhooks"), 403, "FORBIDDEN")
    other = hooks_live.organization()
    assert_error(other.client.get(f"/api/v1/webhooks/{hook_id}"), 404, "NOT_FOUND")
    assert_error(other.client.get(f"/api/v1/webhooks/{hook_id}/deliveries"), 404, "NOT_FOUND")
    assert org.client.delete(f"/api/v1/webhooks/{hook_id}").status_code == 204
    assert_error(org.client.get(f"/api/v1/webhooks/{hook_id}"), 404, "NOT_FOUND")


def test_an_assessment_over_http_sends_a_signed_assessment_completed(
    hooks_live: LiveServer, receiver: WebhookReceiver
) -> None:
    org = hooks_live.organization(**SMALL_MINIMUMS)
    hook = org.client.post(
        "/api/v1/webhooks",
        json={"url": receiver.url("/done"), "event_types": ["assessment.started", "assessment.completed"]},
    ).json()
    agent = org.client.post("/api/v1/agents", json={"name": "worker"}).json()
    org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 8)})
    started = org.client.post("/api/v1/assessments", json={"agent_id": agent["id"], "type": "full"})
    assert started.status_code == 202, started.text
    done = wait_for_status(org.client, started.json()["id"])
    assert done["status"] == "completed"
    requests = receiver.wait_for("/done", 2)
    payloads = {r.verify(hook["secret"])["event"]: r.verify(hook["secret"]) for r in requests}
    completed = payloads["assessment.completed"]
    assert completed["data"]["assessment_id"] == done["id"] and completed["data"]["agent_id"] == agent["id"]
    assert completed["data"]["performance_tier"] == done["performance"]["tier"]
    assert completed["data"]["capability_tier"] == done["capability"]["tier"]
    assert set(completed) == {"event", "timestamp", "data"} and completed["timestamp"].endswith("Z")
    assert payloads["assessment.started"]["data"]["assessment_id"] == done["id"]
    for request in requests:
        assert request.headers["webhook-id"].startswith("msg_")
        assert request.headers["webhook-signature"].startswith("v1,")
    log = poll_until(
        lambda: org.client.get(f"/api/v1/webhooks/{hook['id']}/deliveries").json(),
        lambda page: all(item["status"] == "succeeded" for item in page["items"]) and len(page["items"]) == 2,
    )
    assert {item["event"] for item in log["items"]} == {"assessment.started", "assessment.completed"}
    assert all(item["attempts"][0]["status_code"] == 200 for item in log["items"])


def test_retries_keep_the_id_410_disables_and_redelivery(
    hooks_live: LiveServer, receiver: WebhookReceiver
) -> None:
    org = hooks_live.organization(**SMALL_MINIMUMS)
    flaky = org.client.post(
        "/api/v1/webhooks",
        json={
            "url": receiver.url("/flaky", statuses=[500, 500, 200]),
            "event_types": ["assessment.started"],
            **FAST,
        },
    ).json()
    gone = org.client.post(
        "/api/v1/webhooks",
        json={"url": receiver.url("/gone", statuses=[410]), "event_types": ["assessment.started"], **FAST},
    ).json()
    agent = org.client.post("/api/v1/agents", json={"name": "worker"}).json()
    org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 6)})
    started = org.client.post("/api/v1/assessments", json={"agent_id": agent["id"]})
    assert started.status_code == 202, started.text
    requests = receiver.wait_for("/flaky", 3)
    assert len({r.headers["webhook-id"] for r in requests}) == 1
    assert all(r.verify(flaky["secret"])["event"] == "assessment.started" for r in requests)
    log = poll_until(
        lambda: org.client.get(f"/api/v1/webhooks/{flaky['id']}/deliveries").json()["items"],
        lambda items: items and items[0]["status"] == "succeeded",
    )
    [delivery] = log
    assert [a["status_code"] for a in delivery["attempts"]] == [500, 500, 200]
    assert delivery["message_id"] == requests[0].headers["webhook-id"] and delivery["next_attempt_at"] is None
    disabled = poll_until(
        lambda: org.client.get(f"/api/v1/webhooks/{gone['id']}").json(), lambda hook: not hook["active"]
    )
    assert disabled["active"] is False and "410" in disabled["disabled_reason"]
    assert len(receiver.received("/gone")) == 1
    redone = org.client.post(f"/api/v1/webhooks/{flaky['id']}/deliveries/{delivery['id']}/redeliver")
    assert redone.status_code == 202, redone.text
    assert redone.json()["status"] == "pending"
    again = receiver.wait_for("/flaky", 4)
    assert again[-1].headers["webhook-id"] == delivery["message_id"]
    assert_error(
        org.client.post(f"/api/v1/webhooks/{flaky['id']}/deliveries/{delivery['id']}x/redeliver"),
        404,
        "NOT_FOUND",
    )
    gone_delivery = org.client.get(f"/api/v1/webhooks/{gone['id']}/deliveries").json()["items"][0]
    assert_error(
        org.client.post(f"/api/v1/webhooks/{gone['id']}/deliveries/{gone_delivery['id']}/redeliver"),
        409,
        "CONFLICT",
    )


@pytest.mark.parametrize(
    "url",
    ["http://127.0.0.1:9/hook", "http://localhost:9/hook", "http://[::1]/hook", "http://169.254.169.254/"],
)
def test_loopback_targets_are_refused_without_the_flag(live: LiveServer, url: str) -> None:
    org = live.organization()
    error = assert_error(
        org.client.post("/api/v1/webhooks", json={"url": url, "event_types": ["assessment.completed"]}),
        400,
        "INVALID_REQUEST",
    )
    assert error["details"]["field"] == "url" and "AAAF_WEBHOOK_ALLOW_LOOPBACK" in error["message"]
    assert org.client.get("/api/v1/webhooks").json()["items"] == []
