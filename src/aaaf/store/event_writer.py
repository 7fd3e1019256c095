"""The hot path: writing many events quickly, idempotently (SCORING.md §1, §6).

``make bench`` stores a million events and must keep up with a plain ``sqlite3``
executemany of the same rows, so this path avoids everything per-row that is not
needed:

* Core statements in chunks of ``EVENT_CHUNK_SIZE``, no ORM objects, no UUID objects;
* event ids are time-ordered UUIDs (version 7, RFC 9562 §5.7 with the §6.2 method 1
  counter), so the primary-key index grows at its right edge instead of splitting pages
  at random — on SQLite and PostgreSQL alike;
* idempotency without a per-row SELECT, exact also under concurrent writers (see
  below per dialect).  Every event has a key: the client's ``id``, or else its content
  digest (SCORING.md §1 *2026-11-23*: ``aaaf.evidence.canonical.event_digest``), so an
  event sent twice without an id is stored once.  A known key whose content differs is
  ``Stored.CONFLICT`` (the caller reports ``DUPLICATE_CONFLICT``), never silently
  dropped.  Duplicate keys inside one batch are settled the same way before the
  database sees them;
* the content digest is computed only where it decides something: an event without an
  id needs it as its key (and stores it as ``content_digest``); an event with an id
  needs it only when its id is already known, so its row stores no digest and a
  repeated id compares the digest of the stored row with the new event's.  The digest
  was ~19 µs of an event's ~60 µs on the ingest path (``make bench``, collect);
* SQLite: values are converted once, here, to exactly what the typed columns store
  (32-hex-digit UUIDs, naive-UTC ``YYYY-MM-DD HH:MM:SS.ffffff`` text, orjson text);
  the rows go in with one DB-API executemany of the Core insert compiled once (``ON
  CONFLICT DO NOTHING``) — the same call a hand-written sqlite3 loader would make — and
  only when fewer rows went in than were sent are the chunk's keys looked up set-wise
  (exact under the write lock of ``BEGIN IMMEDIATE``);
* PostgreSQL: the chunk's keys go by psycopg's ``COPY`` straight into ``event_keys`` and
  its events into the partitioned ``events`` (:mod:`aaaf.store.event_partitions`, the
  month's partition created first when missing), behind a savepoint: a plain load of the
  rows.  When a key is already stored, the unique index refuses that ``COPY``; back at the
  savepoint the chunk goes by ``COPY`` into a session's temporary staging table (no index,
  no constraint, no WAL), then one statement inserts its keys into ``event_keys`` ``ON
  CONFLICT DO NOTHING`` and the events whose keys were new; the returned ids say which
  events were new (READ COMMITTED writers do not serialise, so a pre-check would not be
  exact there: the unique index is what decides, in both paths).
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Protocol

import orjson
from sqlalchemy import (
    Column,
    Connection,
    MetaData,
    Table,
    Text,
    bindparam,
    select,
)
from sqlalchemy.dialects import sqlite
from sqlalchemy.exc import DBAPIError

from aaaf.errors import AAAFError
from aaaf.evidence.canonical import digest_for_agent_text, event_digest
from aaaf.store import tables as t
from aaaf.store.event_copy_text import Columns, CopyText
from aaaf.store.event_partitions import PARTITIONS_QUERY, ensure_partitions
from aaaf.store.types import json_default

# big enough to amortise a statement, small enough to keep memory flat on huge batches
EVENT_CHUNK_SIZE = 5_000
_STORED_TYPES = frozenset(t.STORED_EVENT_TYPES)


class Stored(StrEnum):
    """What became of one event handed to :func:`write_events` (SCORING.md §1)."""

    NEW = "new"  # stored
    DUPLICATE = "duplicate"  # its key was known with the same content: nothing new, not an error
    CONFLICT = "conflict"  # its key was known with other content: DUPLICATE_CONFLICT


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
    """Monotonic UUIDv7 ids: 48-bit Unix milliseconds, a 12-bit counter, 62 random bits.

    Within one millisecond the counter orders ids; when it runs out the timestamp is
    advanced by one (RFC 9562 §6.2 method 1), so ids from one process never go backwards.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last_ms = 0
        self._counter = 0

    def take_hex(self, count: int) -> list[str]:
        """``count`` ids as 32 lowercase hex digits, what the writer stores: each written from
        text pieces (the millisecond once, the version and counter from a table, the random
        digits sliced from one ``hex()``), not from a 128-bit integer and its formatting."""
        # 1 000 ids: 0.63-0.73 -> 0.22-0.23 ms CPU (3 alternations); a 1 000-event request
        # 129.4-131.1 -> 126.5 M instructions (callgrind, count_ingest_work.py, 5 requests)
        randoms = os.urandom(8 * count).hex()  # 16 digits an id: the variant's, then 15 random
        variants = randoms.translate(_VARIANT_DIGITS)  # its first digit as 10xx (RFC 9562 §4.1)
        out: list[str] = []
        with self._lock:
            now_ms = time.time_ns() // 1_000_000
            if now_ms > self._last_ms:
                self._last_ms, self._counter = now_ms, 0
            milliseconds, counter = self._last_ms, self._counter
            prefix = f"{milliseconds:012x}"
            for start in range(0, 16 * count, 16):
                if counter > 0xFFF:
                    milliseconds, counter = milliseconds + 1, 0
                    prefix = f"{milliseconds:012x}"
                out.append(
                    f"{prefix}{_VERSION_COUNTER[counter]}{variants[start]}{randoms[start + 1 : start + 16]}"
                )
                counter += 1
            self._last_ms, self._counter = milliseconds, counter
        return out


