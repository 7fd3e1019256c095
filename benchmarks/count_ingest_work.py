"""The server-side work of ``POST /api/v1/events/batch`` on PostgreSQL, counted, not timed:
the application runs in this process (no HTTP server, no client), each request handed to it
as ASGI, so that ``valgrind --tool=callgrind`` counts the instructions of the handler alone
(the database is another process, not counted).

``python benchmarks/count_ingest_work.py --requests N`` sends 4 warm-up batches, then N
batches of 1 000 events (the events of ``bench_api.py``), and prints the CPU seconds of the
N and the round trips to PostgreSQL per request.  Instructions per request: run it under
callgrind twice, with ``--requests A`` and ``--requests B``, and divide the difference of
the two totals by ``B - A`` (start-up and warm-up cancel out); or count the requests alone,
instrumentation switched on around them (``callgrind_control -i``)::

    COUNT_INGEST_CALLGRIND=1 valgrind --tool=callgrind --instr-atstart=no \\
        --callgrind-out-file=/tmp/ingest.out python benchmarks/count_ingest_work.py --requests 10 --slowdown 100

``--profile FILE`` writes a cProfile of the N requests.

Beside the handler's CPU, the CPU of the PostgreSQL backends that served the requests (read from
``/proc`` when the database runs on this machine; clock ticks of 10 ms, so count 40 requests or
more), and the floor counted the same way: the same number of rows (``bench_api``'s prepared rows)
by one raw ``COPY`` — its backend's CPU and this process's.  ``cpu_vs_raw_copy`` is the floor's CPU
over the requests' (handler + backends) per event: what ``batch_vs_raw`` would be on a machine
whose every core is busy, and it moves far less with the load of other processes than a timing
does (under callgrind it means nothing: this process runs ~50 times slower there, the backends not).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_api import BATCH, batch_bodies, events, postgres_schema
from callgrind import control
from ingest_floors import raw_postgres
from proc_cpu import backend_pids, cpu_seconds_between, cpu_ticks

ADMIN_KEY = "count-admin-" + uuid.uuid4().hex


async def _call(app: Any, method: str, path: str, body: bytes, key: str) -> tuple[int, bytes]:
    """One request through the ASGI app; (status, body)."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"127.0.0.1"),
            (b"authorization", f"Bearer {key}".encode()),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }
    sent = [False]

    async def receive() -> dict[str, Any]:
        if not sent[0]:
            sent[0] = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    status = [0]
    chunks: list[bytes] = []

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            status[0] = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    return status[0], b"".join(chunks)


def _slow_clock(factor: float) -> None:
    """Under valgrind every request takes ~50 times as long: the time-based caches (the API
    key trusted for a few seconds, a pooled connection not pinged for a second after its last
    use) and the server's periodic work are stretched by ``factor`` so that they decide and run as
    they would at full speed."""
    from aaaf.api import usage
    from aaaf.settings import Settings
    from aaaf.store import engine, verified_keys

    verified_keys.VERIFIED_KEY_SECONDS *= factor
    # the server's own periodic work (usage flush every 5 s, webhook delivery round every 2 s) ran
    # ~4 and ~1 times a request under valgrind: 3.7 M and 2.1 M instructions a request, not the request's
    usage.FLUSH_INTERVAL_S *= factor
    interval = float(
        os.environ.get("AAAF_BACKGROUND_INTERVAL_SECONDS", Settings().background_interval_seconds)
    )
    os.environ["AAAF_BACKGROUND_INTERVAL_SECONDS"] = str(interval * factor)
    if hasattr(engine, "PING_AFTER_IDLE_SECONDS"):
        engine.PING_AFTER_IDLE_SECONDS *= factor


