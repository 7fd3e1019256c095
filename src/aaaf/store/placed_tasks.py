"""How many completed tasks each agent has placed in a window, counted in the database
(PostgreSQL): a lower bound of the tasks the minimum-evidence rule counts (docs/scoring.md §2.1),
for a trigger to accept an agent without reading and folding its events
(:func:`aaaf.services.assessment_jobs.trigger_assessments`).

A task with a ``task_completed`` event is placed by its counting completion, the one with the
latest timestamp (docs/scoring.md §1; at equal timestamps the tie-break picks among events of
that same timestamp): so at the greatest ``timestamp`` of its completions.  Its id is the event's
``task_id`` (else a string ``task_id`` in its data), as the fold reads it.  The tasks with no
completion (placed by an assignment) are left out: the count is exact for the completed tasks
and a lower bound of all the window's tasks.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Connection, text

_COMPLETED_TASKS_PLACED = text(
    """
    SELECT tasks.agent_id, count(*)
      FROM (
        SELECT events.agent_id,
               coalesce(events.task_id, CASE WHEN json_typeof(events.data -> 'task_id') = 'string'
                                             THEN events.data ->> 'task_id' END) AS task_id,
               max(events.timestamp) AS placed
          FROM events JOIN agents ON agents.id = events.agent_id
         WHERE events.agent_id = ANY(:agent_ids) AND agents.organization_id = :organization_id
           AND events.type = 'task_completed'
         GROUP BY 1, 2
      ) AS tasks
     WHERE tasks.task_id IS NOT NULL AND tasks.placed BETWEEN :start AND :end
     GROUP BY tasks.agent_id
    """
)


def completed_tasks_placed(
    connection: Connection,
    organization_id: uuid.UUID,
    agent_ids: Sequence[uuid.UUID],
    start: datetime,
    end: datetime,
) -> dict[uuid.UUID, int] | None:
    """Agent id → how many of its completed tasks are placed in ``[start, end]`` (both
    inclusive), for the organization's agents among ``agent_ids`` that have one; ``None`` on a
    database other than PostgreSQL (the caller folds the events instead)."""
    if connection.dialect.name != "postgresql" or not agent_ids:
        return None
    rows = connection.execute(
        _COMPLETED_TASKS_PLACED,
        {"agent_ids": list(agent_ids), "organization_id": organization_id, "start": start, "end": end},
    ).all()
    return {agent_id: int(count) for agent_id, count in rows}
