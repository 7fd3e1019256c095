"""The dashboard's webhooks page in Chromium (issue 17 §4), on SQLite: a failed delivery is
listed (and on the overview), the redeliver button sends it again through the service the
API's redeliver route uses, and a redeliver POST without the CSRF token is refused."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api.conftest import LiveServer, agent_evidence, free_port, poll_until, start_server
from tests.browser.conftest import screenshot
from tests.browser.dashboard_fleet import SMALL_MINIMUMS, sign_in
from tests.conftest import copy_sqlite_template


@pytest.fixture(scope="module")
def hooks_live(tmp_path_factory: pytest.TempPathFactory, _sqlite_template: Path) -> Iterator[LiveServer]:
    """``aaaf serve`` on SQLite with loopback targets allowed and its loop every 0.1 s."""
    log_dir = tmp_path_factory.mktemp("dash-hooks")
    env = {"AAAF_WEBHOOK_ALLOW_LOOPBACK": "true", "AAAF_BACKGROUND_INTERVAL_SECONDS": "0.1"}
    url = f"sqlite:///{copy_sqlite_template(_sqlite_template, log_dir / 'aaaf.db')}"
    server = start_server(url, log_dir, extra_env=env)
    live = LiveServer(server, "sqlite", url)
    try:
        yield live
    finally:
        live.close()
        server.stop()


def _deliveries(org: Any, hook_id: str) -> list[dict[str, Any]]:
    return list(org.client.get(f"/api/v1/webhooks/{hook_id}/deliveries").json()["items"])


def test_a_failed_delivery_is_shown_and_redelivered(hooks_live: LiveServer, page: Any) -> None:
    org = hooks_live.organization(**SMALL_MINIMUMS)
    closed = f"http://127.0.0.1:{free_port()}/hook"  # nothing listens: every attempt fails
    hook = org.client.post(
        "/api/v1/webhooks",
        json={
            "url": closed,
            "event_types": ["assessment.started"],
            "max_retries": 0,
            "retry_backoff_seconds": 0.05,
        },
    ).json()
    agent = org.client.post("/api/v1/agents", json={"name": "hooked"}).json()
    org.client.post("/api/v1/events/batch", json={"events": agent_evidence(agent["id"], 6)})
    assert org.client.post("/api/v1/assessments", json={"agent_id": agent["id"]}).status_code == 202
    failed = poll_until(
        lambda: _deliveries(org, hook["id"]),
        lambda items: bool(items) and items[0]["status"] == "failed",
        timeout=60,
    )
    assert failed and failed[0]["status"] == "failed"
    delivery = failed[0]
    sign_in(page, hooks_live.base_url, org.key)
    assert page.locator("#fail-h").count() == 1
    assert page.locator("a[href^='/webhooks#w-']").count() == 1  # listed on the overview
    page.goto(f"{hooks_live.base_url}/webhooks")
    row = page.locator(f"tr[data-delivery-id='{delivery['id']}']")
    assert row.locator("[data-field='status']").inner_text() == "failed"
    screenshot(page, "dashboard-webhooks-desktop")
    # without the CSRF token: refused, nothing sent again
    refused = page.request.post(
        f"{hooks_live.base_url}/webhooks/{hook['id']}/deliveries/{delivery['id']}/redeliver", form={}
    )
    assert refused.status == 403
    assert _deliveries(org, hook["id"])[0]["last_attempt_at"] == delivery["last_attempt_at"]
    row.locator("button:has-text('Redeliver')").click()
    page.locator("text=is queued to be sent again").wait_for()
    again = poll_until(
        lambda: _deliveries(org, hook["id"])[0],
        lambda item: item["last_attempt_at"] != delivery["last_attempt_at"],
        timeout=60,
    )
    assert again["last_attempt_at"] != delivery["last_attempt_at"]  # sent again, same webhook-id
    assert again["message_id"] == delivery["message_id"]
