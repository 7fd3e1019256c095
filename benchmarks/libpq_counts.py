"""Statements and round trips to PostgreSQL, counted where psycopg's Python libpq wrapper
sends them (not timed), for the counting benchmarks (:mod:`count_queue_round_trips`,
:mod:`count_otlp_round_trips`): run them with ``PSYCOPG_IMPL=python``.

A query sent inside a pipeline is a statement, not a round trip; each pipeline sync is one;
a COPY's data and its end are one more.  Only what is sent while :data:`recording` is set is
counted, under the label ``label()`` gives at that moment (the request kind, or the phase of
the thread that sends).
"""

from __future__ import annotations

import collections
import threading
from collections.abc import Callable
from typing import Any

_lock = threading.Lock()
statements: collections.Counter[str] = collections.Counter()
round_trips: collections.Counter[str] = collections.Counter()
texts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
recording = threading.Event()


def patch_libpq(label: Callable[[], str]) -> None:
    """Count every statement and round trip psycopg sends from now on, under ``label()``."""
    import psycopg.pq

    if psycopg.pq.__impl__ != "python":
        raise SystemExit(
            "run with PSYCOPG_IMPL=python (the counts are taken in psycopg's Python libpq wrapper)"
        )
    from psycopg.pq import pq_ctypes

    pgconn = pq_ctypes.PGconn
    prepared: dict[bytes, str] = {}

    def record(connection: Any, query: bytes | str) -> None:
        if not recording.is_set():
            return
        kind = label()
        text = query.decode() if isinstance(query, bytes) else str(query)
        with _lock:
            statements[kind] += 1
            if not connection.pipeline_status:
                round_trips[kind] += 1
            texts[kind][" ".join(text.split())[:110]] += 1

    def sending(name: str) -> None:
        original = getattr(pgconn, name)

        def send(self: Any, command: Any, *args: Any, **kwargs: Any) -> Any:
            record(self, command)
            return original(self, command, *args, **kwargs)

        setattr(pgconn, name, send)

    for name in ("send_query", "send_query_params", "exec_", "exec_params"):
        sending(name)
    send_prepare, send_prepared, sync = pgconn.send_prepare, pgconn.send_query_prepared, pgconn.pipeline_sync
    put_end = pgconn.put_copy_end

    def prepare(self: Any, name: bytes, command: bytes, *args: Any, **kwargs: Any) -> Any:
        prepared[name] = command.decode()
        record(self, "PREPARE " + prepared[name])
        return send_prepare(self, name, command, *args, **kwargs)

    def run_prepared(self: Any, name: bytes, *args: Any, **kwargs: Any) -> Any:
        record(self, "(prepared) " + prepared.get(name, name.decode()))
        return send_prepared(self, name, *args, **kwargs)

    def pipeline_sync(self: Any) -> Any:
        if recording.is_set():
            with _lock:
                round_trips[label()] += 1
        return sync(self)

    def copy_end(self: Any, *args: Any, **kwargs: Any) -> Any:
        record(self, "(copy data and end)")
        return put_end(self, *args, **kwargs)

    pgconn.send_prepare = prepare
    pgconn.send_query_prepared = run_prepared
    pgconn.pipeline_sync = pipeline_sync
    pgconn.put_copy_end = copy_end
