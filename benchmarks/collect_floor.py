"""The honest floor of ``collect`` (issue 13 §8): the same rows, already parsed, inserted by
one ``executemany`` in one transaction into the same table and indexes.

``raw_insert`` in benchmarks/run.py (the baseline of before) parses JSON and draws two
uuid4 per row inside its timed loop and commits every 5 000 rows into a table of its own;
this floor does none of that in its timed part.  Untimed: the database is created by
``open_store`` (the schema ``collect`` writes: the ``events`` table with its unique key,
CHECK and three indexes, WAL, ``synchronous=NORMAL``, foreign keys on), the agents are
enrolled, and every row is built exactly as the event writer stores it on SQLite
(32-hex-digit ids, naive-UTC timestamp text, orjson data, the RFC 8785 content digest of an
id-less event).
Timed: ``BEGIN``, one ``executemany`` of the writer's own INSERT, ``COMMIT`` (also timed alone).
Repeated into fresh databases (``make bench`` takes the median, beside collect's own).
"""

from __future__ import annotations

import sqlite3
import time
from datetime import datetime
from pathlib import Path

import orjson

from aaaf.evidence.canonical import digest_for_agent_text
from aaaf.store import open_store
from aaaf.store.event_writer import _SQLITE_INSERT, new_event_ids, sqlite_timestamp


def prepared_rows(log_path: Path, db_path: Path) -> list[tuple[str, ...]]:
    """The rows of ``log_path`` as the writer stores them, agents enrolled in ``db_path``."""
    store = open_store("sqlite:///" + str(db_path))
    org = store.scope(store.default_organization().id)
    events = [orjson.loads(line) for line in log_path.read_bytes().splitlines() if line.strip()]
    agents: dict[str, tuple[str, str]] = {}
    for event in events:
        if event["agent"] not in agents:
            agent, _ = org.get_or_enroll_agent(event["agent"])
            agents[event["agent"]] = (agent.id.hex, str(agent.id))
    store.close()
    ids = new_event_ids(len(events))
    rows = []
    for event_id, event in zip(ids, events, strict=True):
        agent_hex, agent_text = agents[event["agent"]]
        timestamp = datetime.fromisoformat(event["timestamp"])
        # as the writer stores it: an event with an id has no stored digest, an id-less one is keyed by it
        key = event.get("id")
        digest = None if key else digest_for_agent_text(agent_text, event["type"], timestamp, event["data"])
        rows.append(
            (
                event_id.hex,
                agent_hex,
                event["type"],
                event["data"].get("task_id"),
                key or digest,
                sqlite_timestamp(timestamp),
                orjson.dumps(event["data"]).decode(),
                digest,
            )
        )
    return rows


def store_connection(path: Path | str) -> sqlite3.Connection:
    """A plain ``sqlite3`` connection to an AAAF file with the store's settings (WAL,
    ``synchronous=NORMAL``, foreign keys: aaaf.store.engine), autocommit: the floors' writer."""
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
    connection.execute("PRAGMA foreign_keys=ON")
    return connection


def floor_insert(log_path: Path, db_paths: list[Path]) -> list[tuple[float, float, int]]:
    """Per database of ``db_paths`` (each fresh, filled in turn with the same rows, prepared
    for it untimed): the seconds of the whole timed part, the seconds of its ``COMMIT`` alone,
    and the rows stored.

    The ``COMMIT`` is timed apart because it is where the run pays the disk: the WAL
    auto-checkpoint copies the transaction's pages into the database file and syncs it, and
    on a disk shared with other work that sync is what varies most from run to run.
    """
    timings = []
    for db_path in db_paths:
        rows = prepared_rows(log_path, db_path)
        connection = store_connection(db_path)
        start = time.perf_counter()
        connection.execute("BEGIN IMMEDIATE")
        connection.executemany(_SQLITE_INSERT, rows)
        before_commit = time.perf_counter()
        connection.execute("COMMIT")
        end = time.perf_counter()
        (count,) = connection.execute("SELECT count(*) FROM events").fetchone()
        connection.close()
        assert count == len(rows), (count, len(rows))
        timings.append((end - start, end - before_commit, count))
        del rows
    return timings
