"""Dashboard sessions recorded server-side, so that signing out ends one at once.

Revision ID: 0019_dashboard_sessions
Revises: 0018_gate_decisions
Create Date: 2026-11-28

``dashboard_sessions``: one row per signed-in browser (its organization, when it started and
expires, when it was ended by signing out).  The session cookie names its row; a cookie whose
row is ended or missing signs nobody in (docs/security.md "Sessions").

Runs on SQLite and PostgreSQL.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019_dashboard_sessions"
down_revision: str | Sequence[str] | None = "0018_gate_decisions"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "dashboard_sessions",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("organization_id", sa.Uuid(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.func.current_timestamp(),
            nullable=False,
        ),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["organization_id"],
            ["organizations.id"],
            name=op.f("fk_dashboard_sessions_organization_id_organizations"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_dashboard_sessions")),
    )


def downgrade() -> None:
    op.drop_table("dashboard_sessions")
