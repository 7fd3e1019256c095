"""Today's OTLP mapping, frozen as the reference of tests/otlp/test_otlp_differential.py:
the decoding (``spans_of``) and the join (``join``) as they were before the mapping was made
faster, with the helpers they call, copied unchanged (only imports adjusted).  Not used by
the library; do not edit (the differential test is only as good as this copy)."""

# ruff: noqa
# mypy: ignore-errors
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue
from opentelemetry.proto.trace.v1.trace_pb2 import Status

from aaaf.errors import AAAFError
from aaaf.evidence.otlp import (
    EVALUATION_EVENT,
    EXECUTE_TOOL,
    FAIL_LABELS,
    INVOKE_AGENT,
    NO_AGENT,
    PASS_LABELS,
    KeptSpan,
    Plan,
    Span,
    SpanEvent,
    SpanOutcome,
    TaskRef,
)
from aaaf.scoring.trust import TRUST_DIMENSIONS

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_DIMENSIONS = {re.sub(r"[^a-z]", "", name.lower()): name for name in TRUST_DIMENSIONS}


def _bad(message: str) -> AAAFError:
    return AAAFError("INVALID_REQUEST", message, {"field": "body"})


_SCALARS = frozenset({"string_value", "bool_value", "int_value", "double_value"})


def _value(value: AnyValue) -> Any:
    which = value.WhichOneof("value")
    if which in _SCALARS:  # nearly every attribute
        return getattr(value, which)
    if which == "array_value":
        return [_value(item) for item in value.array_value.values]
    if which == "kvlist_value":
        return {item.key: _value(item.value) for item in value.kvlist_value.values}
    if which == "bytes_value":
        return value.bytes_value.hex()
    return None if which is None else getattr(value, which)


def _attributes(items: Any) -> dict[str, Any]:
    """The attributes as a dict; a scalar value (nearly every one) read without a call of
    :func:`_value`: spans_of 20.4 -> 19.7 M instructions an export of bench_otlp's (callgrind)."""
    found: dict[str, Any] = {}
    for item in items:
        value = item.value
        which = value.WhichOneof("value")
        found[item.key] = getattr(value, which) if which in _SCALARS else _value(value)
    return found


def spans_of(request: ExportTraceServiceRequest) -> list[Span]:
    """Every span of the request as :class:`aaaf.evidence.otlp.Span`; 400 for a span
    without a valid trace or span id (the specification requires both)."""
    out: list[Span] = []
    error_code = Status.STATUS_CODE_ERROR
    for resource in request.resource_spans:
        for scope in resource.scope_spans:
            for span in scope.spans:
                trace_id, span_id = span.trace_id, span.span_id
                if len(trace_id) != 16 or len(span_id) != 8:
                    raise _bad(
                        "every span needs a 16-byte trace_id and an 8-byte span_id "
                        f"(got {len(trace_id)} and {len(span_id)} bytes)"
                    )
                status, events = span.status, span.events
                out.append(
                    Span(
                        trace_id.hex(),
                        span_id.hex(),
                        span.parent_span_id.hex() or None,
                        span.name,
                        span.start_time_unix_nano,
                        span.end_time_unix_nano,
                        status.code == error_code,
                        status.message,
                        _attributes(span.attributes),
                        tuple(
                            SpanEvent(event.name, event.time_unix_nano, _attributes(event.attributes))
                            for event in events
                        )
                        if events
                        else (),
                    )
                )
    return out


def operation_of(span: Span) -> str:
    """:attr:`Span.operation`: a function, for the loops over every span of an export (a
    property's is a second call)."""
    named = span.attributes.get("gen_ai.operation.name")
    if isinstance(named, str) and named:
        return named
    return span.name.split(" ", 1)[0] if span.name else ""