# "7" (the version) and the 12-bit counter, by counter; a random hex digit's variant form 10xx
_VERSION_COUNTER = [f"7{counter:03x}" for counter in range(0x1000)]
_VARIANT_DIGITS = str.maketrans({digit: "89ab"[int(digit, 16) & 3] for digit in "0123456789abcdef"})


_ids = _Uuid7Source()


def new_event_ids(count: int) -> list[uuid.UUID]:
    """``count`` fresh, increasing UUIDv7 ids."""
    return [uuid.UUID(hex=text) for text in _ids.take_hex(count)]


# The columns an event is written with, in the events table's order (created_at is the
# server's): the one list both dialects' statements and Columns.rows() follow.
WRITTEN_COLUMNS: tuple[str, ...] = tuple(str(c.name) for c in t.events.columns if c.name != "created_at")

# The events table as SQLite stores it, every column text: values are pre-converted
# by _write_sqlite_chunk to exactly what the typed columns (Uuid, UTCDateTime, JSON) write.
sqlite_metadata = MetaData()
sqlite_events_table = Table(
    "events",
    sqlite_metadata,
    *(Column(name, Text(), primary_key=name == "id") for name in WRITTEN_COLUMNS),
)


def sqlite_timestamp(value: datetime) -> str:
    """What ``UTCDateTime`` stores on SQLite: naive UTC with microseconds
    (``YYYY-MM-DD HH:MM:SS.ffffff``, the first 26 characters of the UTC isoformat)."""
    if value.tzinfo is not UTC:
        value = value.astimezone(UTC)
    # %-formatting, not isoformat()[:26]: half the time, ~3 % of collect
    return _SQLITE_TIMESTAMP % (
        value.year,
        value.month,
        value.day,
        value.hour,
        value.minute,
        value.second,
        value.microsecond,
    )


_SQLITE_TIMESTAMP = "%04d-%02d-%02d %02d:%02d:%02d.%06d"


def write_events(
    connection: Connection, items: Sequence[tuple[uuid.UUID, EventLike]], *, savepoint: bool = False
) -> list[Stored]:
    """Insert ``items`` inside the caller's transaction; per item ``Stored.NEW``, ``.DUPLICATE``
    (its key known with the same content) or ``.CONFLICT`` (known with other content).

    The caller has checked that every agent id is the organization's.  An unknown type
    is ``INVALID_EVENT_TYPE`` and a naive timestamp ``INVALID_REQUEST``, naming the
    item's index; the caller's transaction then stores nothing.  Data RFC 8785 cannot
    write (validation refuses it first) raises ``ValueError`` where its digest is needed.

    ``savepoint`` (PostgreSQL): a savepoint is taken in the round trip of the first
    statement, and the transaction goes back to it when this raises, so that the caller's
    transaction goes on without these events — what a nested transaction does, without its
    own ``SAVEPOINT`` and ``RELEASE`` round trips.
    """
    if not savepoint:
        return _write_events(connection, items, None)
    if connection.dialect.name != "postgresql":
        raise ValueError("write_events(savepoint=True) is for PostgreSQL; nest a transaction on SQLite")
    taken = [False]
    try:
        return _write_events(connection, items, taken)
    except BaseException:
        # a connection lost meanwhile has no savepoint to go back to: the error that lost it is
        # the one to raise (going back would raise "invalid transaction" in its place)
        if taken[0] and not connection.invalidated:
            connection.exec_driver_sql(f"ROLLBACK TO SAVEPOINT {_OUTER_SAVEPOINT}")
        raise


