"""Reading agents' events from an AAAF SQLite database with the DB-API alone.

This is the body of :mod:`aaaf.store.event_reader`'s SQLite path, and, as
:class:`SqliteEventSource`, the event source of ``assess --all``'s helper processes
(:mod:`aaaf.store.event_source`).  It imports neither SQLAlchemy nor Alembic (nor does the
``aaaf.store`` package, whose names load on first use): a helper process that imports only
this module and the pure engine starts in about 0.2 s instead of 1.5 s (measured), and that
start-up is paid on every run.

The records are built column by column with ``map`` over C functions, so no Python
bytecode runs per row:

* the stored 32-hex-digit ids of a batch are given their dashes together
  (:func:`canonical_ids`: the canonical UUID texts, laid out in one buffer by strided copies
  and split);
* the naive-UTC text timestamp (``YYYY-MM-DD HH:MM:SS.ffffff``, as
  :mod:`aaaf.store.event_writer` and ``UTCDateTime`` store it) gets a ``+00:00`` suffix
  in the query (SQLite's concatenation: a tenth less CPU for the whole read than a Python
  ``str.format`` per row, measured) and ``datetime.fromisoformat`` returns it aware, with
  the ``datetime.UTC`` singleton as its zone — the same value as parsing it naive and
  attaching UTC, several times cheaper;
* JSON is decoded with orjson; the record is ``tuple.__new__(EventRecord, row)``.

Each agent's rows are fetched in the index's order (``timestamp, rowid``): ordering by
``id`` in SQL would make SQLite sort every agent's rows in a temporary B-tree.  Rows
of one agent at one instant are then put in id order here; such runs are short, and
the id text (fixed-width lowercase hex, dashes at fixed places) sorts in Python exactly
as SQLite's binary collation sorts the stored hex.
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from functools import partial
from itertools import compress, islice, repeat
from operator import eq, itemgetter
from typing import Any, cast

import orjson

from aaaf.scoring.records import EventRecord

# rows fetched per round trip
STREAM_BATCH = 5_000

_split_uuid_hex = itemgetter(slice(0, 8), slice(8, 12), slice(12, 16), slice(16, 20), slice(20, 32))
_join_with_dashes = "-".join
_new_record = cast(Callable[[Iterable[Any]], EventRecord], partial(tuple.__new__, EventRecord))
_record_id = itemgetter(0)  # EventRecord.id
# where each of a stored id's 32 hex digits goes in its canonical text (8-4-4-4-12 digits with
# dashes between), and the width of that text with the separator after it in a batch's buffer
_CANONICAL_AT = (*range(0, 8), *range(9, 13), *range(14, 18), *range(19, 23), *range(24, 36))
_CANONICAL_STRIDE = 37


def _query(types: Sequence[str] | None, since: str | None, until: str | None) -> str:
    where = ["agent_id = ?"]
    if types is not None:
        where.append(f"type IN ({', '.join('?' * len(types))})")
    if since is not None:
        where.append("timestamp >= ?")
    if until is not None:
        where.append("timestamp <= ?")
    return (
        # the timestamp with its UTC offset, unnamed: ``ORDER BY timestamp`` is the column's
        # (the index's order), not a sort of the expression
        "SELECT id, type, timestamp || '+00:00', data, task_id, idempotency_key FROM events"
        f" WHERE {' AND '.join(where)} ORDER BY timestamp, rowid"
    )


def read_sqlite_events(
    dbapi_connection: Any,
    agent_ids: Sequence[uuid.UUID],
    *,
    types: Sequence[str] | None = None,
    since: str | None = None,
    until: str | None = None,
    stream_batch: int | None = None,
) -> dict[uuid.UUID, list[EventRecord]]:
    """Each agent's events in (timestamp, id) order; every requested agent has an entry
    (possibly empty), in ``agent_ids`` order.

    One query per agent (the statement is prepared once and cached by ``sqlite3``), so
    rows carry no agent id to build and group by.  ``dbapi_connection`` is a ``sqlite3``
    connection (or anything with ``.cursor()``); ``since``/``until`` are inclusive bounds
    already in the stored text form.
    """
    out: dict[uuid.UUID, list[EventRecord]] = {agent_id: [] for agent_id in agent_ids}
    batch = stream_batch or STREAM_BATCH
    query = _query(types, since, until)
    tail: list[Any] = list(types) if types is not None else []
    tail.extend(bound for bound in (since, until) if bound is not None)
    loads = orjson.loads
    parse = datetime.fromisoformat
    cursor = dbapi_connection.cursor()
    try:
        for agent_id, records in out.items():
            cursor.execute(query, [agent_id.hex, *tail])
            agent_text = str(agent_id)
            while rows := cursor.fetchmany(batch):
                id_col, type_col, ts_col, data_col, task_col, key_col = zip(*rows, strict=True)
                records.extend(
                    map(
                        _new_record,
                        zip(
                            canonical_ids(id_col),
                            repeat(agent_text),
                            type_col,
                            map(parse, ts_col),
                            map(loads, data_col),
                            task_col,
                            key_col,
                        ),
                    )
                )
            order_ties_by_id(records)
    finally:
        cursor.close()
    return out


def canonical_ids(stored: Sequence[str]) -> list[str]:
    """The canonical UUID texts (``8-4-4-4-12`` lowercase hex digits) of ids stored as their 32
    hex digits, in order.

    Converted in bulk: the batch's digits go into one buffer of dashes by 32 strided copies
    (each digit of every id at once), which is then split into the texts.  One id at a time
    (cut by an ``itemgetter`` of slices, joined with dashes) cost 2.6 times as much: 4.00 ->
    1.44 k instructions an id, the read 24.87 -> 22.44 M instructions per 1 000-event agent
    (callgrind, benchmarks/count_assess_work.py).  Ids not of 32 ASCII characters each are cut
    one by one, as before.
    """
    count = len(stored)
    text = "".join(stored)
    if len(text) == 32 * count and text.isascii() and max(map(len, stored), default=32) == 32:
        digits = text.encode("ascii")
        laid_out = bytearray(b"-") * (_CANONICAL_STRIDE * count - 1)
        for digit, at in enumerate(_CANONICAL_AT):
            laid_out[at::_CANONICAL_STRIDE] = digits[digit::32]
        laid_out[_CANONICAL_STRIDE - 1 :: _CANONICAL_STRIDE] = b"\n" * (count - 1)
        texts = laid_out.decode("ascii").split("\n")
        if len(texts) == count:  # no id held a line break
            return texts
    return list(map(_join_with_dashes, map(_split_uuid_hex, stored)))


def order_ties_by_id(records: list[EventRecord]) -> None:
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


class SqliteEventSource:
    """An :class:`~aaaf.store.event_source.EventSource` over its own ``sqlite3`` connection to
    an AAAF SQLite file (for helper processes; organization scoping is the caller's check)."""

    def __init__(self, path: str, *, timeout: float) -> None:
        self._connection = sqlite3.connect(path, timeout=timeout)

    def events_for_agents(self, agent_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, list[EventRecord]]:
        return read_sqlite_events(self._connection, agent_ids)

    def close(self) -> None:
        self._connection.close()
