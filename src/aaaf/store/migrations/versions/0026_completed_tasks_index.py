"""A partial index of the completed tasks that count towards re-assessment, by agent and time.

Revision ID: 0026_completed_tasks_index
Revises: 0025_held_index
Create Date: 2026-11-29

``idx_events_completed_tasks``: ``events(agent_id, timestamp, task_id)`` over the rows of a
task completed as accepted or partial — the rows the overview counts per agent since its
last completed assessment (``completed_tasks_since_assessed``; docs/scoring.md §2.4).  The
count reads only the index entries after that moment (and, on both databases, no table row:
the index holds the task id), where the agent's other indexes made it read every event of the
agent of that type, or every event since, of any type.

Runs on SQLite and PostgreSQL (both support partial indexes; on PostgreSQL the index is
created on the partitioned ``events`` and so on each partition, and on each new one).  The
predicate is written as each database's query planner sees the count's own condition, so
that it is proven to hold.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0026_completed_tasks_index"
down_revision: str | Sequence[str] | None = "0025_held_index"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEX = "idx_events_completed_tasks"
COUNTED_POSTGRESQL = "type = 'task_completed' AND (data ->> 'completion_status') IN ('accepted', 'partial')"
COUNTED_SQLITE = (
    "type = 'task_completed' AND JSON_EXTRACT(data, '$.\"completion_status\"') IN ('accepted', 'partial')"
)


def upgrade() -> None:
    op.create_index(
        INDEX,
        "events",
        ["agent_id", "timestamp", "task_id"],
        sqlite_where=sa.text(COUNTED_SQLITE),
        postgresql_where=sa.text(COUNTED_POSTGRESQL),
    )


def downgrade() -> None:
    op.drop_index(INDEX, table_name="events")
