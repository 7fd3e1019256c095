"""The other hot path: reading an agent's events back as ``EventRecord``s quickly.

An assessment reads every event of an agent (``assess --all`` every event of many), so
per-row work is kept to what the record needs.  ``EventRecord.id`` and ``.agent`` are
strings, so UUID objects are never built: on SQLite the stored 32-hex-digit text is
formatted directly, on PostgreSQL the UUID is cast to text in SQL.  SQLite timestamps
(naive-UTC text, as :mod:`aaaf.store.event_writer` and ``UTCDateTime`` store them) are
parsed with ``datetime.fromisoformat``; JSON is decoded with orjson.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

import orjson
from sqlalchemy import Connection, Text, cast, select

from aaaf.scoring.records import EventRecord
from aaaf.store import tables as t
from aaaf.store.event_writer import sqlite_events_table, sqlite_timestamp

# rows fetched per round trip when streaming many agents' events
STREAM_BATCH = 5_000


def _hex_to_text(value: str) -> str:
    return f"{value[0:8]}-{value[8:12]}-{value[12:16]}-{value[16:20]}-{value[20:32]}"


def read_events(
    connection: Connection,
    agent_ids: Sequence[uuid.UUID],
    *,
    types: Sequence[str] | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
) -> Iterator[tuple[uuid.UUID, EventRecord]]:
    """``(agent_id, record)`` for the agents' events, by agent (in ``agent_ids`` order
    when there is one agent, else by id), then timestamp, then event id (= insertion
    order within an instant: ids are time-ordered).  ``since``/``until`` are inclusive."""
    if not agent_ids:
        return
    for bound in (since, until):
        if bound is not None and bound.tzinfo is None:
            raise ValueError(f"naive datetime {bound!r}: time bounds must carry a UTC offset")
    if connection.dialect.name == "sqlite":
        yield from _read_sqlite(connection, agent_ids, types, since, until)
    else:
        yield from _read_typed(connection, agent_ids, types, since, until)


def _read_sqlite(
    connection: Connection,
    agent_ids: Sequence[uuid.UUID],
    types: Sequence[str] | None,
    since: datetime | None,
    until: datetime | None,
) -> Iterator[tuple[uuid.UUID, EventRecord]]:
    table = sqlite_events_table
    agents = {agent_id.hex: (agent_id, str(agent_id)) for agent_id in agent_ids}
    query = select(
        table.c.agent_id,
        table.c.id,
        table.c.type,
        table.c.timestamp,
        table.c.data,
        table.c.task_id,
        table.c.idempotency_key,
    ).where(table.c.agent_id.in_(list(agents)))
    if types is not None:
        query = query.where(table.c.type.in_(list(types)))
    if since is not None:
        query = query.where(table.c.timestamp >= sqlite_timestamp(since))
    if until is not None:
        query = query.where(table.c.timestamp <= sqlite_timestamp(until))
    query = query.order_by(table.c.agent_id, table.c.timestamp, table.c.id)
    loads = orjson.loads
    parse = datetime.fromisoformat
    result = connection.execution_options(yield_per=STREAM_BATCH).execute(query)
    for rows in result.partitions():
        for agent_hex, id_hex, event_type, timestamp, data, task_id, key in rows:
            agent_id, agent_text = agents[agent_hex]
            yield (
                agent_id,
                EventRecord(
                    id=_hex_to_text(id_hex),
                    agent=agent_text,
                    type=event_type,
                    timestamp=parse(timestamp).replace(tzinfo=UTC),
                    data=loads(data),
                    task_id=task_id,
                    key=key,
                ),
            )


def _read_typed(
    connection: Connection,
    agent_ids: Sequence[uuid.UUID],
    types: Sequence[str] | None,
    since: datetime | None,
    until: datetime | None,
) -> Iterator[tuple[uuid.UUID, EventRecord]]:
    events = t.events
    agents = {str(agent_id): agent_id for agent_id in agent_ids}
    query: Any = select(
        cast(events.c.agent_id, Text),
        cast(events.c.id, Text),
        events.c.type,
        events.c.timestamp,
        events.c.data,
        events.c.task_id,
        events.c.idempotency_key,
    ).where(events.c.agent_id.in_(list(agent_ids)))
    if types is not None:
        query = query.where(events.c.type.in_(list(types)))
    if since is not None:
        query = query.where(events.c.timestamp >= since)
    if until is not None:
        query = query.where(events.c.timestamp <= until)
    query = query.order_by(events.c.agent_id, events.c.timestamp, events.c.id)
    result = connection.execution_options(yield_per=STREAM_BATCH).execute(query)
    for rows in result.partitions():
        for agent_text, event_id, event_type, timestamp, data, task_id, key in rows:
            yield (
                agents[agent_text],
                EventRecord(
                    id=event_id,
                    agent=agent_text,
                    type=event_type,
                    timestamp=timestamp,
                    data=data,
                    task_id=task_id,
                    key=key,
                ),
            )
