"""The SDK's ingestion helper against a live ``aaaf serve`` on SQLite and PostgreSQL (issue 18 §1):
the flush summary counts accepted, duplicate and rejected events (with the bad event's error),
``on_error`` sees each failure, the queue is bounded (block or drop)."""

from __future__ import annotations

import threading
import time
from typing import Any

from aaaf_client import AAAFClient, FailedEvent
from sdk_helpers import make_events, stored_event_keys
from sdk_proxy import refuse
from tests.api.conftest import Org


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


def test_bounded_queue_drop_counts_the_dropped(proxy_for: Any, org: Org, agent_id: str) -> None:
    # the first chunk is refused once (Retry-After: 2): a full queue drops what comes meanwhile
    proxy = proxy_for([refuse(503, "2")])
    client = AAAFClient(base_url=proxy.base_url, api_key=org.key, max_queue_size=5, overflow="drop")
    results = [client.ingest(event) for event in make_events(agent_id, 30, prefix="d")]
    kept = results.count(True)
    assert 5 <= kept <= 10 and results[:5] == [True] * 5  # at most a chunk in flight and a full queue
    summary = client.close()
    assert (summary.accepted, summary.dropped, summary.rejected) == (kept, 30 - kept, [])
    assert len(stored_event_keys(org.client, agent_id)) == kept


def test_bounded_queue_block_waits_for_room(proxy_for: Any, org: Org, agent_id: str) -> None:
    # the first chunk is refused twice (Retry-After: 1): meanwhile the queue fills and ingest blocks
    proxy = proxy_for([refuse(503, "1"), refuse(503, "1")])
    client = AAAFClient(
        base_url=proxy.base_url, api_key=org.key, max_queue_size=10, overflow="block", flush_interval=60
    )
    events = make_events(agent_id, 21, prefix="b")
    for event in events[:20]:  # ten in flight (a full queue is sent at once), ten queued
        client.ingest(event)
    done = threading.Event()

    def last() -> None:
        client.ingest(events[20])
        done.set()

    threading.Thread(target=last, daemon=True).start()
    assert not done.wait(0.5)  # the queue is full and its first chunk is still being retried
    assert client.queued == 10
    assert done.wait(30)
    summary = client.close()
    assert (summary.accepted, summary.dropped, summary.rejected) == (21, 0, [])
    assert len(stored_event_keys(org.client, agent_id)) == 21


def test_chunks_stay_under_the_body_limit_and_an_oversized_event_is_reported(
    live: Any, org: Org, agent_id: str
) -> None:
    events = make_events(agent_id, 50, prefix="big")
    for event in events:  # ~60 kB each (a field holds at most 64 KiB): about 17 fit one 1 MiB body
        event["data"]["tool"] = "t" * 60_000
    huge = {**make_events(agent_id, 1, prefix="huge")[0]}
    huge["data"] = {**huge["data"], "tool": "h" * 1_100_000}
    with AAAFClient(base_url=live.base_url, api_key=org.key) as client:
        for event in events[:25]:
            client.ingest(event)
        client.ingest(huge)
        for event in events[25:]:
            client.ingest(event)
        summary = client.flush()
    assert summary.accepted == 50
    assert [(f.code, f.event["id"]) for f in summary.rejected] == [("PAYLOAD_TOO_LARGE", "huge-0")]
    assert sorted(stored_event_keys(org.client, agent_id)) == sorted(e["id"] for e in events)
