"""The per-agent summary the dashboard's overview reads, backfilled from existing rows.

Revision ID: 0022_agent_summaries
Revises: 0021_events_partitioned
Create Date: 2026-11-28

``agent_summaries``: one row per agent with a completed assessment or a trust score — its
latest whole-axis assessment's composites, intervals and review state, the previous one's
composites, its current badge's state, its latest completed assessment of any type and its
latest committed trust score (docs/scaling.md); and, worked out from those, what the
overview filters, sorts and counts by in SQL — per axis the composite and tier, the held,
revoked and borderline flags, when the badge expires, the largest change.  Every write that changes one of those
rebuilds the agent's row in its own transaction; the backfill builds every row with the same
function.

Runs on SQLite and PostgreSQL.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022_agent_summaries"
down_revision: str | Sequence[str] | None = "0021_events_partitioned"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "agent_summaries",
        sa.Column("agent_id", sa.Uuid(), nullable=False),
        sa.Column("organization_id", sa.Uuid(), nullable=False),
        sa.Column("latest_id", sa.Uuid(), nullable=True),
        sa.Column("latest_type", sa.Text(), nullable=True),
        sa.Column("latest_completed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("latest_valid_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("latest_review_state", sa.Text(), nullable=True),
        sa.Column("latest_anomalous", sa.Boolean(), nullable=True),
        sa.Column("latest_result", sa.JSON(), nullable=True),
        sa.Column("previous_result", sa.JSON(), nullable=True),
        sa.Column("badge_revoked", sa.Boolean(), nullable=True),
        sa.Column("badge_valid_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("due_completed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("due_valid_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("trust_score", sa.Double(precision=53), nullable=True),
        sa.Column("trust_tier", sa.Text(), nullable=True),
        sa.Column("performance_score", sa.Double(precision=53), nullable=True),
        sa.Column("performance_tier", sa.Text(), nullable=True),
        sa.Column("capability_score", sa.Double(precision=53), nullable=True),
        sa.Column("capability_tier", sa.Text(), nullable=True),
        sa.Column("held", sa.Boolean(), nullable=True),
        sa.Column("revoked", sa.Boolean(), nullable=True),
        sa.Column("borderline", sa.Boolean(), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("change", sa.Double(precision=53), nullable=True),
        sa.ForeignKeyConstraint(["agent_id"], ["agents.id"], name=op.f("fk_agent_summaries_agent_id_agents")),
        sa.ForeignKeyConstraint(
            ["organization_id"],
            ["organizations.id"],
            name=op.f("fk_agent_summaries_organization_id_organizations"),
        ),
        sa.PrimaryKeyConstraint("agent_id", name=op.f("pk_agent_summaries")),
    )
    op.create_index("idx_agent_summaries_organization", "agent_summaries", ["organization_id"])
    _backfill()


def _backfill() -> None:
    from aaaf.store.summary_writes import refresh_agent_summaries

    connection = op.get_bind()
    agents = sa.table("agents", sa.column("id", sa.Uuid()), sa.column("organization_id", sa.Uuid()))
    by_organization: dict[object, list[object]] = {}
    for agent_id, organization_id in connection.execute(sa.select(agents.c.id, agents.c.organization_id)):
        by_organization.setdefault(organization_id, []).append(agent_id)
    for organization_id, agent_ids in by_organization.items():
        refresh_agent_summaries(connection, organization_id, agent_ids)  # type: ignore[arg-type]


def downgrade() -> None:
    op.drop_index("idx_agent_summaries_organization", table_name="agent_summaries")
    op.drop_table("agent_summaries")
