"""Every payload rule of SCORING.md §1 (and §3, §5): a valid and an invalid case each,
asserting the error code and the field the error names."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from aaaf.evidence import EVIDENCE_EVENT_TYPES, TRUST_DIMENSIONS, EventValidationError, validate_event
from aaaf.evidence.payloads import PAYLOAD_SHAPES
from tests.evidence.events import AGENT, MINIMAL_DATA, NOW, REMOVE, RICH_TASK_COMPLETED, event, with_data

REQUIRED_FIELDS: dict[str, tuple[str, ...]] = {
    # document 004 §6.2 "Supported Event Types" (delegate_to: see the dedicated tests)
    "task_assigned": ("task_id", "complexity_level", "domain", "assigned_at"),
    "task_completed": (
        "task_id",
        "completion_status",
        "time_to_complete_seconds",
        "revision_count",
        "errors",
    ),
    "task_revised": ("task_id", "revision_number", "reason_code", "changes"),
    "tool_invoked": ("task_id", "tool", "success", "unnecessary", "error_recovered"),
    "delegation_decision": ("task_id", "task_fragment", "decision", "ground_truth"),
    "delegation_outcome": ("task_id", "delegate_agent_id", "outcome", "revision_needed"),
    "orchestration_plan": ("task_id", "agents_involved", "dependency_graph", "parallel_groups"),
    "orchestration_result": (
        "task_id",
        "outcome",
        "failures_injected",
        "failures_recovered",
        "synthesis_quality_score",
    ),
    # SCORING.md §3, §5 and the AAAF extension
    "eval_result": ("dimension", "score"),
    "workflow_run": (
        "task_id",
        "dag_steps",
        "steps_completed",
        "output_quality",
        "actual_cost",
        "max_budget",
        "actual_seconds",
        "max_latency_seconds",
        "declared_retry_budget",
        "actual_retries",
        "timeouts",
        "hard_failures",
    ),
    "memory_operation": ("task_id", "operation"),
    "task_audited": ("task_id", "auditor"),  # SCORING.md §2.6
}


def rejected(raw: Any, **options: Any) -> EventValidationError:
    with pytest.raises(EventValidationError) as caught:
        validate_event(raw, now=NOW, **options)
    return caught.value


def test_every_type_has_a_required_field_table_and_a_minimal_event() -> None:
    assert len(EVIDENCE_EVENT_TYPES) == len(set(EVIDENCE_EVENT_TYPES)) == 12
    assert set(REQUIRED_FIELDS) == set(EVIDENCE_EVENT_TYPES) == set(MINIMAL_DATA) == set(PAYLOAD_SHAPES)


@pytest.mark.parametrize("event_type", sorted(MINIMAL_DATA))
def test_minimal_event_of_every_type_is_valid(event_type: str) -> None:
    valid = validate_event(event(event_type), now=NOW)
    assert valid.type == event_type
    assert valid.agent == AGENT
    assert valid.data == MINIMAL_DATA[event_type]
    assert valid.task_id == MINIMAL_DATA[event_type].get("task_id")


@pytest.mark.parametrize(
    ("event_type", "field"), [(kind, name) for kind, names in REQUIRED_FIELDS.items() for name in names]
)
def test_missing_required_field_is_invalid_request_naming_it(event_type: str, field: str) -> None:
    error = rejected(with_data(event_type, **{field: REMOVE}))
    assert error.code == "INVALID_REQUEST"
    assert error.field == f"data.{field}"
    assert error.message == f"data.{field}: Missing required field"


# (event type, field, a value of the wrong JSON type)
WRONG_TYPES: list[tuple[str, str, Any]] = [
    ("task_assigned", "task_id", 17),
    ("task_assigned", "complexity_level", "3"),
    ("task_assigned", "complexity_level", 3.0),
    ("task_assigned", "complexity_level", True),
    ("task_assigned", "domain", ["security"]),
    ("task_assigned", "assigned_at", 1713277800),
    ("task_completed", "completion_status", 1),
    ("task_completed", "time_to_complete_seconds", "1847"),
    ("task_completed", "time_to_complete_seconds", True),
    ("task_completed", "revision_count", 1.0),
    ("task_completed", "revision_count", False),
    ("task_completed", "errors", "none"),
    ("task_revised", "revision_number", "1"),
    ("task_revised", "reason_code", 2),
    ("tool_invoked", "tool", None),
    ("tool_invoked", "success", "true"),
    ("tool_invoked", "unnecessary", 0),
    ("tool_invoked", "error_recovered", 1),
    ("delegation_decision", "task_fragment", {"text": "x"}),
    ("delegation_decision", "decision", True),
    ("delegation_decision", "ground_truth", None),
    ("delegation_decision", "delegate_to", 3),
    ("delegation_outcome", "delegate_agent_id", 5),
    ("delegation_outcome", "revision_needed", "no"),
    ("orchestration_plan", "agents_involved", "a,b"),
    ("orchestration_plan", "agents_involved", ["a", 2]),
    ("orchestration_plan", "dependency_graph", "a->b"),
    ("orchestration_plan", "parallel_groups", {"a": 1}),
    ("orchestration_result", "outcome", 1),
    ("orchestration_result", "failures_injected", "2"),
    ("orchestration_result", "synthesis_quality_score", "0.8"),
    ("eval_result", "score", "87"),
    ("eval_result", "dimension", 3),
    ("workflow_run", "dag_steps", 4.0),
    ("workflow_run", "output_quality", None),
    ("workflow_run", "hard_failures", 0.5),
    ("memory_operation", "operation", None),
    ("memory_operation", "summary", 3),
]


@pytest.mark.parametrize(("event_type", "field", "value"), WRONG_TYPES)
def test_wrong_json_type_is_invalid_request_naming_the_field(event_type: str, field: str, value: Any) -> None:
    error = rejected(with_data(event_type, **{field: value}))
    assert error.code == "INVALID_REQUEST"
    assert error.field is not None and error.field.startswith(f"data.{field}")
    assert error.message.startswith(f"{error.field}: must be ")


def test_a_string_number_is_not_a_number_and_the_message_shows_it() -> None:
    error = rejected(with_data("task_assigned", complexity_level="3"))
    assert error.message == 'data.complexity_level: must be an integer from 1 to 5, got "3"'


def test_a_boolean_is_not_an_integer() -> None:
    error = rejected(with_data("task_completed", revision_count=True))
    assert error.message == "data.revision_count: must be an integer ≥ 0, got true"


# (event type, field, value accepted, value rejected): ranges and vocabularies
RANGE_RULES: list[tuple[str, str, Any, Any]] = [
    ("task_assigned", "complexity_level", 1, 0),
    ("task_assigned", "complexity_level", 5, 6),
    ("task_assigned", "autonomy_level", 0, -1),
    ("task_assigned", "autonomy_level", 3, 4),
    ("task_assigned", "assigned_at", "2026-04-16T16:00:00+02:00", "2026-04-16T14:00:00"),
    ("task_assigned", "task_id", "x", ""),
    ("task_assigned", "domain", "code", ""),
    ("task_completed", "completion_status", "partial", "done"),
    ("task_completed", "completion_status", "rejected", "Accepted"),
    ("task_completed", "completion_status", "failed", ""),
    ("task_completed", "time_to_complete_seconds", 0, -1),
    ("task_completed", "time_to_complete_seconds", 12.5, -0.001),
    ("task_completed", "revision_count", 3, -1),
    ("task_completed", "milestone_fraction", 0.0, -0.01),
    ("task_completed", "milestone_fraction", 1.0, 1.01),
    ("task_completed", "milestone_fraction", 0.5, None),
    ("task_completed", "complexity_level", 2, 0),
    ("task_completed", "autonomy_level", 3, 4),
    ("task_completed", "domain", "code", 7),
    ("task_completed", "cost_usd", 0, -0.5),
    ("task_completed", "budget_usd", 10, -1),
    ("task_completed", "review_checklist", {"memory_written": False}, {"memory_written": "yes"}),
    ("task_completed", "review_checklist", {}, ["memory_written"]),
    ("task_revised", "reason_code", "critical", "huge"),
    ("task_revised", "reason_code", "major", "Major"),
    ("task_revised", "revision_number", 1, 0),
    ("task_revised", "changes", ["line 3"], REMOVE),
    ("delegation_decision", "decision", "self", "maybe"),
    ("delegation_decision", "ground_truth", "self", "other"),
    ("delegation_decision", "optimal_delegate", None, 5),
    ("delegation_outcome", "outcome", "partial", "ok"),
    ("delegation_outcome", "outcome", "failure", "success!"),
    ("orchestration_plan", "dependency_graph", [["a", "b"]], 3),
    ("orchestration_result", "failures_injected", 5, -1),
    ("orchestration_result", "synthesis_quality_score", 1.0, 1.2),
    ("orchestration_result", "workflow_design_score", 0.0, -0.1),
    ("orchestration_result", "communication_clarity_score", 1, 2),
    ("eval_result", "score", 100, 100.5),
    ("eval_result", "score", 0, -1),
    ("eval_result", "dimension", "costEfficiency", "speed"),
    ("eval_result", "eval_set", "suite-a", 3),
    ("eval_result", "juror", "judge-1", ""),
    ("eval_result", "task_id", "t-9", 9),
    ("workflow_run", "dag_steps", 9, 0),
    ("workflow_run", "steps_completed", 0, -1),
    ("workflow_run", "output_quality", 1, 1.1),
    ("workflow_run", "actual_cost", 0, -1),
    ("workflow_run", "max_budget", 0.01, 0),
    ("workflow_run", "actual_seconds", 0, -1),
    ("workflow_run", "max_latency_seconds", 1, 0),
    ("workflow_run", "declared_retry_budget", 0, -1),
    ("workflow_run", "actual_retries", 7, -1),
    ("workflow_run", "timeouts", 2, -1),
    ("workflow_run", "hard_failures", 1, -2),
    ("workflow_run", "workflow", "etl-v2", 3),
    ("memory_operation", "operation", "write", "delete"),
    ("memory_operation", "path", "notes/a.md", ""),
    ("memory_operation", "summary", "", None),
]


@pytest.mark.parametrize(("event_type", "field", "good", "bad"), RANGE_RULES)
def test_range_and_vocabulary_rules(event_type: str, field: str, good: Any, bad: Any) -> None:
    accepted = validate_event(with_data(event_type, **{field: good}), now=NOW)
    assert accepted.data[field] == good
    error = rejected(with_data(event_type, **{field: bad}))
    assert error.code == "INVALID_REQUEST"
    assert error.field is not None and error.field.startswith(f"data.{field}")


def test_range_message_names_field_bounds_and_value() -> None:
    error = rejected(with_data("task_assigned", complexity_level=7))
    assert error.message == "data.complexity_level: must be an integer from 1 to 5, got 7"
    error = rejected(with_data("task_completed", completion_status="done"))
    assert error.message == (
        "data.completion_status: must be one of 'accepted', 'partial', 'rejected' or 'failed', got \"done\""
    )


@pytest.mark.parametrize("dimension", TRUST_DIMENSIONS)
def test_every_trust_dimension_is_accepted(dimension: str) -> None:
    assert (
        validate_event(with_data("eval_result", dimension=dimension), now=NOW).data["dimension"] == dimension
    )


def test_trust_dimensions_are_document_000s_sixteen() -> None:
    assert len(TRUST_DIMENSIONS) == len(set(TRUST_DIMENSIONS)) == 16
    assert {"accuracy", "reliability", "safety", "security", "teamwork", "skillMastery"} <= set(
        TRUST_DIMENSIONS
    )


def test_eval_result_needs_no_task_id_and_copies_one_when_given() -> None:
    assert validate_event(event("eval_result"), now=NOW).task_id is None
    assert validate_event(with_data("eval_result", task_id="t-5"), now=NOW).task_id == "t-5"


# --- delegation: delegate_to is required only when delegating (SCORING.md §1) ---------


def test_delegate_without_delegate_to_is_rejected_naming_delegate_to() -> None:
    error = rejected(with_data("delegation_decision", delegate_to=REMOVE))
    assert (error.code, error.field) == ("INVALID_REQUEST", "data.delegate_to")
    assert "decision is 'delegate'" in error.message


def test_delegate_with_null_delegate_to_is_rejected() -> None:
    error = rejected(with_data("delegation_decision", delegate_to=None))
    assert error.field == "data.delegate_to"


@pytest.mark.parametrize("delegate_to", [REMOVE, None])
def test_self_with_absent_or_null_delegate_to_is_valid(delegate_to: Any) -> None:
    raw = with_data("delegation_decision", decision="self", ground_truth="self", delegate_to=delegate_to)
    assert validate_event(raw, now=NOW).data["decision"] == "self"


def test_empty_delegate_to_is_rejected_even_with_self() -> None:
    error = rejected(with_data("delegation_decision", decision="self", delegate_to=""))
    assert error.field == "data.delegate_to"


# --- the rich task_completed of document 004 §6.2 -------------------------------------


def test_rich_task_completed_example_is_accepted_whole() -> None:
    valid = validate_event(RICH_TASK_COMPLETED, now=NOW)
    assert valid.task_id == "task_uuid"
    assert valid.data == RICH_TASK_COMPLETED["data"]


def rich(mutate: Any) -> dict[str, Any]:
    raw = copy.deepcopy(RICH_TASK_COMPLETED)
    mutate(raw["data"])
    return raw


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda d: d["tools_used"][0].update(successes=13), "data.tools_used[0].successes"),
        (lambda d: d["tools_used"][1].update(unnecessary=4), "data.tools_used[1].unnecessary"),
        (lambda d: d["tools_used"][0].update(invocations=-1), "data.tools_used[0].invocations"),
        (lambda d: d["tools_used"][0].pop("tool"), "data.tools_used[0].tool"),
        (lambda d: d["tools_used"][0].update(successes="12"), "data.tools_used[0].successes"),
        (lambda d: d["tools_used"].append("grep"), "data.tools_used[2]"),
        (
            lambda d: d["delegation_decisions"][1].pop("delegate_to"),
            "data.delegation_decisions[1].delegate_to",
        ),
        (
            lambda d: d["delegation_decisions"][0].update(decision="maybe"),
            "data.delegation_decisions[0].decision",
        ),
        (
            lambda d: d["delegation_decisions"][0].pop("ground_truth"),
            "data.delegation_decisions[0].ground_truth",
        ),
        (
            lambda d: d["delegation_decisions"][0].update(correct="yes"),
            "data.delegation_decisions[0].correct",
        ),
        (lambda d: d.update(autonomy_level=4), "data.autonomy_level"),
        (lambda d: d["review_checklist"].update(memory_written=1), "data.review_checklist.memory_written"),
        (lambda d: d.update(complexity_level=0), "data.complexity_level"),
    ],
)
def test_rich_task_completed_embedded_evidence_is_validated(mutate: Any, field: str) -> None:
    error = rejected(rich(mutate))
    assert (error.code, error.field) == ("INVALID_REQUEST", field)
    assert error.message.startswith(field + ": ")


def test_tools_used_successes_bound_message() -> None:
    error = rejected(rich(lambda d: d["tools_used"][0].update(successes=13)))
    assert error.message == "data.tools_used[0].successes: must be at most invocations (12), got 13"


def test_recovered_is_optional_and_bounded_by_failed_invocations() -> None:
    usage = {"tool": "bash", "invocations": 10, "successes": 7, "unnecessary": 0}
    assert validate_event(with_data("task_completed", tools_used=[usage]), now=NOW)
    assert validate_event(with_data("task_completed", tools_used=[{**usage, "recovered": 3}]), now=NOW)
    error = rejected(with_data("task_completed", tools_used=[{**usage, "recovered": 4}]))
    assert error.field == "data.tools_used[0].recovered"
    error = rejected(with_data("task_completed", tools_used=[{**usage, "recovered": -1}]))
    assert error.field == "data.tools_used[0].recovered"


def test_embedded_self_decision_without_delegate_to_is_valid() -> None:
    decision = {"task_fragment": "x", "decision": "self", "ground_truth": "delegate"}
    assert validate_event(with_data("task_completed", delegation_decisions=[decision]), now=NOW)


def test_milestones_are_name_and_passed_items() -> None:
    milestones = [{"name": "parse", "passed": True}, {"name": "report", "passed": False}]
    assert validate_event(with_data("task_completed", milestones=milestones), now=NOW)
    for bad, field in [
        ([{"name": "parse"}], "data.milestones[0].passed"),
        ([{"name": "parse", "passed": "yes"}], "data.milestones[0].passed"),
        ([{"name": 3, "passed": True}], "data.milestones[0].name"),
        (["parse"], "data.milestones[0]"),
        ({"parse": True}, "data.milestones"),
    ]:
        error = rejected(with_data("task_completed", milestones=bad))
        assert (error.code, error.field) == ("INVALID_REQUEST", field)


def test_errors_are_strings_or_objects_with_optional_severity() -> None:
    errors = ["plain text error", {"severity": "critical", "detail": "x"}, {"message": "no severity"}]
    assert validate_event(with_data("task_completed", errors=errors), now=NOW).data["errors"] == errors
    for severity in ("critical", "major", "minor"):
        assert validate_event(with_data("task_completed", errors=[{"severity": severity}]), now=NOW)
    error = rejected(with_data("task_completed", errors=["ok", {"severity": "blocker"}]))
    assert (error.field, error.code) == ("data.errors[1].severity", "INVALID_REQUEST")
    error = rejected(with_data("task_completed", errors=[{"severity": None}]))
    assert error.field == "data.errors[0].severity"
    error = rejected(with_data("task_completed", errors=[3]))
    assert error.field == "data.errors[0]"


# --- cross-field rules of orchestration and workflow -----------------------------------


def test_failures_recovered_at_most_injected() -> None:
    assert validate_event(with_data("orchestration_result", failures_recovered=2), now=NOW)
    error = rejected(with_data("orchestration_result", failures_recovered=3))
    assert (error.code, error.field) == ("INVALID_REQUEST", "data.failures_recovered")
    assert error.message == "data.failures_recovered: must be at most failures_injected (2), got 3"


def test_steps_completed_at_most_dag_steps() -> None:
    assert validate_event(with_data("workflow_run", steps_completed=4), now=NOW)
    error = rejected(with_data("workflow_run", steps_completed=5))
    assert (error.code, error.field) == ("INVALID_REQUEST", "data.steps_completed")


def test_workflow_miner_must_be_the_events_agent() -> None:
    assert validate_event(with_data("workflow_run", miner=AGENT), now=NOW).data["miner"] == AGENT
    error = rejected(with_data("workflow_run", miner="someone-else"))
    assert (error.code, error.field) == ("INVALID_REQUEST", "data.miner")
    error = rejected(with_data("workflow_run", miner=""))
    assert error.field == "data.miner"


# --- forward compatibility and several problems at once --------------------------------


def test_unknown_data_fields_are_kept() -> None:
    raw = with_data("task_completed", reviewer={"name": "x", "scores": [1, 2.5, None, True]}, tag="v2")
    raw["data"]["tools_used"] = [
        {"tool": "grep", "invocations": 1, "successes": 1, "unnecessary": 0, "avg_ms": 3}
    ]
    valid = validate_event(raw, now=NOW)
    assert valid.data["reviewer"] == {"name": "x", "scores": [1, 2.5, None, True]}
    assert valid.data["tools_used"][0]["avg_ms"] == 3
    assert valid.data["tag"] == "v2"


def test_every_problem_of_an_event_is_listed_first_one_named() -> None:
    error = rejected(with_data("task_completed", completion_status="done", revision_count=-1))
    assert error.field == "data.completion_status"
    assert error.details["problems"] == [
        "data.completion_status: must be one of 'accepted', 'partial', 'rejected' or 'failed', got \"done\"",
        "data.revision_count: must be an integer ≥ 0, got -1",
    ]
