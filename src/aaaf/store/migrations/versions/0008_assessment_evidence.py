"""Traceability: the scheme spec and the event ids of every assessment (SCORING.md §0, §2.4, §6).

Revision ID: 0008_assessment_evidence
Revises: 0007_event_digest
Create Date: 2026-11-23

One ``assessment_evidence`` row per assessment: the scheme it was computed with (name,
version, the exact config — an accepted appeal re-scores with it, not with the
organization's current configuration) and the ids of the events each dimension used,
stored once (``event_ids``, the UUIDs' 16 bytes each, concatenated) with each dimension as
positions in that list
(``dimension_events``).  Assessments stored before this revision have no row: their spec
and ids were never recorded (``aaaf explain`` says so; an appeal falls back to the current
configuration, as before).

Runs on SQLite and PostgreSQL; column types spelled out literally (see 0001).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_assessment_evidence"
down_revision: str | Sequence[str] | None = "0007_event_digest"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_DOCUMENT = sa.JSON()  # json (not jsonb) on PostgreSQL: documents kept verbatim


def upgrade() -> None:
    op.create_table(
        "assessment_evidence",
        sa.Column("assessment_id", sa.Uuid(), nullable=False),
        sa.Column("scheme", sa.Text(), nullable=False),
        sa.Column("scheme_version", sa.Text(), nullable=False),
        sa.Column("config", JSON_DOCUMENT, nullable=False),
        sa.Column("event_ids", sa.LargeBinary(), nullable=False),  # 16 bytes per event UUID
        sa.Column("dimension_events", JSON_DOCUMENT, nullable=False),
        sa.ForeignKeyConstraint(
            ["assessment_id"],
            ["assessments.id"],
            name=op.f("fk_assessment_evidence_assessment_id_assessments"),
        ),
        sa.PrimaryKeyConstraint("assessment_id", name=op.f("pk_assessment_evidence")),
    )


def downgrade() -> None:
    op.drop_table("assessment_evidence")
