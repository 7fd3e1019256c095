"""The summaries' index by organization also holds each agent's id and its re-assessment moments.

Revision ID: 0027_summary_due_index
Revises: 0026_completed_tasks_index
Create Date: 2026-11-29

``idx_agent_summaries_due`` on ``agent_summaries(organization_id, agent_id, due_completed_at,
due_valid_until)`` replaces ``idx_agent_summaries_organization`` (its first column): the
overview's reads of which agents may be due — their ids, when last assessed and until when
valid, for every agent of the organization — are read from the index alone, not a row
looked up per agent (SQLite overview of 10 000 agents: its reads' CPU 67 -> 40 ms).

Runs on SQLite and PostgreSQL.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0027_summary_due_index"
down_revision: str | Sequence[str] | None = "0026_completed_tasks_index"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = ["organization_id", "agent_id", "due_completed_at", "due_valid_until"]


def upgrade() -> None:
    op.create_index("idx_agent_summaries_due", "agent_summaries", COLUMNS)
    op.drop_index("idx_agent_summaries_organization", table_name="agent_summaries")


def downgrade() -> None:
    op.create_index("idx_agent_summaries_organization", "agent_summaries", ["organization_id"])
    op.drop_index("idx_agent_summaries_due", table_name="agent_summaries")
