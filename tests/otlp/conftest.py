"""Shared by the OTLP tests (issue 19): the live servers of tests/api, and traces made with
the real OpenTelemetry SDK (spans recorded in memory, then sent with the real OTLP/HTTP
exporter in whatever order and grouping a test wants)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import httpx
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.exporter.otlp.proto.http import Compression
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import Status, StatusCode

from tests.api.conftest import live  # noqa: F401

ToolCall = tuple[str, bool]  # (tool name, succeeded)


def record_task(
    agent: str,
    tools: Sequence[ToolCall],
    *,
    failed: bool = False,
    domain: str | None = "code",
    level: int | None = 2,
    evaluations: Sequence[dict[str, Any]] = (),
    agent_id: str | None = None,
    attributes: dict[str, Any] | None = None,
) -> list[ReadableSpan]:
    """One ``invoke_agent`` span with ``execute_tool`` grandchildren (below a ``chat`` span:
    any depth counts), recorded by the SDK; in the order the SDK finished them (children
    first, the agent span last); ``attributes`` are added to the agent span's."""
    memory = InMemorySpanExporter()
    provider = TracerProvider(resource=Resource.create({"service.name": "otlp-test"}))
    provider.add_span_processor(SimpleSpanProcessor(memory))
    tracer = provider.get_tracer("tests.otlp")
    extra = dict(attributes or {})
    attributes = {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": agent, **extra}
    if agent_id is not None:
        attributes["gen_ai.agent.id"] = agent_id
    if domain is not None:
        attributes["aaaf.task.domain"] = domain
    if level is not None:
        attributes["aaaf.task.complexity_level"] = level
    with tracer.start_as_current_span(f"invoke_agent {agent}", attributes=attributes) as root:
        with tracer.start_as_current_span("chat model", attributes={"gen_ai.operation.name": "chat"}):
            for name, ok in tools:
                parent_attrs = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name}
                with tracer.start_as_current_span(f"execute_tool {name}", attributes=parent_attrs) as span:
                    if not ok:
                        span.set_status(Status(StatusCode.ERROR, f"{name} failed"))
        for evaluation in evaluations:
            root.add_event("gen_ai.evaluation.result", evaluation)
        if failed:
            root.set_status(Status(StatusCode.ERROR, "the agent gave up"))
    provider.shutdown()
    return list(memory.get_finished_spans())


def exporter(base_url: str, key: str | None, *, gzip: bool = False) -> OTLPSpanExporter:
    """The real OTLP/HTTP (protobuf) exporter pointed at the server."""
    headers = {} if key is None else {"Authorization": f"Bearer {key}"}
    return OTLPSpanExporter(
        endpoint=f"{base_url}/v1/traces",
        headers=headers,
        compression=Compression.Gzip if gzip else Compression.NoCompression,
        timeout=30,
    )


def protobuf_body(spans: Sequence[ReadableSpan]) -> bytes:
    """The exporter's own encoding of ``spans`` (an ExportTraceServiceRequest)."""
    return encode_spans(spans).SerializePartialToString()  # type: ignore[no-any-return]


def agent_events(client: httpx.Client, name: str) -> list[dict[str, Any]]:
    """Every event of the agent named ``name`` (over the API)."""
    agent = client.get(f"/api/v1/agents/{name}")
    assert agent.status_code == 200, agent.text
    response = client.get("/api/v1/events", params={"agent_id": agent.json()["id"], "limit": 1000})
    assert response.status_code == 200, response.text
    return list(response.json()["items"])
