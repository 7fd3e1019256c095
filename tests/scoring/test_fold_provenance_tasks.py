"""Provenance's tasks per axis (aaaf.scoring.evidence_sources): an axis counts the window's scored
tasks and the task of any other event its dimensions used.  The events' task ids are first
gathered in C and the per-event lookup runs only when one lies outside the scored tasks; these
tests pin both sides of that shortcut."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from aaaf.scoring.core import CompositeResult, DimensionResult
from aaaf.scoring.evidence_sources import evidence_sources
from aaaf.scoring.records import EventRecord
from aaaf.scoring.results import AAAFResult, AxisResult

END = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def _event(event_id: str, task_id: str | None, *, stress: bool = False) -> EventRecord:
    data: dict[str, object] = {"task_id": task_id} if task_id is not None else {}
    if stress:
        data |= {"evidence_source": "stress_test", "stress_run_id": "run-1"}
    return EventRecord(event_id, "a", "tool_invoked", END - timedelta(days=1), data, task_id)


def _result(scored_tasks: list[str], used: tuple[str, ...]) -> AAAFResult:
    dimension = DimensionResult("tool_proficiency", 0.5, 1, len(used), event_ids=used)
    axis = AxisResult("capability", {"tool_proficiency": dimension}, CompositeResult(0.5, None, 1, 1, {}))
    return AAAFResult(
        assessment_type="passive_only",
        window_start=END - timedelta(days=30),
        window_end=END,
        performance=None,
        capability=axis,
        evidence_summary={"task_ids": scored_tasks},
        event_ids=used,
    )


def test_a_used_event_of_a_task_outside_the_scored_tasks_adds_its_task() -> None:
    events = [_event("e1", "t1"), _event("e2", "t2"), _event("e3", None)]
    sources = evidence_sources(events, harness_runs=frozenset(), result=_result(["t1"], ("e1", "e2")))
    # t1 is scored; t2 only through its used event e2
    assert sources["capability"]["reported_tasks"] == 2


def test_an_unused_event_outside_the_scored_tasks_adds_nothing() -> None:
    events = [_event("e1", "t1"), _event("e2", "t2")]
    sources = evidence_sources(events, harness_runs=frozenset(), result=_result(["t1"], ("e1",)))
    assert sources["capability"]["reported_tasks"] == 1


def test_every_event_of_a_scored_task_and_a_stress_tested_outside_task() -> None:
    inside = [_event("e1", "t1"), _event("e2", "t1")]
    sources = evidence_sources(inside, harness_runs=frozenset(), result=_result(["t1"], ("e1", "e2")))
    assert sources["capability"]["reported_tasks"] == 1
    stressed = [_event("e1", "t1"), _event("s1", "t9", stress=True)]
    sources = evidence_sources(
        stressed, harness_runs=frozenset({"run-1"}), result=_result(["t1"], ("e1", "s1"))
    )
    assert sources["capability"]["stress_tested_tasks"] == 1
    assert sources["capability"]["reported_tasks"] == 1
