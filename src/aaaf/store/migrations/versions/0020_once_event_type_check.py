"""Event types are data: drop the ``events.type`` CHECK constraint.

Revision ID: 0020_once_event_type_check
Revises: 0019_dashboard_sessions
Create Date: 2026-11-28

The constraint spelled the list of event types out, so that each new type needed a migration
copying the whole list (0009_task_audited).  The list has one home (the evidence layer's
vocabulary, ``aaaf.scoring.records.EVENT_TYPES``) and two gates that read it: validation
(``INVALID_EVENT_TYPE`` before anything is written) and the store's event writer.  A new event
type is now a line in the list, no migration.  Downgrade puts back the constraint as it was
at 0018 (and fails while events of a later type are stored — they would be lost).

Runs on SQLite (batch mode: the table is copied) and PostgreSQL.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0020_once_event_type_check"
down_revision: str | Sequence[str] | None = "0019_dashboard_sessions"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

EVENT_TYPES_AT_0018 = (
    "task_assigned",
    "task_completed",
    "task_revised",
    "tool_invoked",
    "delegation_decision",
    "delegation_outcome",
    "orchestration_plan",
    "orchestration_result",
    "eval_result",
    "workflow_run",
    "memory_operation",
    "task_audited",
)


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_constraint(op.f("ck_events_type"), type_="check")


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.create_check_constraint(
            op.f("ck_events_type"), f"type IN ({', '.join(repr(value) for value in EVENT_TYPES_AT_0018)})"
        )
