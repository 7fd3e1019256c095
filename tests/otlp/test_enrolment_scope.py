"""OTLP auto-enrolment needs the scope that creates agents (docs/security.md "Keys"): an
``events:write`` key cannot create an agent through ``/v1/traces`` any more than through
``POST /api/v1/agents``; its spans are refused and ``partialSuccess`` says why."""

from __future__ import annotations

import uuid

import httpx
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse

from tests.otlp.conftest import protobuf_body, record_task

PROTOBUF = {"Content-Type": "application/x-protobuf"}


def test_an_events_write_key_cannot_enrol_an_agent_through_traces(live) -> None:
    org = live.organization()
    issued = org.client.post("/api/v1/keys", json={"name": "ingest", "scopes": ["events:write"]})
    assert issued.status_code == 201, issued.text
    ingest_key = issued.json()["api_key"]
    assert live.client(ingest_key).post("/api/v1/agents", json={"name": "x"}).status_code == 403

    name = f"otel-{uuid.uuid4().hex[:8]}"
    spans = record_task(name, [("search", True)])
    response = httpx.post(
        f"{live.base_url}/v1/traces",
        content=protobuf_body(spans),
        headers={**PROTOBUF, "Authorization": f"Bearer {ingest_key}"},
    )
    assert response.status_code == 200, response.text
    answer = ExportTraceServiceResponse.FromString(response.content)
    assert answer.partial_success.rejected_spans > 0
    assert name in answer.partial_success.error_message
    agents = org.client.get("/api/v1/agents").json()["items"]
    assert name not in {agent["name"] for agent in agents}

    # the agent enrolled by a key that may create agents, the same key's spans are taken
    org.client.post("/api/v1/agents", json={"name": name})
    again = httpx.post(
        f"{live.base_url}/v1/traces",
        content=protobuf_body(record_task(name, [("edit", True)])),
        headers={**PROTOBUF, "Authorization": f"Bearer {ingest_key}"},
    )
    assert ExportTraceServiceResponse.FromString(again.content).partial_success.rejected_spans == 0
