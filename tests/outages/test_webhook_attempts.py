"""Every webhook delivery attempt is in the delivery's log (issue 34 §7): one cut off by a
crash of the sending server (SIGKILL of a real ``aaaf serve`` while the endpoint holds the
request) is there, ``interrupted``, beside the retry that delivered it — the endpoint saw two
requests, the log has two attempts; and a connection reset is logged with the real error,
not an empty ``ReadError: ``."""

from __future__ import annotations

import os
import signal
import socket
import struct
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from aaaf.services import webhooks as webhook_service
from aaaf.services.issuer import secret_box
from aaaf.services.webhook_delivery import deliver_due
from aaaf.settings import Settings
from aaaf.store import open_store
from tests.api.conftest import start_server
from tests.jobs.test_crash_safety import wait_for
from tests.webhook_receiver import WebhookReceiver

LOOPBACK = Settings(webhook_allow_loopback=True, webhook_timeout_seconds=5.0)


def _subscribe(store: Any, org: Any, url: str) -> Any:
    return webhook_service.create_webhook(
        org,
        secret_box(store),
        url,
        ["badge.expired"],
        now=datetime.now(UTC),
        settings=LOOPBACK,
        retry_backoff_seconds=0.05,
    )


def test_an_attempt_cut_off_by_a_crash_is_logged(store_url: str, tmp_path: Path) -> None:
    with WebhookReceiver() as receiver, open_store(store_url) as store:
        org = store.scope(store.create_organization("crashing").id)
        hook = _subscribe(store, org, receiver.url("/hold", delay=600))
        webhook_service.emit(org, "badge.expired", {"badge_id": "b"}, now=datetime.now(UTC))
        env = {
            "AAAF_BACKGROUND_INTERVAL_SECONDS": "0.2",
            "AAAF_WEBHOOK_ALLOW_LOOPBACK": "true",
            "AAAF_WEBHOOK_TIMEOUT_SECONDS": "1",
            "AAAF_WEBHOOK_LEASE_MARGIN_SECONDS": "2",  # the lease: 2 × 1 s + 2 s
        }
        server = start_server(store_url, tmp_path, extra_env=env)
        try:
            receiver.wait_for("/hold", 1, timeout=60)
            os.kill(server.process.pid, signal.SIGKILL)  # mid-attempt: the endpoint holds it
            server.process.wait(30)
        finally:
            server.stop()
        [cut_off] = org.webhook_deliveries(hook.webhook.id)
        assert cut_off.status == "pending" and cut_off.attempt_count == 1
        [interrupted] = cut_off.attempts
        assert interrupted["interrupted"] is True and interrupted["attempt"] == 1
        assert "interrupted" in interrupted["error"]
        receiver.url("/hold")  # answers at once now
        restarted = start_server(store_url, tmp_path, extra_env=env)
        try:
            wait_for(
                lambda: org.webhook_deliveries(hook.webhook.id)[0].status == "succeeded",
                timeout=120,
                what=f"the retry after the lease:\n{restarted.log()}",
            )
        finally:
            restarted.stop()
        [delivered] = org.webhook_deliveries(hook.webhook.id)
        seen = receiver.received("/hold")
        assert len(seen) == 2 and len({r.headers["webhook-id"] for r in seen}) == 1
        assert delivered.attempt_count == 2
        assert [
            (a["attempt"], a.get("interrupted", False), a["status_code"]) for a in delivered.attempts
        ] == [
            (1, True, None),
            (2, False, 200),
        ]


@pytest.fixture
def resetting_endpoint() -> Iterator[str]:
    """A TCP endpoint that reads a request and resets the connection (RST, no answer)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            connection.recv(65536)
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            connection.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/reset"
    finally:
        stop.set()
        listener.close()


def test_a_reset_connection_is_logged_with_the_real_error(store: Any, resetting_endpoint: str) -> None:
    org = store.scope(store.create_organization("resets").id)
    hook = _subscribe(store, org, resetting_endpoint)
    webhook_service.emit(org, "badge.expired", {"badge_id": "b"}, now=datetime.now(UTC))
    summary = deliver_due(store, now=datetime.now(UTC), settings=LOOPBACK)
    assert summary.retrying == 1
    [delivery] = org.webhook_deliveries(hook.webhook.id)
    [attempt] = delivery.attempts
    assert attempt["status_code"] is None and not attempt.get("interrupted")
    assert "reset by peer" in attempt["error"] or "disconnected" in attempt["error"], attempt["error"]
    assert not attempt["error"].rstrip().endswith(":")
    assert delivery.last_error == attempt["error"]
