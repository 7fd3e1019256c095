"""A varied sequence of OTLP exports stores exactly the events, answers and kept spans it
stored before the mapping was made faster (docs/opentelemetry.md): every mapping rule, the
partial-success answers, waiting spans, NUL refusal, protobuf and OTLP/JSON bodies, gzip.
The expectations were recorded from the code before; ``python -m tests.otlp.test_same_events``
records them again (only when a rule is meant to change)."""

from __future__ import annotations

import gzip
import json
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import KeyValue
from opentelemetry.proto.trace.v1.trace_pb2 import Span as ProtoSpan
from opentelemetry.proto.trace.v1.trace_pb2 import Status

from aaaf.api import otlp_codec as codec
from aaaf.services.otlp import ingest_spans
from tests.otlp.proto_values import any_value

EXPECTED = Path(__file__).parent / "data" / "same_events.json"
T0 = 1_790_000_000_123_456_789  # ns, 2026-09-21, sub-microsecond digits
S = 1_000_000_000
NOW = datetime.fromtimestamp(T0 // S, UTC) + timedelta(hours=1)
TRACES = [f"{n:032x}" for n in range(0xA1, 0xA6)]


def _span(
    trace: int,
    span: int,
    parent: int | None,
    name: str,
    start: float,
    end: float,
    *,
    error: str | None = None,
    events: tuple[tuple[str, float, dict[str, Any]], ...] = (),
    **attributes: Any,
) -> ProtoSpan:
    status = Status(code=Status.STATUS_CODE_ERROR, message=error) if error is not None else Status()
    return ProtoSpan(
        trace_id=bytes.fromhex(TRACES[trace]),
        span_id=span.to_bytes(8, "big"),
        parent_span_id=b"" if parent is None else parent.to_bytes(8, "big"),
        name=name,
        start_time_unix_nano=T0 + int(start * S),
        end_time_unix_nano=T0 + int(end * S),
        status=status,
        attributes=[KeyValue(key=key, value=any_value(value)) for key, value in attributes.items()],
        events=[
            ProtoSpan.Event(
                name=event,
                time_unix_nano=T0 + int(at * S),
                attributes=[KeyValue(key=k, value=any_value(v)) for k, v in attrs.items()],
            )
            for event, at, attrs in events
        ],
    )


def _request(spans: list[ProtoSpan]) -> ExportTraceServiceRequest:
    request = ExportTraceServiceRequest()
    scope = request.resource_spans.add().scope_spans.add()
    scope.spans.extend(spans)
    return request


OP, AGENT, TOOL = "gen_ai.operation.name", "invoke_agent", "execute_tool"
TASK = {"aaaf.task.domain": "code", "aaaf.task.complexity_level": 3}
EVALS = (
    (
        "gen_ai.evaluation.result",
        4.5,
        {"gen_ai.evaluation.name": "Accuracy", "gen_ai.evaluation.score.value": 0.75},
    ),
    (
        "gen_ai.evaluation.result",
        4.6,
        {
            "gen_ai.evaluation.name": "my-set",
            "aaaf.trust.dimension": "scope_honesty",
            "gen_ai.evaluation.score.value": 7,
            "aaaf.score.max": 10,
        },
    ),
    (
        "gen_ai.evaluation.result",
        4.7,
        {"gen_ai.evaluation.name": "self-audit", "gen_ai.evaluation.score.label": "Passed"},
    ),
    (
        "gen_ai.evaluation.result",
        4.8,
        {"gen_ai.evaluation.name": "Safety", "gen_ai.evaluation.score.value": 3.5},
    ),
    ("gen_ai.evaluation.result", 4.9, {"gen_ai.evaluation.name": "nothing known"}),
    (
        "gen_ai.evaluation.result",
        4.95,
        {"gen_ai.evaluation.name": "bond", "gen_ai.evaluation.score.label": "meh"},
    ),
    ("something else", 5.0, {"x": 1}),
)


def exports() -> list[tuple[str, bool, bytes]]:
    """(content type, gzip, body) of each export, in order."""
    one = [  # trace 0: a complete task with every optional attribute, a sub-agent, tools
        _span(0, 2, 1, "chat model", 0.1, 3.9, **{OP: "chat"}),
        _span(
            0,
            3,
            2,
            "execute_tool search",
            0.2,
            0.3,
            error="timed out",
            **{OP: TOOL, "gen_ai.tool.name": "search"},
        ),
        _span(
            0,
            4,
            2,
            "execute_tool search",
            0.4,
            0.5,
            events=EVALS[:1],
            **{OP: TOOL, "gen_ai.tool.name": "search", "aaaf.tool.unnecessary": True},
        ),
        _span(0, 5, 2, "execute_tool edit", 0.6, 0.7, error="", **{OP: TOOL}),  # the name from the span's
        _span(0, 6, 2, "execute_tool", 0.8, 0.9, error="x"),  # no operation attribute, no tool name
        _span(
            0,
            7,
            2,
            "invoke_agent helper",
            1.0,
            2.0,
            **{
                "gen_ai.agent.name": "helper",
                "aaaf.task.domain": "research",
                "aaaf.task.complexity_level": 1,
            },
        ),
        _span(
            0, 8, 7, "execute_tool fetch", 1.1, 1.2, error="404", **{OP: TOOL, "gen_ai.tool.name": "fetch"}
        ),
        _span(
            0,
            9,
            7,
            "execute_tool fetch",
            1.3,
            1.4,
            **{OP: TOOL, "gen_ai.tool.name": "fetch", "aaaf.evidence_source": "reported"},
        ),
        _span(
            0,
            1,
            None,
            "invoke_agent writer",
            0.0,
            4.0,
            events=EVALS,
            **{
                OP: AGENT,
                "gen_ai.agent.name": "writer",
                "aaaf.task.domain": "code",
                "aaaf.task.complexity_level": 4,
                "aaaf.task.autonomy_level": 2,
                "aaaf.task.milestone_fraction": 0.5,
                "aaaf.task.cost_usd": 1.25,
                "aaaf.task.budget_usd": 3,
                "aaaf.task.completion_status": "partial",
                "aaaf.evidence_source": "reported",
                "other.bytes": b"\x01\xff",
                "other.list": [1, "a", 2.5, True],
                "other.map": {"k": [1, 2]},
                "other.double": 0.1,
            },
        ),
        # trace 1: children first (waiting), the agent span comes in a later export
        _span(1, 3, 2, "execute_tool run", 0.5, 0.6, error="failed", **{OP: TOOL, "gen_ai.tool.name": "run"}),
        _span(1, 2, 1, "chat", 0.4, 0.9, **{OP: "chat"}),
        # trace 2: a root without an agent (unused); an agent span without an agent (refused)
        _span(2, 1, None, "GET /", 0.0, 1.0, **{"http.method": "GET"}),
        _span(2, 2, 1, "execute_tool lost", 0.1, 0.2, **{OP: TOOL}),
        _span(2, 3, None, "invoke_agent", 0.0, 1.0, **{OP: AGENT, **TASK}),
        _span(2, 4, 3, "execute_tool orphan", 0.1, 0.2, **{OP: TOOL}),
        # trace 3: a NUL in a waiting span's attribute; a failed task without a domain
        _span(
            3, 2, 1, "execute_tool nul", 0.1, 0.2, **{OP: TOOL, "gen_ai.tool.name": "nul", "note": "a\x00b"}
        ),
        _span(
            3,
            9,
            None,
            "invoke_agent",
            0.0,
            2.0,
            error="the agent gave up",
            **{OP: AGENT, "gen_ai.agent.name": "quitter"},
        ),
        _span(3, 10, 9, "execute_tool stress", 0.1, 0.2, **{OP: TOOL, "aaaf.evidence_source": "stress_test"}),
    ]
    two = [  # trace 1's agent span and a later call of the failed tool
        _span(1, 4, 2, "execute_tool run", 0.7, 0.8, **{OP: TOOL, "gen_ai.tool.name": "run"}),
        _span(
            1, 1, None, "invoke_agent writer", 0.0, 1.0, **{OP: AGENT, "gen_ai.agent.name": "writer", **TASK}
        ),
        _span(
            0,
            3,
            2,
            "execute_tool search",
            0.2,
            0.3,
            error="timed out",
            **{OP: TOOL, "gen_ai.tool.name": "search"},
        ),
    ]
    three = [  # late children of stored tasks: found through the stored events
        _span(
            1, 5, 1, "execute_tool run", 0.85, 0.86, error="again", **{OP: TOOL, "gen_ai.tool.name": "run"}
        ),
        _span(
            0, 11, 7, "execute_tool fetch", 1.5, 1.6, error="late", **{OP: TOOL, "gen_ai.tool.name": "fetch"}
        ),
        _span(4, 1, None, "invoke_agent", 0.0, 1.0, **{OP: AGENT, "gen_ai.agent.name": "new one", **TASK}),
        _span(
            3, 1, None, "invoke_agent x", 0.0, 3.0, **{OP: AGENT, "gen_ai.agent.name": "nul-parent", **TASK}
        ),
    ]
    protobuf, as_json = "application/x-protobuf", "application/json"
    return [
        (protobuf, False, _request(one).SerializeToString()),
        (as_json, True, _json(_request(two))),
        (protobuf, True, _request(three).SerializeToString()),
    ]


def _json(request: ExportTraceServiceRequest) -> bytes:
    """OTLP/JSON: ids in hex."""
    document = json_format.MessageToDict(request)
    for resource in document["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            for span in scope["spans"]:
                for name in ("traceId", "spanId", "parentSpanId"):
                    if name in span:
                        span[name] = json_format.base64.b64decode(span[name]).hex()  # type: ignore[attr-defined]
    return json.dumps(document).encode()


def outcome(org: Any) -> dict[str, Any]:
    """What the exports answered and stored: every answer, every stored event, every kept span."""
    answers = []
    for kind, zipped, body in exports():
        raw = codec.decompress(gzip.compress(body) if zipped else body, "gzip" if zipped else None)
        report = ingest_spans(org, codec.spans_of(codec.parse_request(raw, kind)), now=NOW)
        answers.append(
            {
                "rejected": report.rejected_spans,
                "pending": report.pending_spans,
                "message": report.message(),
                "accepted": report.collect.accepted,
                "duplicates": report.collect.duplicates,
            }
        )
    events = []
    for agent in sorted(org.agents(), key=lambda found: found.name):
        for event in org.events_page(agent.id, types=None, since=None, until=None, after=None, limit=1000):
            events.append([agent.name, event.type, event.key, event.timestamp.isoformat(), event.data])
    kept = [
        [item.state, None if item.task is None else [item.task.task_id, item.task.agent], item.span.to_json()]
        for item in org.kept_otlp_spans(TRACES, since=NOW - timedelta(days=1))
    ]
    return {
        "answers": answers,
        "events": sorted(events, key=json.dumps),
        "kept": sorted(kept, key=json.dumps),
    }


def test_a_varied_sequence_of_exports_stores_what_it_stored_before(store) -> None:
    org = store.scope(store.default_organization().id)
    found = json.loads(json.dumps(outcome(org)))
    assert found == json.loads(EXPECTED.read_text())


if __name__ == "__main__":  # record the expectations (SQLite), from the code as it is
    import tempfile

    from aaaf.store import open_store

    with tempfile.TemporaryDirectory() as tmp, open_store(f"sqlite:///{tmp}/record.db") as opened:
        recorded = outcome(opened.scope(opened.default_organization().id))
    EXPECTED.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    sys.exit(0)
