"""Folding events into tasks: every rule of SCORING.md §1."""

from __future__ import annotations

import random

import pytest

from aaaf.scoring.fold import ToolUsage, canonical_json, credit_inputs, fold_evidence, fold_tasks
from aaaf.scoring.fold_values import invocation_counts
from tests.scoring.factories import Events, at, checklist


def test_latest_task_completed_counts_whatever_its_status() -> None:
    ev = Events()
    events = [
        ev.assigned("t1", days_ago=3),
        ev.completed("t1", "accepted", days_ago=2),
        ev.completed("t1", "rejected", days_ago=1),  # later: it counts, though worse
    ]
    task = fold_tasks(events)["t1"]
    assert task.completion_status == "rejected"
    assert task.credit == 0.0
    assert task.completed_at == at(1)
    assert task.completion_event_id == events[2].id
    assert task.superseded_completion_ids == (events[1].id,)


def test_tie_broken_by_canonical_json_sorting_last_in_any_order() -> None:
    ev = Events()
    moment = at(1)
    accepted = ev.completed("t1", "accepted", timestamp=moment)
    rejected = ev.completed("t1", "rejected", timestamp=moment)
    # '..."completion_status":"accepted"...' < '..."completion_status":"rejected"...'
    assert canonical_json(accepted) < canonical_json(rejected)
    for order in ([accepted, rejected], [rejected, accepted]):
        assert fold_tasks(order)["t1"].completion_status == "rejected"


def test_canonical_json_has_sorted_keys_and_no_spaces() -> None:
    ev = Events(agent="a")
    event = ev.event("task_completed", {"task_id": "t", "b": 1, "a": [1, 2]}, days_ago=0, key="k1")
    text = canonical_json(event)
    assert " " not in text
    assert text.startswith('{"agent":"a","data":{"a":[1,2],"b":1,"task_id":"t"},"id":"k1",')


def test_task_assigned_alone_decides_domain_complexity_and_autonomy() -> None:
    ev = Events()
    events = [
        ev.assigned("t1", domain="security", complexity=4, autonomy=None, days_ago=2),
        ev.completed("t1", domain="code", complexity_level=1, autonomy_level=3, days_ago=1),
    ]
    task = fold_tasks(events)["t1"]
    assert (task.domain, task.complexity_level) == ("security", 4)
    # the task_assigned carries no autonomy level, and only it counts: none
    assert task.autonomy_level is None
    assert task.attribute_event_id == events[0].id


def test_rich_task_completed_alone_gives_attributes_and_assignment_time() -> None:
    ev = Events()
    rich = ev.completed("t1", domain="legal", complexity_level=3, autonomy_level=2, days_ago=4)
    task = fold_tasks([rich])["t1"]
    assert (task.domain, task.complexity_level, task.autonomy_level) == ("legal", 3, 2)
    assert task.assigned_at == rich.timestamp
    assert task.placed_at == rich.timestamp


def test_assignment_time_comes_from_assigned_at_not_the_event_timestamp() -> None:
    ev = Events()
    assigned = ev.assigned("t1", days_ago=1, assigned_days_ago=5)
    task = fold_tasks([assigned])["t1"]
    assert task.assigned_at == at(5)
    assert task.completed_at is None
    assert task.placed_at == at(5)


def test_tool_invoked_events_replace_tools_used_without_double_counting() -> None:
    ev = Events()
    events = [
        ev.completed(
            "t1", tools_used=[{"tool": "grep", "invocations": 12, "successes": 12, "unnecessary": 1}]
        ),
        ev.tool("t1", "grep", success=False, recovered=True),
        ev.tool("t1", "grep", success=True, recovered=True),  # recovery without failure: not counted
    ]
    task = fold_tasks(events)["t1"]
    assert task.tools_from_events
    (grep,) = task.tools
    assert (grep.invocations, grep.successes, grep.failures, grep.recovered, grep.unnecessary) == (
        2,
        1,
        1,
        1,
        0,
    )
    assert grep.event_ids == tuple(sorted((events[1].id, events[2].id)))


def test_tools_used_summary_counts_when_no_tool_invoked() -> None:
    ev = Events()
    events = [
        ev.completed(
            "t1",
            tools_used=[
                {"tool": "grep", "invocations": 12, "successes": 10, "unnecessary": 1},  # no 'recovered' → 0
                {"tool": "bash", "invocations": 3, "successes": 1, "unnecessary": 0, "recovered": 2},
            ],
        ),
        ev.tool("t2", "grep"),  # another task's invocation does not override t1's summary
    ]
    task = fold_tasks(events)["t1"]
    assert not task.tools_from_events
    bash, grep = task.tools
    assert (grep.invocations, grep.successes, grep.failures, grep.recovered, grep.unnecessary) == (
        12,
        10,
        2,
        0,
        1,
    )
    assert (bash.failures, bash.recovered) == (2, 2)


def test_delegation_decision_events_replace_embedded_decisions() -> None:
    ev = Events()
    embedded = [{"task_fragment": "x", "decision": "self", "ground_truth": "self", "correct": True}] * 2
    events = [
        ev.completed("t1", delegation_decisions=embedded),
        ev.decision("t1", "delegate", "delegate", delegate_to="doc-bot"),
    ]
    task = fold_tasks(events)["t1"]
    assert task.decisions_from_events
    assert [d.decision for d in task.delegation_decisions] == ["delegate"]
    # without the granular event the two embedded decisions count
    only_rich = fold_tasks(events[:1])["t1"]
    assert [d.decision for d in only_rich.delegation_decisions] == ["self", "self"]


