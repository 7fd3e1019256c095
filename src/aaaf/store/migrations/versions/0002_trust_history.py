"""Tables of the trust scheme: score history and the adaptive weight override (SCORING.md §3).

Revision ID: 0002_trust_history
Revises: 0001_document_004
Create Date: 2026-04-16

Runs on SQLite and PostgreSQL; column types spelled out literally (see 0001).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002_trust_history"
down_revision: str | Sequence[str] | None = "0001_document_004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_DOCUMENT = sa.JSON()  # json (not jsonb) on PostgreSQL: documents kept verbatim
TIMESTAMP = sa.DateTime(timezone=True)
DOUBLE: sa.Double[float] = sa.Double(precision=53)


def upgrade() -> None:
    op.create_table(
        "score_history",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("organization_id", sa.Uuid(), nullable=False),
        sa.Column("agent_id", sa.Uuid(), nullable=False),
        sa.Column("scheme", sa.Text(), nullable=False),
        sa.Column("score", DOUBLE, nullable=True),
        sa.Column("tier", sa.Text(), nullable=True),
        sa.Column("details", JSON_DOCUMENT, nullable=False),
        sa.Column("was_anomalous", sa.Boolean(), server_default=sa.text("false"), nullable=False),
        sa.Column("committed", sa.Boolean(), server_default=sa.text("true"), nullable=False),
        sa.Column("reviewed_by", sa.Text(), nullable=True),
        sa.Column("reviewed_at", TIMESTAMP, nullable=True),
        sa.Column("review_decision", sa.Text(), nullable=True),
        sa.Column("computed_at", TIMESTAMP, nullable=False),
        sa.Column("at", TIMESTAMP, nullable=False),
        sa.CheckConstraint(
            "review_decision IN ('approved', 'rejected')", name=op.f("ck_score_history_review_decision")
        ),
        sa.ForeignKeyConstraint(["agent_id"], ["agents.id"], name=op.f("fk_score_history_agent_id_agents")),
        sa.ForeignKeyConstraint(
            ["organization_id"],
            ["organizations.id"],
            name=op.f("fk_score_history_organization_id_organizations"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_score_history")),
    )
    op.create_index("idx_score_history_agent_scheme", "score_history", ["agent_id", "scheme", "computed_at"])

    op.create_table(
        "trust_weight_overrides",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("organization_id", sa.Uuid(), nullable=False),
        sa.Column("weights", JSON_DOCUMENT, nullable=False),
        sa.Column("set_by", sa.Text(), nullable=True),
        sa.Column("set_at", TIMESTAMP, nullable=False),
        sa.Column("active", sa.Boolean(), server_default=sa.text("true"), nullable=False),
        sa.ForeignKeyConstraint(
            ["organization_id"],
            ["organizations.id"],
            name=op.f("fk_trust_weight_overrides_organization_id_organizations"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_trust_weight_overrides")),
    )
    op.create_index(
        "idx_trust_weight_overrides_organization", "trust_weight_overrides", ["organization_id", "active"]
    )


def downgrade() -> None:
    op.drop_table("trust_weight_overrides")
    op.drop_table("score_history")