def _write_events(
    connection: Connection, items: Sequence[tuple[uuid.UUID, EventLike]], taken: list[bool] | None
) -> list[Stored]:
    """:func:`write_events`; ``taken``, when given, is set once the savepoint is taken."""
    if connection.dialect.name == "sqlite":
        write_chunk = _write_sqlite_chunk
    else:

        def write_chunk(connection: Connection, columns: Columns) -> dict[tuple[str, str], str]:
            return _write_postgres_chunk(connection, columns, taken)

    outcomes = [Stored.NEW] * len(items)
    first_of: dict[tuple[str, str], int] = {}  # (agent hex, key) -> its first event's position
    repeats: list[tuple[int, tuple[str, str]]] = []  # later events of a key seen in this batch
    stored: dict[tuple[str, str], str] = {}  # the digest a repeated key stands for
    agent_hexes: dict[uuid.UUID, tuple[str, str]] = {}
    last_agent: uuid.UUID | None = None
    agent_hex = agent_text = ""
    for start in range(0, len(items), EVENT_CHUNK_SIZE):
        chunk = items[start : start + EVENT_CHUNK_SIZE]
        id_texts = _ids.take_hex(len(chunk))
        columns = Columns()
        for offset, (agent_id, event) in enumerate(chunk):
            event_type = event.type
            if event_type not in _STORED_TYPES:
                raise AAAFError(
                    "INVALID_EVENT_TYPE",
                    f"Event {start + offset} has type {event_type!r}, which the store does not know.",
                    {"index": start + offset, "type": event_type},
                )
            timestamp = event.timestamp
            if timestamp.tzinfo is None:
                raise AAAFError(
                    "INVALID_REQUEST",
                    f"Event {start + offset} has a naive timestamp; it must carry a UTC offset.",
                    {"index": start + offset, "field": "timestamp"},
                )
            if agent_id is not last_agent:  # batches are mostly one agent's: skip re-hashing its UUID
                known = agent_hexes.get(agent_id)
                if known is None:
                    known = agent_hexes.setdefault(agent_id, (agent_id.hex, str(agent_id)))
                agent_hex, agent_text = known
                last_agent = agent_id
            key = event.key
            digest = None
            if key is None:  # SCORING.md §1: the id of an event sent without one
                digest = key = digest_for_agent_text(agent_text, event_type, timestamp, event.data)
            pair = (agent_hex, key)
            if pair in first_of:  # settled below, against what the key stands for
                repeats.append((start + offset, pair))
                continue
            first_of[pair] = start + offset
            columns.positions.append(start + offset)
            columns.ids.append(id_texts[offset])
            columns.agent_ids.append(agent_hex)
            columns.types.append(event_type)
            columns.task_ids.append(event.task_id)
            columns.keys.append(key)
            columns.timestamps.append(timestamp)
            columns.data.append(event.data)
            columns.documents.append(getattr(event, "data_json", None))
            columns.instants.append(getattr(event, "timestamp_text", None))
            columns.digests.append(digest)
        if columns.ids:
            known_digests = write_chunk(connection, columns)
            if known_digests:
                for position, agent, key, digest in zip(
                    columns.positions, columns.agent_ids, columns.keys, columns.digests, strict=True
                ):
                    stored_digest = known_digests.get((agent, key))
                    if stored_digest is not None:
                        stored[(agent, key)] = stored_digest
                        mine = digest if digest is not None else _digest_of(items[position])
                        outcomes[position] = Stored.DUPLICATE if stored_digest == mine else Stored.CONFLICT
    for position, pair in repeats:
        reference = stored.get(pair)
        if reference is None:  # the key was new: it stands for its first event in this batch
            reference = stored[pair] = _digest_of(items[first_of[pair]])  # once per key
        outcomes[position] = Stored.DUPLICATE if reference == _digest_of(items[position]) else Stored.CONFLICT
    return outcomes


