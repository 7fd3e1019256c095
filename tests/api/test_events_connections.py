"""How many pooled connections an events request takes on PostgreSQL (issue 34 §2): one — the
configuration, the agents and the write share one transaction, committed before the answer,
and the API key, read by the organization's first request, is trusted for a few seconds
(:mod:`aaaf.store.verified_keys`).  Each checkout costs a ping, so a request that took five (as
it once did) is slower however fast the COPY is."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, func, select

from aaaf.api import create_app
from aaaf.store import tables as t
from tests.api.conftest import ADMIN_KEY, task_events

pytestmark = pytest.mark.postgres


@pytest.mark.parametrize("store_url", [pytest.param("postgresql", marks=pytest.mark.postgres)], indirect=True)
def test_an_events_request_takes_one_connection(store_url: str) -> None:
    with TestClient(create_app(store_url, admin_key=ADMIN_KEY)) as client:
        checkouts: list[str] = []
        # only the requests' own (routes and dependencies run in AnyIO's worker threads; the
        # usage meter's flush runs elsewhere)
        event.listen(
            client.app.state.store.engine.pool,  # type: ignore[attr-defined]
            "checkout",
            lambda *_: checkouts.append(threading.current_thread().name),
        )
        created = client.post(
            "/api/v1/organizations", json={"name": "pool"}, headers={"Authorization": f"Bearer {ADMIN_KEY}"}
        ).json()
        headers = {"Authorization": f"Bearer {created['api_key']}"}
        agent = client.post("/api/v1/agents", json={"name": "counted"}, headers=headers).json()["id"]
        now = datetime.now(UTC)
        batch = [e for i in range(50) for e in task_events(agent, f"t{i}", now - timedelta(hours=i + 1))]

        checkouts.clear()
        first = client.post("/api/v1/events/batch", json={"events": batch}, headers=headers)
        assert first.status_code == 201 and first.json()["accepted"] == 100
        assert len([name for name in checkouts if name.startswith("AnyIO")]) == 1

        checkouts.clear()  # sent again: every event a duplicate, through the staged path
        again = client.post("/api/v1/events/batch", json={"events": batch}, headers=headers)
        assert again.status_code == 201 and again.json()["duplicates"] == 100
        assert len([name for name in checkouts if name.startswith("AnyIO")]) == 1

        checkouts.clear()
        single = task_events(agent, "single", now)[0]
        assert client.post("/api/v1/events", json=single, headers=headers).status_code == 201
        assert len([name for name in checkouts if name.startswith("AnyIO")]) == 1

        with client.app.state.store.engine.connect() as connection:  # type: ignore[attr-defined]
            stored = connection.execute(select(func.count()).select_from(t.events)).scalar_one()
        assert stored == 101


@pytest.mark.parametrize("store_url", [pytest.param("postgresql", marks=pytest.mark.postgres)], indirect=True)
def test_a_batch_request_is_few_round_trips(store_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Counted at the driver, in the request's threads: the configuration with the agent, the
    partitions' query with the savepoints, the two COPY and the commit — besides the checkout's
    ping (the key, read by the requests before, is not read again: 9 after the key's read when
    the agent was read twice and the write had a SAVEPOINT and a RELEASE of its own)."""
    import psycopg

    with TestClient(create_app(store_url, admin_key=ADMIN_KEY)) as client:
        created = client.post(
            "/api/v1/organizations", json={"name": "trips"}, headers={"Authorization": f"Bearer {ADMIN_KEY}"}
        ).json()
        headers = {"Authorization": f"Bearer {created['api_key']}"}
        agent = client.post("/api/v1/agents", json={"name": "counted"}, headers=headers).json()["id"]
        now = datetime.now(UTC)
        warm = task_events(agent, "warm", now - timedelta(hours=1))  # the month's partition exists
        assert client.post("/api/v1/events/batch", json={"events": warm}, headers=headers).status_code == 201
        batch = [e for i in range(50) for e in task_events(agent, f"t{i}", now - timedelta(hours=i + 2))]
        trips: list[str] = []

        def counted(name: str, real: object) -> object:
            def call(self: object, *args: object, **kwargs: object) -> object:
                if threading.current_thread().name.startswith("AnyIO"):
                    trips.append(name if name == "commit" else " ".join(str(args[0]).split()[:2]))
                return real(self, *args, **kwargs)  # type: ignore[operator]

            return call

        for owner, name in [
            (psycopg.Cursor, "execute"),
            (psycopg.Cursor, "executemany"),
            (psycopg.Cursor, "copy"),
            (psycopg.Connection, "commit"),
        ]:
            monkeypatch.setattr(owner, name, counted(name, getattr(owner, name)))
        answer = client.post("/api/v1/events/batch", json={"events": batch}, headers=headers)
        monkeypatch.undo()
        assert answer.status_code == 201 and answer.json()["accepted"] == 100
        assert [trip for trip in trips if trip != ";"] == [  # ";": a checkout's ping
            "SELECT org_configs.id,",  # and the agent
            "SELECT c.relname",  # and the savepoints
            "COPY event_keys",
            "COPY events",
            "commit",
        ], trips
