"""The other hot path: reading agents' events back as ``EventRecord``s quickly.

An assessment reads every event of an agent (``assess --all`` every event of many), so
per-row work is kept to what the record needs.  ``EventRecord.id`` and ``.agent`` are
strings, so UUID objects are never built.  Each agent's events come in (timestamp, id)
order — id order is insertion order within an instant, ids being time-ordered.

SQLite (the benchmarked path) reads through the DB-API cursor with
:func:`aaaf.store.sqlite_events.read_sqlite_events` (no SQLAlchemy per row; see there how the
records are built and ordered).  PostgreSQL reads through SQLAlchemy Core (the UUIDs cast
to text in SQL, timestamps through ``UTCDateTime``) with ``ORDER BY agent_id, timestamp, id``.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from functools import partial
from typing import Any, cast

from sqlalchemy import Connection, Text, select
from sqlalchemy import cast as sql_cast

from aaaf.scoring.records import EventRecord
from aaaf.store import tables as t
from aaaf.store.event_writer import sqlite_timestamp
from aaaf.store.sqlite_events import read_sqlite_events

# rows fetched per round trip when streaming many agents' events
STREAM_BATCH = 5_000

_new_record = cast(Callable[[Iterable[Any]], EventRecord], partial(tuple.__new__, EventRecord))


def _check_bounds(since: datetime | None, until: datetime | None) -> None:
    for bound in (since, until):
        if bound is not None and bound.tzinfo is None:
            raise ValueError(f"naive datetime {bound!r}: time bounds must carry a UTC offset")


def read_events_by_agent(
    connection: Connection,
    agent_ids: Sequence[uuid.UUID],
    *,
    types: Sequence[str] | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
) -> dict[uuid.UUID, list[EventRecord]]:
    """Each agent's events in (timestamp, id) order; every requested agent has an entry
    (possibly empty), in ``agent_ids`` order.  ``since``/``until`` are inclusive."""
    _check_bounds(since, until)
    out: dict[uuid.UUID, list[EventRecord]] = {agent_id: [] for agent_id in agent_ids}
    if not out:
        return out
    if connection.dialect.name == "sqlite":
        _read_sqlite(connection, out, types, since, until)
    else:
        _read_typed(connection, out, types, since, until)
    return out


def read_events(
    connection: Connection,
    agent_ids: Sequence[uuid.UUID],
    *,
    types: Sequence[str] | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
) -> Iterator[tuple[uuid.UUID, EventRecord]]:
    """``(agent_id, record)`` for the agents' events, by agent (in ``agent_ids`` order
    when there is one agent, else by id), then timestamp, then event id.  ``since``/``until``
    are inclusive."""
    grouped = read_events_by_agent(connection, agent_ids, types=types, since=since, until=until)
    for agent_id in sorted(grouped, key=_uuid_hex):
        for record in grouped[agent_id]:
            yield agent_id, record


def _uuid_hex(agent_id: uuid.UUID) -> str:
    return agent_id.hex


def _read_sqlite(
    connection: Connection,
    out: dict[uuid.UUID, list[EventRecord]],
    types: Sequence[str] | None,
    since: datetime | None,
    until: datetime | None,
) -> None:
    out.update(
        read_sqlite_events(
            connection.connection,
            list(out),
            types=types,
            since=None if since is None else sqlite_timestamp(since),
            until=None if until is None else sqlite_timestamp(until),
            stream_batch=STREAM_BATCH,
        )
    )


# --------------------------------------------------------------------------- PostgreSQL


def window_query(
    agent_ids: Sequence[uuid.UUID],
    types: Sequence[str] | None,
    since: datetime | None,
    until: datetime | None,
) -> Any:
    """The hot read on PostgreSQL: the agents' events (of ``types``) in ``[since, until]``,
    in order.  On the partitioned table it reads only the months of the window, each
    through its ``(agent_id, timestamp)`` index (a test checks the plan)."""
    events = t.events
    query: Any = select(
        sql_cast(events.c.agent_id, Text),
        sql_cast(events.c.id, Text),
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
    return query.order_by(events.c.agent_id, events.c.timestamp, events.c.id)


def _read_typed(
    connection: Connection,
    out: dict[uuid.UUID, list[EventRecord]],
    types: Sequence[str] | None,
    since: datetime | None,
    until: datetime | None,
) -> None:
    lists = {str(agent_id): records for agent_id, records in out.items()}
    query = window_query(list(out), types, since, until)
    result = connection.execution_options(yield_per=STREAM_BATCH).execute(query)
    for rows in result.partitions():
        for agent_text, event_id, event_type, timestamp, data, task_id, key in rows:
            lists[agent_text].append(
                _new_record((event_id, agent_text, event_type, timestamp, data, task_id, key))
            )
