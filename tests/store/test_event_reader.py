"""The fast event reader returns exactly what a plain SQLAlchemy read of the typed table
returns: the same records (ids, agents, types, aware-UTC timestamps, JSON, task ids, keys),
per agent in (timestamp, id) order — on SQLite (DB-API cursor, columns built with ``map``,
ties at one instant put in id order in Python) and PostgreSQL alike."""

from __future__ import annotations

import random
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import select, text

from aaaf.scoring.records import EVENT_TYPES, EventRecord
from aaaf.store import OrgStore, Store, event_reader
from aaaf.store import tables as t
from aaaf.store.engine import read_connection, write_transaction
from aaaf.store.event_reader import read_events, read_events_by_agent
from aaaf.store.sqlite_events import canonical_ids, order_ties_by_id
from tests.sql_statements import statements

from .factories import T0, Event, minutes, org_of


@pytest.fixture()
def org(store: Store) -> OrgStore:
    return org_of(store)


def _payload(kind: str, task_id: str, rng: random.Random) -> dict[str, object]:
    return {
        "task_id": task_id,
        "kind": kind,
        "score": rng.random(),  # floats must come back bit-exact
        "tiny": 1e-17,
        "nested": {"list": [1, 2.5, None, True, "ü"], "empty": {}},
    }


