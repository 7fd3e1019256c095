"""The pure span mapping of issue 19 (:mod:`aaaf.evidence.otlp`), on hand-made spans; every
event it makes is checked by the one validator of SCORING.md §1."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import pytest

from aaaf.evidence.otlp import (
    NO_AGENT,
    KeptSpan,
    Span,
    SpanEvent,
    TaskRef,
    dimension_of,
    evaluation_score,
    join,
)
from aaaf.evidence.validation import event_validator

TRACE = "0af7651916cd43dd8448eb211c80319c"
AGENT_ID = str(uuid.UUID(int=7))
T0 = 1_790_000_000_000_000_000  # ns, 2026-09-21
S = 1_000_000_000


def span(
    span_id: str,
    parent: str | None,
    operation: str,
    *,
    start: int = 0,
    end: int = 10,
    error: bool = False,
    trace: str = TRACE,
    events: tuple[SpanEvent, ...] = (),
    **attributes: Any,
) -> Span:
    attrs = {key.replace("__", "."): value for key, value in attributes.items()}
    attrs.setdefault("gen_ai.operation.name", operation)
    return Span(
        trace_id=trace,
        span_id=span_id,
        parent_span_id=parent,
        name=operation,
        start_ns=T0 + start * S,
        end_ns=T0 + end * S,
        error=error,
        status_message="boom" if error else "",
        attributes=attrs,
        events=events,
    )


def agent(span_id: str = "a" * 16, parent: str | None = None, **attributes: Any) -> Span:
    attributes.setdefault("gen_ai__agent__name", "writer")
    return span(span_id, parent, "invoke_agent", **attributes)


def tool(span_id: str, parent: str, name: str, *, start: int, error: bool = False) -> Span:
    return span(
        span_id, parent, "execute_tool", start=start, end=start + 1, error=error, gen_ai__tool__name=name
    )


def known(reference: str) -> bool:
    return reference == AGENT_ID


def valid(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    validate = event_validator(now=datetime(2026, 11, 24, tzinfo=UTC))
    for event in events:
        validate(event)  # raises on an invalid event
    return events


def by_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [event for event in events if event["type"] == kind]


def test_an_agent_span_is_a_task_assigned_at_its_start_and_completed_at_its_end() -> None:
    root = agent(aaaf__task__domain="code", aaaf__task__complexity_level=3, aaaf__task__autonomy_level=2)
    plan = join([root], [], known)
    events = valid(plan.events)
    assigned, completed = by_type(events, "task_assigned")[0], by_type(events, "task_completed")[0]
    task_id = f"otel-{TRACE}-{'a' * 16}"
    assert assigned["data"] == {
        "task_id": task_id,
        "domain": "code",
        "complexity_level": 3,
        "assigned_at": "2026-09-21T14:13:20+00:00",
        "autonomy_level": 2,
    }
    assert assigned["timestamp"] == datetime(2026, 9, 21, 14, 13, 20, tzinfo=UTC)
    assert completed["timestamp"] == datetime(2026, 9, 21, 14, 13, 30, tzinfo=UTC)
    assert completed["data"]["completion_status"] == "accepted"
    assert completed["data"]["time_to_complete_seconds"] == 10.0
    assert completed["agent"] == "writer"
    assert [e["id"] for e in events] == [f"{task_id}-assigned", f"{task_id}-completed"]
    assert plan.warnings == []


def test_an_errored_agent_span_is_rejected_and_without_domain_there_is_no_task_assigned() -> None:
    plan = join([span("b" * 16, None, "invoke_agent", error=True, gen_ai__agent__name="w")], [], known)
    events = valid(plan.events)
    assert [e["type"] for e in events] == ["task_completed"]
    assert events[0]["data"]["completion_status"] == "rejected"
    assert events[0]["data"]["errors"] == ["boom"]
    assert "without a task_assigned" in plan.warnings[0]


def test_the_agent_is_the_aaaf_id_else_the_name_else_the_span_is_unusable() -> None:
    by_id = join([agent(gen_ai__agent__id=AGENT_ID)], [], known)
    assert {e["agent"] for e in by_id.events} == {AGENT_ID}
    foreign = join([agent(gen_ai__agent__id="asst_123")], [], known)
    assert {e["agent"] for e in foreign.events} == {"writer"}
    root = span("a" * 16, None, "invoke_agent", gen_ai__agent__id="asst_123")
    child = tool("c" * 16, "a" * 16, "search", start=1)
    nobody = join([root, child], [], known)
    assert nobody.events == []
    assert [(o.state, o.reason) for o in nobody.outcomes] == [("unused", NO_AGENT), ("unused", NO_AGENT)]


def test_the_operation_comes_from_the_span_name_without_the_attribute() -> None:
    root = Span(
        TRACE, "a" * 16, None, "invoke_agent writer", T0, T0 + S, False, "", {"gen_ai.agent.name": "w"}
    )
    call = Span(TRACE, "c" * 16, "a" * 16, "execute_tool grep", T0, T0 + S, False)
    events = valid(join([root, call], [], known).events)
    assert by_type(events, "tool_invoked")[0]["data"]["tool"] == "grep"


def test_tools_at_any_depth_and_recovery_by_a_later_success_of_the_same_tool() -> None:
    root = agent()
    chat = span("b" * 16, "a" * 16, "chat")
    calls = [
        tool("c000000000000001", "b" * 16, "search", start=1, error=True),
        tool("c000000000000002", "b" * 16, "edit", start=2, error=True),
        tool("c000000000000003", "b" * 16, "search", start=3),
        tool("c000000000000004", "a" * 16, "edit", start=0),  # before the failed edit
        tool("c000000000000005", "a" * 16, "search", start=4, error=True),
    ]
    events = valid(join([*calls, chat, root], [], known).events)
    tools = {e["id"].split("-")[2]: e["data"] for e in by_type(events, "tool_invoked")}
    assert tools["c000000000000001"]["error_recovered"] is True
    assert tools["c000000000000002"]["error_recovered"] is False  # edit succeeded only before
    assert tools["c000000000000003"] == {
        "task_id": f"otel-{TRACE}-{'a' * 16}",
        "tool": "search",
        "success": True,
        "unnecessary": False,
        "error_recovered": False,
    }
    assert tools["c000000000000005"]["error_recovered"] is False  # nothing after it


def test_a_sub_agent_owns_the_tools_below_it() -> None:
    root = agent()
    sub = agent("d" * 16, "a" * 16, gen_ai__agent__name="helper")
    call = tool("c" * 16, "d" * 16, "search", start=1)
    events = valid(join([call, sub, root], [], known).events)
    invoked = by_type(events, "tool_invoked")[0]
    assert invoked["agent"] == "helper"
    assert invoked["data"]["task_id"] == f"otel-{TRACE}-{'d' * 16}"
    assert len(by_type(events, "task_completed")) == 2


def test_children_wait_for_their_agent_span_then_join() -> None:
    chat = span("b" * 16, "a" * 16, "chat")
    call = tool("c" * 16, "b" * 16, "search", start=1)
    first = join([call, chat], [], known)
    assert first.events == []
    assert [o.state for o in first.outcomes] == ["pending", "pending"]
    kept = [KeptSpan(o.span, o.state, o.task) for o in first.outcomes]
    second = join([agent()], kept, known)
    assert sorted(e["type"] for e in second.events) == ["task_completed", "tool_invoked"]
    assert {o.state for o in second.outcomes} == {"joined"}


def test_a_late_child_finds_its_task_through_kept_spans_and_known_spans_are_not_mapped_again() -> None:
    task = TaskRef(f"otel-{TRACE}-{'a' * 16}", "writer")
    kept = [KeptSpan(agent(), "joined", task), KeptSpan(span("b" * 16, "a" * 16, "chat"), "joined", task)]
    late = tool("c" * 16, "b" * 16, "search", start=1)
    plan = join([late, agent()], kept, known)
    assert [e["type"] for e in plan.events] == ["tool_invoked"]
    assert plan.events[0]["data"]["task_id"] == task.task_id


def test_a_root_without_an_agent_span_carries_no_evidence() -> None:
    plan = join([span("e" * 16, None, "http"), span("f" * 16, "e" * 16, "execute_tool")], [], known)
    assert plan.events == []
    assert [(o.state, o.reason) for o in plan.outcomes] == [("unused", None), ("unused", None)]


def test_the_same_spans_make_the_same_events() -> None:
    spans = [tool("c" * 16, "a" * 16, "search", start=1), agent()]

    def ordered(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return sorted(events, key=lambda event: event["id"])

    assert ordered(join(spans, [], known).events) == ordered(join(list(reversed(spans)), [], known).events)


def evaluation(**attributes: Any) -> SpanEvent:
    return SpanEvent(
        "gen_ai.evaluation.result", T0 + 5 * S, {k.replace("__", "."): v for k, v in attributes.items()}
    )


def test_evaluation_events_become_eval_results() -> None:
    root = agent(
        events=(
            evaluation(gen_ai__evaluation__name="accuracy", gen_ai__evaluation__score__value=0.75),
            evaluation(gen_ai__evaluation__name="Relevance", gen_ai__evaluation__score__value=1.0),
            evaluation(gen_ai__evaluation__name="cost_efficiency", gen_ai__evaluation__score__label="pass"),
            evaluation(
                gen_ai__evaluation__name="toxicity",
                aaaf__trust__dimension="safety",
                gen_ai__evaluation__score__value=4,
                aaaf__score__max=5,
            ),
            evaluation(gen_ai__evaluation__name="safety", gen_ai__evaluation__score__value=7),
        )
    )
    plan = join([root], [], known)
    results = by_type(valid(plan.events), "eval_result")
    assert [(r["data"]["dimension"], r["data"]["score"], r["data"]["eval_set"]) for r in results] == [
        ("accuracy", 75.0, "accuracy"),
        ("costEfficiency", 100.0, "cost_efficiency"),
        ("safety", 80.0, "toxicity"),
    ]
    assert results[0]["id"] == f"otel-{TRACE}-{'a' * 16}-eval-0"
    assert results[0]["timestamp"] == datetime(2026, 9, 21, 14, 13, 25, tzinfo=UTC)
    assert any("'Relevance' names no trust dimension" in w for w in plan.warnings)
    assert any("outside [0, 1]" in w for w in plan.warnings)


@pytest.mark.parametrize(
    ("attributes", "expected"),
    [
        ({"gen_ai.evaluation.score.value": 0}, 0.0),
        ({"gen_ai.evaluation.score.value": 0.5}, 50.0),
        ({"gen_ai.evaluation.score.value": 3, "aaaf.score.max": 4}, 75.0),
        ({"gen_ai.evaluation.score.label": "FAIL"}, 0.0),
        ({"gen_ai.evaluation.score.label": "correct"}, 100.0),
    ],
)
def test_evaluation_score(attributes: dict[str, Any], expected: float) -> None:
    assert evaluation_score(attributes) == expected


def test_evaluation_without_a_score_says_why() -> None:
    assert "neither" in str(evaluation_score({"gen_ai.evaluation.score.label": "meh"}))
    assert "neither" in str(evaluation_score({}))
    assert "outside" in str(evaluation_score({"gen_ai.evaluation.score.value": 2.0}))


def test_dimension_names_ignore_case_and_separators() -> None:
    assert dimension_of({"gen_ai.evaluation.name": "Scope-Honesty"}) == "scopeHonesty"
    assert dimension_of({"gen_ai.evaluation.name": "self audit"}) == "selfAudit"
    assert dimension_of({"gen_ai.evaluation.name": "faithfulness"}) is None


def test_span_json_round_trip() -> None:
    original = agent(events=(evaluation(gen_ai__evaluation__name="accuracy"),))
    assert Span.from_json(original.to_json()) == original


def test_an_unusable_agent_span_sent_again_once_its_agent_exists_joins() -> None:
    root = span("a" * 16, None, "invoke_agent", gen_ai__agent__id=AGENT_ID)
    first = join([root], [], lambda _reference: False)
    assert first.events == [] and first.outcomes[0].reason == NO_AGENT
    kept = [KeptSpan(o.span, o.state, o.task) for o in first.outcomes]
    again = join([root], kept, known)
    assert [e["type"] for e in again.events] == ["task_completed"]
    assert again.events[0]["agent"] == AGENT_ID


def test_stored_events_stand_for_their_spans() -> None:
    """A task's stored events read back as its joined agent span and tool calls: a late
    child joins the task, and its recovery counts the stored calls."""
    from aaaf.evidence.otlp import StoredEvent, awaited_task_ids, recovering_task_ids, spans_of_stored

    first = join([tool("d" * 16, "a" * 16, "search", start=3), agent()], [], known)
    stored = [
        StoredEvent(
            "writer",
            event["type"],
            event["id"],
            event["timestamp"],
            event["data"],
        )
        for event in first.events
    ]
    late = tool("c" * 16, "a" * 16, "search", start=1, error=True)
    alone = join([late], [], known)
    assert alone.missing == {(TRACE, "a" * 16)}
    assert awaited_task_ids(alone) == {f"otel-{TRACE}-{'a' * 16}"}
    assert recovering_task_ids(alone, [late]) == set()  # not joined yet
    plan = join([late], spans_of_stored(stored), known)
    assert [(o.span.span_id, o.state) for o in plan.outcomes] == [("c" * 16, "joined")]
    (invoked,) = valid(plan.events)
    assert invoked["data"]["task_id"] == f"otel-{TRACE}-{'a' * 16}"
    assert invoked["data"]["error_recovered"] is True and invoked["agent"] == "writer"
    assert recovering_task_ids(plan, [late]) == {f"otel-{TRACE}-{'a' * 16}"}
    assert recovering_task_ids(plan, [late, agent()]) == set()  # its agent span is here
