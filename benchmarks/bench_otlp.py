"""OTLP ingest benchmark (issue 19 §4): spans/s through ``POST /v1/traces`` into PostgreSQL,
beside the same evidence posted as AAAF batches (``POST /api/v1/events/batch``) in the same run.

A real ``aaaf serve`` on a PostgreSQL schema of its own.  The workload is ``--traces`` agent
tasks recorded with the real OpenTelemetry SDK, each an ``invoke_agent`` span with
``--tools`` ``execute_tool`` children (every fifth call failing); they are encoded by the
SDK's own OTLP encoder into protobuf bodies of 512 spans (the BatchSpanProcessor's default
batch) before the clock starts, and sent by one client.  The baseline is the same evidence —
the events the mapping makes of those spans (:func:`aaaf.evidence.otlp.join`) — sent to
another organization as 1 000-event batches by one client.  The two kinds of requests are
interleaved in one sequence (each advancing at its own pace), so that a change in the
machine's load during the run weighs on both alike; each figure is per second of the wall
time its own requests took, and ``otlp_vs_batch`` is their ratio in evidence (events) per
second.  Nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_api import organization, postgres_available, postgres_schema, serving

SPANS_PER_REQUEST = 512
EVENTS_PER_BATCH = 1000


def record(traces: int, tools: int) -> list[Any]:
    """``traces`` tasks of the agent ``bench-agent`` as SDK spans."""
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
    from opentelemetry.trace import Status, StatusCode

    memory = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(memory))
    tracer = provider.get_tracer("bench_otlp")
    for number in range(traces):
        attributes = {
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.agent.name": "bench-agent",
            "aaaf.task.domain": ("code", "testing", "research")[number % 3],
            "aaaf.task.complexity_level": 1 + number % 5,
        }
        with tracer.start_as_current_span("invoke_agent bench-agent", attributes=attributes):
            for call in range(tools):
                name = f"tool-{call % 3}"
                tool_attributes = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name}
                with tracer.start_as_current_span(f"execute_tool {name}", attributes=tool_attributes) as span:
                    if (number + call) % 5 == 0:
                        span.set_status(Status(StatusCode.ERROR, "failed"))
    provider.shutdown()
    return list(memory.get_finished_spans())


def bodies(spans: list[Any]) -> list[bytes]:
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans

    return [
        encode_spans(spans[start : start + SPANS_PER_REQUEST]).SerializeToString()
        for start in range(0, len(spans), SPANS_PER_REQUEST)
    ]


def mapped_events(encoded: list[bytes]) -> list[dict[str, Any]]:
    """The events the server makes of the same spans (the batch baseline's evidence)."""
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

    from aaaf.api.otlp_codec import spans_of
    from aaaf.evidence.otlp import join

    spans = [span for body in encoded for span in spans_of(ExportTraceServiceRequest.FromString(body))]
    events = join(spans, [], lambda _reference: False).events
    return [{**event, "timestamp": event["timestamp"].isoformat()} for event in events]  # as JSON sends it


def interleaved(encoded: list[bytes], batches: list[bytes]) -> list[tuple[str, bytes]]:
    """Both workloads' requests in one sequence, each advancing at its own pace (the next
    request is the kind that is less far through its own), so that a machine whose load
    changes during the run weighs on both figures alike."""
    order = [("otlp", index / len(encoded), body) for index, body in enumerate(encoded)]
    order += [("batch", index / len(batches), body) for index, body in enumerate(batches)]
    order.sort(key=lambda item: item[1])
    return [(kind, body) for kind, _progress, body in order]


def _count_events(url: str) -> int:
    from sqlalchemy import create_engine, text
    from sqlalchemy.pool import NullPool

    engine = create_engine(url, poolclass=NullPool)
    with engine.connect() as connection:
        count = int(connection.execute(text("SELECT count(*) FROM events")).scalar_one())
    engine.dispose()
    return count


def run(traces: int = 2000, tools: int = 4) -> dict[str, Any]:
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse

    if not postgres_available():
        return {"skipped": "PostgreSQL not reachable"}
    spans = record(traces, tools)
    encoded = bodies(spans)
    events = mapped_events(encoded)
    batches = [
        json.dumps({"events": events[start : start + EVENTS_PER_BATCH]}).encode()
        for start in range(0, len(events), EVENTS_PER_BATCH)
    ]
    with tempfile.TemporaryDirectory(prefix="aaaf-bench-otlp-") as tmp, postgres_schema() as url:
        with serving(url, Path(tmp), workers=1) as base:
            otlp_key, _ = organization(base)
            batch_key, _ = organization(base)
            otlp_headers = {"Content-Type": "application/x-protobuf", "Authorization": f"Bearer {otlp_key}"}
            batch_headers = {"Content-Type": "application/json", "Authorization": f"Bearer {batch_key}"}
            spent = {"otlp": 0.0, "batch": 0.0}
            with httpx.Client(base_url=base, timeout=120) as client:
                for kind, body in interleaved(encoded, batches):
                    start = time.perf_counter()
                    if kind == "otlp":
                        answer = client.post("/v1/traces", content=body, headers=otlp_headers)
                        answer.raise_for_status()
                        result = ExportTraceServiceResponse.FromString(answer.content)
                        assert result.partial_success.rejected_spans == 0, result
                    else:
                        answer = client.post("/api/v1/events/batch", content=body, headers=batch_headers)
                        answer.raise_for_status()
                        assert answer.json()["rejected"] == 0, answer.text
                    spent[kind] += time.perf_counter() - start
            otlp_s, batch_s = spent["otlp"], spent["batch"]
        stored = _count_events(url)
        assert stored == 2 * len(events), (stored, len(events))  # both paths stored every event
    return {
        "database": "postgresql",
        "traces": traces,
        "spans": len(spans),
        "events": len(events),
        "otlp_requests": len(encoded),
        "batch_requests": len(batches),
        "otlp_s": round(otlp_s, 3),
        "batch_s": round(batch_s, 3),
        "otlp_spans_per_s": round(len(spans) / otlp_s, 1),
        "otlp_events_per_s": round(len(events) / otlp_s, 1),
        "batch_events_per_s": round(len(events) / batch_s, 1),
        "otlp_vs_batch": round(batch_s / otlp_s, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--traces", type=int, default=2000)
    parser.add_argument("--tools", type=int, default=4)
    args = parser.parse_args()
    print(json.dumps(run(args.traces, args.tools), indent=2))


if __name__ == "__main__":
    main()