def moment(ns: int) -> datetime:
    """The UTC datetime (microseconds) of a Unix time in nanoseconds."""
    # positional: delta_new's keyword path cost 3.7 % of join's instructions (24.6 -> 23.7 M, bench_otlp's export)
    return _EPOCH + timedelta(0, 0, ns // 1000)


def task_id_of(span: Span) -> str:
    return f"otel-{span.trace_id}-{span.span_id}"


def agent_reference(span: Span, is_agent_id: Callable[[str], bool]) -> str | None:
    """The AAAF agent an ``invoke_agent`` span names: ``gen_ai.agent.id`` when it is an
    agent id of the organization, else ``gen_ai.agent.name``; None when neither serves."""
    agent_id = span.attributes.get("gen_ai.agent.id")
    if isinstance(agent_id, str) and agent_id and is_agent_id(agent_id):
        return agent_id
    name = span.attributes.get("gen_ai.agent.name")
    if isinstance(name, str) and name.strip():
        return name
    return None


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    return None


def _task_events(span: Span, task: TaskRef, provenance: dict[str, Any] | None) -> list[dict[str, Any]]:
    attrs = span.attributes
    events: list[dict[str, Any]] = []
    domain = attrs.get("aaaf.task.domain")
    level = attrs.get("aaaf.task.complexity_level")
    if domain is not None and level is not None:
        started = moment(span.start_ns)
        assigned: dict[str, Any] = {
            "task_id": task.task_id,
            "domain": domain,
            "complexity_level": level,
            "assigned_at": started.isoformat(),
        }
        if "aaaf.task.autonomy_level" in attrs:
            assigned["autonomy_level"] = attrs["aaaf.task.autonomy_level"]
        events.append(_envelope(span, task, "task_assigned", started, assigned, "assigned", provenance))
    status = "rejected" if span.error else "accepted"
    completed: dict[str, Any] = {
        "task_id": task.task_id,
        "completion_status": attrs.get("aaaf.task.completion_status", status),
        "time_to_complete_seconds": (span.end_ns - span.start_ns) / 1e9,
        "revision_count": 0,
        "errors": [span.status_message or "the span's status is ERROR"] if span.error else [],
    }
    for name in ("milestone_fraction", "cost_usd", "budget_usd"):
        if f"aaaf.task.{name}" in attrs:
            completed[name] = attrs[f"aaaf.task.{name}"]
    events.append(
        _envelope(span, task, "task_completed", moment(span.end_ns), completed, "completed", provenance)
    )
    return events


PROVENANCE_ATTRIBUTES = {"aaaf.evidence_source": "evidence_source", "aaaf.stress_run_id": "stress_run_id"}
"""Span attributes carried into the data of every event the span yields: a span that says where
its evidence comes from meets the rules any event meets — one claiming ``stress_test`` is
refused, as a posted one is (docs/stress-tests.md "Provenance")."""


def _provenance(span: Span) -> dict[str, Any] | None:
    """The data :data:`PROVENANCE_ATTRIBUTES` carry into each event of ``span`` (None: none);
    read once a span, not once an event."""
    attributes = span.attributes
    if "aaaf.evidence_source" not in attributes and "aaaf.stress_run_id" not in attributes:
        return None  # nearly every span: no dict built (join 25.1 -> 23.7 M instructions, callgrind)
    return {key: attributes[name] for name, key in PROVENANCE_ATTRIBUTES.items() if name in attributes}


def _envelope(
    span: Span,
    task: TaskRef,
    kind: str,
    at: datetime,
    data: dict[str, Any],
    what: str,
    provenance: dict[str, Any] | None,
) -> dict[str, Any]:
    if provenance is not None:
        data.update(provenance)
    return {
        "id": f"otel-{span.trace_id}-{span.span_id}-{what}",
        "agent": task.agent,
        "type": kind,
        "timestamp": at,  # a datetime: the validator takes it as it is, no text parsed again
        "data": data,
    }


def tool_name(span: Span) -> str:
    name = span.attributes.get("gen_ai.tool.name")
    if isinstance(name, str) and name:
        return name
    parts = span.name.split(" ", 1)
    return parts[1] if len(parts) == 2 and parts[1] else span.name


def _tool_event(
    span: Span, task: TaskRef, name: str, recovered: bool, provenance: dict[str, Any] | None
) -> dict[str, Any]:
    data = {
        "task_id": task.task_id,
        "tool": name,
        "success": not span.error,
        "unnecessary": span.attributes.get("aaaf.tool.unnecessary", False),
        "error_recovered": recovered,
    }
    return _envelope(span, task, "tool_invoked", moment(span.start_ns), data, "tool", provenance)


def dimension_of(evaluation: Mapping[str, Any]) -> str | None:
    """The trust dimension an evaluation names (``aaaf.trust.dimension``, else
    ``gen_ai.evaluation.name``; case, ``_``, ``-`` and spaces ignored), or None."""
    for key in ("aaaf.trust.dimension", "gen_ai.evaluation.name"):
        value = evaluation.get(key)
        if isinstance(value, str):
            found = _DIMENSIONS.get(re.sub(r"[^a-z]", "", value.lower()))
            if found is not None:
                return found
    return None


def evaluation_score(evaluation: Mapping[str, Any]) -> float | str:
    """The 0-100 score of an evaluation, or the reason there is none."""
    value = _number(evaluation.get("gen_ai.evaluation.score.value"))
    scale = _number(evaluation.get("aaaf.score.max"))
    if value is not None:
        if scale is not None and scale > 0:
            return 100.0 * value / scale
        if 0.0 <= value <= 1.0:
            return 100.0 * value
        return (
            f"gen_ai.evaluation.score.value {value} is outside [0, 1]; give the scale as the "
            "event attribute aaaf.score.max"
        )
    label = evaluation.get("gen_ai.evaluation.score.label")
    if isinstance(label, str):
        word = label.strip().lower()
        if word in PASS_LABELS:
            return 100.0
        if word in FAIL_LABELS:
            return 0.0
        return f"gen_ai.evaluation.score.label {label!r} is neither a pass nor a fail label"
    return "the evaluation has neither gen_ai.evaluation.score.value nor a score label"


def _eval_events(
    span: Span, task: TaskRef, warnings: list[str], provenance: dict[str, Any] | None
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for index, event in enumerate(span.events):
        if event.name != EVALUATION_EVENT:
            continue
        dimension = dimension_of(event.attributes)
        name = event.attributes.get("gen_ai.evaluation.name")
        if dimension is None:
            warnings.append(
                f"evaluation {name!r} names no trust dimension (set aaaf.trust.dimension on the event)"
            )
            continue
        score = evaluation_score(event.attributes)
        if isinstance(score, str):
            warnings.append(f"evaluation {name!r}: {score}")
            continue
        data: dict[str, Any] = {"dimension": dimension, "score": score, "task_id": task.task_id}
        if isinstance(name, str) and name:
            data["eval_set"] = name
        out.append(
            _envelope(span, task, "eval_result", moment(event.time_ns), data, f"eval-{index}", provenance)
        )
    return out


def join(received: Iterable[Span], kept: Iterable[KeptSpan], is_agent_id: Callable[[str], bool]) -> Plan:
    """The events of the spans that join a task now, and every span's new state.

    ``received`` are this request's spans, ``kept`` the spans of the same traces kept from
    earlier requests.  A received span already joined is not mapped again (its events are
    stored); a pending one is mapped once its chain of parents is complete; one found unused
    before is looked at again.
    """
    plan = Plan()
    spans: dict[tuple[str, str], Span] = {}
    state: dict[tuple[str, str], KeptSpan] = {}
    for item in kept:
        spans[item.span.key] = item.span
        state[item.span.key] = item
    fresh: dict[tuple[str, str], None] = {}  # ordered, and a set (a list's `in` was quadratic)
    for span in received:
        key = span.key
        # a re-sent span found unused before is looked at again (its agent may exist now)
        known = state.get(key)
        if known is None or known.state != "joined":
            spans[key] = span
            fresh[key] = None
    fresh_keys = fresh.keys()
    operations = {key: operation_of(span) for key, span in spans.items()}  # read once per span
    to_map = list(dict.fromkeys([*fresh, *(k for k, v in state.items() if v.state == "pending")]))

    resolved: dict[tuple[str, str], tuple[str, TaskRef | None, str | None]] = {}

    def resolve(key: tuple[str, str]) -> tuple[str, TaskRef | None, str | None]:
        """(state, task, reason) of a span, walking up its parents."""
        chain: list[tuple[str, str]] = []
        result: tuple[str, TaskRef | None, str | None] = ("pending", None, None)
        current: tuple[str, str] | None = key
        while current is not None:
            if current in resolved:
                result = resolved[current]
                break
            known = state.get(current)
            if known is not None and known.state != "pending" and current not in fresh_keys:
                result = (known.state, known.task, None)
                break
            span = spans.get(current)
            if span is None:
                plan.missing.add(current)  # the parent has not come yet
                break
            chain.append(current)
            if operations[current] == INVOKE_AGENT:
                agent = agent_reference(span, is_agent_id)
                if agent is None:
                    result = ("unused", None, NO_AGENT)
                else:
                    result = ("joined", TaskRef(task_id_of(span), agent), None)
                break
            if not span.parent_span_id:
                result = ("unused", None, None)  # a root without an agent: no agent evidence
                break
            current = (span.trace_id, span.parent_span_id)
        for link in chain:  # a child of an unusable agent span is unusable for its reason
            resolved[link] = result
        return result

    for key in to_map:
        resolve(key)
    # a failed call is recovered when a call of the same tool in the same task that started
    # after it succeeded (issue 19), among the task's calls known here (kept joined ones and
    # those joining now): each (task, tool)'s latest successful call, by (start, span id)
    tools: dict[tuple[str, str], str] = {}  # the tool name of each execute_tool span
    latest_success: dict[tuple[str, str], tuple[int, str]] = {}
    for key, span in spans.items():
        if operations[key] != EXECUTE_TOOL:
            continue
        name = tools[key] = tool_name(span)
        if span.error:
            continue
        known = state.get(key)
        task = resolved[key][1] if key in resolved else (known.task if known is not None else None)
        if task is not None:
            order = (span.start_ns, span.span_id)
            slot = (task.task_id, name)
            if order > latest_success.get(slot, (-1, "")):
                latest_success[slot] = order
    events, event_spans, outcomes = plan.events, plan.event_spans, plan.outcomes
    for key in to_map:
        span = spans[key]
        new_state, task, reason = resolved[key]
        outcomes.append(SpanOutcome(span, new_state, task, reason))
        if new_state != "joined" or task is None:
            continue
        provenance = _provenance(span)
        operation = operations[key]
        if operation == EXECUTE_TOOL:  # most spans: one event, appended as it is made
            name = tools[key]
            recovered = span.error and latest_success.get((task.task_id, name), (-1, "")) > (
                span.start_ns,
                span.span_id,
            )
            events.append(_tool_event(span, task, name, recovered, provenance))
            event_spans.append(key)
        elif operation == INVOKE_AGENT and task.task_id == task_id_of(span):
            made = _task_events(span, task, provenance)
            events += made
            event_spans += [key] * len(made)
            if (
                "aaaf.task.domain" not in span.attributes
                or "aaaf.task.complexity_level" not in span.attributes
            ):
                plan.warnings.append(
                    "invoke_agent spans without aaaf.task.domain and aaaf.task.complexity_level make "
                    "tasks without a task_assigned (left out of speed and consistency)"
                )
        if span.events:
            made = _eval_events(span, task, plan.warnings, provenance)
            events += made
            event_spans += [key] * len(made)
    plan.warnings = list(dict.fromkeys(plan.warnings))
    return plan
