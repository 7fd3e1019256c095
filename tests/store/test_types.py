"""Column types that mean the same on both dialects (SCORING.md §6)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy.engine import make_url

from aaaf.store import Store, open_store
from aaaf.store.engine import normalise_url
from aaaf.store.types import UTCDateTime

from .factories import T0, completed, org_of


def test_naive_datetimes_are_refused_at_bind() -> None:
    from sqlalchemy.dialects import sqlite

    with pytest.raises(ValueError, match="naive"):
        UTCDateTime().process_bind_param(datetime(2026, 1, 1), sqlite.dialect())


def test_results_are_utc_whatever_the_session_time_zone(store_url: str) -> None:
    url = make_url(store_url)
    if url.get_backend_name() != "postgresql":
        pytest.skip("a session time zone is a PostgreSQL setting")
    tokyo = url.update_query_dict({"options": url.query["options"] + " -ctimezone=Asia/Tokyo"})
    with open_store(tokyo.render_as_string(hide_password=False)) as store:
        org = org_of(store)
        agent = org.enroll_agent("a")
        at = datetime(2026, 4, 16, 23, 30, tzinfo=timezone(timedelta(hours=-7)))
        org.add_events([(agent.id, completed("t", at))])
        [event] = org.events(agent.id, since=at, until=at)
        assert event.timestamp == at and event.timestamp.tzinfo == UTC
        assert agent.created_at.tzinfo == UTC


def test_postgres_urls_use_psycopg() -> None:
    assert normalise_url("postgresql://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert normalise_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("sqlite:///x.db") == "sqlite:///x.db"


def test_in_memory_sqlite_works() -> None:
    with open_store("sqlite://") as store:
        org = org_of(store)
        agent = org.enroll_agent("a")
        org.add_events([(agent.id, completed("t", T0))])
        assert org.count_events(agent.id) == 1


def test_fast_event_paths_match_the_typed_columns(store: Store) -> None:
    """add_events and events() bypass the column types for speed; what they write and
    read must be exactly what the typed table (UTCDateTime, Uuid, JSON) writes and reads."""
    from sqlalchemy import insert, select

    from aaaf.store import tables

    org = org_of(store)
    agent = org.enroll_agent("a")
    at = datetime(2026, 4, 16, 9, 15, 30, 250, tzinfo=timezone(timedelta(hours=5, minutes=30)))
    org.add_events([(agent.id, completed("fast", at, key="k", score=0.1))])
    typed_id = uuid.uuid4()
    with store.engine.begin() as connection:
        row = connection.execute(select(tables.events).where(tables.events.c.task_id == "fast")).one()
        connection.execute(
            insert(tables.events).values(
                id=typed_id,
                agent_id=agent.id,
                type="task_assigned",
                task_id="typed",
                timestamp=at,
                data={"task_id": "typed", "x": [1.5]},
            )
        )
    assert row.agent_id == agent.id and isinstance(row.id, uuid.UUID)
    assert row.timestamp == at and row.timestamp.tzinfo == UTC
    assert row.data["score"] == 0.1 and row.idempotency_key == "k"
    by_task = {event.task_id: event for event in org.events(agent.id)}
    assert by_task["fast"].id == str(row.id)
    assert by_task["typed"].id == str(typed_id) and by_task["typed"].timestamp == at
    assert by_task["typed"].data == {"task_id": "typed", "x": [1.5]}
    assert len(org.events(agent.id, since=at, until=at)) == 2
