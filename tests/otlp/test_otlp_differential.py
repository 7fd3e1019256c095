"""The OTLP mapping against its reference (docs/opentelemetry.md): a few hundred seeded random
sequences of exports — nested spans, missing parents, spans sent before their ancestors in a
later export, re-sent spans, every attribute type, odd strings, the agent, tool, delegation
and evaluation spans the mapping knows — decoded and joined by the library and by the frozen
copy of the mapping as it was before it was made faster (tests/otlp/reference_mapping.py).
Both must give the same spans, the same events in the same order (``repr``: NaN and the order
of keys count), the same outcomes, kept spans and warnings, export after export."""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import KeyValue
from opentelemetry.proto.trace.v1.trace_pb2 import Span as ProtoSpan
from opentelemetry.proto.trace.v1.trace_pb2 import Status

from aaaf.api import otlp_codec as codec
from aaaf.evidence import otlp as mapping
from aaaf.evidence.otlp import KeptSpan, Plan, Span, StoredEvent
from tests.otlp import reference_mapping as reference
from tests.otlp.proto_values import any_value

SEQUENCES = 300
T0 = 1_790_000_000_123_456_789
KNOWN_AGENT = str(uuid.UUID(int=0xA))
ODD_STRINGS = ["", " ", "x", "é—✓", "tab\tand\nnewline", "nul\x00inside", "a" * 300, "-", "Invoke_Agent"]
DIMENSIONS = ["Accuracy", "scope honesty", "SCOPE_HONESTY", "safety", "bond", "nothing known", "tool-use"]


def _random_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(9 if depth < 2 else 7)
    if kind == 0:
        return rng.choice(ODD_STRINGS)
    if kind == 1:
        return rng.random() < 0.5
    if kind == 2:
        return rng.choice([0, 1, -7, 3, 5, 2**62, -(2**63)])
    if kind == 3:
        return rng.choice([0.0, 0.5, 1.0, 1.5, -0.25, 100.0, float("nan"), float("inf"), 1e-300])
    if kind == 4:
        return rng.choice([b"", b"\x00\xff", bytes(range(8))])
    if kind == 5:
        return None
    if kind == 6:
        return rng.choice(["pass", "Passed", "FAIL", "meh", "code", "research"])
    if kind == 7:
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(3))]
    return {rng.choice(["k", "", "é"]): _random_value(rng, depth + 1) for _ in range(rng.randrange(3))}


def _maybe(rng: random.Random, attributes: dict[str, Any], key: str, good: Any, odds: float = 0.5) -> None:
    """Set ``key`` to ``good`` (most often) or to a random value of any type, or leave it out."""
    if rng.random() < odds:
        attributes[key] = good if rng.random() < 0.75 else _random_value(rng)


