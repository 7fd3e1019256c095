"""The server-side work of ``POST /v1/traces`` on PostgreSQL beside ``POST
/api/v1/events/batch`` for the same evidence (the workload of :mod:`bench_otlp`), counted,
not timed: the application runs in this process, each request handed to it as ASGI
(:mod:`count_ingest_work`'s way), so that ``valgrind --tool=callgrind`` counts the handler
alone (the database is another process, not counted).

``python benchmarks/count_otlp_work.py --exports N`` sends 2 warm-up exports and batches,
then N exports of 512 spans (~600 events) and the batches of the same evidence, and prints
the CPU seconds of each kind.  Instructions per export: count the exports alone,
instrumentation switched on around them only (``--only otlp``)::

    COUNT_INGEST_CALLGRIND=1 valgrind --tool=callgrind --instr-atstart=no \\
        --callgrind-out-file=/tmp/otlp.out python benchmarks/count_otlp_work.py \\
        --exports 4 --only otlp --slowdown 100

and divide the total by N.  ``--profile FILE`` writes a cProfile of the counted requests.

``--mapping`` counts the pure mapping alone, no server and no database: the decoding of the same
N exports into spans (``aaaf.api.otlp_codec.spans_of``), then their join into events
(``aaaf.evidence.otlp.join``), the cyclic collector paused as the route pauses it; each phase
is dumped apart (``grep totals /tmp/otlp.out.1`` for spans_of, ``.2`` for join)::

    COUNT_INGEST_CALLGRIND=1 PYTHONHASHSEED=0 valgrind --tool=callgrind --instr-atstart=no \\
        --callgrind-out-file=/tmp/otlp.out python benchmarks/count_otlp_work.py --exports 4 --mapping
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_otlp
from bench_api import postgres_schema
from callgrind import control
from count_ingest_work import _call, _instrument, _slow_clock

ADMIN_KEY = "count-admin-" + uuid.uuid4().hex
WARM_UP = 2


def _protobuf(app: Any) -> Any:
    """``app`` with every request's Content-Type protobuf (:func:`count_ingest_work._call`
    sends JSON's)."""

    async def call(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            scope = {
                **scope,
                "headers": [
                    (name, b"application/x-protobuf" if name == b"content-type" else value)
                    for name, value in scope["headers"]
                ],
            }
        await app(scope, receive, send)

    return call


def _inline_otlp() -> None:
    """The OTLP route's ingestion in the event loop's thread, not a worker thread."""
    from aaaf.api.routes import otlp

    async def inline(function: Any, *args: Any, **kwargs: Any) -> Any:
        return function(*args, **kwargs)

    otlp.run_in_threadpool = inline  # type: ignore[assignment]


async def _organization(app: Any, name: str) -> str:
    status, answer = await _call(
        app, "POST", "/api/v1/organizations", orjson.dumps({"name": name}), ADMIN_KEY
    )
    assert status == 201, answer
    key: str = orjson.loads(answer)["api_key"]
    status, answer = await _call(app, "POST", "/api/v1/agents", orjson.dumps({"name": "bench-agent"}), key)
    assert status == 201, answer
    return key


async def _run(url: str, exports: int, only: str | None, profile: Path | None) -> dict[str, Any]:
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse

    from aaaf.api import create_app

    per_trace = 5  # an invoke_agent span and 4 tool calls: bench_otlp's default
    traces = -(-(WARM_UP + exports) * bench_otlp.SPANS_PER_REQUEST // per_trace)
    encoded = bench_otlp.bodies(bench_otlp.record(traces, per_trace - 1))[: WARM_UP + exports]
    events = bench_otlp.mapped_events(encoded)
    batch = bench_otlp.EVENTS_PER_BATCH
    batches = [
        json.dumps({"events": events[start : start + batch]}).encode()
        for start in range(0, len(events), batch)
    ]
    warm_batches = -(-len(batches) * WARM_UP // (WARM_UP + exports))
    app = create_app(url, admin_key=ADMIN_KEY)
    protobuf = _protobuf(app)
    cpu = {"otlp": 0.0, "batch": 0.0}
    async with app.router.lifespan_context(app):
        keys = {
            "otlp": await _organization(app, "count-otlp"),
            "batch": await _organization(app, "count-batch"),
        }

        async def send(kind: str, body: bytes) -> None:
            if kind == "otlp":
                status, answer = await _call(protobuf, "POST", "/v1/traces", body, keys["otlp"])
                assert status == 200, answer
                result = ExportTraceServiceResponse.FromString(answer)
                assert result.partial_success.rejected_spans == 0, result
            else:
                status, answer = await _call(app, "POST", "/api/v1/events/batch", body, keys["batch"])
                assert status == 201, answer
                assert orjson.loads(answer)["rejected"] == 0, answer

        for kind, body in bench_otlp.interleaved(encoded[:WARM_UP], batches[:warm_batches]):
            await send(kind, body)
        profiler = None
        if profile is not None:
            import cProfile

            profiler = cProfile.Profile(time.thread_time)
            _inline_otlp()  # cProfile sees only this thread
        for kind, body in bench_otlp.interleaved(encoded[WARM_UP:], batches[warm_batches:]):
            counted = only in (None, kind)
            if counted:
                _instrument(on=True)
                if profiler is not None:
                    profiler.enable()
            started = time.process_time()
            await send(kind, body)
            cpu[kind] += time.process_time() - started
            if counted:
                if profiler is not None:
                    profiler.disable()
                _instrument(on=False)
        if profiler is not None and profile is not None:
            profiler.dump_stats(str(profile))
    counted_events = len(bench_otlp.mapped_events(encoded[WARM_UP:]))
    return {
        "exports": exports,
        "spans_per_export": bench_otlp.SPANS_PER_REQUEST,
        "events": counted_events,
        "batches": len(batches) - warm_batches,
        "otlp_cpu_s": round(cpu["otlp"], 4),
        "batch_cpu_s": round(cpu["batch"], 4),
        "otlp_cpu_ms_per_export": round(1000 * cpu["otlp"] / exports, 2),
        "otlp_cpu_us_per_event": round(1e6 * cpu["otlp"] / counted_events, 2),
        "batch_cpu_us_per_event": round(1e6 * cpu["batch"] / counted_events, 2),
    }


def _mapping(exports: int) -> dict[str, Any]:
    """Count ``spans_of`` and ``join`` on ``exports`` of bench_otlp's exports (after one
    warm-up export), each dumped apart under callgrind; their CPU seconds."""
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

    from aaaf.api.otlp_codec import spans_of
    from aaaf.evidence.otlp import join
    from aaaf.memory import gc_paused

    per_trace = 5
    traces = -(-(1 + exports) * bench_otlp.SPANS_PER_REQUEST // per_trace)
    encoded = bench_otlp.bodies(bench_otlp.record(traces, per_trace - 1))[: 1 + exports]
    requests = [ExportTraceServiceRequest.FromString(body) for body in encoded]
    join(spans_of(requests[0]), [], lambda _reference: False)  # warm-up
    cpu: dict[str, float] = {}
    with gc_paused():
        started = time.process_time()
        _instrument(on=True)
        decoded = [spans_of(request) for request in requests[1:]]
        _instrument(on=False)
        control("COUNT_INGEST_CALLGRIND", "--dump=spans_of")
        cpu["spans_of_cpu_s"] = round(time.process_time() - started, 4)
        started = time.process_time()
        _instrument(on=True)
        plans = [join(spans, [], lambda _reference: False) for spans in decoded]
        _instrument(on=False)
        control("COUNT_INGEST_CALLGRIND", "--dump=join")
        cpu["join_cpu_s"] = round(time.process_time() - started, 4)
    return {"exports": exports, "events": sum(len(plan.events) for plan in plans), **cpu}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--exports", type=int, default=20, help="counted exports (after 2 warm-up)")
    parser.add_argument("--only", choices=("otlp", "batch"), help="count (callgrind, profile) only this kind")
    parser.add_argument("--profile", type=Path, help="write a cProfile of the counted requests here")
    parser.add_argument(
        "--slowdown", type=float, default=1.0, help="stretch the time-based caches (under valgrind: 100)"
    )
    parser.add_argument("--mapping", action="store_true", help="count spans_of and join alone")
    args = parser.parse_args()
    if args.mapping:
        print(json.dumps(_mapping(args.exports), indent=2))
        return
    _slow_clock(args.slowdown)
    with postgres_schema() as url:
        print(json.dumps(asyncio.run(_run(url, args.exports, args.only, args.profile)), indent=2))


if __name__ == "__main__":
    main()