def _fleet(org: OrgStore, agents: int = 5) -> list[uuid.UUID]:
    """Every event type for every agent, with keyed and keyless events, events without a
    task id, and several events at one instant (sent in shuffled batches)."""
    rng = random.Random(7)
    ids = []
    for number in range(agents):
        agent = org.enroll_agent(f"agent-{number}")
        ids.append(agent.id)
        events = []
        for step, kind in enumerate(EVENT_TYPES * 3):
            at = T0 + minutes(step // 4)  # four events per instant: ties
            task_id = None if step % 5 == 0 else f"t{step % 7}"
            key = f"k{step}" if step % 2 else None
            events.append(Event(kind, at, _payload(kind, task_id or "", rng), task_id, key))
        rng.shuffle(events)
        for start in range(0, len(events), 9):
            org.add_events([(agent.id, event) for event in events[start : start + 9]])
    return ids


def _reference(org: OrgStore, agent_ids: Sequence[uuid.UUID], **filters: object) -> dict[uuid.UUID, list]:
    """The plain way: SQLAlchemy Core over the typed table (UUID, UTCDateTime, JSON types)."""
    e = t.events
    query = select(e).where(e.c.agent_id.in_(list(agent_ids)))
    if filters.get("types") is not None:
        query = query.where(e.c.type.in_(filters["types"]))
    if filters.get("since") is not None:
        query = query.where(e.c.timestamp >= filters["since"])
    if filters.get("until") is not None:
        query = query.where(e.c.timestamp <= filters["until"])
    out: dict[uuid.UUID, list] = {agent_id: [] for agent_id in agent_ids}
    with read_connection(org.engine) as connection:
        for row in connection.execute(query.order_by(e.c.agent_id, e.c.timestamp, e.c.id)):
            out[row.agent_id].append(
                EventRecord(
                    id=str(row.id),
                    agent=str(row.agent_id),
                    type=row.type,
                    timestamp=row.timestamp,
                    data=row.data,
                    task_id=row.task_id,
                    key=row.idempotency_key,
                )
            )
    return out


def _fast(org: OrgStore, agent_ids: Sequence[uuid.UUID], **filters: object) -> dict[uuid.UUID, list]:
    with read_connection(org.engine) as connection:
        return read_events_by_agent(connection, agent_ids, **filters)  # type: ignore[arg-type]


def _same(fast: dict[uuid.UUID, list], reference: dict[uuid.UUID, list]) -> None:
    assert list(fast) == list(reference)
    for agent_id, records in reference.items():
        assert fast[agent_id] == records
        for mine, theirs in zip(fast[agent_id], records, strict=True):
            assert type(mine) is EventRecord
            assert mine.timestamp.utcoffset() == timedelta(0)
            assert mine.timestamp.tzinfo is UTC
            assert repr(mine.data) == repr(theirs.data)  # float bits and key order


def test_every_event_type_reads_back_as_the_plain_read(org: OrgStore) -> None:
    ids = _fleet(org)
    reference = _reference(org, ids)
    assert {e.type for records in reference.values() for e in records} == set(EVENT_TYPES)
    assert sum(len(records) for records in reference.values()) == 5 * 3 * len(EVENT_TYPES)
    _same(_fast(org, ids), reference)
    _same(org.events_for_agents(ids), reference)
    for agent_id in ids:
        assert org.events(agent_id) == reference[agent_id]


@pytest.mark.parametrize(
    "filters",
    [
        {"types": ["task_completed", "tool_invoked", "workflow_run"]},
        {"since": T0 + minutes(2), "until": T0 + minutes(5)},
        {"since": (T0 + minutes(3)).astimezone(UTC), "types": ["eval_result"]},
        {"until": T0 - minutes(1)},
    ],
)
def test_filters_match_the_plain_read(org: OrgStore, filters: dict[str, object]) -> None:
    ids = _fleet(org, agents=3)
    _same(_fast(org, ids, **filters), _reference(org, ids, **filters))


def test_small_fetches_change_nothing(org: OrgStore, monkeypatch: pytest.MonkeyPatch) -> None:
    ids = _fleet(org, agents=5)
    reference = _reference(org, ids)
    monkeypatch.setattr(event_reader, "STREAM_BATCH", 7)  # a tie run straddles fetches
    _same(_fast(org, list(reversed(ids))), {agent_id: reference[agent_id] for agent_id in reversed(ids)})


def test_unknown_and_eventless_agents_have_empty_lists(org: OrgStore) -> None:
    busy, idle, stranger = _fleet(org, agents=1)[0], org.enroll_agent("idle").id, uuid.uuid4()
    read = _fast(org, [idle, busy, stranger])
    assert list(read) == [idle, busy, stranger]
    assert read[idle] == [] and read[stranger] == []
    assert len(read[busy]) == 3 * len(EVENT_TYPES)
    assert _fast(org, []) == {}


def test_read_events_streams_by_agent_id_then_time(org: OrgStore) -> None:
    ids = _fleet(org, agents=3)
    reference = _reference(org, ids)
    with read_connection(org.engine) as connection:
        pairs = list(read_events(connection, ids))
    expected = [(agent_id, r) for agent_id in sorted(ids, key=lambda a: a.hex) for r in reference[agent_id]]
    assert pairs == expected


def test_naive_bounds_are_refused(org: OrgStore) -> None:
    agent = org.enroll_agent("a")
    with read_connection(org.engine) as connection, pytest.raises(ValueError, match="naive"):
        read_events_by_agent(connection, [agent.id], since=datetime(2026, 1, 1))


def test_sqlite_ties_are_put_in_id_order_whatever_the_rowid_order(org: OrgStore) -> None:
    """Rows inserted with decreasing ids at one instant: the index yields them in rowid
    order, the reader must still return them in id order (as ORDER BY ... id does)."""
    if org.engine.dialect.name != "sqlite":
        pytest.skip("rowid order is a SQLite notion")
    agent = org.enroll_agent("a")
    stamp = "2026-04-16 12:00:00.000000"
    hex_ids = [f"{n:032x}" for n in (90, 50, 70, 10, 30)]
    with write_transaction(org.engine) as connection:
        for number, event_id in enumerate(hex_ids):
            connection.execute(
                text(
                    "INSERT INTO events (id, agent_id, type, task_id, idempotency_key, timestamp, data)"
                    " VALUES (:id, :agent, 'tool_invoked', 't', NULL, :ts, :data)"
                ),
                {"id": event_id, "agent": agent.id.hex, "ts": stamp, "data": f'{{"n": {number}}}'},
            )
    records = _fast(org, [agent.id])[agent.id]
    assert [r.id.replace("-", "") for r in records] == sorted(hex_ids)
    assert records == _reference(org, [agent.id])[agent.id]
    assert [r.data["n"] for r in records] == [3, 4, 1, 2, 0]


@given(
    st.lists(
        st.tuples(st.integers(0, 4), st.text("0123456789abcdef", min_size=1, max_size=3)),
        max_size=40,
        unique_by=lambda pair: pair[1],
    )
)
def test_tie_ordering_equals_a_full_sort(pairs: list[tuple[int, str]]) -> None:
    # rows come sorted by time only; ids within one instant in any order
    records = [
        EventRecord(id=event_id, agent="a", type="tool_invoked", timestamp=T0 + minutes(at))
        for at, event_id in sorted(pairs, key=lambda pair: pair[0])
    ]
    order_ties_by_id(records)
    assert records == sorted(records, key=lambda r: (r.timestamp, r.id))


def _one_by_one(stored: Sequence[str]) -> list[str]:
    """The canonical texts the plain way: each id cut at 8-4-4-4-12 and joined with dashes."""
    return [f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}" for h in stored]


@given(st.lists(st.uuids(), max_size=60))
def test_stored_ids_get_their_canonical_texts_in_bulk(ids: list[uuid.UUID]) -> None:
    assert canonical_ids(tuple(i.hex for i in ids)) == [str(i) for i in ids]


@pytest.mark.parametrize(
    "stored",
    [
        ["ab", "0" * 32],  # short: no longer 32 digits an id
        ["0" * 31, "1" * 33],  # the right length in all, not each
        ["\n" * 32, "0" * 32],  # a line break, the batch's separator
        ["é" * 32],  # not ASCII
        [],
    ],
)
def test_ids_not_of_32_ascii_characters_are_cut_one_by_one(stored: list[str]) -> None:
    assert canonical_ids(stored) == _one_by_one(stored)


def test_sqlite_reader_appends_the_utc_offset_in_its_query() -> None:
    """SQLite appends ``+00:00`` to the stored naive-UTC text (no Python call per row for it),
    the rows still come in the index's order (ties at one instant in id order), aware UTC."""
    import sqlite3

    from aaaf.store.sqlite_events import read_sqlite_events

    connection = sqlite3.connect(":memory:")
    connection.execute("CREATE TABLE events (id, agent_id, type, task_id, idempotency_key, timestamp, data)")
    connection.execute("CREATE INDEX ix ON events (agent_id, timestamp)")
    agent = uuid.uuid4()
    ids = sorted(uuid.uuid4().hex for _ in range(3))
    rows = [  # inserted out of order: the later instant first, the tie's larger id first
        (ids[0], "2026-11-20 10:00:01.000000"),
        (ids[2], "2026-11-20 10:00:00.500000"),
        (ids[1], "2026-11-20 10:00:00.500000"),
    ]
    connection.executemany(
        "INSERT INTO events VALUES (?, ?, 'tool_invoked', NULL, NULL, ?, '{}')",
        [(event_id, agent.hex, stamp) for event_id, stamp in rows],
    )
    with statements(connection) as sent:
        records = read_sqlite_events(connection, [agent])[agent]
    assert [r.id for r in records] == [str(uuid.UUID(i)) for i in (ids[1], ids[2], ids[0])]
    assert [r.timestamp for r in records] == [
        datetime(2026, 11, 20, 10, 0, 0, 500000, tzinfo=UTC),
        datetime(2026, 11, 20, 10, 0, 0, 500000, tzinfo=UTC),
        datetime(2026, 11, 20, 10, 0, 1, tzinfo=UTC),
    ]
    assert records[0].timestamp.tzinfo is UTC
    (select,) = [s for s in sent if s.startswith("SELECT")]
    assert "timestamp || '+00:00'" in select


def test_helpers_source_reads_as_the_plain_read(org: OrgStore) -> None:
    """``assess --all``'s SQLite source (its own ``sqlite3`` connection, no SQLAlchemy) reads
    what the plain read does."""
    from aaaf.store.event_source import event_source_address, open_event_source

    kind, where = event_source_address(org)
    if kind != "sqlite":
        pytest.skip("the DB-API source is SQLite's")
    ids = _fleet(org, agents=3)
    source = open_event_source((kind, where), org.organization_id, timeout=5.0)
    try:
        _same(source.events_for_agents(ids), _reference(org, ids))
    finally:
        source.close()
