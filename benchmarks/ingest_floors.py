"""The floors the API ingest benchmarks (:mod:`bench_api`, :mod:`count_ingest_work`) measure a
batch against: the same rows, prepared as the event writer stores them, loaded plainly — one
``COPY`` on PostgreSQL, one ``executemany`` in one transaction on SQLite — into the same
``events`` table and indexes.
"""

from __future__ import annotations

import time
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from collect_floor import store_connection
from proc_cpu import cpu_seconds_between, cpu_ticks


def _writer_rows(agent_id: str, raw: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """The rows the event writer stores for ``raw`` (id, agent, type, task, key, instant,
    data, digest), built outside the clock."""
    from aaaf.evidence.canonical import digest_for_agent_text
    from aaaf.store.event_writer import new_event_ids

    agent = str(uuid.UUID(agent_id))
    rows = []
    for event_id, event in zip(new_event_ids(len(raw)), raw, strict=True):
        when = datetime.fromisoformat(event["timestamp"])
        digest = digest_for_agent_text(agent, event["type"], when, event["data"])
        rows.append(
            (
                event_id,
                agent,
                event["type"],
                event["data"]["task_id"],
                event["id"],
                when,
                event["data"],
                digest,
            )
        )
    return rows


def raw_postgres(url: str, agent_id: str, raw: list[dict[str, Any]]) -> dict[str, float]:
    """One ``COPY`` of the prepared rows into the events table and one of their keys into
    ``event_keys`` (what storing an event is on the partitioned table), one transaction: its
    events/s, and its CPU seconds per 1 000 events — this process's (formatting and sending)
    and its backend's, when the database runs on this machine (else 0)."""
    import psycopg
    from sqlalchemy.engine import make_url

    rows = _writer_rows(agent_id, raw)
    parsed = make_url(url)
    conninfo = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(conninfo) as connection:
        backend = [connection.info.backend_pid]
        ticks = cpu_ticks(backend)
        cpu = time.process_time()
        start = time.perf_counter()
        with connection.cursor() as cursor:
            with cursor.copy(
                "COPY events (id, agent_id, type, task_id, idempotency_key, timestamp, data, content_digest) FROM STDIN"
            ) as copy:
                for event_id, agent, kind, task, key, when, data, digest in rows:
                    copy.write_row(
                        (event_id, agent, kind, task, key, when, orjson.dumps(data).decode(), digest)
                    )
            with cursor.copy("COPY event_keys (agent_id, idempotency_key, timestamp) FROM STDIN") as copy:
                for _, agent, _, _, key, when, _, _ in rows:
                    copy.write_row((agent, key, when))
        connection.commit()
        elapsed = time.perf_counter() - start
        client = time.process_time() - cpu
        database = cpu_seconds_between(ticks, cpu_ticks(backend))
    per = 1000 / len(rows)
    return {
        "events_per_s": len(rows) / elapsed,
        "client_cpu_ms_per_1000": 1000 * client * per,
        "postgres_cpu_ms_per_1000": 1000 * database * per,
    }


def raw_sqlite(path: Path, agent_id: str, raw: list[dict[str, Any]]) -> float:
    """Events/s of one ``executemany`` of the prepared rows in one transaction."""
    from aaaf.store.event_writer import _SQLITE_INSERT, sqlite_timestamp

    prepared = [
        (
            event_id.hex,
            uuid.UUID(agent).hex,
            kind,
            task,
            key,
            sqlite_timestamp(when),
            orjson.dumps(data).decode(),
            digest,
        )
        for event_id, agent, kind, task, key, when, data, digest in _writer_rows(agent_id, raw)
    ]
    connection = store_connection(path)
    start = time.perf_counter()
    connection.execute("BEGIN IMMEDIATE")
    connection.executemany(_SQLITE_INSERT, prepared)
    connection.execute("COMMIT")
    elapsed = time.perf_counter() - start
    connection.close()
    return len(prepared) / elapsed
