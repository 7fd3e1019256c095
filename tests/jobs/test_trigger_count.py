"""A trigger on PostgreSQL accepts an agent whose completed tasks in the window, counted by the
database, meet the minimums, without reading and folding its events; every other agent is
checked by the fold as before.  The count is the fold's for completed tasks — duplicates,
conflicting completions, completions outside the window, ties — and the trigger's decisions
(accepted, or the refusal and its details) are the same as the fold's alone."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import text

from aaaf.errors import AAAFError
from aaaf.evidence.validation import validate_event
from aaaf.scoring.aaaf_window import window_bounds
from aaaf.scoring.fold import PLACING_EVENT_TYPES, fold_evidence
from aaaf.services import assessment_jobs
from aaaf.services.assessment_jobs import trigger_assessments
from aaaf.store.placed_tasks import completed_tasks_placed
from tests.cli.events_factory import NOW, task_events
from tests.jobs.helpers import RecordingQueue

pytestmark = pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)


def _completion(task_id: str, at: Any, *, suffix: str, status: str = "accepted") -> dict[str, Any]:
    completed = task_events(None, task_id, completed_at=at, status=status)[1]
    return {**completed, "id": f"{task_id}-{suffix}"}


def _edge_agent(org: Any, name: str) -> Any:
    """An agent with the cases the rule has to get right (comments: placed in the window?)."""
    start, end = window_bounds(NOW, org.config())
    inside = NOW - timedelta(days=3)
    events = [
        *task_events(None, "in", completed_at=inside),  # yes
        *task_events(None, "failed", completed_at=inside, status="failed"),  # yes: placed, not completed
        *task_events(None, "old", completed_at=start - timedelta(seconds=1)),  # no
        *task_events(None, "future", completed_at=end + timedelta(hours=1)),  # no
        *task_events(None, "at-start", completed_at=start),  # yes: both bounds inclusive
        *task_events(None, "at-end", completed_at=end),  # yes
        # completed again after the window: placed by the later completion (no)
        *task_events(None, "redone-late", completed_at=inside),
        _completion("redone-late", end + timedelta(minutes=1), suffix="c2"),
        # completed before the window, then again in it (yes)
        *task_events(None, "redone", completed_at=start - timedelta(days=2)),
        _completion("redone", inside, suffix="c2", status="partial"),
        # two conflicting completions at one instant (one task: yes)
        *task_events(None, "tie", completed_at=inside),
        _completion("tie", inside, suffix="c2", status="rejected"),
        # assigned in the window, never completed: the fold counts it, the database's count not
        task_events(None, "assigned", completed_at=inside)[0],
    ]
    events.append(dict(events[0]))  # the same event sent twice: stored once
    agent = org.enroll_agent(name)
    org.add_events(
        [(agent.id, validate_event(e, now=NOW + timedelta(hours=2), default_agent=name)) for e in events]
    )
    return agent


def _fold_counts(org: Any, agent: Any) -> tuple[int, int]:
    """The fold's window tasks: (completed ones, all of them), as the minimum-evidence check."""
    start, end = window_bounds(NOW, org.config())
    tasks = fold_evidence(org.events(agent.id, types=PLACING_EVENT_TYPES)).tasks.values()
    placed = [task for task in tasks if task.placed_at is not None and start <= task.placed_at <= end]
    return sum(1 for task in placed if task.completed_at is not None), len(placed)


def test_the_database_counts_the_completed_tasks_the_fold_places_in_the_window(store: Any) -> None:
    org = store.scope(store.default_organization().id)
    agent, other = _edge_agent(org, "edge"), org.enroll_agent("no-evidence")
    start, end = window_bounds(NOW, org.config())
    with org.reading() as connection:
        counts = completed_tasks_placed(connection, org.organization_id, [agent.id, other.id], start, end)
        elsewhere = completed_tasks_placed(connection, uuid.uuid4(), [agent.id], start, end)
    assert _fold_counts(org, agent) == (6, 7)  # in, failed, at-start, at-end, redone, tie; + assigned
    assert counts == {agent.id: 6}
    assert elsewhere == {}  # another organization's agents are not counted


def _decision(org: Any, agent: Any, minimum: int) -> Any:
    """What a trigger of ``agent`` decides with both minimums at ``minimum``: accepted (its
    pending assessment failed again at once, for the next trigger) or the refusal."""
    org.update_config(min_tasks_performance=minimum, min_tasks_capability=minimum)
    try:
        (record,) = trigger_assessments(org, [agent], RecordingQueue(), now=NOW)
    except AAAFError as refused:
        return refused.to_dict()
    with org.engine.begin() as connection:
        connection.execute(text("UPDATE assessments SET status = 'failed' WHERE id = :id"), {"id": record.id})
    return "accepted"


def test_the_trigger_decides_as_the_fold_alone(store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    org = store.scope(store.default_organization().id)
    agent = _edge_agent(org, "edge")
    decided = [_decision(org, agent, minimum) for minimum in range(0, 10)]
    monkeypatch.setattr(assessment_jobs, "_met_by_completed_tasks", lambda *args: frozenset())
    assert decided == [_decision(org, agent, minimum) for minimum in range(0, 10)]
    assert decided[:8] == ["accepted"] * 8  # 7 window tasks: the seventh, assigned, from the fold
    assert decided[8]["error"]["code"] == "INSUFFICIENT_EVIDENCE"
    assert decided[8]["error"]["details"]["current_count"] == 7


def test_a_trigger_reads_no_events_of_agents_the_count_settles(
    store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    org = store.scope(store.default_organization().id)
    settled, short = _edge_agent(org, "edge"), _edge_agent(org, "short")
    read: list[list[Any]] = []
    events_for_agents, events = type(org).events_for_agents, type(org).events
    monkeypatch.setattr(
        type(org),
        "events_for_agents",
        lambda self, ids, **kw: read.append(ids) or events_for_agents(self, ids, **kw),
    )
    monkeypatch.setattr(
        type(org),
        "events",
        lambda self, agent_id, **kw: read.append([agent_id]) or events(self, agent_id, **kw),
    )
    org.update_config(min_tasks_performance=6, min_tasks_capability=6)
    assert len(trigger_assessments(org, [settled], RecordingQueue(), now=NOW)) == 1
    assert read == []  # 6 completed tasks in the window: enough, nothing read
    org.update_config(min_tasks_performance=7, min_tasks_capability=6)
    assert len(trigger_assessments(org, [short], RecordingQueue(), now=NOW)) == 1
    assert read == [[short.id]]  # 6 completed of the 7 needed: the fold finds the assigned one
