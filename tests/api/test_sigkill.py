"""The server killed with SIGKILL in the middle of a batch (issue 13 §5 "Ingestion that never
lies", §7): every event the client saw acknowledged is in the database exactly once, and
re-sending the batch that was not acknowledged stores each of its events once (the ones
already stored count as duplicates).

A server of the test's own (``aaaf serve`` on a SQLite file or a PostgreSQL schema), a client
thread posting 1 000-event batches back to back, SIGKILL while a batch is in flight, a new
server on the same database.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from aaaf.store import open_store
from aaaf.store import tables as t
from tests.api.conftest import ADMIN_KEY, Server, start_server, task_events
from tests.conftest import DIALECTS, _PostgresSchema, _require_postgres

BATCH = 1000
ACKED_BEFORE_KILL = 3
DEADLINE_S = 120.0


@pytest.fixture(params=DIALECTS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{request.getfixturevalue('sqlite_at_head')}"
        return
    _require_postgres()
    schema = _PostgresSchema()
    try:
        yield schema.url
    finally:
        schema.drop()


def _batch(agent_id: str, number: int) -> list[dict[str, Any]]:
    start = datetime.now(UTC) - timedelta(days=1)
    out: list[dict[str, Any]] = []
    for task in range(BATCH // 2):
        out += task_events(agent_id, f"b{number}-t{task}", start + timedelta(seconds=task))
    return out


@dataclass
class Ingest:
    """What the client thread saw: the batches acknowledged, the one in flight when it died."""

    acknowledged: list[list[dict[str, Any]]] = field(default_factory=list)
    in_flight: list[dict[str, Any]] | None = None
    sending: threading.Event = field(default_factory=threading.Event)
    failure: BaseException | None = None


def _post_until_the_server_dies(base_url: str, key: str, agent_id: str, seen: Ingest) -> None:
    with httpx.Client(base_url=base_url, headers={"Authorization": f"Bearer {key}"}, timeout=60) as client:
        number = 0
        while True:
            batch = _batch(agent_id, number)
            seen.in_flight = batch
            seen.sending.set()
            try:
                answer = client.post("/api/v1/events/batch", json={"events": batch})
            except httpx.TransportError:
                return  # killed with this batch in flight: not acknowledged
            seen.sending.clear()
            try:
                assert answer.status_code == 201, answer.text
                body = answer.json()
                assert (body["accepted"], body["duplicates"], body["rejected"]) == (BATCH, 0, 0), body
            except AssertionError as error:
                seen.failure = error
                return
            seen.acknowledged.append(batch)
            seen.in_flight = None
            number += 1


def _stored_keys(database_url: str, agent_id: str) -> dict[str, int]:
    """Each stored idempotency key of the agent with how many rows hold it."""
    events = t.events
    with open_store(database_url) as store, store.engine.connect() as connection:
        rows = connection.execute(
            select(events.c.idempotency_key, func.count())
            .where(events.c.agent_id == uuid.UUID(agent_id))
            .group_by(events.c.idempotency_key)
        ).all()
    return {key: count for key, count in rows}


def test_every_acknowledged_event_survives_sigkill_once(database_url: str, tmp_path: Path) -> None:
    server: Server = start_server(database_url, tmp_path)
    try:
        admin = {"Authorization": f"Bearer {ADMIN_KEY}"}
        org = httpx.post(
            f"{server.base_url}/api/v1/organizations", json={"name": "killed"}, headers=admin
        ).json()
        key = org["api_key"]
        agent = httpx.post(
            f"{server.base_url}/api/v1/agents",
            json={"name": "steady"},
            headers={"Authorization": f"Bearer {key}"},
        ).json()
        seen = Ingest()
        client = threading.Thread(
            target=_post_until_the_server_dies, args=(server.base_url, key, agent["id"], seen), daemon=True
        )
        client.start()
        deadline = time.monotonic() + DEADLINE_S
        # a few batches acknowledged, then the next one is sent: kill the server under it
        while len(seen.acknowledged) < ACKED_BEFORE_KILL or not seen.sending.is_set():
            assert seen.failure is None, seen.failure
            assert client.is_alive(), "the client stopped before the kill"
            assert time.monotonic() < deadline, f"only {len(seen.acknowledged)} batches in {DEADLINE_S} s"
            time.sleep(0.005)
        time.sleep(0.05)  # let the batch reach the server (it may or may not have committed it)
        server.process.kill()  # SIGKILL: no shutdown, no flush
        server.process.wait(timeout=30)
        client.join(timeout=60)
        assert not client.is_alive()
        assert seen.failure is None, seen.failure
        assert seen.in_flight is not None, "the kill did not land on a batch in flight"
    finally:
        server.stop()

    acknowledged = [event["id"] for batch in seen.acknowledged for event in batch]
    unacknowledged = [event["id"] for event in seen.in_flight]
    stored = _stored_keys(database_url, agent["id"])
    # every acknowledged event is there, exactly once; nothing is there that was never sent
    assert all(stored.get(event_id) == 1 for event_id in acknowledged)
    assert set(stored) <= set(acknowledged) | set(unacknowledged)
    assert all(count == 1 for count in stored.values())
    # the batch in flight was stored whole or not at all (one transaction)
    partial = {event_id for event_id in unacknowledged if event_id in stored}
    assert len(partial) in (0, BATCH)

    restarted = start_server(database_url, tmp_path)
    try:
        resent = httpx.post(
            f"{restarted.base_url}/api/v1/events/batch",
            json={"events": seen.in_flight},
            headers={"Authorization": f"Bearer {key}"},
            timeout=60,
        )
        assert resent.status_code == 201, resent.text
        body = resent.json()
        assert body["rejected"] == 0
        assert (body["accepted"], body["duplicates"]) == (BATCH - len(partial), len(partial))
    finally:
        restarted.stop()
    after = _stored_keys(database_url, agent["id"])
    assert set(after) == set(acknowledged) | set(unacknowledged)
    assert all(count == 1 for count in after.values())
