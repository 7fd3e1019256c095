"""The other hot path: reading agents' events back as ``EventRecord``s quickly.

An assessment reads every event of an agent (``assess --all`` every event of many), so
per-row work is kept to what the record needs.  ``EventRecord.id`` and ``.agent`` are
strings, so UUID objects are never built.  Each agent's events come in (timestamp, id)
order — id order is insertion order within an instant, ids being time-ordered.

SQLite (the benchmarked path) reads through the DB-API cursor and builds the records
column by column with ``map`` over C functions, so no Python bytecode runs per row:

* the stored 32-hex-digit id is cut by one ``itemgetter`` of slices and joined with
  dashes (the canonical UUID text);
* the naive-UTC text timestamp (``YYYY-MM-DD HH:MM:SS.ffffff``, as
  :mod:`aaaf.store.event_writer` and ``UTCDateTime`` store it) gets a ``+00:00`` suffix
  and ``datetime.fromisoformat`` returns it aware, with the ``datetime.UTC`` singleton
  as its zone — the same value as parsing it naive and attaching UTC, several times
  cheaper;
* JSON is decoded with orjson; the record is ``tuple.__new__(EventRecord, row)``.

The rows are fetched in the index's order (``agent_id, timestamp, rowid``): ordering by
``id`` in SQL would make SQLite sort every agent's rows in a temporary B-tree.  Rows
of one agent at one instant are then put in id order here; such runs are short and
rare, and the id text (fixed-width lowercase hex, dashes at fixed places) sorts in
Python exactly as SQLite's binary collation sorts the stored hex.

PostgreSQL reads through SQLAlchemy Core (the UUIDs cast to text in SQL, timestamps
through ``UTCDateTime``) with ``ORDER BY agent_id, timestamp, id``.
"""

from __future__ import annotations

import uuid
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from functools import partial
from itertools import compress, islice
from operator import eq, itemgetter
from typing import Any, cast

import orjson
from sqlalchemy import Connection, Text, select
from sqlalchemy import cast as sql_cast

from aaaf.scoring.records import EventRecord
from aaaf.store import tables as t
from aaaf.store.event_writer import sqlite_timestamp

# rows fetched per round trip when streaming many agents' events
STREAM_BATCH = 5_000
# agents per SQLite query, well under SQLite's bound-variable limit
SQLITE_AGENTS_PER_QUERY = 500

_split_uuid_hex = itemgetter(slice(0, 8), slice(8, 12), slice(12, 16), slice(16, 20), slice(20, 32))
_join_with_dashes = "-".join
_with_utc_offset = "{}+00:00".format
_new_record = cast(Callable[[Iterable[Any]], EventRecord], partial(tuple.__new__, EventRecord))
_record_id = itemgetter(0)  # EventRecord.id


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


# --------------------------------------------------------------------------- SQLite


def _sqlite_query(agents: int, types: Sequence[str] | None, since: str | None, until: str | None) -> str:
    where = [f"agent_id IN ({', '.join('?' * agents)})"]
    if types is not None:
        where.append(f"type IN ({', '.join('?' * len(types))})")
    if since is not None:
        where.append("timestamp >= ?")
    if until is not None:
        where.append("timestamp <= ?")
    return (
        "SELECT agent_id, id, type, timestamp, data, task_id, idempotency_key FROM events"
        f" WHERE {' AND '.join(where)} ORDER BY agent_id, timestamp, rowid"
    )


def _read_sqlite(
    connection: Connection,
    out: dict[uuid.UUID, list[EventRecord]],
    types: Sequence[str] | None,
    since: datetime | None,
    until: datetime | None,
) -> None:
    # by stored (hex) id: the order the rows come in, so each batch's agents are a run
    by_hex = sorted((agent_id.hex, agent_id) for agent_id in out)
    since_text = None if since is None else sqlite_timestamp(since)
    until_text = None if until is None else sqlite_timestamp(until)
    tail: list[Any] = list(types) if types is not None else []
    tail.extend(bound for bound in (since_text, until_text) if bound is not None)
    loads = orjson.loads
    parse = datetime.fromisoformat
    cursor = connection.connection.cursor()
    try:
        for start in range(0, len(by_hex), SQLITE_AGENTS_PER_QUERY):
            chunk = by_hex[start : start + SQLITE_AGENTS_PER_QUERY]
            lists = {agent_hex: out[agent_id] for agent_hex, agent_id in chunk}
            texts = {agent_hex: str(agent_id) for agent_hex, agent_id in chunk}
            cursor.execute(
                _sqlite_query(len(chunk), types, since_text, until_text),
                [agent_hex for agent_hex, _ in chunk] + tail,
            )
            while rows := cursor.fetchmany(STREAM_BATCH):
                agent_col, id_col, type_col, ts_col, data_col, task_col, key_col = zip(*rows, strict=True)
                records = list(
                    map(
                        _new_record,
                        zip(
                            map(_join_with_dashes, map(_split_uuid_hex, id_col)),
                            map(texts.__getitem__, agent_col),
                            type_col,
                            map(parse, map(_with_utc_offset, ts_col)),
                            map(loads, data_col),
                            task_col,
                            key_col,
                            strict=True,
                        ),
                    )
                )
                # the rows are sorted by agent: one slice per agent of this batch
                first = 0
                while first < len(records):
                    agent_hex = agent_col[first]
                    end = bisect_right(agent_col, agent_hex, first)
                    lists[agent_hex].extend(records[first:end])
                    first = end
            for agent_hex, _ in chunk:
                _order_ties_by_id(lists[agent_hex])
    finally:
        cursor.close()


def _order_ties_by_id(records: list[EventRecord]) -> None:
    """Put runs of equal timestamps (in rowid order from the index) in id order, in place."""
    if len(records) < 2:
        return
    stamps = [record.timestamp for record in records]
    ties = list(compress(range(len(stamps) - 1), map(eq, stamps, islice(stamps, 1, None))))
    if not ties:
        return
    run_start = ties[0]
    previous = run_start
    for index in [*ties[1:], -2]:
        if index != previous + 1:  # the run [run_start, previous + 1] ends here
            run_end = previous + 2
            records[run_start:run_end] = sorted(records[run_start:run_end], key=_record_id)
            run_start = index
        previous = index


# --------------------------------------------------------------------------- PostgreSQL


def _read_typed(
    connection: Connection,
    out: dict[uuid.UUID, list[EventRecord]],
    types: Sequence[str] | None,
    since: datetime | None,
    until: datetime | None,
) -> None:
    events = t.events
    lists = {str(agent_id): records for agent_id, records in out.items()}
    query: Any = select(
        sql_cast(events.c.agent_id, Text),
        sql_cast(events.c.id, Text),
        events.c.type,
        events.c.timestamp,
        events.c.data,
        events.c.task_id,
        events.c.idempotency_key,
    ).where(events.c.agent_id.in_(list(out)))
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
            lists[agent_text].append(
                _new_record((event_id, agent_text, event_type, timestamp, data, task_id, key))
            )
