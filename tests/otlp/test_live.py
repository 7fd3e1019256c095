"""``POST /v1/traces`` on a live ``aaaf serve``, SQLite and PostgreSQL (issue 19 §3), fed by
the real OpenTelemetry SDK and its OTLP/HTTP exporter."""

from __future__ import annotations

import gzip
import json
import uuid

import httpx
from google.protobuf import json_format
from google.rpc import status_pb2
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse
from opentelemetry.sdk.trace.export import SpanExportResult

from tests.otlp.conftest import agent_events, exporter, protobuf_body, record_task

PROTOBUF = {"Content-Type": "application/x-protobuf"}


def _types(events: list[dict]) -> list[str]:
    return sorted(event["type"] for event in events)


def test_spans_become_events_and_resending_stores_nothing(live) -> None:
    org = live.organization()
    name = f"otel-{uuid.uuid4().hex[:8]}"
    spans = record_task(
        name,
        [("search", False), ("search", True), ("edit", True)],
        evaluations=[{"gen_ai.evaluation.name": "accuracy", "gen_ai.evaluation.score.value": 0.8}],
    )
    sender = exporter(live.base_url, org.key)
    assert sender.export(spans) is SpanExportResult.SUCCESS
    events = agent_events(org.client, name)  # the agent was enrolled by name
    assert _types(events) == [
        "eval_result",
        "task_assigned",
        "task_completed",
        "tool_invoked",
        "tool_invoked",
        "tool_invoked",
    ]
    root = spans[-1]
    task_id = f"otel-{root.context.trace_id:032x}-{root.context.span_id:016x}"
    assert {event["data"]["task_id"] for event in events} == {task_id}
    tools = sorted(
        (e["data"]["tool"], e["data"]["success"], e["data"]["error_recovered"])
        for e in events
        if e["type"] == "tool_invoked"
    )
    assert tools == [("edit", True, False), ("search", False, True), ("search", True, False)]
    completed = next(e for e in events if e["type"] == "task_completed")
    assert completed["data"]["completion_status"] == "accepted"
    evaluation = next(e for e in events if e["type"] == "eval_result")
    assert evaluation["data"]["dimension"] == "accuracy"
    assert abs(evaluation["data"]["score"] - 80.0) < 1e-9

    assert sender.export(spans) is SpanExportResult.SUCCESS  # the same spans again
    assert len(agent_events(org.client, name)) == len(events)
    sender.shutdown()


def test_children_before_their_agent_span_join_its_task(live) -> None:
    org = live.organization()
    name = f"otel-{uuid.uuid4().hex[:8]}"
    spans = record_task(name, [("fetch", True), ("fetch", False)], failed=True)
    children, root = spans[:-1], spans[-1]
    sender = exporter(live.base_url, org.key, gzip=True)
    response = httpx.post(
        f"{live.base_url}/v1/traces",
        content=protobuf_body(children),
        headers={**PROTOBUF, "Authorization": f"Bearer {org.key}"},
    )
    assert response.status_code == 200, response.text
    answer = ExportTraceServiceResponse.FromString(response.content)
    assert answer.partial_success.rejected_spans == 0
    assert "wait for their invoke_agent ancestor" in answer.partial_success.error_message
    assert org.client.get(f"/api/v1/agents/{name}").status_code == 404  # nothing yet
    assert sender.export([root]) is SpanExportResult.SUCCESS  # gzip, the real exporter
    events = agent_events(org.client, name)
    assert _types(events) == ["task_assigned", "task_completed", "tool_invoked", "tool_invoked"]
    completed = next(e for e in events if e["type"] == "task_completed")
    assert completed["data"]["completion_status"] == "rejected"
    assert {e["data"]["task_id"] for e in events} == {completed["data"]["task_id"]}
    assert sender.export(spans) is SpanExportResult.SUCCESS  # all again: nothing new
    assert len(agent_events(org.client, name)) == 4
    sender.shutdown()


def test_agent_span_before_its_children(live) -> None:
    org = live.organization()
    name = f"otel-{uuid.uuid4().hex[:8]}"
    spans = record_task(name, [("run", True)])
    sender = exporter(live.base_url, org.key)
    assert sender.export([spans[-1]]) is SpanExportResult.SUCCESS
    assert _types(agent_events(org.client, name)) == ["task_assigned", "task_completed"]
    assert sender.export(list(reversed(spans[:-1]))) is SpanExportResult.SUCCESS  # chat, then tool
    events = agent_events(org.client, name)
    assert _types(events) == ["task_assigned", "task_completed", "tool_invoked"]
    sender.shutdown()


