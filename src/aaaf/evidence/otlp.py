"""OpenTelemetry spans as AAAF evidence: the pure mapping (issue 19; docs/opentelemetry.md).

Spans follow the OpenTelemetry GenAI semantic conventions; this module turns them into the
raw events of SCORING.md §1, which then go through the one validation and idempotent store
of :func:`aaaf.services.collect.collect`.  It does no I/O: the service hands it the spans of
a request, the spans of the same traces it kept from earlier requests, and a predicate that
says whether a text is an agent id of the caller's organization.

The mapping:

* an ``invoke_agent`` span (``gen_ai.operation.name``, else the span name's first word) is a
  **task** of the agent ``gen_ai.agent.id`` names when that is an AAAF agent id of the
  organization, else of the agent named ``gen_ai.agent.name`` (enrolled when unknown, as
  ``collect --enroll`` does).  Its task id is ``otel-<trace id>-<span id>``; it yields a
  ``task_assigned`` at its start (when the span carries ``aaaf.task.domain`` and
  ``aaaf.task.complexity_level``, which document 004 requires of one) and a
  ``task_completed`` at its end: ``accepted`` unless its status is ERROR (``rejected``),
  ``time_to_complete_seconds`` its duration;
* an ``execute_tool`` span below it, at any depth (the nearest ``invoke_agent`` ancestor
  wins, so a sub-agent's tools are its own), is a ``tool_invoked``: ``gen_ai.tool.name``,
  ``success`` from its status, ``error_recovered`` when a later call of the same tool in the
  same task succeeded (SCORING.md §1: it counts only on a failed invocation);
* a ``gen_ai.evaluation.result`` span event on any span of a task is an ``eval_result`` for
  the trust scheme (SCORING.md §3) when ``gen_ai.evaluation.name`` (or the event's
  ``aaaf.trust.dimension``) names one of the 16 trust dimensions: ``score`` is
  ``gen_ai.evaluation.score.value`` × 100 for a value in [0, 1], or × 100 / ``aaaf.score.max``
  when the event gives that scale, else 100 / 0 from a pass/fail ``gen_ai.evaluation.score.label``;
* every event's ``id`` is derived from the trace and span ids (``otel-<trace>-<span>-<what>``),
  so the same spans sent again store nothing new (SCORING.md §1);
* a span's ``aaaf.evidence_source`` and ``aaaf.stress_run_id`` go into the data of its events
  (:data:`PROVENANCE_ATTRIBUTES`), where the ingestion rules see them.

A span whose chain of parents is not complete yet (exporters batch independently) is
*pending*: the service keeps it and joins it when its ancestor comes.  A span whose chain
reaches a root without an ``invoke_agent`` carries no agent evidence (*unused*).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from types import MappingProxyType
from typing import Any, NamedTuple

from aaaf.scoring.trust import TRUST_DIMENSIONS

INVOKE_AGENT = "invoke_agent"
EXECUTE_TOOL = "execute_tool"
EVALUATION_EVENT = "gen_ai.evaluation.result"
NO_AGENT = (
    "an invoke_agent span names no agent of the organization in gen_ai.agent.id and has no gen_ai.agent.name"
)

PASS_LABELS = frozenset({"pass", "passed", "correct", "relevant", "true", "yes", "good", "safe"})
FAIL_LABELS = frozenset(
    {"fail", "failed", "incorrect", "not_relevant", "irrelevant", "false", "no", "bad", "unsafe"}
)

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_NEVER = (-1, "")  # before every (start, span id) of a call
_DIMENSIONS = {re.sub(r"[^a-z]", "", name.lower()): name for name in TRUST_DIMENSIONS}


_NO_ATTRIBUTES: Mapping[str, Any] = MappingProxyType({})


class SpanEvent(NamedTuple):
    """A span event (only ``gen_ai.evaluation.result`` ones are read)."""

    name: str
    time_ns: int
    attributes: Mapping[str, Any]


class Span(NamedTuple):
    """What the mapping reads of an OTLP span; ids are lower-case hex (OTLP/JSON's spelling).

    This and the records made once a span (:class:`SpanEvent`, :class:`TaskRef`,
    :class:`KeptSpan`, :class:`SpanOutcome`) are named tuples, not frozen dataclasses: as
    immutable and typed, and built from C (a frozen dataclass's ``__init__`` sets each field
    through ``object.__setattr__``): decoding an export of bench_otlp's 512 spans
    (``aaaf.api.otlp_codec.spans_of``) 26.9 -> 20.4 M instructions (callgrind)."""

    trace_id: str
    span_id: str
    parent_span_id: str | None
    name: str
    start_ns: int
    end_ns: int
    error: bool
    status_message: str = ""
    attributes: Mapping[str, Any] = _NO_ATTRIBUTES  # read-only: a shared default
    events: tuple[SpanEvent, ...] = ()

    @property
    def key(self) -> tuple[str, str]:
        return (self.trace_id, self.span_id)

    @property
    def operation(self) -> str:
        """``gen_ai.operation.name``, else the first word of the span name (the conventions
        name a span ``invoke_agent {agent}`` / ``execute_tool {tool}``)."""
        return operation_of(self)

    def to_json(self) -> dict[str, Any]:
        """The span as kept by the pending-spans table (JSON-safe)."""
        return {
            "trace_id": self.trace_id,
            "span_id": self.span_id,
            "parent_span_id": self.parent_span_id,
            "name": self.name,
            "start_ns": str(self.start_ns),
            "end_ns": str(self.end_ns),
            "error": self.error,
            "status_message": self.status_message,
            "attributes": dict(self.attributes),
            "events": [
                {"name": e.name, "time_ns": str(e.time_ns), "attributes": dict(e.attributes)}
                for e in self.events
            ],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Span:
        return cls(
            trace_id=data["trace_id"],
            span_id=data["span_id"],
            parent_span_id=data.get("parent_span_id"),
            name=data.get("name", ""),
            start_ns=int(data["start_ns"]),
            end_ns=int(data["end_ns"]),
            error=bool(data.get("error")),
            status_message=data.get("status_message", ""),
            attributes=dict(data.get("attributes", {})),
            events=tuple(
                SpanEvent(e["name"], int(e["time_ns"]), dict(e.get("attributes", {})))
                for e in data.get("events", ())
            ),
        )


class TaskRef(NamedTuple):
    """The task a span belongs to: its id and the reference (id or name) of its agent."""

    task_id: str
    agent: str


class KeptSpan(NamedTuple):
    """A span kept from an earlier request: ``state`` is ``pending``, ``joined`` (then
    ``task`` is set) or ``unused``."""

    span: Span
    state: str
    task: TaskRef | None = None


class SpanOutcome(NamedTuple):
    """What becomes of one span after this request: its new state, and why it is unused
    when an error made it so (``reason``)."""

    span: Span
    state: str
    task: TaskRef | None = None
    reason: str | None = None


def operation_of(span: Span) -> str:
    """:attr:`Span.operation`: a function, for the loops over every span of an export (a
    property's is a second call)."""
    named = span.attributes.get("gen_ai.operation.name")
    if isinstance(named, str) and named:
        return named
    return span.name.split(" ", 1)[0] if span.name else ""


@dataclass
class Plan:
    """The events to store, the span each came from, every span's outcome, warnings, and
    the spans that pending spans wait for (``missing``: the first absent link of each chain)."""

    events: list[dict[str, Any]] = field(default_factory=list)
    event_spans: list[tuple[str, str]] = field(default_factory=list)
    outcomes: list[SpanOutcome] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    missing: set[tuple[str, str]] = field(default_factory=set)


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


@dataclass(frozen=True)
class StoredEvent:
    """An event this mapping made that is stored: what a later span needs of its task."""

    agent: str
    type: str
    key: str | None
    timestamp: datetime
    data: Mapping[str, Any]


def awaited_task_ids(plan: Plan) -> set[str]:
    """The task each span that pending spans wait for (``plan.missing``) would make were it
    an ``invoke_agent`` span whose events are stored: a late descendant's task."""
    return {f"otel-{trace_id}-{span_id}" for trace_id, span_id in plan.missing}


def recovering_task_ids(plan: Plan, received: Iterable[Span]) -> set[str]:
    """The tasks of the failed tool calls joining now whose agent span is not in the
    request: a stored later call of the same tool may recover them."""
    failed = {
        task.task_id
        for span, _state, task, _reason in plan.outcomes
        if task is not None and span.error and operation_of(span) == EXECUTE_TOOL
    }
    if not failed:
        return failed
    return failed - {task_id_of(span) for span in received if operation_of(span) == INVOKE_AGENT}


def _span_id_in(key: str | None, trace_id: str, suffix: str) -> str | None:
    prefix = f"otel-{trace_id}-"
    if key is None or not key.startswith(prefix) or not key.endswith(suffix):
        return None
    return key[len(prefix) : len(key) - len(suffix)] or None


def spans_of_stored(events: Iterable[StoredEvent]) -> list[KeptSpan]:
    """The joined spans that stored events of tasks stand for: a task's ``invoke_agent``
    span (from its ``task_completed``) and its tool calls (from their ``tool_invoked``, for
    recovery).  A span whose events are stored is not kept, so a late descendant finds its
    task through them."""
    out: list[KeptSpan] = []
    for event in events:
        task_id = event.data.get("task_id")
        if not isinstance(task_id, str) or not task_id.startswith("otel-"):
            continue
        parts = task_id.split("-")
        if len(parts) != 3:
            continue
        trace_id, root_id = parts[1], parts[2]
        task = TaskRef(task_id, event.agent)
        ns = (event.timestamp - _EPOCH) // timedelta(microseconds=1) * 1000
        if event.type == "task_completed":
            attributes: dict[str, Any] = {"gen_ai.operation.name": INVOKE_AGENT}
            root = Span(trace_id, root_id, None, INVOKE_AGENT, ns, ns, False, attributes=attributes)
            out.append(KeptSpan(root, "joined", task))
        elif event.type == "tool_invoked":
            span_id = _span_id_in(event.key, trace_id, "-tool")
            name = event.data.get("tool")
            if span_id is None or not isinstance(name, str):
                continue
            attributes = {"gen_ai.operation.name": EXECUTE_TOOL, "gen_ai.tool.name": name}
            call = Span(
                trace_id,
                span_id,
                None,
                f"{EXECUTE_TOOL} {name}",
                ns,
                ns,
                not event.data.get("success", True),
                attributes=attributes,
            )
            out.append(KeptSpan(call, "joined", task))
    return out


def _note_success(
    latest: dict[tuple[str, str], tuple[int, str]], task: TaskRef, tool: str, span: Span
) -> None:
    """Note a successful call of ``tool`` in ``task``: ``latest`` keeps each (task, tool)'s
    latest by (start, span id), which recovers the failed calls that started before it."""
    order, slot = (span.start_ns, span.span_id), (task.task_id, tool)
    if order > latest.get(slot, _NEVER):
        latest[slot] = order


def join(received: Iterable[Span], kept: Iterable[KeptSpan], is_agent_id: Callable[[str], bool]) -> Plan:
    """The events of the spans that join a task now, and every span's new state.

    ``received`` are this request's spans, ``kept`` the spans of the same traces kept from
    earlier requests.  A received span already joined is not mapped again (its events are
    stored); a pending one is mapped once its chain of parents is complete; one found unused
    before is looked at again.

    A span whose parent is resolved takes its parent's result, and the recovering calls are
    noted as the spans resolve (one pass fewer).
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
    operations: dict[tuple[str, str], str] = {}  # read once per span
    tools: dict[tuple[str, str], str] = {}  # the tool name of each execute_tool span
    for key, span in spans.items():
        operation = operations[key] = operation_of(span)
        if operation == EXECUTE_TOOL:
            tools[key] = tool_name(span)
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

    # each span to map resolved, in order; a failed call is recovered when a call of the same
    # tool in the same task that started after it succeeded (issue 19), among the task's calls
    # known here (kept joined ones and those joining now): _note_success as the calls resolve
    latest_success: dict[tuple[str, str], tuple[int, str]] = {}
    mapped: list[tuple[tuple[str, str], Span, tuple[str, TaskRef | None, str | None], str]] = []
    for key in to_map:
        span = spans[key]
        operation = operations[key]
        result = resolved.get(key)
        if result is None:
            # a span to map is fresh or pending, so resolve would read it and go to its parent:
            # a parent resolved already decides (most of a task's spans, once one is resolved)
            parent_id = span.parent_span_id
            if parent_id and operation != INVOKE_AGENT:
                result = resolved.get((key[0], parent_id))
            if result is None:
                result = resolve(key)
            else:
                resolved[key] = result
        mapped.append((key, span, result, operation))
        task = result[1]
        if operation == EXECUTE_TOOL and task is not None and not span.error:
            _note_success(latest_success, task, tools[key], span)
    for key, known in state.items():  # the kept calls not mapped again
        if key in tools and known.task is not None and known.state != "pending" and key not in fresh_keys:
            span = spans[key]
            if not span.error:
                _note_success(latest_success, known.task, tools[key], span)
    events, event_spans, outcomes = plan.events, plan.event_spans, plan.outcomes
    for key, span, (new_state, task, reason), operation in mapped:
        outcomes.append(SpanOutcome(span, new_state, task, reason))
        if new_state != "joined" or task is None:
            continue
        provenance = _provenance(span)
        if operation == EXECUTE_TOOL:  # most spans: one event, appended as it is made
            name = tools[key]
            recovered = span.error and latest_success.get((task.task_id, name), _NEVER) > (
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
