"""Whose re-assessment is due (SCORING.md §2.4): the count of new completed tasks since an
agent's last completed assessment, and the fleet's due agents with the reason in words."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from aaaf.reports.wording import reassessment_text
from aaaf.scoring.calibration import reassessment_due
from aaaf.scoring.records import EventRecord

if TYPE_CHECKING:
    from aaaf.store.org_store import OrgStore
    from aaaf.store.records import Agent, Assessment


def completed_tasks_since(events: Sequence[EventRecord], since: datetime) -> int:
    """Distinct tasks with an accepted/partial task_completed after ``since`` (the §2.4 trigger)."""
    tasks = {
        e.task_id
        for e in events
        if e.type == "task_completed"
        and e.timestamp > since
        and e.data.get("completion_status") in ("accepted", "partial")
    }
    return len(tasks)


def due_agents(
    org: OrgStore, *, now: datetime, completed: Sequence[Assessment] | None = None
) -> list[tuple[Agent, str]]:
    """Agents whose re-assessment is due (SCORING.md §2.4), with the reason.

    Three queries whatever the fleet's size (the dashboard's overview shows it for 1 000
    agents, issue 17 §5): the agents, their completed assessments (the latest by completion
    time, as :meth:`~aaaf.store.OrgStore.latest_completed_assessment` picks it) and their
    ``task_completed`` events (``completed``: the completed assessments, when the caller has
    read them)."""
    config = org.config()
    agents = org.agents()
    latest: dict[uuid.UUID, Assessment] = {}
    for done in org.assessments(status="completed") if completed is None else completed:
        held = latest.get(done.agent_id)
        if held is None or done.completion_order > held.completion_order:
            latest[done.agent_id] = done
    completions = org.events_for_agents(
        [agent.id for agent in agents if agent.id in latest], types=["task_completed"]
    )
    due = []
    for agent in agents:
        previous = latest.get(agent.id)
        if previous is None:
            decided = reassessment_due(now=now, valid_until=None, completed_tasks_since_last=0, config=config)
        else:
            assert previous.completed_at is not None  # a completed assessment has its time
            since = completed_tasks_since(completions.get(agent.id, []), previous.completed_at)
            decided = reassessment_due(
                now=now, valid_until=previous.valid_until, completed_tasks_since_last=since, config=config
            )
        if decided.due:
            due.append((agent, reassessment_text(decided)))
    return due