def _digest_of(item: tuple[uuid.UUID, EventLike]) -> str:
    """One event's content digest (SCORING.md §1), computed where it decides an outcome."""
    agent_id, event = item
    return event_digest(agent_id, event.type, event.timestamp, event.data)


def _stored_digests(connection: Connection, pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """The content digests of stored events by (agent hex, key), any dialect.

    A row without a stored digest (an event with an id, or any row from before migration
    0007) gets it computed from the row.
    """
    wanted: dict[str, list[str]] = {}
    for agent_hex, key in pairs:
        wanted.setdefault(agent_hex, []).append(key)
    events = t.events
    postgres = connection.dialect.name == "postgresql"
    out: dict[tuple[str, str], str] = {}
    for agent_hex, keys in wanted.items():
        agent_id = uuid.UUID(hex=agent_hex)
        for start in range(0, len(keys), _SQLITE_KEY_PROBE):
            query = select(
                events.c.idempotency_key,
                events.c.content_digest,
                events.c.type,
                events.c.timestamp,
                events.c.data,
            ).where(
                events.c.agent_id == agent_id,
                events.c.idempotency_key.in_(keys[start : start + _SQLITE_KEY_PROBE]),
            )
            if postgres:  # the keys say which partitions hold the rows
                query = query.join(
                    t.event_keys,
                    (t.event_keys.c.agent_id == events.c.agent_id)
                    & (t.event_keys.c.idempotency_key == events.c.idempotency_key)
                    & (t.event_keys.c.timestamp == events.c.timestamp),
                ).where(t.event_keys.c.agent_id == agent_id)
            for key, digest, event_type, timestamp, data in connection.execute(query):
                out[(agent_hex, key)] = digest or event_digest(agent_id, event_type, timestamp, data)
    return out


_SQLITE_COLUMNS = WRITTEN_COLUMNS
# The Core insert compiled once to SQLite's positional form, so that a chunk is one
# DB-API executemany of plain tuples (what a hand-written sqlite3 loader would do).
_sqlite_insert_compiled = (
    sqlite.insert(sqlite_events_table)
    .values({name: bindparam(name) for name in _SQLITE_COLUMNS})
    .on_conflict_do_nothing(
        index_elements=[sqlite_events_table.c.agent_id, sqlite_events_table.c.idempotency_key]
    )
    .compile(dialect=sqlite.dialect(paramstyle="qmark"))
)
assert tuple(_sqlite_insert_compiled.positiontup or ()) == _SQLITE_COLUMNS
_SQLITE_INSERT = str(_sqlite_insert_compiled)
_SQLITE_KEY_PROBE = 500  # keys per look-up query, well under SQLite's bound-variable limit


def _existing_sqlite_keys(connection: Connection, columns: Columns) -> dict[tuple[str, str], str]:
    """The content digests of this chunk's (agent hex, key) pairs that were stored before it:
    one indexed IN query per agent and 500 keys, a stored row whose id is not the one this
    chunk gave its event being an earlier one (rows without a stored digest: see _stored_digests)."""
    wanted: dict[str, list[str]] = {}
    mine: dict[tuple[str, str], str] = {}
    for event_id, agent_id, key in zip(columns.ids, columns.agent_ids, columns.keys, strict=True):
        wanted.setdefault(agent_id, []).append(key)
        mine[(agent_id, key)] = event_id
    existing: dict[tuple[str, str], str] = {}
    undigested: list[tuple[str, str]] = []
    for agent_id, keys in wanted.items():
        for start in range(0, len(keys), _SQLITE_KEY_PROBE):
            part = keys[start : start + _SQLITE_KEY_PROBE]
            query = (
                "SELECT idempotency_key, content_digest, id FROM events WHERE agent_id = ? AND "
                f"idempotency_key IN ({', '.join('?' * len(part))})"
            )
            for key, digest, event_id in connection.exec_driver_sql(query, (agent_id, *part)):
                if event_id == mine[(agent_id, key)]:
                    continue  # stored by this chunk
                if digest is None:
                    undigested.append((agent_id, key))
                else:
                    existing[(agent_id, key)] = digest
    if undigested:
        existing.update(_stored_digests(connection, undigested))
    return existing


def _write_sqlite_chunk(connection: Connection, columns: Columns) -> dict[tuple[str, str], str]:
    """One executemany of the chunk's rows (``ON CONFLICT DO NOTHING``); only when fewer rows
    went in than were sent, a look-up of which keys were there before.

    Exact because a SQLite write transaction holds the database's write lock from its
    ``BEGIN IMMEDIATE`` (:mod:`aaaf.store.engine`): no other writer can store a key between
    the insert and the look-up.  The look-up before every insert was ~3.5 % of collect's
    samples for a chunk of new events, the common case.  Returns the stored digests of the
    keys that were already there (every other row was inserted).
    """
    dumps = orjson.dumps
    rows = [
        (
            event_id,
            agent_id,
            event_type,
            task_id,
            key,
            sqlite_timestamp(timestamp),
            dumps(data, default=json_default).decode(),
            digest,
        )
        for event_id, agent_id, event_type, task_id, key, timestamp, data, digest in columns.rows()
    ]
    inserted = connection.exec_driver_sql(_SQLITE_INSERT, rows).rowcount
    if inserted == len(rows):
        return {}
    return _existing_sqlite_keys(connection, columns)


# The fast path: the chunk's keys and its events go by two ``COPY`` straight into
# ``event_keys`` and ``events`` (what a plain load of the rows costs), behind a savepoint
# taken in the same round trip as the query of the events' partitions.  A key already
# stored (or being stored by a concurrent writer, which COPY waits for) makes the COPY fail
# with a unique violation: back to the savepoint, and the chunk takes the staged path.
_SAVEPOINT = "aaaf_event_copy"
_SET_UP = f"{PARTITIONS_QUERY}; SAVEPOINT {_SAVEPOINT}"
# write_events(savepoint=True): its savepoint first, in the same round trip
_OUTER_SAVEPOINT = "aaaf_events"
_SET_UP_SAVED = f"{PARTITIONS_QUERY}; SAVEPOINT {_OUTER_SAVEPOINT}; SAVEPOINT {_SAVEPOINT}"
_NAMES = ", ".join(WRITTEN_COLUMNS)
_COPY_KEYS = "COPY event_keys (agent_id, idempotency_key, timestamp) FROM STDIN"
_COPY_EVENTS = f"COPY events ({_NAMES}) FROM STDIN"
# SQLSTATEs after which the chunk is staged instead: unique violation (a key known or being
# stored), deadlock (two writers' COPY of shared keys in other orders; the savepoint frees ours)
_DEADLOCK = "40P01"
_STAGE_INSTEAD = frozenset({"23505", _DEADLOCK})
# The staged INSERT takes its keys in key order; a straight COPY of shared keys in another order
# can still close a cycle with it: failed by the server, it goes back to the savepoint (freeing
# its keys for the other writer) and tries again.
_STAGED_TRIES = 5
# The staged path's table: one per session, emptied at each commit and by the statement
# that reads it, so COPY writes into a table without indexes, constraints or WAL and the one
# INSERT .. SELECT does the idempotent part.
_STAGE = "aaaf_event_stage"
_SET_UP_STAGE = (
    f"ROLLBACK TO SAVEPOINT {_SAVEPOINT}; CREATE TEMPORARY TABLE IF NOT EXISTS {_STAGE} (id uuid, "
    "agent_id uuid, type text, task_id text, idempotency_key text, timestamp timestamptz, data json, "
    "content_digest text) ON COMMIT DELETE ROWS"
)
_COPY_STAGE = f"COPY {_STAGE} ({_NAMES}) FROM STDIN"
# The keys first (event_keys holds the uniqueness a partitioned table cannot: see
# aaaf.store.event_partitions), then the events whose keys were new.
_INSERT_NEW = (
    f"WITH staged AS (DELETE FROM {_STAGE} RETURNING *), "
    "new_keys AS (INSERT INTO event_keys (agent_id, idempotency_key, timestamp) "
    "SELECT agent_id, idempotency_key, timestamp FROM staged ORDER BY agent_id, idempotency_key "
    "ON CONFLICT DO NOTHING RETURNING agent_id, idempotency_key) "
    f"INSERT INTO events ({_NAMES}) SELECT {', '.join('s.' + name for name in WRITTEN_COLUMNS)} "
    "FROM staged s JOIN new_keys USING (agent_id, idempotency_key) RETURNING id::text"
)


def _write_postgres_chunk(
    connection: Connection, columns: Columns, taken: list[bool] | None = None
) -> dict[tuple[str, str], str]:
    """Store the chunk; returns the stored digests of the keys that were already there.
    With ``taken`` not yet set, :func:`write_events`' savepoint is taken first (and ``taken`` set).

    First the fast path (two ``COPY``, above); when a key is known, the staged path:
    ``COPY`` into the session's staging table, then one ``INSERT .. SELECT .. ON CONFLICT
    DO NOTHING RETURNING id`` of what is new.  ``ON CONFLICT DO NOTHING`` waits for a
    concurrent writer of the same key to commit, and the look-up that follows (a new
    statement under READ COMMITTED) sees its row.
    """
    if taken is not None and not taken[0]:
        existing = list(connection.exec_driver_sql(_SET_UP_SAVED).scalars())
        taken[0] = True
    else:
        existing = list(connection.exec_driver_sql(_SET_UP).scalars())
    if ensure_partitions(connection, columns.timestamps, existing):
        # partitions created after the savepoint would go with a return to it
        connection.exec_driver_sql(f"RELEASE SAVEPOINT {_SAVEPOINT}; SAVEPOINT {_SAVEPOINT}")
    rows = CopyText(columns)
    if _copy_straight(connection, rows):
        return {}
    for tries_left in range(_STAGED_TRIES - 1, -1, -1):
        connection.exec_driver_sql(_SET_UP_STAGE)
        _copy_rows(connection, rows)
        try:
            inserted = {text.replace("-", "") for text in connection.exec_driver_sql(_INSERT_NEW).scalars()}
            break
        except DBAPIError as error:
            if tries_left == 0 or getattr(error.orig, "sqlstate", None) != _DEADLOCK:
                raise
    if len(inserted) == len(columns.ids):
        return {}
    return _stored_digests(
        connection,
        [
            (agent_id, key)
            for event_id, agent_id, key in zip(columns.ids, columns.agent_ids, columns.keys, strict=True)
            if event_id not in inserted
        ],
    )


def _copy_straight(connection: Connection, rows: CopyText) -> bool:
    """The fast path: the chunk's keys, then its events, by ``COPY``; False (nothing
    written, the caller goes back to the savepoint) when a key was already stored."""
    import psycopg

    driver = connection.connection.driver_connection
    assert isinstance(driver, psycopg.Connection)
    try:
        with driver.cursor() as cursor:
            with cursor.copy(_COPY_KEYS) as copy:
                copy.write(rows.keys)
            with cursor.copy(_COPY_EVENTS) as copy:
                copy.write(rows.events)
    except psycopg.Error as error:
        if error.sqlstate in _STAGE_INSTEAD:
            return False
        raise _as_dbapi_error(connection, error, _COPY_EVENTS) from error
    return True


def _as_dbapi_error(connection: Connection, error: Any, statement: str) -> DBAPIError:
    """A driver's error as SQLAlchemy's (``DBAPIError``, the connection invalidated when it
    was lost), what ``Connection.execute`` does with it."""
    import psycopg

    lost = connection.dialect.is_disconnect(error, connection.connection, None)
    if lost:
        connection.invalidate(error)
    wrapped: DBAPIError = DBAPIError.instance(
        statement, None, error, psycopg.Error, connection_invalidated=lost
    )
    return wrapped


def _copy_rows(connection: Connection, rows: CopyText) -> None:
    """The chunk's rows into the staging table through psycopg's ``COPY``; a driver error
    is raised as SQLAlchemy's, like every other statement's."""
    import psycopg

    driver = connection.connection.driver_connection
    assert isinstance(driver, psycopg.Connection)
    try:
        with driver.cursor() as cursor, cursor.copy(_COPY_STAGE) as copy:
            copy.write(rows.events)
    except psycopg.Error as error:
        raise _as_dbapi_error(connection, error, _COPY_STAGE) from error