async def _run(url: str, requests: int, profile: Path | None) -> dict[str, Any]:
    from aaaf.api import create_app

    app = create_app(url, admin_key=ADMIN_KEY)
    async with app.router.lifespan_context(app):
        status, answer = await _call(
            app, "POST", "/api/v1/organizations", orjson.dumps({"name": "count"}), ADMIN_KEY
        )
        assert status == 201, answer
        key = orjson.loads(answer)["api_key"]
        status, answer = await _call(app, "POST", "/api/v1/agents", orjson.dumps({"name": "counted"}), key)
        assert status == 201, answer
        agent = orjson.loads(answer)["id"]
        bodies = batch_bodies(agent, 4 + requests, f"c-{uuid.uuid4().hex[:6]}")
        for body in bodies[:4]:  # warm-up: the pool, the key cache, the month's partition
            status, answer = await _call(app, "POST", "/api/v1/events/batch", body, key)
            assert status == 201, answer
        trips = _count_round_trips()
        backends = backend_pids(url)  # before the profiler and callgrind start counting
        backend_ticks = cpu_ticks(backends)
        profiler = None
        if profile is not None:
            import cProfile

            profiler = cProfile.Profile()
            profiler.enable()
        _instrument(on=True)
        started = time.process_time()
        accepted = 0
        for body in bodies[4:]:
            status, answer = await _call(app, "POST", "/api/v1/events/batch", body, key)
            assert status == 201, answer
            accepted += orjson.loads(answer)["accepted"]
        cpu = time.process_time() - started
        backend_cpu = cpu_seconds_between(backend_ticks, cpu_ticks(backends))
        _instrument(on=False)
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(str(profile))
        assert accepted == requests * BATCH, accepted
        raw = raw_postgres(url, agent, events(agent, requests * BATCH, f"raw-{uuid.uuid4().hex[:6]}"))
        floor = {"client": raw["client_cpu_ms_per_1000"], "postgres": raw["postgres_cpu_ms_per_1000"]}
    server_and_database = 1_000_000 * (cpu + backend_cpu) / (requests * BATCH)  # ms per 1 000 events
    return {
        "requests": requests,
        "events_per_request": BATCH,
        "cpu_seconds": round(cpu, 4),
        "cpu_ms_per_request": round(1000 * cpu / max(requests, 1), 2),
        "round_trips_per_request": round(len(trips) / max(requests, 1), 2),
        "round_trips_of_one": trips[-len(trips) // max(requests, 1) :] if trips else [],
        "postgres_backends": len(backends),
        "postgres_cpu_ms_per_request": round(1000 * backend_cpu / max(requests, 1), 2),
        "raw_copy_cpu_ms_per_1000_events": {name: round(value, 2) for name, value in floor.items()},
        "cpu_vs_raw_copy": round(sum(floor.values()) / server_and_database, 3) if backends else None,
    }


def _instrument(*, on: bool) -> None:
    """Under ``valgrind --tool=callgrind --instr-atstart=no``, count only the requests."""
    control("COUNT_INGEST_CALLGRIND", "-i", "on" if on else "off")


def _count_round_trips() -> list[str]:
    """Each statement the requests send to PostgreSQL from now on (psycopg's cursor calls,
    commits, rollbacks of a transaction and the pool's pings; ";" is a ping), by its first words.  Only the
    requests' own: routes and dependencies run in AnyIO's worker threads, the background loop
    (webhooks, usage meter) elsewhere."""
    import threading

    import psycopg

    trips: list[str] = []

    def counted(name: str, real: Any) -> Any:
        def call(self: Any, *args: Any, **kwargs: Any) -> Any:
            idle = name == "rollback" and self.pgconn.transaction_status == psycopg.pq.TransactionStatus.IDLE
            if threading.current_thread().name.startswith("AnyIO") and not idle:  # idle: nothing sent
                trips.append(" ".join(str(args[0]).split()[:2]) if args else name)
            return real(self, *args, **kwargs)

        return call

    for owner, name in [
        (psycopg.Cursor, "execute"),
        (psycopg.Cursor, "executemany"),
        (psycopg.Cursor, "copy"),
        (psycopg.Connection, "commit"),
        (psycopg.Connection, "rollback"),
    ]:
        setattr(owner, name, counted(name, getattr(owner, name)))
    return trips


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--requests", type=int, default=10, help="counted batch requests (after 4 warm-up)")
    parser.add_argument("--profile", type=Path, help="write a cProfile of the counted requests here")
    parser.add_argument(
        "--slowdown", type=float, default=1.0, help="stretch the time-based caches (under valgrind: 100)"
    )
    args = parser.parse_args()
    _slow_clock(args.slowdown)
    with postgres_schema() as url:
        print(json.dumps(asyncio.run(_run(url, args.requests, args.profile)), indent=2))


if __name__ == "__main__":
    main()