def test_revision_flag_from_count_or_event_and_error_severities() -> None:
    ev = Events()
    events = [
        ev.completed(
            "t1",
            revision_count=0,
            errors=[{"severity": "critical"}, {"severity": "minor"}, {"description": "no severity"}],
        ),
        ev.revised("t1", "minor"),
        ev.completed("t2", revision_count=2),
    ]
    tasks = fold_tasks(events)
    # t1: critical 3 + minor 0.5 + unspecified → major 1 + reason_code minor 0.5 = 5.0
    assert tasks["t1"].weighted_errors == 5.0
    assert tasks["t1"].error_count == 4
    assert tasks["t1"].revised  # by the task_revised event
    assert tasks["t2"].revised  # by revision_count > 0
    assert tasks["t2"].weighted_errors == 0.0


@pytest.mark.parametrize(
    ("data", "credit"),
    [
        ({"completion_status": "accepted"}, 1.0),
        ({"completion_status": "partial", "milestone_fraction": 0.25}, 0.25),
        # 2 of 3 milestones passed → 2/3, replacing milestone_fraction
        (
            {
                "completion_status": "partial",
                "milestone_fraction": 0.9,
                "milestones": [
                    {"name": "a", "passed": True},
                    {"name": "b", "passed": True},
                    {"name": "c", "passed": False},
                ],
            },
            2 / 3,
        ),
        ({"completion_status": "partial", "milestones": []}, 0.0),  # empty checklist: no credit source
        ({"completion_status": "partial"}, 0.0),
        ({"completion_status": "rejected", "milestone_fraction": 0.5}, 0.0),
        ({"completion_status": "failed"}, 0.0),
        ({}, 0.0),
    ],
)
def test_credit(data: dict[str, object], credit: float) -> None:
    assert credit_inputs(data)[0] == credit


def test_memory_operations_or_with_review_checklist() -> None:
    ev = Events()
    events = [
        ev.completed("t1", review_checklist=checklist("output_format_correct", failed=["memory_written"])),
        ev.memory("t1", "write"),
        ev.completed("t2"),
        ev.memory("t2", "search"),
        ev.completed("t3"),
    ]
    tasks = fold_tasks(events)
    assert tasks["t1"].checklist == {"output_format_correct": True, "memory_written": True}
    # memory operations alone make a checklist in which the other items are absent (not passed)
    assert tasks["t2"].checklist == {"memory_search_performed": True}
    assert tasks["t3"].checklist is None
    assert tasks["t2"].memory_event_ids == (events[3].id,)


def test_other_schemes_events_are_ignored() -> None:
    ev = Events()
    events = [
        ev.event("eval_result", {"dimension": "accuracy", "score": 90}),
        ev.event("workflow_run", {"task_id": "w1", "miner": "agent-1"}),
        *ev.task("t1"),
    ]
    folded = fold_evidence(events)
    assert set(folded.tasks) == {"t1"}
    assert events[0].id not in folded.event_types


def test_evidence_without_task_id_is_kept_apart_by_timestamp() -> None:
    ev = Events()
    events = [
        ev.tool(None, "grep", days_ago=3),
        ev.decision(None, "self", "self", days_ago=2),
        ev.outcome(None, "success", days_ago=1),
        ev.orchestration(None, synthesis=0.5, days_ago=1),
    ]
    folded = fold_evidence(events)
    assert folded.tasks == {}
    loose = folded.unattached
    assert [t for t, _ in loose.tools] == [at(3)]
    assert len(loose.delegation_decisions) == len(loose.delegation_outcomes) == 1
    assert len(loose.orchestration_results) == 1


def test_fold_does_not_depend_on_event_order() -> None:
    ev = Events()
    events = [
        *ev.task("t1", "partial", milestone_fraction=0.5),
        ev.completed("t1", "accepted", days_ago=0.5),
        ev.tool("t1", "grep"),
        ev.tool("t1", "grep", success=False),
        ev.revised("t1", "critical"),
        ev.revised("t1", "minor"),
        ev.decision("t1", "self", "delegate"),
        ev.decision("t1", "delegate", "delegate", delegate_to="x"),
        ev.memory("t1", "search"),
    ]
    expected = fold_tasks(events)
    rng = random.Random(7)
    for _ in range(20):
        shuffled = events[:]
        rng.shuffle(shuffled)
        assert fold_tasks(shuffled) == expected


def test_invocation_counts_sum_each_tool_in_tool_order() -> None:
    """Per tool: invocations, successes, failures, recoveries (of failed calls only),
    unnecessary calls and the events' ids in id order (SCORING.md §1)."""
    ev = Events()
    events = [
        ev.tool("t1", "grep", success=False, recovered=True),
        ev.tool("t1", "bash", unnecessary=True),
        ev.tool("t1", "grep", success=True, recovered=True),  # a recovery of a success is none
        ev.tool("t1", "grep", success=False),
        ev.event("tool_invoked", {"task_id": "t1", "tool": 7}),  # no tool name: not counted
    ]
    grep_ids = tuple(sorted(e.id for e in events if e.data.get("tool") == "grep"))
    assert invocation_counts(events) == (
        ToolUsage("bash", 1, 1, 0, 0, 1, (events[1].id,)),
        ToolUsage("grep", 3, 1, 2, 1, 0, grep_ids),
    )
