"""Round trips to PostgreSQL per request of ``POST /v1/traces`` beside ``POST
/api/v1/events/batch`` for the same evidence (the workload of :mod:`bench_otlp`), counted at
libpq (not timed), with the app served in this process.

psycopg's Python libpq wrapper is patched where it sends (as
:mod:`count_queue_round_trips` does): run with ``PSYCOPG_IMPL=python``.  A query sent inside
a pipeline is a statement, not a round trip; each pipeline sync is one; a COPY's data and
its end are one more.  Only what is sent while a request of the workload is answered is
counted (requests are sent one at a time).  ``python benchmarks/count_otlp_round_trips.py
[--traces N --tools M] [-v]`` (``-v``: every statement with its count).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import threading
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

_lock = threading.Lock()
_kind: list[str] = ["other"]
statements: collections.Counter[str] = collections.Counter()
round_trips: collections.Counter[str] = collections.Counter()
texts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
recording = threading.Event()


def _record(pgconn: Any, query: bytes | str, *, trip: bool = True) -> None:
    if not recording.is_set():
        return
    kind = _kind[0]
    text = query.decode() if isinstance(query, bytes) else str(query)
    with _lock:
        statements[kind] += 1
        if trip and not pgconn.pipeline_status:
            round_trips[kind] += 1
        texts[kind][" ".join(text.split())[:110]] += 1


def _patch_libpq() -> None:
    import psycopg.pq

    if psycopg.pq.__impl__ != "python":
        raise SystemExit(
            "run with PSYCOPG_IMPL=python (the counts are taken in psycopg's Python libpq wrapper)"
        )
    from psycopg.pq import pq_ctypes

    pgconn = pq_ctypes.PGconn
    prepared: dict[bytes, str] = {}

    def sending(name: str) -> None:
        original = getattr(pgconn, name)

        def send(self: Any, command: Any, *args: Any, **kwargs: Any) -> Any:
            _record(self, command)
            return original(self, command, *args, **kwargs)

        setattr(pgconn, name, send)

    for name in ("send_query", "send_query_params", "exec_", "exec_params"):
        sending(name)
    send_prepare, send_prepared, sync = pgconn.send_prepare, pgconn.send_query_prepared, pgconn.pipeline_sync
    put_end = pgconn.put_copy_end

    def prepare(self: Any, name: bytes, command: bytes, *args: Any, **kwargs: Any) -> Any:
        prepared[name] = command.decode()
        _record(self, "PREPARE " + prepared[name])
        return send_prepare(self, name, command, *args, **kwargs)

    def run_prepared(self: Any, name: bytes, *args: Any, **kwargs: Any) -> Any:
        _record(self, "(prepared) " + prepared.get(name, name.decode()))
        return send_prepared(self, name, *args, **kwargs)

    def pipeline_sync(self: Any) -> Any:
        if recording.is_set():
            with _lock:
                round_trips[_kind[0]] += 1
        return sync(self)

    def copy_end(self: Any, *args: Any, **kwargs: Any) -> Any:
        _record(self, "(copy data and end)")
        return put_end(self, *args, **kwargs)

    pgconn.send_prepare = prepare
    pgconn.send_query_prepared = run_prepared
    pgconn.pipeline_sync = pipeline_sync
    pgconn.put_copy_end = copy_end


def run(traces: int, tools: int) -> dict[str, dict[str, float]]:
    from fastapi.testclient import TestClient

    import bench_otlp
    from bench_api import ADMIN_KEY, BENCH_RATE_LIMIT_PER_MINUTE, postgres_schema

    spans = bench_otlp.record(traces, tools)
    encoded = bench_otlp.bodies(spans)
    events = bench_otlp.mapped_events(encoded)
    batches = [
        json.dumps({"events": events[start : start + bench_otlp.EVENTS_PER_BATCH]}).encode()
        for start in range(0, len(events), bench_otlp.EVENTS_PER_BATCH)
    ]
    os.environ.setdefault("AAAF_SECRET_KEY", "YmVuY2gtc2VjcmV0LW9mLXRoZS1hYWFmLWJlbmNoLTMyYnl0ZXMhIQ==")
    os.environ["AAAF_MAX_RATE_LIMIT_PER_MINUTE"] = str(BENCH_RATE_LIMIT_PER_MINUTE)
    requests = collections.Counter[str]()
    with postgres_schema() as url:
        from aaaf.api.app import create_app

        app = create_app(url, admin_key=ADMIN_KEY)
        with TestClient(app) as client:
            keys = {}
            for kind in ("otlp", "batch"):
                created = client.post(
                    "/api/v1/organizations",
                    json={"name": f"count-{uuid.uuid4().hex[:8]}"},
                    headers={"Authorization": f"Bearer {ADMIN_KEY}"},
                )
                created.raise_for_status()
                keys[kind] = created.json()["api_key"]
                client.patch(
                    f"/api/v1/organizations/{created.json()['id']}/config",
                    json={"rate_limit_per_minute": BENCH_RATE_LIMIT_PER_MINUTE},
                    headers={"Authorization": f"Bearer {keys[kind]}"},
                ).raise_for_status()
                client.post(
                    "/api/v1/agents",
                    json={"name": "bench-agent"},
                    headers={"Authorization": f"Bearer {keys[kind]}"},
                ).raise_for_status()
            content_types = {"otlp": "application/x-protobuf", "batch": "application/json"}
            paths = {"otlp": "/v1/traces", "batch": "/api/v1/events/batch"}
            for kind, body in bench_otlp.interleaved(encoded, batches):
                headers = {"Content-Type": content_types[kind], "Authorization": f"Bearer {keys[kind]}"}
                _kind[0] = kind
                recording.set()
                answer = client.post(paths[kind], content=body, headers=headers)
                recording.clear()
                answer.raise_for_status()
                requests[kind] += 1
    return {
        kind: {
            "requests": requests[kind],
            "statements": statements[kind],
            "round_trips": round_trips[kind],
            "statements_per_request": round(statements[kind] / requests[kind], 2),
            "round_trips_per_request": round(round_trips[kind] / requests[kind], 2),
            "events": len(events),
        }
        for kind in ("otlp", "batch")
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--traces", type=int, default=2000)
    parser.add_argument("--tools", type=int, default=4)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    _patch_libpq()
    counts = run(args.traces, args.tools)
    print(json.dumps(counts, indent=2))
    if args.verbose:
        for kind in ("otlp", "batch"):
            print(f"{kind}:")
            for statement, times in texts[kind].most_common():
                print(f"  {times:5d}  {statement}")


if __name__ == "__main__":
    main()