def test_otlp_json_encoding(live) -> None:
    org = live.organization()
    name = f"otel-{uuid.uuid4().hex[:8]}"
    spans = record_task(name, [("grep", True)])
    document = json_format.MessageToDict(
        __import__(
            "opentelemetry.exporter.otlp.proto.common.trace_encoder", fromlist=["encode_spans"]
        ).encode_spans(spans)
    )
    # OTLP/JSON: ids in hex, not protobuf JSON's base64
    import base64

    for resource in document["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            for span in scope["spans"]:
                for key in ("traceId", "spanId", "parentSpanId"):
                    if key in span:
                        span[key] = base64.b64decode(span[key]).hex()
    response = httpx.post(
        f"{live.base_url}/v1/traces",
        json=document,
        headers={"Authorization": f"Bearer {org.key}"},
    )
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/json")
    assert response.json() == {}
    assert _types(agent_events(org.client, name)) == ["task_assigned", "task_completed", "tool_invoked"]
    again = httpx.post(
        f"{live.base_url}/v1/traces",
        content=gzip.compress(json.dumps(document).encode()),
        headers={
            "Authorization": f"Bearer {org.key}",
            "Content-Type": "application/json",
            "Content-Encoding": "gzip",
        },
    )
    assert again.status_code == 200, again.text
    assert len(agent_events(org.client, name)) == 3


def test_partial_success_names_what_could_not_be_used(live) -> None:
    org = live.organization()
    spans = record_task(f"otel-{uuid.uuid4().hex[:8]}", [("x", True)], agent_id="not-an-aaaf-id")
    # an agent span naming only a foreign agent id (no gen_ai.agent.name): unusable
    root = spans[-1]
    attributes = {k: v for k, v in root.attributes.items() if k != "gen_ai.agent.name"}
    spans[-1] = type(root)(
        name=root.name,
        context=root.context,
        parent=root.parent,
        resource=root.resource,
        attributes=attributes,
        events=root.events,
        links=root.links,
        kind=root.kind,
        status=root.status,
        start_time=root.start_time,
        end_time=root.end_time,
        instrumentation_scope=root.instrumentation_scope,
    )
    response = httpx.post(
        f"{live.base_url}/v1/traces",
        content=protobuf_body(spans),
        headers={**PROTOBUF, "Authorization": f"Bearer {org.key}"},
    )
    assert response.status_code == 200, response.text
    answer = ExportTraceServiceResponse.FromString(response.content)
    assert answer.partial_success.rejected_spans == len(spans)
    assert "gen_ai.agent.name" in answer.partial_success.error_message


def _status(response: httpx.Response) -> status_pb2.Status:
    assert response.headers["content-type"].startswith("application/x-protobuf")
    return status_pb2.Status.FromString(response.content)


def test_error_answers_are_otlp_statuses(live) -> None:
    url = f"{live.base_url}/v1/traces"
    body = protobuf_body(record_task("anyone", [("t", True)]))
    unauthenticated = httpx.post(url, content=body, headers=PROTOBUF)
    assert unauthenticated.status_code == 401
    assert _status(unauthenticated).message
    assert exporter(live.base_url, None).export(record_task("anyone", [])) is SpanExportResult.FAILURE

    org = live.organization()
    auth = {"Authorization": f"Bearer {org.key}"}
    malformed = httpx.post(url, content=b"\xff\xfe not protobuf", headers={**PROTOBUF, **auth})
    assert malformed.status_code == 400
    assert "protobuf" in _status(malformed).message
    bad_json = httpx.post(url, content=b"{nope", headers={"Content-Type": "application/json", **auth})
    assert bad_json.status_code == 400
    assert "JSON" in bad_json.json()["message"]
    oversize = httpx.post(url, content=b"\x00" * (1_048_576 + 10), headers={**PROTOBUF, **auth})
    assert oversize.status_code == 413
    assert _status(oversize).message


def test_forbidden_without_events_write(live) -> None:
    org = live.organization()
    created = org.client.post("/api/v1/keys", json={"scopes": ["read"]})
    assert created.status_code == 201, created.text
    response = httpx.post(
        f"{live.base_url}/v1/traces",
        content=protobuf_body(record_task("anyone", [])),
        headers={**PROTOBUF, "Authorization": f"Bearer {created.json()['api_key']}"},
    )
    assert response.status_code == 403
    assert _status(response).message


def test_rate_limited_answers_429_with_retry_after(live) -> None:
    org = live.organization(rate_limit_per_minute=None)  # the default: 100 per minute per key
    body = protobuf_body(record_task("anyone", []))
    headers = {**PROTOBUF, "Authorization": f"Bearer {org.key}"}
    with httpx.Client(base_url=live.base_url, headers=headers, timeout=30.0) as client:
        statuses = [client.post("/v1/traces", content=body) for _ in range(101)]
    assert [r.status_code for r in statuses[:100]] == [200] * 100
    limited = statuses[100]
    assert limited.status_code == 429
    assert int(limited.headers["Retry-After"]) >= 1
    assert _status(limited).message


def test_a_span_holding_a_nul_is_refused_not_kept(live) -> None:
    """A protobuf string may hold a NUL, which PostgreSQL text cannot: such a span is refused by
    name in the partial success (it was a 500 on PostgreSQL), and the next export still works."""
    org = live.organization()
    headers = {**PROTOBUF, "Authorization": f"Bearer {org.key}"}
    for name in ("otel-\x00named", f"otel-{uuid.uuid4().hex[:8]}"):
        spans = record_task(name, [("grep", True)])
        response = httpx.post(f"{live.base_url}/v1/traces", content=protobuf_body(spans), headers=headers)
        assert response.status_code == 200, response.text
        answer = ExportTraceServiceResponse.FromString(response.content)
        if "\x00" in name:
            assert answer.partial_success.rejected_spans == len(spans)
            assert "NUL" in answer.partial_success.error_message
        else:
            assert answer.partial_success.rejected_spans == 0
            assert _types(agent_events(org.client, name)) == [
                "task_assigned",
                "task_completed",
                "tool_invoked",
            ]
    # a span of the refused trace waiting for an ancestor (a NUL in its own attribute) is not kept either
    waiting = record_task(f"otel-{uuid.uuid4().hex[:8]}", [("gr\x00ep", True)])[:1]
    response = httpx.post(f"{live.base_url}/v1/traces", content=protobuf_body(waiting), headers=headers)
    assert response.status_code == 200, response.text
    answer = ExportTraceServiceResponse.FromString(response.content)
    assert answer.partial_success.rejected_spans == 1
    assert "NUL" in answer.partial_success.error_message
