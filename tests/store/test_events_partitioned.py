"""Events partitioned by month on PostgreSQL (migration 0021; docs/scaling.md): a database
populated at 0020 keeps every event through the upgrade, idempotency keeps its semantics
across months, retention drops whole months past every organization's retention and deletes
rows for the rest, and one agent's window reads only its months through the index."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from alembic import command
from sqlalchemy import Engine, insert, select, text

from aaaf.store import OrgStore, open_store
from aaaf.store import tables as t
from aaaf.store.engine import build_engine, write_options
from aaaf.store.event_partitions import partitions
from aaaf.store.event_reader import window_query
from aaaf.store.event_writer import Stored
from aaaf.store.migrate import alembic_config, upgrade_to_head

from .factories import completed

pytestmark = pytest.mark.postgres


@pytest.fixture()
def engine(unmigrated_database_url: str) -> Iterator[Engine]:
    if not unmigrated_database_url.startswith("postgresql"):
        pytest.skip("SQLite keeps one events table")
    built = build_engine(unmigrated_database_url)
    yield built
    built.dispose()


def _upgrade(engine: Engine, revision: str) -> None:
    with engine.connect() as connection:
        connection.execution_options(**write_options())
        with connection.begin():
            command.upgrade(alembic_config(connection), revision)


def _agent(connection: Any, org_id: uuid.UUID, name: str) -> uuid.UUID:
    agent_id = uuid.uuid4()
    connection.execute(
        insert(t.agents).values(
            id=agent_id, organization_id=org_id, name=name, claimed_domains=[], tools=[], metadata={}
        )
    )
    return agent_id


def test_a_database_populated_at_0020_keeps_every_event_and_its_keys(engine: Engine) -> None:
    _upgrade(engine, "0020_once_event_type_check")
    org_id = uuid.uuid4()
    months = [datetime(2026, 1, 31, 23, 59, 59, 999999, tzinfo=UTC), datetime(2026, 2, 1, tzinfo=UTC)]
    months.append(datetime(2026, 7, 15, 8, 30, tzinfo=UTC))
    rows: list[dict[str, Any]] = []
    with engine.begin() as connection:
        connection.execute(insert(t.organizations).values(id=org_id, name="o", domain_taxonomy=[]))
        agent_id = _agent(connection, org_id, "a")
        for index, at in enumerate(months):
            event = completed(f"task-{index}", at, key=f"k{index}")
            rows.append(
                {
                    "id": uuid.uuid4(),
                    "agent_id": agent_id,
                    "type": event.type,
                    "task_id": event.task_id,
                    "idempotency_key": event.key,
                    "timestamp": at,
                    "data": dict(event.data),
                    "content_digest": None,
                }
            )
        # a row stored without a key (before 0004 copies could be): it stays keyless
        rows.append({**rows[0], "id": uuid.uuid4(), "idempotency_key": None})
        connection.execute(insert(t.events), rows)
    upgrade_to_head(engine)

    columns = [t.events.c[name] for name in ("id", "agent_id", "type", "task_id", "idempotency_key")]
    columns += [t.events.c.timestamp, t.events.c.data, t.events.c.content_digest]
    with engine.connect() as connection:
        stored = connection.execute(select(*columns).order_by(t.events.c.id)).mappings().all()
        names = set(partitions(connection))
        keys = connection.execute(text("SELECT idempotency_key, timestamp FROM event_keys")).all()
    assert [dict(row) for row in stored] == sorted(rows, key=lambda row: row["id"])
    assert {"events_y2026m01", "events_y2026m02", "events_y2026m07"} <= names
    assert sorted(keys) == [("k0", months[0]), ("k1", months[1]), ("k2", months[2])]

    org = OrgStore(engine, org_id)
    again = [completed(f"task-{index}", at, key=f"k{index}") for index, at in enumerate(months)]
    assert org.add_events([(agent_id, event) for event in again]) == [Stored.DUPLICATE] * 3
    # the same key in another month is the same event with other content: a conflict
    moved = completed("task-0", datetime(2026, 3, 1, tzinfo=UTC), key="k0")
    assert org.add_events([(agent_id, moved)]) == [Stored.CONFLICT]
    # a month with no partition gets one (and the month after it) before the insert
    later = completed("later", datetime(2031, 5, 2, tzinfo=UTC), key="k9")
    assert org.add_events([(agent_id, later)]) == [Stored.NEW]
    assert org.add_events([(agent_id, later)]) == [Stored.DUPLICATE]
    with engine.connect() as connection:
        assert {"events_y2031m05", "events_y2031m06"} <= set(partitions(connection))
    assert org.count_events(agent_id) == 5


def test_keyless_events_are_one_across_requests_and_conflicts_stay_conflicts(store_url: str) -> None:
    """The content digest as key (SCORING.md §1), through event_keys on PostgreSQL."""
    with open_store(store_url) as store:
        org = store.scope(store.create_organization("o").id)
        agent = org.enroll_agent("a")
        first = completed("t", datetime(2026, 5, 1, tzinfo=UTC))
        assert org.add_events([(agent.id, first), (agent.id, first)]) == [Stored.NEW, Stored.DUPLICATE]
        assert org.add_events([(agent.id, first)]) == [Stored.DUPLICATE]
        keyed = completed("t2", datetime(2026, 6, 1, tzinfo=UTC), key="x")
        other = completed("t3", datetime(2026, 6, 1, tzinfo=UTC), key="x")
        assert org.add_events([(agent.id, keyed), (agent.id, other)]) == [Stored.NEW, Stored.CONFLICT]
        assert org.add_events([(agent.id, other)]) == [Stored.CONFLICT]
        assert org.count_events(agent.id) == 2


def test_retention_drops_whole_months_and_deletes_rows_for_the_rest(store_url: str) -> None:
    """Two organizations, 30 and 90 days of retention, now = 2026-11-20: months before
    2026-08-01 (the month of the older cut-off, 2026-08-22) are past both and dropped whole;
    the 30-day organization's rows from 2026-08-01 to its cut-off 2026-10-21 are deleted
    one by one; the counts are those of every event past each organization's cut-off."""
    from aaaf.services.retention import prune_all

    now = datetime(2026, 11, 20, tzinfo=UTC)
    instants = [datetime(2026, month, 10, tzinfo=UTC) for month in (6, 7, 8, 9, 10, 11)]
    with open_store(store_url) as store:
        short = store.scope(store.create_organization("short").id)
        long = store.scope(store.create_organization("long").id)
        short.update_config(event_retention_days=30)
        long.update_config(event_retention_days=90)
        agents = {}
        for name, org in (("short", short), ("long", long)):
            agent = org.enroll_agent(f"{name}-agent")
            agents[name] = agent.id
            assert (
                org.add_events([(agent.id, completed(f"t{i}", at)) for i, at in enumerate(instants)])
                == [Stored.NEW] * 6
            )
        dry = prune_all(store, now=now, dry_run=True)
        counts = prune_all(store, now=now)
        assert dry["short"].events == counts["short"].events == 5  # June .. October 10
        assert dry["long"].events == counts["long"].events == 3  # June, July, August 10
        assert short.count_events(agents["short"]) == 1
        assert long.count_events(agents["long"]) == 3
        with store.engine.connect() as connection:
            if store.dialect == "postgresql":
                names = set(partitions(connection))
                assert not {"events_y2026m06", "events_y2026m07"} & names
                assert {"events_y2026m08", "events_y2026m09"} <= names
                keys = connection.execute(text("SELECT count(*) FROM event_keys")).scalar_one()
                assert keys == 4  # the remaining events' keys only
        # a dropped month's event sent again is stored again, as after a row delete
        again = completed("t0", instants[0])
        assert long.add_events([(agents["long"], again)]) == [Stored.NEW]
        assert prune_all(store, now=now)["long"].events == 1
        assert prune_all(store, now=now)["long"].events == 0


