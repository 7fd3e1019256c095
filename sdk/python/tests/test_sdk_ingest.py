"""The SDK's ingestion helper against a live ``aaaf serve`` on SQLite and PostgreSQL (issue 18 §1):
the flush summary counts accepted, duplicate and rejected events (with the bad event's error),
``on_error`` sees each failure, the queue is bounded (block or drop)."""

from __future__ import annotations

import threading
import time
from typing import Any

from aaaf_client import AAAFClient, FailedEvent
from tests.api.conftest import Org

from conftest import make_events, stored_event_keys


def test_ingest_flush_summary_counts_accepted_duplicates_and_rejected(
    live: Any, org: Org, agent_id: str
) -> None:
    failures: list[FailedEvent] = []
    client = AAAFClient(base_url=live.base_url, api_key=org.key, on_error=failures.append)
    events = make_events(agent_id, 2500, prefix="s")
    bad = {**events[0], "id": "bad-1", "type": "no_such_type"}
    for event in events:
        assert client.ingest(event)
    client.ingest(bad)
    first = client.flush()
    assert (first.accepted, first.duplicates, len(first.rejected)) == (2500, 0, 1)
    assert first.rejected[0].code == "INVALID_EVENT_TYPE"
    assert first.rejected[0].event["id"] == "bad-1"
    assert first.rejected[0].details.get("field") == "type"
    assert failures == first.rejected
    for event in events[:700]:  # re-sent: duplicates, never a second copy
        client.ingest(event)
    second = client.close()
    assert (second.accepted, second.duplicates, second.rejected) == (0, 700, [])
    assert sorted(stored_event_keys(org.client, agent_id)) == sorted(e["id"] for e in events)


def test_id_less_events_are_stable_across_resends(live: Any, org: Org, agent_id: str) -> None:
    events = make_events(agent_id, 300, prefix="n", with_ids=False)
    with AAAFClient(base_url=live.base_url, api_key=org.key) as client:
        for event in events:
            client.ingest(event)
        assert client.flush().accepted == 300
        for event in events:
            client.ingest(event)
        again = client.flush()
    assert (again.accepted, again.duplicates) == (0, 300)
    assert len(stored_event_keys(org.client, agent_id)) == 300


def test_flush_interval_sends_without_flush(live: Any, org: Org, agent_id: str) -> None:
    with AAAFClient(base_url=live.base_url, api_key=org.key, flush_interval=0.3) as client:
        for event in make_events(agent_id, 5, prefix="t"):
            client.ingest(event)
        deadline = time.monotonic() + 20
        while len(stored_event_keys(org.client, agent_id)) < 5 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(stored_event_keys(org.client, agent_id)) == 5
        assert client.flush().accepted == 5


def test_bounded_queue_drop_counts_the_dropped(live: Any, org: Org, agent_id: str) -> None:
    # a long interval and flush_at above the queue: nothing is sent until flush()
    client = AAAFClient(
        base_url=live.base_url,
        api_key=org.key,
        max_queue_size=10,
        overflow="drop",
        flush_at=1000,
        flush_interval=60,
    )
    results = [client.ingest(event) for event in make_events(agent_id, 25, prefix="d")]
    assert results == [True] * 10 + [False] * 15
    summary = client.close()
    assert (summary.accepted, summary.dropped) == (10, 15)
    assert len(stored_event_keys(org.client, agent_id)) == 10


def test_bounded_queue_block_waits_for_room(live: Any, org: Org, agent_id: str) -> None:
    client = AAAFClient(
        base_url=live.base_url,
        api_key=org.key,
        max_queue_size=10,
        overflow="block",
        flush_at=1000,
        flush_interval=60,
    )
    events = make_events(agent_id, 11, prefix="b")
    for event in events[:10]:
        client.ingest(event)
    done = threading.Event()

    def eleventh() -> None:
        client.ingest(events[10])
        done.set()

    threading.Thread(target=eleventh, daemon=True).start()
    assert not done.wait(0.5)  # the queue is full: ingest blocks
    assert client.queued == 10
    summary = client.flush()  # the first ten are sent, making room for the eleventh
    assert done.wait(10)
    summary_after = client.close()
    assert summary.accepted + summary_after.accepted == 11
    assert summary.dropped == summary_after.dropped == 0
    assert len(stored_event_keys(org.client, agent_id)) == 11
