"""An index of the assessments held for review, by agent.

Revision ID: 0025_held_index
Revises: 0024_compare_reports_authors
Create Date: 2026-11-28

``idx_assessments_held``: a partial index on ``assessments(agent_id)`` over the rows whose
``review_state`` is ``pending_review`` — the few assessments the review queue and the
dashboard's held list read, found without scanning every assessment.

Runs on SQLite and PostgreSQL (both support partial indexes).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0025_held_index"
down_revision: str | Sequence[str] | None = "0024_compare_reports_authors"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

HELD = "review_state = 'pending_review'"


def upgrade() -> None:
    op.create_index(
        "idx_assessments_held",
        "assessments",
        ["agent_id"],
        sqlite_where=sa.text(HELD),
        postgresql_where=sa.text(HELD),
    )


def downgrade() -> None:
    op.drop_index("idx_assessments_held", table_name="assessments")
