"""API ingest benchmarks (issue 13 §8): events/s through ``POST /api/v1/events/batch``, each
beside baselines measured in the same run.

For SQLite (a file) and PostgreSQL (a schema of its own), a real ``aaaf serve`` subprocess
on loopback:

* ``batch_events_per_s`` — 1 000 events per request, 4 concurrent clients (httpx, one
  thread and one connection each; the bodies are encoded before the clock starts), beside
  ``health_requests_per_s`` (``GET /health`` at the same concurrency: what the server and
  clients cost with no work) and ``raw_events_per_s`` (the same rows, prepared as the event
  writer stores them, by one ``COPY`` on PostgreSQL / one ``executemany`` in one
  transaction on SQLite, into the same ``events`` table and indexes — on PostgreSQL with a
  second ``COPY`` of their keys into ``event_keys``, where the partitioned table keeps them);
* beside them, the CPU of the same run, counted from ``/proc`` rather than timed (the machine's
  cores are shared by the server, PostgreSQL and the clients, so a timing moves with the load):
  ``server_cpu_ms_per_1000_events`` (every ``aaaf serve`` process during the timed batches)
  and, on PostgreSQL, ``postgres_cpu_ms_per_1000_events`` (the backends serving the server's
  connections), beside the raw ``COPY``'s ``raw_copy_client_cpu_ms_per_1000_events`` and
  ``raw_copy_postgres_cpu_ms_per_1000_events``; ``batch_cpu_vs_raw_copy`` is the raw CPU over the
  batches' (server + backends) per event — what ``batch_vs_raw`` would be were every core busy
  (clock ticks of 10 ms: over the default 20 timed batches one tick is 0.5 ms per 1 000 events,
  ~3 % of the server's figure, so compare medians of several runs);
* ``single_p50_ms`` / ``single_p99_ms`` — latency of ``POST /api/v1/events`` (one event)
  sent open-loop at a fixed rate;
* ``--soak S`` (``make soak``) — S seconds of sustained batch ingest at a target rate; the
  count of events in the database must equal the count acknowledged.

There are no per-organization rate limits on this branch (the ``api-auth`` branch adds
them: the bench's organization must then be given a limit above its request rate).
Nothing here asserts on time.  ``--profile`` runs the server under py-spy and writes a
flame graph SVG beside ``results.json``.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import queue
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ingest_floors import raw_postgres, raw_sqlite
from proc_cpu import backend_pids, cpu_seconds_between, cpu_ticks, process_tree

POSTGRES_URL = os.environ.get("AAAF_BENCH_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
ADMIN_KEY = "bench-admin-" + uuid.uuid4().hex
# the bench organization's and the per-address rate limits, raised (SCORING.md §7 "Rate limits")
BENCH_RATE_LIMIT_PER_MINUTE = 100_000_000
BATCH = 1000
CLIENTS = 4
# the process of each ``serving`` base URL whose tree is the server (its workers are its children)
SERVER_PIDS: dict[str, int] = {}


# ------------------------------------------------------------------------------- servers


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serving(database_url: str, workdir: Path, *, workers: int, profile: Path | None = None) -> Iterator[str]:
    """``aaaf serve`` on a free loopback port; yields its base URL once ``/health`` answers."""
    port = _free_port()
    env = {
        **os.environ,
        "AAAF_DATABASE_URL": database_url,
        "AAAF_ADMIN_KEY": ADMIN_KEY,
        "AAAF_SECRET_KEY": os.environ.get("AAAF_SECRET_KEY") or base64.b64encode(os.urandom(32)).decode(),
        "AAAF_PUBLIC_BASE_URL": f"http://127.0.0.1:{port}",
        # the trivial-endpoint baseline (GET /health) is a request no key counts: its per-address
        # limit is raised like the organization's below (SCORING.md §7 "Rate limits")
        "AAAF_PUBLIC_RATE_LIMIT_PER_MINUTE": str(BENCH_RATE_LIMIT_PER_MINUTE),
        # the installation's caps, raised so that the organization may raise its own limit and the
        # benchmark's wrong-key cases are not held back (docs/security.md "Limits", "Keys")
        "AAAF_MAX_RATE_LIMIT_PER_MINUTE": str(BENCH_RATE_LIMIT_PER_MINUTE),
        "AAAF_AUTH_FAILURES_PER_MINUTE": str(BENCH_RATE_LIMIT_PER_MINUTE),
    }
    aaaf = str(Path(sys.executable).with_name("aaaf"))
    command = [aaaf, "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers)]
    command += ["--log-level", "warning"]
    if profile is not None:
        spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
        command = [spy, "record", "--subprocesses", "--idle", "-o", str(profile), "--", *command]
    log = (workdir / f"serve-{port}.log").open("wb")
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=workdir)
    base = f"http://127.0.0.1:{port}"
    # under py-spy, the server is its child: py-spy's own CPU is not the server's
    SERVER_PIDS[base] = process.pid if profile is None else -process.pid
    deadline = time.monotonic() + 240
    try:
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"aaaf serve exited {process.returncode}: see {log.name}")
            try:
                if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("aaaf serve did not start within 240 s")
            time.sleep(0.1)
        yield base
    finally:
        SERVER_PIDS.pop(base, None)
        process.send_signal(signal.SIGINT if profile is not None else signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


@contextmanager
def postgres_schema() -> Iterator[str]:
    """A fresh PostgreSQL schema; yields a URL whose connections use it."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url
    from sqlalchemy.pool import NullPool

    name = f"aaaf_bench_{uuid.uuid4().hex[:12]}"
    admin = create_engine(POSTGRES_URL, poolclass=NullPool)
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{name}"'))
    url = make_url(POSTGRES_URL).update_query_dict({"options": f"-csearch_path={name}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{name}" CASCADE'))
        admin.dispose()


def postgres_available() -> bool:
    from sqlalchemy import create_engine, text
    from sqlalchemy.pool import NullPool

    try:
        engine = create_engine(POSTGRES_URL, poolclass=NullPool, connect_args={"connect_timeout": 3})
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        engine.dispose()
        return True
    except Exception:
        return False


# ------------------------------------------------------------------------------- workload


def organization(base: str) -> tuple[str, str]:
    """A new organization (its all-scopes key) with one agent (its id)."""
    with httpx.Client(base_url=base, timeout=30) as client:
        created = client.post(
            "/api/v1/organizations",
            json={"name": f"bench-{uuid.uuid4().hex[:8]}"},
            headers={"Authorization": f"Bearer {ADMIN_KEY}"},
        )
        created.raise_for_status()
        key = created.json()["api_key"]
        # SCORING.md §7 "Rate limits": benchmarks that need more raise their organization's limit
        raised = client.patch(
            f"/api/v1/organizations/{created.json()['id']}/config",
            json={"rate_limit_per_minute": BENCH_RATE_LIMIT_PER_MINUTE},
            headers={"Authorization": f"Bearer {key}"},
        )
        raised.raise_for_status()
        agent = client.post(
            "/api/v1/agents", json={"name": "bench-agent"}, headers={"Authorization": f"Bearer {key}"}
        )
        agent.raise_for_status()
        return key, agent.json()["id"]


def events(agent_id: str, count: int, prefix: str) -> list[dict[str, Any]]:
    """``count`` distinct, valid events (tasks assigned and completed), each with its own id."""
    now = datetime.now(UTC) - timedelta(minutes=1)
    out: list[dict[str, Any]] = []
    for number in range(count):
        task = f"{prefix}-t{number // 2}"
        when = now - timedelta(seconds=count - number)
        if number % 2 == 0:
            data: dict[str, Any] = {
                "task_id": task,
                "complexity_level": 1 + number % 5,
                "domain": ("code", "testing", "research")[number % 3],
                "assigned_at": when.isoformat(),
            }
            kind = "task_assigned"
        else:
            data = {
                "task_id": task,
                "completion_status": "accepted",
                "time_to_complete_seconds": 60 + number % 900,
                "revision_count": number % 3,
                "errors": [],
                "cost_usd": 0.25,
                "budget_usd": 2.0,
                "review_checklist": {
                    "memory_search_performed": True,
                    "output_format_correct": number % 7 != 0,
                },
            }
            kind = "task_completed"
        out.append(
            {
                "id": f"{prefix}-{number}",
                "agent_id": agent_id,
                "type": kind,
                "timestamp": when.isoformat(),
                "data": data,
            }
        )
    return out


def batch_bodies(agent_id: str, batches: int, prefix: str) -> list[bytes]:
    every = events(agent_id, batches * BATCH, prefix)
    return [orjson.dumps({"events": every[i : i + BATCH]}) for i in range(0, len(every), BATCH)]


def drive(base: str, key: str, bodies: list[bytes], clients: int = CLIENTS) -> tuple[float, int, list[float]]:
    """Send every body to ``/api/v1/events/batch`` from ``clients`` threads; (seconds, events
    acknowledged, per-request seconds)."""
    work: queue.SimpleQueue[bytes] = queue.SimpleQueue()
    for body in bodies:
        work.put(body)
    acked = [0] * clients
    latencies: list[list[float]] = [[] for _ in range(clients)]
    headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
    start_line = threading.Barrier(clients + 1)

    def client(number: int) -> None:
        with httpx.Client(base_url=base, timeout=120, headers=headers) as http:
            http.get("/health")  # connect before the clock starts
            start_line.wait()
            while True:
                try:
                    body = work.get_nowait()
                except queue.Empty:
                    return
                sent = time.perf_counter()
                answer = http.post("/api/v1/events/batch", content=body)
                latencies[number].append(time.perf_counter() - sent)
                answer.raise_for_status()
                result = orjson.loads(answer.content)
                acked[number] += result["accepted"] + result["duplicates"]

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    start_line.wait()
    start = time.perf_counter()
    for thread in threads:
        thread.join()
    return time.perf_counter() - start, sum(acked), [s for per in latencies for s in per]


def health_rate(base: str, requests: int, clients: int = CLIENTS) -> float:
    """``GET /health`` requests per second at the same concurrency."""
    left = [requests]
    lock = threading.Lock()
    start_line = threading.Barrier(clients + 1)

    def client() -> None:
        with httpx.Client(base_url=base, timeout=30) as http:
            http.get("/health")
            start_line.wait()
            while True:
                with lock:
                    if left[0] <= 0:
                        return
                    left[0] -= 1
                http.get("/health").raise_for_status()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    start_line.wait()
    start = time.perf_counter()
    for thread in threads:
        thread.join()
    return requests / (time.perf_counter() - start)


def single_latency(base: str, key: str, agent_id: str, rate: float, seconds: float) -> dict[str, float]:
    """p50/p99 of ``POST /api/v1/events`` sent open-loop at ``rate`` per second (each request
    is due at its own instant; its latency counts from then, so a slow server is not hidden
    by a client that waits)."""
    total = max(1, int(rate * seconds))
    bodies = [orjson.dumps(event) for event in events(agent_id, total, f"single-{uuid.uuid4().hex[:6]}")]
    due = queue.SimpleQueue[tuple[float, bytes]]()
    start = time.perf_counter() + 0.5
    for number, body in enumerate(bodies):
        due.put((start + number / rate, body))
    latencies: list[float] = []
    lock = threading.Lock()
    headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}

    def sender() -> None:
        with httpx.Client(base_url=base, timeout=30, headers=headers) as http:
            http.get("/health")
            while True:
                try:
                    when, body = due.get_nowait()
                except queue.Empty:
                    return
                pause = when - time.perf_counter()
                if pause > 0:
                    time.sleep(pause)
                http.post("/api/v1/events", content=body).raise_for_status()
                with lock:
                    latencies.append(time.perf_counter() - when)

    threads = [threading.Thread(target=sender) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    ordered = sorted(latencies)
    return {
        "single_rate_per_s": rate,
        "single_requests": len(ordered),
        "single_p50_ms": round(1000 * statistics.median(ordered), 2),
        "single_p99_ms": round(1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 2),
    }


# ------------------------------------------------------------------------------- checks


def stored_count(url: str, agent_id: str) -> int:
    """Events stored for the agent (read straight from the database)."""
    from sqlalchemy import func, select

    from aaaf.store import open_store
    from aaaf.store import tables as t

    with open_store(url) as store, store.engine.connect() as connection:
        query = select(func.count()).select_from(t.events).where(t.events.c.agent_id == uuid.UUID(agent_id))
        return int(connection.execute(query).scalar_one())


# ------------------------------------------------------------------------------- runs


def bench_dialect(
    dialect: str,
    url: str,
    workdir: Path,
    *,
    batches: int,
    workers: int,
    rate: float,
    seconds: float,
    profile: Path | None,
) -> dict[str, Any]:
    with serving(url, workdir, workers=workers, profile=profile) as base:
        key, agent_id = organization(base)
        bodies = batch_bodies(agent_id, batches, f"b-{uuid.uuid4().hex[:6]}")
        _, warm_acked, _ = drive(base, key, bodies[:CLIENTS])  # warm-up: connections, pools, caches
        server = _server_processes(base)
        backends = backend_pids(url, server) if dialect == "postgresql" else []
        server_ticks, backend_ticks = cpu_ticks(server), cpu_ticks(backends)
        elapsed, acked, latencies = drive(base, key, bodies[CLIENTS:])
        server_cpu = cpu_seconds_between(server_ticks, cpu_ticks(server))
        if dialect == "postgresql":  # and any backend the pool opened during the drive
            backends = sorted(set(backends) | set(backend_pids(url, server)))
        backend_cpu = cpu_seconds_between(backend_ticks, cpu_ticks(backends))
        health = health_rate(base, 2000)
        single = single_latency(base, key, agent_id, rate, seconds)
        stored = stored_count(url, agent_id)
    batch_rate = acked / elapsed
    # the same rows into the same table, directly (another agent's, so keys do not collide)
    raw_events = events(agent_id, (batches - CLIENTS) * BATCH, f"raw-{uuid.uuid4().hex[:6]}")
    cpu: dict[str, Any] = {"server_cpu_ms_per_1000_events": round(1000 * server_cpu * BATCH / acked, 2)}
    if dialect == "postgresql":
        raw = raw_postgres(url, agent_id, raw_events)
        raw_rate = raw["events_per_s"]
        raw_cpu = raw["client_cpu_ms_per_1000"] + raw["postgres_cpu_ms_per_1000"]
        batch_cpu = cpu["server_cpu_ms_per_1000_events"] + 1000 * backend_cpu * BATCH / acked
        cpu |= {
            "postgres_backends": len(backends),
            "postgres_cpu_ms_per_1000_events": round(1000 * backend_cpu * BATCH / acked, 2),
            "raw_copy_client_cpu_ms_per_1000_events": round(raw["client_cpu_ms_per_1000"], 2),
            "raw_copy_postgres_cpu_ms_per_1000_events": round(raw["postgres_cpu_ms_per_1000"], 2),
            "batch_cpu_vs_raw_copy": round(raw_cpu / batch_cpu, 3) if backends else None,
        }
    else:
        raw_rate = raw_sqlite(Path(url.removeprefix("sqlite:///")), agent_id, raw_events)
    ordered = sorted(latencies)
    return {
        "workers": workers,
        "clients": CLIENTS,
        "events_per_request": BATCH,
        "batch_events": acked,
        "batch_events_per_s": round(batch_rate),
        "batch_requests_per_s": round(len(latencies) / elapsed, 2),
        "batch_request_p50_ms": round(1000 * statistics.median(ordered), 1),
        "health_requests_per_s": round(health),
        "batch_requests_vs_health": round((len(latencies) / elapsed) / health, 4),
        "raw_events_per_s": round(raw_rate),
        "raw_method": "COPY (events and their keys), one transaction"
        if dialect == "postgresql"
        else "executemany, one transaction",
        "batch_vs_raw": round(batch_rate / raw_rate, 3),
        **cpu,
        "stored_equals_acknowledged": stored == warm_acked + acked + single["single_requests"],
        **single,
    }


def _server_processes(base: str) -> list[int]:
    """The processes of the server at ``base``: ``aaaf serve`` and its workers (under py-spy,
    py-spy's child and its workers)."""
    pid = SERVER_PIDS[base]
    return process_tree(pid) if pid > 0 else process_tree(-pid)[1:]


def soak(
    dialect: str, url: str, workdir: Path, *, seconds: float, rate: float, workers: int
) -> dict[str, Any]:
    """``seconds`` of batch ingest paced at ``rate`` events/s (4 clients); the database must
    hold exactly the events acknowledged."""
    with serving(url, workdir, workers=workers) as base:
        key, agent_id = organization(base)
        per_client = rate / CLIENTS / BATCH  # requests per second per client
        stop_at = time.perf_counter() + seconds
        acked = [0] * CLIENTS
        failures: list[str] = []
        headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}

        def client(number: int) -> None:
            sent = 0
            with httpx.Client(base_url=base, timeout=120, headers=headers) as http:
                start = time.perf_counter()
                while time.perf_counter() < stop_at:
                    body = orjson.dumps({"events": events(agent_id, BATCH, f"soak{number}-{sent}")})
                    answer = http.post("/api/v1/events/batch", content=body)
                    if answer.status_code != 201:
                        failures.append(f"{answer.status_code} {answer.text[:200]}")
                        return
                    acked[number] += orjson.loads(answer.content)["accepted"]
                    sent += 1
                    pause = start + sent / per_client - time.perf_counter()
                    if pause > 0:
                        time.sleep(pause)

        threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
        began = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - began
        stored = stored_count(url, agent_id)
    return {
        "seconds": round(elapsed, 1),
        "target_events_per_s": rate,
        "achieved_events_per_s": round(sum(acked) / elapsed),
        "acknowledged": sum(acked),
        "stored": stored,
        "stored_equals_acknowledged": stored == sum(acked),
        "failures": failures[:5],
    }


def run(
    *,
    batches: int = 24,
    workers: int = 2,
    rate: float = 20.0,
    seconds: float = 10.0,
    soak_seconds: float = 0.0,
    soak_rate: float = 20_000.0,
    profile: bool = False,
    dialects: tuple[str, ...] = ("sqlite", "postgresql"),
) -> dict[str, Any]:
    results: dict[str, Any] = {}
    out_dir = Path(__file__).resolve().parent
    with tempfile.TemporaryDirectory(prefix="aaaf-bench-api-") as tmp:
        workdir = Path(tmp)
        for dialect in dialects:
            if dialect == "postgresql" and not postgres_available():
                results[dialect] = f"skipped: PostgreSQL at {POSTGRES_URL} is unreachable"
                continue
            flame = out_dir / f"bench_api_{dialect}.svg" if profile else None
            with _database(dialect, workdir) as url:
                if soak_seconds > 0:
                    results[dialect] = soak(
                        dialect, url, workdir, seconds=soak_seconds, rate=soak_rate, workers=workers
                    )
                else:
                    results[dialect] = bench_dialect(
                        dialect,
                        url,
                        workdir,
                        batches=batches,
                        workers=workers,
                        rate=rate,
                        seconds=seconds,
                        profile=flame,
                    )
    if soak_seconds <= 0 and isinstance(results.get("postgresql"), dict):
        results["target"] = {
            "postgresql batch_events_per_s >= 20000": results["postgresql"]["batch_events_per_s"] >= 20_000,
            "postgresql batch_vs_raw >= 0.5": results["postgresql"]["batch_vs_raw"] >= 0.5,
        }
    return results


@contextmanager
def _database(dialect: str, workdir: Path) -> Iterator[str]:
    if dialect == "postgresql":
        with postgres_schema() as url:
            yield url
    else:
        yield f"sqlite:///{workdir / f'bench-{uuid.uuid4().hex[:6]}.db'}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--batches", type=int, default=24, help="batch requests per dialect (4 are warm-up)")
    parser.add_argument("--workers", type=int, default=2, help="aaaf serve --workers")
    parser.add_argument("--rate", type=float, default=20.0, help="single-event requests per second")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long the single-event rate runs")
    parser.add_argument(
        "--soak", type=float, default=0.0, help="run the sustained ingest for this many seconds"
    )
    parser.add_argument("--soak-rate", type=float, default=20_000.0, help="target events/s of the soak")
    parser.add_argument(
        "--profile", action="store_true", help="record the server with py-spy (flame graph SVG)"
    )
    parser.add_argument("--dialect", choices=("sqlite", "postgresql"), action="append")
    args = parser.parse_args()
    results = run(
        batches=args.batches,
        workers=args.workers,
        rate=args.rate,
        seconds=args.seconds,
        soak_seconds=args.soak,
        soak_rate=args.soak_rate,
        profile=args.profile,
        dialects=tuple(args.dialect or ("sqlite", "postgresql")),
    )
    print(json.dumps(results, indent=2))
    if args.soak > 0 and not all(
        isinstance(value, dict) and value["stored_equals_acknowledged"] for value in results.values()
    ):
        sys.exit(1)


if __name__ == "__main__":
    main()