def _attributes(rng: random.Random, kind: str, number: int) -> tuple[str, dict[str, Any]]:
    """A span name and attributes for a span of ``kind``."""
    attributes: dict[str, Any] = {}
    name = kind
    if kind in ("invoke_agent", "execute_tool"):
        if rng.random() < 0.8:
            attributes["gen_ai.operation.name"] = kind
        elif rng.random() < 0.3:
            attributes["gen_ai.operation.name"] = rng.choice(["", 7, "chat"])  # not a usable one
    if kind == "invoke_agent":
        agent = rng.choices(["writer", "helper", "  ", "", "é-agent"], [4, 3, 1, 1, 1])[0]
        name = f"invoke_agent {agent}" if rng.random() < 0.8 else "invoke_agent"
        _maybe(rng, attributes, "gen_ai.agent.name", agent, 0.85)
        if rng.random() < 0.3:
            attributes["gen_ai.agent.id"] = rng.choice(
                [KNOWN_AGENT, str(uuid.UUID(int=number + 99)), "nope", 5]
            )
        _maybe(rng, attributes, "aaaf.task.domain", rng.choice(["code", "testing", "research"]), 0.8)
        _maybe(rng, attributes, "aaaf.task.complexity_level", rng.randrange(1, 6), 0.8)
        _maybe(rng, attributes, "aaaf.task.autonomy_level", rng.randrange(0, 5), 0.3)
        _maybe(rng, attributes, "aaaf.task.completion_status", rng.choice(["partial", "accepted"]), 0.2)
        _maybe(rng, attributes, "aaaf.task.milestone_fraction", 0.5, 0.2)
        _maybe(rng, attributes, "aaaf.task.cost_usd", 1.25, 0.2)
        _maybe(rng, attributes, "aaaf.task.budget_usd", 3, 0.2)
    elif kind == "execute_tool":
        tool = rng.choices(["search", "edit", "fetch", "", "é tool"], [4, 3, 2, 1, 1])[0]
        name = rng.choice([f"execute_tool {tool}", "execute_tool", "execute_tool ", f"execute_tool {tool} x"])
        _maybe(rng, attributes, "gen_ai.tool.name", tool, 0.8)
        _maybe(rng, attributes, "aaaf.tool.unnecessary", True, 0.2)
    else:
        name = rng.choice(["chat model", "", "retrieve", "invoke_agentx", " invoke_agent"])
    _maybe(rng, attributes, "aaaf.evidence_source", rng.choice(["reported", "stress_test"]), 0.1)
    _maybe(rng, attributes, "aaaf.stress_run_id", "run-1", 0.05)
    for index in range(rng.randrange(3)):  # attributes the mapping does not read
        attributes[f"other.{index}"] = _random_value(rng)
    return name, attributes


def _events(rng: random.Random) -> list[ProtoSpan.Event]:
    out = []
    for _ in range(rng.choice([0, 0, 0, 1, 2, 3])):
        attributes: dict[str, Any] = {}
        _maybe(rng, attributes, "gen_ai.evaluation.name", rng.choice(DIMENSIONS), 0.9)
        _maybe(rng, attributes, "aaaf.trust.dimension", rng.choice(DIMENSIONS), 0.2)
        _maybe(rng, attributes, "gen_ai.evaluation.score.value", rng.choice([0.75, 7, 1, 0, 3.5, -1]), 0.6)
        _maybe(rng, attributes, "aaaf.score.max", rng.choice([10, 0, 100.0]), 0.2)
        _maybe(rng, attributes, "gen_ai.evaluation.score.label", rng.choice(["pass", "Failed", "meh"]), 0.4)
        name = "gen_ai.evaluation.result" if rng.random() < 0.85 else "something else"
        out.append(
            ProtoSpan.Event(
                name=name,
                time_unix_nano=T0 + rng.randrange(10**10),
                attributes=[KeyValue(key=k, value=any_value(v)) for k, v in attributes.items()],
            )
        )
    return out


def _trace(rng: random.Random, trace_number: int) -> list[ProtoSpan]:
    """A random tree of spans of one trace (some of whose parents are never sent)."""
    trace_id = (trace_number + 1).to_bytes(16, "big")
    spans: list[ProtoSpan] = []
    ids: list[bytes] = []
    for number in range(rng.randrange(1, 16)):
        span_id = (trace_number * 1000 + number + 1).to_bytes(8, "big")
        if not ids or rng.random() < 0.12:
            parent = b""  # a root
        elif rng.random() < 0.08:
            parent = (999_999 + number).to_bytes(8, "big")  # an ancestor that never comes
        else:
            parent = rng.choice(ids)
        if not ids and rng.random() < 0.75:
            kind = "invoke_agent"  # most traces start with their agent
        else:
            kind = rng.choices(["invoke_agent", "execute_tool", "other"], [2, 8, 2])[0]
        name, attributes = _attributes(rng, kind, number)
        start = T0 + rng.randrange(10**10)
        error = rng.random() < 0.3
        status = (
            Status(code=Status.STATUS_CODE_ERROR, message=rng.choice(["", "failed", "é"]))
            if error
            else Status(
                code=rng.choice([Status.STATUS_CODE_UNSET, Status.STATUS_CODE_OK]),
                message=rng.choice(["", "ok"]),
            )
        )
        spans.append(
            ProtoSpan(
                trace_id=trace_id,
                span_id=span_id,
                parent_span_id=parent,
                name=name,
                start_time_unix_nano=start,
                end_time_unix_nano=start + rng.randrange(10**9),
                status=status,
                attributes=[KeyValue(key=k, value=any_value(v)) for k, v in attributes.items()],
                events=_events(rng),
            )
        )
        ids.append(span_id)
    return spans


