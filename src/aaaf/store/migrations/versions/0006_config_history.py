"""The history of an organization's scoring configuration (issue 21: "the change recorded with its time").

Revision ID: 0006_config_history
Revises: 0005_issuer_keys
Create Date: 2026-11-23

One row per change of ``org_configs`` / ``dimension_weight_configs`` / the taxonomy:
when it happened, what changed (``changes``: ``{key: {"before", "after"}}``) and the whole
configuration before and after it, so that the configuration in force at any instant can be
rebuilt (an appeal re-scores an assessment with the configuration it ran with).

Runs on SQLite and PostgreSQL; column types spelled out literally (see 0001).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_config_history"
down_revision: str | Sequence[str] | None = "0005_issuer_keys"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_DOCUMENT = sa.JSON()  # json (not jsonb) on PostgreSQL: documents kept verbatim
TIMESTAMP = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "org_config_changes",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("organization_id", sa.Uuid(), nullable=False),
        sa.Column("changed_at", TIMESTAMP, nullable=False),
        sa.Column("changes", JSON_DOCUMENT, nullable=False),
        sa.Column("config_before", JSON_DOCUMENT, nullable=False),
        sa.Column("config_after", JSON_DOCUMENT, nullable=False),
        sa.ForeignKeyConstraint(
            ["organization_id"],
            ["organizations.id"],
            name=op.f("fk_org_config_changes_organization_id_organizations"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_org_config_changes")),
    )
    op.create_index(
        "idx_org_config_changes_organization", "org_config_changes", ["organization_id", "changed_at"]
    )


def downgrade() -> None:
    op.drop_index("idx_org_config_changes_organization", table_name="org_config_changes")
    op.drop_table("org_config_changes")
