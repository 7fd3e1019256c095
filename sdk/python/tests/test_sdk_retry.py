"""Retries of the ingestion helper (issue 18 §1, §4) against a live server, SQLite and
PostgreSQL: 429/502/503/504 and dropped connections are retried honouring ``Retry-After``;
a batch the server stored but whose answer was lost is re-sent with the same ids and never
doubles; a real 429 of an organization's rate limit is honoured; other errors are not retried."""

from __future__ import annotations

import time
from typing import Any

import pytest
from aaaf_client import AAAFClient, FailedEvent
from sdk_helpers import make_events, stored_event_keys
from sdk_proxy import RESET, refuse, swallow
from tests.api.conftest import Org


def test_retries_honour_retry_after_then_deliver(proxy_for: Any, org: Org, agent_id: str) -> None:
    proxy = proxy_for([refuse(503, "1"), refuse(429, "2"), RESET, refuse(504), refuse(502)])
    with AAAFClient(base_url=proxy.base_url, api_key=org.key) as client:
        for event in make_events(agent_id, 50, prefix="r"):
            client.ingest(event)
        summary = client.flush()
    assert (summary.accepted, summary.duplicates, summary.rejected) == (50, 0, [])
    times = proxy.batch_times
    assert len(times) == 6  # five refusals, then the delivery
    assert times[1] - times[0] >= 1.0  # Retry-After: 1
    assert times[2] - times[1] >= 2.0  # Retry-After: 2
    assert sorted(stored_event_keys(org.client, agent_id)) == sorted(f"r-{n}" for n in range(50))


@pytest.mark.parametrize("with_ids", [True, False], ids=["client-ids", "derived-ids"])
def test_a_retried_batch_never_doubles(proxy_for: Any, org: Org, agent_id: str, with_ids: bool) -> None:
    # the first chunk is stored twice over while its answers are lost (503, then 502)
    proxy = proxy_for([swallow(503), swallow(502)])
    events = make_events(agent_id, 1500, prefix="x", with_ids=with_ids)
    with AAAFClient(base_url=proxy.base_url, api_key=org.key) as client:
        for event in events:
            client.ingest(event)
        summary = client.flush()
    assert (summary.accepted, summary.duplicates, summary.rejected) == (500, 1000, [])
    keys = stored_event_keys(org.client, agent_id)
    assert len(keys) == len(set(keys)) == 1500
    if with_ids:
        assert set(keys) == {e["id"] for e in events}


def test_a_real_rate_limit_is_honoured(live: Any) -> None:
    org = live.organization(rate_limit_per_minute=1)
    agent = org.client.post("/api/v1/agents", json={"name": "limited"})  # the one request of this minute
    assert agent.status_code == 201
    failures: list[FailedEvent] = []
    client = AAAFClient(base_url=live.base_url, api_key=org.key, retry_timeout=3, on_error=failures.append)
    for event in make_events(agent.json()["id"], 10, prefix="l"):
        client.ingest(event)
    started = time.monotonic()
    summary = client.close()
    # Retry-After (~60 s) is beyond the retry budget: reported failed at once, not hammered
    assert time.monotonic() - started < 10
    assert summary.accepted == 0 and len(summary.rejected) == 10
    assert {f.code for f in summary.rejected} == {"RATE_LIMITED"}
    assert summary.rejected[0].details["retry_after"] >= 1
    assert failures == summary.rejected


def test_errors_that_retrying_cannot_fix_fail_at_once(live: Any, org: Org, agent_id: str) -> None:
    client = AAAFClient(base_url=live.base_url, api_key="not-a-key")
    for event in make_events(agent_id, 3, prefix="k"):
        client.ingest(event)
    started = time.monotonic()
    summary = client.close()
    assert time.monotonic() - started < 10
    assert len(summary.rejected) == 3 and summary.accepted == 0
    assert summary.rejected[0].code == "UNAUTHORIZED"
    assert stored_event_keys(org.client, agent_id) == []


def test_a_dead_service_fails_the_queue_within_one_retry_budget() -> None:
    from tests.api.conftest import free_port

    failures: list[FailedEvent] = []
    dead = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    client = AAAFClient(base_url=dead, api_key="unused", retry_timeout=3, on_error=failures.append)
    for event in make_events("00000000-0000-0000-0000-000000000000", 5000, prefix="dead"):
        client.ingest(event)
    started = time.monotonic()
    summary = client.close()
    # five chunks share one outage's budget of 3 s (not 3 s each, which would take 15 s)
    assert time.monotonic() - started < 10
    assert summary.accepted == 0 and len(summary.rejected) == 5000 == len(failures)
    assert {f.code for f in summary.rejected} == {"CONNECTION_ERROR"}
