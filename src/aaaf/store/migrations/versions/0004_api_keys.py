"""An organization's API keys, stored only as hashes (SCORING.md §7 "Admin and keys").

Revision ID: 0004_api_keys
Revises: 0003_badge_credentials
Create Date: 2026-11-23

``organizations.api_key_hash`` holds one key per organization with no scopes; from this
revision an organization has any number of keys, each with its scopes (``read``,
``events:write``, ``assessments:write``, ``auditor``, ``admin``), a display prefix and a
revocation time.  Runs on SQLite and PostgreSQL; column types spelled out literally (see 0001).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0004_api_keys"
down_revision: str | Sequence[str] | None = "0003_badge_credentials"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIMESTAMP = sa.DateTime(timezone=True)
TEXT_ARRAY = sa.JSON().with_variant(postgresql.ARRAY(sa.Text()), "postgresql")


def upgrade() -> None:
    op.create_table(
        "api_keys",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("organization_id", sa.Uuid(), nullable=False),
        sa.Column("name", sa.Text(), nullable=True),
        sa.Column("prefix", sa.Text(), nullable=False),
        sa.Column("key_hash", sa.Text(), nullable=False),
        sa.Column("scopes", TEXT_ARRAY, nullable=False),
        sa.Column("created_at", TIMESTAMP, nullable=False),
        sa.Column("revoked_at", TIMESTAMP, nullable=True),
        sa.Column("last_used_at", TIMESTAMP, nullable=True),
        sa.ForeignKeyConstraint(
            ["organization_id"], ["organizations.id"], name=op.f("fk_api_keys_organization_id_organizations")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_api_keys")),
        sa.UniqueConstraint("key_hash", name=op.f("uq_api_keys_key_hash")),
    )
    op.create_index("idx_api_keys_organization", "api_keys", ["organization_id"])


def downgrade() -> None:
    op.drop_index("idx_api_keys_organization", table_name="api_keys")
    op.drop_table("api_keys")
