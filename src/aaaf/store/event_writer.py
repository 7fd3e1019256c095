"""The hot path: writing many events quickly, idempotently (SCORING.md §1, §6).

``make bench`` stores a million events and must keep up with a plain ``sqlite3``
executemany of the same rows, so this path avoids everything per-row that is not
needed:

* Core ``insert()`` executemany in chunks, no ORM objects;
* event ids are time-ordered UUIDs (version 7, RFC 9562 §5.7 with the §6.2 method 1
  counter), so the primary-key index grows at its right edge instead of splitting pages
  at random — on SQLite and PostgreSQL alike;
* on SQLite the values are converted once, here, to exactly what the typed columns store
  (32-hex-digit UUIDs, naive-UTC ``YYYY-MM-DD HH:MM:SS.ffffff`` text, orjson text), and
  written through a text-typed view of the same table, skipping the per-value type
  processors;
* idempotency without a per-row SELECT: every chunk is one ``INSERT .. ON CONFLICT
  (agent_id, idempotency_key) DO NOTHING RETURNING id``, which SQLAlchemy sends as
  multi-row VALUES statements on both drivers (faster on SQLite than ``executemany``'s
  one statement per row); the returned ids say which events were new — exact also
  under concurrent writers.  Keyless events never conflict (NULLs are distinct in a
  unique index).  Duplicate keys inside one batch are dropped before the database sees
  them.
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Protocol

import orjson
from sqlalchemy import Column, Connection, MetaData, Table, Text
from sqlalchemy.dialects import postgresql, sqlite

from aaaf.errors import AAAFError
from aaaf.store import tables as t
from aaaf.store.types import json_default

# big enough to amortise a statement, small enough to keep memory flat on huge batches
EVENT_CHUNK_SIZE = 5_000
_STORED_TYPES = frozenset(t.STORED_EVENT_TYPES)


class EventLike(Protocol):
    """A validated event as the evidence package produces it (its ``ValidEvent``).

    ``agent`` is not read: the store takes the agent's id beside each event.  ``key`` is
    the client's idempotency key (SCORING.md §1) or None.
    """

    @property
    def type(self) -> str: ...

    @property
    def timestamp(self) -> datetime: ...

    @property
    def data(self) -> Mapping[str, Any]: ...

    @property
    def task_id(self) -> str | None: ...

    @property
    def key(self) -> str | None: ...


class _Uuid7Source:
    """Monotonic UUIDv7 integers: 48-bit Unix milliseconds, a 12-bit counter, 62 random bits.

    Within one millisecond the counter orders ids; when it runs out the timestamp is
    advanced by one (RFC 9562 §6.2 method 1), so ids from one process never go backwards.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last_ms = 0
        self._counter = 0

    def take(self, count: int) -> list[int]:
        randoms = os.urandom(8 * count)
        out: list[int] = []
        with self._lock:
            now_ms = time.time_ns() // 1_000_000
            if now_ms > self._last_ms:
                self._last_ms, self._counter = now_ms, 0
            milliseconds, counter = self._last_ms, self._counter
            for index in range(count):
                if counter > 0xFFF:
                    milliseconds, counter = milliseconds + 1, 0
                random_bits = (
                    int.from_bytes(randoms[8 * index : 8 * index + 8], "big") & 0x3FFF_FFFF_FFFF_FFFF
                )
                out.append((milliseconds << 80) | (0x7 << 76) | (counter << 64) | (0b10 << 62) | random_bits)
                counter += 1
            self._last_ms, self._counter = milliseconds, counter
        return out


_ids = _Uuid7Source()


def new_event_ids(count: int) -> list[uuid.UUID]:
    """``count`` fresh, increasing UUIDv7 ids."""
    return [uuid.UUID(int=value) for value in _ids.take(count)]


# The events table as SQLite stores it, every column text: values are pre-converted
# by _sqlite_row to exactly what the typed columns (Uuid, UTCDateTime, JSON) write.
_sqlite_metadata = MetaData()
_sqlite_events = Table(
    "events",
    _sqlite_metadata,
    Column("id", Text(), primary_key=True),
    Column("agent_id", Text()),
    Column("type", Text()),
    Column("task_id", Text()),
    Column("idempotency_key", Text()),
    Column("timestamp", Text()),
    Column("data", Text()),
)


def _sqlite_timestamp(value: datetime) -> str:
    """What ``UTCDateTime`` stores on SQLite: naive UTC with microseconds."""
    return value.astimezone(UTC).replace(tzinfo=None).isoformat(" ", "microseconds")


def write_events(connection: Connection, items: Sequence[tuple[uuid.UUID, EventLike]]) -> list[bool]:
    """Insert ``items`` inside the caller's transaction; True per newly stored event.

    The caller has checked that every agent id is the organization's.  An unknown type
    is ``INVALID_EVENT_TYPE`` and a naive timestamp ``INVALID_REQUEST``, naming the
    item's index; the caller's transaction then stores nothing.
    """
    is_sqlite = connection.dialect.name == "sqlite"
    table = _sqlite_events if is_sqlite else t.events
    dialect_insert = sqlite.insert if is_sqlite else postgresql.insert
    insert_new = (
        dialect_insert(table)
        .on_conflict_do_nothing(index_elements=[table.c.agent_id, table.c.idempotency_key])
        .returning(table.c.id)
    )
    stored = [False] * len(items)
    seen_keys: set[tuple[uuid.UUID, str]] = set()
    agent_texts: dict[uuid.UUID, str] = {}
    for start in range(0, len(items), EVENT_CHUNK_SIZE):
        chunk = items[start : start + EVENT_CHUNK_SIZE]
        id_values = _ids.take(len(chunk))
        rows: list[dict[str, Any]] = []
        positions: dict[Any, int] = {}
        for offset, (agent_id, event) in enumerate(chunk):
            if event.type not in _STORED_TYPES:
                raise AAAFError(
                    "INVALID_EVENT_TYPE",
                    f"Event {start + offset} has type {event.type!r}, which the store does not know.",
                    {"index": start + offset, "type": event.type},
                )
            timestamp = event.timestamp
            if timestamp.tzinfo is None:
                raise AAAFError(
                    "INVALID_REQUEST",
                    f"Event {start + offset} has a naive timestamp; it must carry a UTC offset.",
                    {"index": start + offset, "field": "timestamp"},
                )
            key = event.key
            if key is not None:
                if (agent_id, key) in seen_keys:
                    continue
                seen_keys.add((agent_id, key))
            if is_sqlite:
                agent_text = agent_texts.get(agent_id)
                if agent_text is None:
                    agent_text = agent_texts[agent_id] = agent_id.hex
                event_id: Any = f"{id_values[offset]:032x}"
                rows.append(
                    {
                        "id": event_id,
                        "agent_id": agent_text,
                        "type": event.type,
                        "task_id": event.task_id,
                        "idempotency_key": key,
                        "timestamp": _sqlite_timestamp(timestamp),
                        "data": orjson.dumps(event.data, default=json_default).decode(),
                    }
                )
            else:
                event_id = uuid.UUID(int=id_values[offset])
                rows.append(
                    {
                        "id": event_id,
                        "agent_id": agent_id,
                        "type": event.type,
                        "task_id": event.task_id,
                        "idempotency_key": key,
                        "timestamp": timestamp,
                        "data": event.data,
                    }
                )
            positions[event_id] = start + offset
        if rows:
            for new_id in connection.execute(insert_new, rows).scalars():
                stored[positions[new_id]] = True
    return stored
