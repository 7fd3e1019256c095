"""The API when its database goes away (issue 34 §7), with a real ``aaaf serve`` on a
PostgreSQL database of the test's own:

* out of reach (no connection accepted, every open one terminated): every request that needs
  the database answers 503 ``SERVICE_UNAVAILABLE`` (§6.4's body) with ``Retry-After``, never
  500; such an answer stored nothing; the connection stays open (the next request on it is
  answered); the server recovers by itself when the database is back;
* backends terminated again and again under load: no answer is a 500, every acknowledged
  event is stored, and the Python SDK (which retries 503) loses none.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.pool import NullPool

from aaaf.store import tables as t
from tests.api.conftest import LiveServer, start_server, task_events
from tests.outages.conftest import OwnDatabase

pytestmark = pytest.mark.postgres


def _stored_ids(database: OwnDatabase, ids: list[str]) -> set[str]:
    engine = create_engine(database.url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            return set(
                connection.execute(
                    select(t.events.c.idempotency_key).where(t.events.c.idempotency_key.in_(ids))
                ).scalars()
            )
    finally:
        engine.dispose()


def _batch(agent: str, prefix: str, tasks: int) -> list[dict]:
    now = datetime.now(UTC)
    return [
        e for i in range(tasks) for e in task_events(agent, f"{prefix}-{i}", now - timedelta(hours=i + 1))
    ]


def test_a_database_out_of_reach_answers_503_with_retry_after_and_stores_nothing(
    own_database: OwnDatabase, tmp_path: Path
) -> None:
    # the webhook sender's loop runs too: its rounds meet the outage and log one line each
    server = start_server(own_database.url, tmp_path, extra_env={"AAAF_BACKGROUND_INTERVAL_SECONDS": "0.2"})
    live = LiveServer(server, "postgresql", own_database.url)
    try:
        org = live.organization()
        agent = org.client.post("/api/v1/agents", json={"name": "steady"}).json()
        events = _batch(agent["id"], "down", 3)
        host, port = server.base_url.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=30)
        headers = {"Authorization": f"Bearer {org.key}", "Content-Type": "application/json"}
        body = json.dumps({"events": events})
        with own_database.down():
            answers = []
            for _ in range(3):  # the same connection each time: kept open after a 503
                connection.request("POST", "/api/v1/events/batch", body=body, headers=headers)
                response = connection.getresponse()
                answers.append((response.status, dict(response.getheaders()), json.loads(response.read())))
                socket_after = connection.sock
                assert socket_after is not None, "the server closed the connection after its answer"
            connection.request(
                "POST", "/api/v1/assessments", body=json.dumps({"agent_id": agent["id"]}), headers=headers
            )
            trigger = connection.getresponse()
            trigger_body = json.loads(trigger.read())
            assert connection.sock is socket_after  # still the one connection
            time.sleep(1.5)  # a few rounds of the sender's loop
        for status, response_headers, answer in answers:
            assert status == 503, answer
            assert int(response_headers["retry-after"]) >= 1
            assert answer["error"]["code"] == "SERVICE_UNAVAILABLE"
            assert answer["error"]["details"]["outcome"] == "not_stored"
            assert set(answer["error"]) == {"code", "message", "details"}
        assert trigger.status == 503, trigger_body
        assert _stored_ids(own_database, [e["id"] for e in events]) == set()  # a 503 stored nothing
        assert live.anonymous.get("/health").status_code == 200  # back by itself
        connection.request("POST", "/api/v1/events/batch", body=body, headers=headers)
        again = connection.getresponse()
        stored = json.loads(again.read())
        assert again.status == 201, stored
        assert stored["accepted"] == len(events)
        assert _stored_ids(own_database, [e["id"] for e in events]) == {e["id"] for e in events}
        log = server.log()
        assert " 500 " not in log and "Traceback" not in log, log
        assert "background round skipped, the database is unavailable" in log, log
        connection.close()
    finally:
        live.close()
        server.stop()


def test_backends_terminated_under_load_lose_no_acknowledged_event(
    own_database: OwnDatabase, tmp_path: Path
) -> None:
    from aaaf_client import AAAFClient

    server = start_server(own_database.url, tmp_path)
    live = LiveServer(server, "postgresql", own_database.url)
    try:
        org = live.organization()
        agent = org.client.post("/api/v1/agents", json={"name": "busy"}).json()
        statuses: list[int] = []
        acknowledged: list[str] = []
        lock = threading.Lock()

        broken: list[str] = []  # a connection the server reset or closed under a client

        def post_batches(thread: int) -> None:
            client = live.client(org.key)
            for round_ in range(12):
                events = _batch(agent["id"], f"load-{thread}-{round_}", 20)
                try:
                    response = client.post("/api/v1/events/batch", json={"events": events})
                except httpx.TransportError as error:
                    with lock:
                        broken.append(f"{type(error).__name__}: {error}")
                    return
                with lock:
                    statuses.append(response.status_code)
                    if response.status_code in (200, 201):
                        acknowledged.extend(e["id"] for e in events)

        sdk_events = _batch(agent["id"], "sdk", 200)
        with own_database.terminating_every(0.15) as rounds:
            threads = [threading.Thread(target=post_batches, args=(n,)) for n in range(3)]
            for thread in threads:
                thread.start()
            with AAAFClient(server.base_url, org.key, flush_at=50, retry_timeout=60) as sdk:
                for event in sdk_events:
                    sdk.ingest(event)
                summary = sdk.flush(timeout=120)
            for thread in threads:
                thread.join(120)
        assert sum(rounds) > 0  # connections were cut while the load ran
        # a 503 keeps the connection open: the client's next request on it is answered
        assert broken == [], server.log()
        assert 500 not in statuses, server.log()
        assert set(statuses) <= {200, 201, 503}
        stored = _stored_ids(own_database, acknowledged)
        assert stored == set(acknowledged)  # every acknowledged event is stored
        assert not summary.rejected and summary.dropped == 0
        assert summary.accepted + summary.duplicates == len(sdk_events)  # the SDK retried its 503s
        sdk_ids = [e["id"] for e in sdk_events]
        assert _stored_ids(own_database, sdk_ids) == set(sdk_ids)
        engine = create_engine(own_database.url, poolclass=NullPool)
        with engine.connect() as connection:  # each stored once, however often it was sent
            keys = connection.execute(select(t.events.c.idempotency_key)).scalars().all()
        engine.dispose()
        assert len(keys) == len(set(keys))
        assert "Traceback" not in server.log()
    finally:
        live.close()
        server.stop()
