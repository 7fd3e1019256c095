"""Eval runs uploaded over the API (SCORING.md §4; issue 13 "eval runs/compare").

Revision ID: 0010_eval_runs
Revises: 0009_task_audited
Create Date: 2026-11-23

One row per run (one column of a promptfoo result file): the run object ``aaaf compare``
reads, with its ``run_id``, ``variant``, source format and sample count, so a comparison of
stored runs is the comparison of the files they came from.  Runs on SQLite and PostgreSQL.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_eval_runs"
down_revision: str | Sequence[str] | None = "0009_task_audited"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIMESTAMP = sa.DateTime(timezone=True)
JSON_DOCUMENT = sa.JSON()  # json (not jsonb) on PostgreSQL: documents kept verbatim


def upgrade() -> None:
    op.create_table(
        "eval_runs",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("organization_id", sa.Uuid(), nullable=False),
        sa.Column("run_id", sa.Text(), nullable=False),
        sa.Column("variant", sa.Text(), nullable=False),
        sa.Column("source_format", sa.Text(), nullable=False),
        sa.Column("samples", sa.Integer(), nullable=False),
        sa.Column("run", JSON_DOCUMENT, nullable=False),
        sa.Column("uploaded_at", TIMESTAMP, nullable=False),
        sa.ForeignKeyConstraint(
            ["organization_id"], ["organizations.id"], name=op.f("fk_eval_runs_organization_id_organizations")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_eval_runs")),
    )
    op.create_index("idx_eval_runs_organization", "eval_runs", ["organization_id", "uploaded_at", "id"])


def downgrade() -> None:
    op.drop_index("idx_eval_runs_organization", table_name="eval_runs")
    op.drop_table("eval_runs")
