"""OpenTelemetry spans kept until their task is known (issue 19).

Revision ID: 0016_otlp
Revises: 0015_bench_anon
Create Date: 2026-11-24

``otlp_pending_spans``: a span of ``POST /v1/traces`` whose ``invoke_agent`` ancestor has not
come yet (exporters batch independently) is kept ``pending`` and joined to its task when the
ancestor arrives; joined and unused spans stay for a day so that a late descendant still
finds its task.  One row per (organization, trace id, span id).

Runs on SQLite and PostgreSQL.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016_otlp"
down_revision: str | Sequence[str] | None = "0015_bench_anon"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "otlp_pending_spans",
        sa.Column("organization_id", sa.Uuid(), nullable=False),
        sa.Column("trace_id", sa.Text(), nullable=False),
        sa.Column("span_id", sa.Text(), nullable=False),
        sa.Column("state", sa.Text(), nullable=False),
        sa.Column("task_id", sa.Text(), nullable=True),
        sa.Column("agent", sa.Text(), nullable=True),
        sa.Column("span", sa.JSON(), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "state IN ('pending', 'joined', 'unused')", name=op.f("ck_otlp_pending_spans_state")
        ),
        sa.ForeignKeyConstraint(
            ["organization_id"],
            ["organizations.id"],
            name=op.f("fk_otlp_pending_spans_organization_id_organizations"),
        ),
        sa.PrimaryKeyConstraint("organization_id", "trace_id", "span_id", name=op.f("pk_otlp_pending_spans")),
    )
    op.create_index(
        "idx_otlp_pending_spans_received", "otlp_pending_spans", ["organization_id", "received_at"]
    )


def downgrade() -> None:
    op.drop_index("idx_otlp_pending_spans_received", table_name="otlp_pending_spans")
    op.drop_table("otlp_pending_spans")