def _exports(rng: random.Random) -> list[ExportTraceServiceRequest]:
    """The spans of a few traces in random order, cut into one to four exports (a span may
    come again in a later one: an exporter's retry)."""
    spans = [span for number in range(rng.randrange(1, 4)) for span in _trace(rng, number)]
    rng.shuffle(spans)
    cuts = sorted(rng.sample(range(1, len(spans)), min(rng.randrange(4), len(spans) - 1)))
    groups = [spans[a:b] for a, b in zip([0, *cuts], [*cuts, len(spans)], strict=True)]
    if rng.random() < 0.2:
        groups.append(rng.sample(spans, max(1, len(spans) // 3)))  # re-sent
    requests = []
    for group in groups:
        request = ExportTraceServiceRequest()
        resource = request.resource_spans.add()
        for start in range(0, len(group), 4):  # several scopes
            resource.scope_spans.add().spans.extend(group[start : start + 4])
        requests.append(request)
    return requests


def _kept_after(plan: Plan) -> tuple[list[KeptSpan], list[StoredEvent]]:
    """What the service keeps of a plan whose events are all stored: the spans that made no
    event, as the pending-spans table gives them back (JSON), and the stored events."""
    made = set(plan.event_spans)
    kept = [
        KeptSpan(Span.from_json(json.loads(json.dumps(outcome.span.to_json()))), outcome.state, outcome.task)
        for outcome in plan.outcomes
        if not (outcome.state == "joined" and outcome.span.key in made)
    ]
    stored = [
        StoredEvent(event["agent"], event["type"], event["id"], event["timestamp"], event["data"])
        for event in plan.events
    ]
    return kept, stored


def _compare(
    request: ExportTraceServiceRequest,
    kept: list[KeptSpan],
    is_agent_id: Callable[[str], bool],
) -> Plan:
    """Decode and join ``request`` both ways; they must agree (the reference's plan returned)."""
    spans, old_spans = codec.spans_of(request), reference.spans_of(request)
    assert repr(spans) == repr(old_spans)
    plan, old = mapping.join(spans, kept, is_agent_id), reference.join(old_spans, kept, is_agent_id)
    assert repr(plan) == repr(old)
    return old


@pytest.mark.parametrize("block", range(6))
def test_the_mapping_gives_the_reference_events_and_kept_spans(block: int) -> None:
    is_agent_id = KNOWN_AGENT.__eq__
    mapped = 0
    for seed in range(block * SEQUENCES // 6, (block + 1) * SEQUENCES // 6):
        rng = random.Random(seed)
        kept: list[KeptSpan] = []
        stored: list[StoredEvent] = []
        for request in _exports(rng):
            plan = _compare(request, kept, is_agent_id)
            mapped += len(plan.events)
            # the next export sees what this one kept, and (as the service reads them) the stored
            # tasks its waiting spans need, then the join again with them
            new_kept, new_stored = _kept_after(plan)
            stored += new_stored
            keys = {outcome.span.key for outcome in plan.outcomes}
            kept = [item for item in kept if item.span.key not in keys] + new_kept
            wanted = mapping.awaited_task_ids(plan)
            found = [event for event in stored if event.data.get("task_id") in wanted]
            if found:
                _compare(request, [*kept, *mapping.spans_of_stored(found)], is_agent_id)
    assert mapped > 0  # the sequences make events, not only refusals
