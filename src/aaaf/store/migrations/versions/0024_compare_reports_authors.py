"""Dashboard compare reports run as jobs; who made each configuration change.

Revision ID: 0024_compare_reports_authors
Revises: 0022_agent_summaries
Create Date: 2026-11-28

``compare_reports``: one row per compare report the dashboard runs as a job — the control,
the treatments and the resamples asked for, the job's status (``queued``, ``running``,
``done``, ``failed``) with when it started and finished, and the report's HTML once done (or
the reason it failed).  The page that waits for it reads the row.

``org_config_changes.changed_by``: who made the change (the API key or OAuth client, or the
command line); null for the changes recorded before this revision.

Runs on SQLite and PostgreSQL.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0024_compare_reports_authors"
down_revision: str | Sequence[str] | None = "0022_agent_summaries"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "compare_reports",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("organization_id", sa.Uuid(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.func.current_timestamp(),
            nullable=False,
        ),
        sa.Column("control", sa.Text(), nullable=False),
        sa.Column("treatments", sa.JSON(), nullable=False),
        sa.Column("resamples", sa.Integer(), nullable=False),
        sa.Column("status", sa.Text(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("html", sa.Text(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.CheckConstraint(
            "status IN ('queued', 'running', 'done', 'failed')", name=op.f("ck_compare_reports_status")
        ),
        sa.ForeignKeyConstraint(
            ["organization_id"],
            ["organizations.id"],
            name=op.f("fk_compare_reports_organization_id_organizations"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_compare_reports")),
    )

    with op.batch_alter_table("org_config_changes") as batch:
        batch.add_column(sa.Column("changed_by", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("org_config_changes") as batch:
        batch.drop_column("changed_by")
    op.drop_table("compare_reports")
