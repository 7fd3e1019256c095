"""Admit the ``task_audited`` event type (SCORING.md §2.6, issue 16).

Revision ID: 0009_task_audited
Revises: 0008_assessment_evidence
Create Date: 2026-11-23

The ``events.type`` CHECK constraint lists the stored event types; an audit finding is a
``task_audited`` event, so the constraint is recreated with it (and back without it on
downgrade, which fails while such events are stored — they would be lost).

Runs on SQLite (batch mode: the table is copied) and PostgreSQL.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0009_task_audited"
down_revision: str | Sequence[str] | None = "0008_assessment_evidence"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

EVENT_TYPES_BEFORE = (
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
)
EVENT_TYPES_AFTER = (*EVENT_TYPES_BEFORE, "task_audited")


def _one_of(column: str, values: Sequence[str]) -> str:
    return f"{column} IN ({', '.join(repr(value) for value in values)})"


def _replace_type_check(values: Sequence[str]) -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_constraint(op.f("ck_events_type"), type_="check")
        batch.create_check_constraint(op.f("ck_events_type"), _one_of("type", values))


def upgrade() -> None:
    _replace_type_check(EVENT_TYPES_AFTER)


def downgrade() -> None:
    _replace_type_check(EVENT_TYPES_BEFORE)
