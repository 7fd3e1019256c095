"""The events of the tasks that count towards a re-assessment (docs/scoring.md §2.4): a task
completed as accepted or partial.  One condition, written once for the partial index that holds
those events (``idx_events_completed_tasks``, migration 0026) and for the overview's count over
them (:meth:`aaaf.store.agent_summaries.AgentSummaryRepository.completed_tasks_since_assessed`),
alike — literals, not parameters — so that each database's planner proves the index usable."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text

COUNTED_COMPLETIONS = ("accepted", "partial")
"""The completion statuses of a task that count towards a re-assessment."""


def counted_tasks(dialect: str, table: str = "") -> str:
    """The condition in ``dialect``'s SQL, its columns prefixed by ``table`` (``"events."`` in
    a query joining another table)."""
    status = (
        f"({table}data ->> 'completion_status')"
        if dialect == "postgresql"
        else f"JSON_EXTRACT({table}data, '$.\"completion_status\"')"
    )
    listed = ", ".join(f"'{value}'" for value in COUNTED_COMPLETIONS)
    return f"{table}type = 'task_completed' AND {status} IN ({listed})"


def index_where() -> dict[str, Any]:
    """The partial index's predicate on each database (``Index(..., **index_where())``: the
    keywords ``sqlite_where`` and ``postgresql_where``, typed as ``Index`` takes its keywords)."""
    return {f"{dialect}_where": text(counted_tasks(dialect)) for dialect in ("sqlite", "postgresql")}
