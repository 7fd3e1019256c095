"""Stress runs are records of their own (SCORING.md §7 "Stress runs", issue 15).

Revision ID: 0012_stress_runs
Revises: 0011_webhook_deliveries
Create Date: 2026-11-23

``stress_runs``: one run of the stress-test library against an agent — organization, agent,
adapter (subprocess or chat_completions), what was run (the command or endpoint), library
and version, started, finished, its inspect_ai log and summary, and the assessment that
merged its evidence (null until then).  ``stress_test_results`` reference their run and
their ``assessment_id`` becomes nullable (null until an assessment merges the run);
``stress_tests.task_key`` names a library task (``library:task_id@digest``) so a task
definition is stored once per organization and version, not once per run.

Runs on SQLite (batch mode) and PostgreSQL.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012_stress_runs"
down_revision: str | Sequence[str] | None = "0011_webhook_deliveries"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_DOCUMENT = sa.JSON()
TIMESTAMP = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "stress_runs",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("organization_id", sa.Uuid(), nullable=False),
        sa.Column("agent_id", sa.Uuid(), nullable=False),
        sa.Column("adapter", sa.Text(), nullable=False),
        sa.Column("agent_reference", sa.Text(), nullable=False),
        sa.Column("library", sa.Text(), nullable=False),
        sa.Column("library_version", sa.Text(), nullable=False),
        sa.Column("status", sa.Text(), nullable=False),
        sa.Column("started_at", TIMESTAMP, nullable=False),
        sa.Column("finished_at", TIMESTAMP, nullable=True),
        sa.Column("log_path", sa.Text(), nullable=True),
        sa.Column("summary", JSON_DOCUMENT, nullable=False),
        sa.Column("assessment_id", sa.Uuid(), nullable=True),
        sa.CheckConstraint("status IN ('running', 'finished', 'failed')", name=op.f("ck_stress_runs_status")),
        sa.ForeignKeyConstraint(
            ["organization_id"],
            ["organizations.id"],
            name=op.f("fk_stress_runs_organization_id_organizations"),
        ),
        sa.ForeignKeyConstraint(["agent_id"], ["agents.id"], name=op.f("fk_stress_runs_agent_id_agents")),
        sa.ForeignKeyConstraint(
            ["assessment_id"], ["assessments.id"], name=op.f("fk_stress_runs_assessment_id_assessments")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_stress_runs")),
    )
    op.create_index("idx_stress_runs_agent", "stress_runs", ["organization_id", "agent_id", "started_at"])
    with op.batch_alter_table("stress_test_results") as batch:
        batch.alter_column("assessment_id", existing_type=sa.Uuid(), nullable=True)
        batch.add_column(sa.Column("run_id", sa.Uuid(), nullable=True))
        batch.create_foreign_key(
            op.f("fk_stress_test_results_run_id_stress_runs"), "stress_runs", ["run_id"], ["id"]
        )
        batch.create_index("idx_stress_test_results_run", ["run_id"])
    with op.batch_alter_table("stress_tests") as batch:
        batch.add_column(sa.Column("task_key", sa.Text(), nullable=True))
        batch.create_index("idx_stress_tests_task_key", ["task_key"])


def downgrade() -> None:
    with op.batch_alter_table("stress_tests") as batch:
        batch.drop_index("idx_stress_tests_task_key")
        batch.drop_column("task_key")
    op.execute("DELETE FROM stress_test_results WHERE assessment_id IS NULL")
    with op.batch_alter_table("stress_test_results") as batch:
        batch.drop_index("idx_stress_test_results_run")
        batch.drop_constraint(op.f("fk_stress_test_results_run_id_stress_runs"), type_="foreignkey")
        batch.drop_column("run_id")
        batch.alter_column("assessment_id", existing_type=sa.Uuid(), nullable=False)
    op.drop_index("idx_stress_runs_agent", table_name="stress_runs")
    op.drop_table("stress_runs")
