"""OAuth clients, daily usage and badge visibility (issue 13 §1, §3, §4).

Revision ID: 0013_api_auth
Revises: 0012_stress_runs
Create Date: 2026-11-23

* ``oauth_clients``: an organization's OAuth 2.0 client-credentials clients (RFC 6749 §4.4),
  the secret stored only as its SHA-256, with scopes and a revocation time;
* ``usage_daily``: API calls, events accepted and assessments run per organization and UTC day;
* ``badge_visibility``: a badge (an assessment's credentials) made private; no row = public.

Runs on SQLite and PostgreSQL; column types spelled out literally (see 0001).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0013_api_auth"
down_revision: str | Sequence[str] | None = "0012_stress_runs"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIMESTAMP = sa.DateTime(timezone=True)
TEXT_ARRAY = sa.JSON().with_variant(postgresql.ARRAY(sa.Text()), "postgresql")


def upgrade() -> None:
    op.create_table(
        "oauth_clients",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("organization_id", sa.Uuid(), nullable=False),
        sa.Column("client_id", sa.Text(), nullable=False),
        sa.Column("secret_hash", sa.Text(), nullable=False),
        sa.Column("name", sa.Text(), nullable=True),
        sa.Column("scopes", TEXT_ARRAY, nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.Column("revoked_at", TIMESTAMP, nullable=True),
        sa.ForeignKeyConstraint(
            ["organization_id"],
            ["organizations.id"],
            name=op.f("fk_oauth_clients_organization_id_organizations"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_oauth_clients")),
        sa.UniqueConstraint("client_id", name=op.f("uq_oauth_clients_client_id")),
    )
    op.create_index("idx_oauth_clients_organization", "oauth_clients", ["organization_id"])
    op.create_table(
        "usage_daily",
        sa.Column("organization_id", sa.Uuid(), nullable=False),
        sa.Column("day", sa.Text(), nullable=False),
        sa.Column("api_calls", sa.Integer(), server_default="0", nullable=False),
        sa.Column("events_accepted", sa.Integer(), server_default="0", nullable=False),
        sa.Column("assessments_run", sa.Integer(), server_default="0", nullable=False),
        sa.ForeignKeyConstraint(
            ["organization_id"],
            ["organizations.id"],
            name=op.f("fk_usage_daily_organization_id_organizations"),
        ),
        sa.PrimaryKeyConstraint("organization_id", "day", name=op.f("pk_usage_daily")),
    )
    op.create_table(
        "badge_visibility",
        sa.Column("assessment_id", sa.Uuid(), nullable=False),
        sa.Column("organization_id", sa.Uuid(), nullable=False),
        sa.Column("visibility", sa.Text(), nullable=False),
        sa.Column("changed_at", TIMESTAMP, nullable=False),
        sa.CheckConstraint(
            "visibility IN ('public', 'private')", name=op.f("ck_badge_visibility_visibility")
        ),
        sa.ForeignKeyConstraint(
            ["assessment_id"], ["assessments.id"], name=op.f("fk_badge_visibility_assessment_id_assessments")
        ),
        sa.ForeignKeyConstraint(
            ["organization_id"],
            ["organizations.id"],
            name=op.f("fk_badge_visibility_organization_id_organizations"),
        ),
        sa.PrimaryKeyConstraint("assessment_id", name=op.f("pk_badge_visibility")),
    )


def downgrade() -> None:
    op.drop_table("badge_visibility")
    op.drop_table("usage_daily")
    op.drop_index("idx_oauth_clients_organization", table_name="oauth_clients")
    op.drop_table("oauth_clients")
