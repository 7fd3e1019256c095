"""The release gate's record: which candidates passed or failed, which were promoted.

Revision ID: 0018_gate_decisions
Revises: 0017_stress_jobs
Create Date: 2026-11-25

``gate_decisions``: one row per agent gate (the candidate assessment, the baseline it was
compared with, the verdict, whether it passed and on which ``--fail-on`` conditions, the
stress run) and one per explicit promotion (``aaaf gate promote``, ``--promote``).  An
agent's default baseline is its latest valid assessment that passed a gate or was promoted
(docs/ci.md), so that a failed candidate is never the baseline of the next run.

Runs on SQLite and PostgreSQL.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018_gate_decisions"
down_revision: str | Sequence[str] | None = "0017_stress_jobs"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "gate_decisions",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("organization_id", sa.Uuid(), nullable=False),
        sa.Column("agent_id", sa.Uuid(), nullable=False),
        sa.Column("assessment_id", sa.Uuid(), nullable=False),
        sa.Column("kind", sa.Text(), nullable=False),
        sa.Column("baseline_assessment_id", sa.Uuid(), nullable=True),
        sa.Column("verdict", sa.Text(), nullable=True),
        sa.Column("passed", sa.Boolean(), nullable=True),
        sa.Column("fail_on", sa.Text(), nullable=True),
        sa.Column("stress_run_id", sa.Uuid(), nullable=True),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.func.current_timestamp(),
            nullable=False,
        ),
        sa.CheckConstraint("kind IN ('gate', 'promotion')", name=op.f("ck_gate_decisions_kind")),
        sa.ForeignKeyConstraint(
            ["organization_id"],
            ["organizations.id"],
            name=op.f("fk_gate_decisions_organization_id_organizations"),
        ),
        sa.ForeignKeyConstraint(["agent_id"], ["agents.id"], name=op.f("fk_gate_decisions_agent_id_agents")),
        sa.ForeignKeyConstraint(
            ["assessment_id"], ["assessments.id"], name=op.f("fk_gate_decisions_assessment_id_assessments")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_gate_decisions")),
    )
    op.create_index(
        "idx_gate_decisions_agent", "gate_decisions", ["organization_id", "agent_id", "created_at"]
    )


def downgrade() -> None:
    op.drop_index("idx_gate_decisions_agent", table_name="gate_decisions")
    op.drop_table("gate_decisions")