def _plan(connection: Any, query: Any) -> dict[str, Any]:
    compiled = query.compile(dialect=connection.dialect, compile_kwargs={"render_postcompile": True})
    raw = connection.exec_driver_sql(f"EXPLAIN (FORMAT JSON) {compiled}", compiled.params).scalar_one()
    return (raw if isinstance(raw, list) else json.loads(raw))[0]["Plan"]


def _nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", []):
        yield from _nodes(child)


def test_one_agents_window_reads_its_months_through_the_index(store_url: str) -> None:
    """40 agents × 12 months × 40 events; one agent's March–April window plans as index
    scans of the March and April partitions only (by the agent's index), never a
    sequential scan."""
    if not store_url.startswith("postgresql"):
        pytest.skip("SQLite keeps one events table")
    with open_store(store_url) as store:
        org = store.scope(store.create_organization("o").id)
        ids = [org.enroll_agent(f"a{n}").id for n in range(40)]
        items = [
            (agent_id, completed(f"t{month}-{n}", datetime(2025, month, 1, tzinfo=UTC) + timedelta(hours=n)))
            for agent_id in ids
            for month in range(1, 13)
            for n in range(40)
        ]
        assert set(org.add_events(items)) == {Stored.NEW}
        with store.engine.connect() as connection:
            connection.exec_driver_sql("ANALYZE events")
            window = window_query(
                [ids[7]], None, datetime(2025, 3, 5, tzinfo=UTC), datetime(2025, 4, 20, tzinfo=UTC)
            )
            nodes = list(_nodes(_plan(connection, window)))
    scanned = {node["Relation Name"] for node in nodes if "Relation Name" in node}
    assert scanned == {"events_y2025m03", "events_y2025m04"}
    assert not [node for node in nodes if node["Node Type"] == "Seq Scan"]
    # each month through one of its indexes that start with agent_id (the planner picks
    # (agent_id, timestamp) or (agent_id, type) by the rows of the window in that month)
    # (a bitmap heap scan names its index in its child node)
    used = {node["Index Name"] for node in nodes if "Index Name" in node}
    assert all(any(name.startswith(f"{table}_agent_id_") for name in used) for table in scanned), used
    assert all(name.startswith(tuple(scanned)) for name in used), used


def test_an_offset_timestamp_is_stored_in_its_utc_month(store_url: str) -> None:
    """2026-03-31T23:30-02:00 is April in UTC: its partition is April's (and May's after it)."""
    from datetime import timezone

    if not store_url.startswith("postgresql"):
        pytest.skip("SQLite keeps one events table")
    with open_store(store_url) as store:
        org = store.scope(store.create_organization("o").id)
        agent = org.enroll_agent("a")
        late = datetime(2026, 3, 31, 23, 30, tzinfo=timezone(timedelta(hours=-2)))
        assert org.add_events([(agent.id, completed("t", late, key="k"))]) == [Stored.NEW]
        with store.engine.connect() as connection:
            names = set(partitions(connection))
            held = connection.execute(text("SELECT count(*) FROM events_y2026m04")).scalar_one()
        assert {"events_y2026m04", "events_y2026m05"} <= names and "events_y2026m03" not in names
        assert held == 1
