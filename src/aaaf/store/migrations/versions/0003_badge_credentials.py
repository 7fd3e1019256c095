"""A badge row per credential: re-issue after an accepted appeal; the reviewer of a held assessment.

Revision ID: 0003_badge_credentials
Revises: 0002_trust_history
Create Date: 2026-04-17

Until now ``badges`` held one row (and one status-list bit) per assessment, so when an
accepted appeal changed an assessment's scores the credential already handed out kept
verifying with the old scores, and a credential for the new scores could not get a bit
of its own.  From this revision a row is one *issued credential*:

* ``assessment_id`` is no longer unique; ``uq_badges_one_current`` (partial, ``WHERE
  superseded_at IS NULL``) keeps at most one *current* credential per assessment;
* ``superseded_at`` marks a credential replaced by a newer one; a superseded row keeps
  its ``status_index`` with its bit set (``revoked`` true, ``revoke_reason`` e.g.
  "superseded: appeal <id> accepted") — CHECK ``superseded_revoked``;
* every current row carries its signed JWT (CHECK ``signed``): issuing now writes the
  complete row in one transaction.  Rows of the old two-step issuance left without a JWT
  (a crash between the two writes) are superseded here, bit set, as "superseded:
  issuance interrupted before signing" — their bit may be named by a credential already
  handed out, so it is never freed; the assessment can simply be issued again;
* ``assessments.reviewed_by`` / ``reviewed_at``: who approved or rejected a held
  assessment (SCORING.md §2.4), and when.

Runs on SQLite (batch mode: the badges table is copied, no table references it) and on
PostgreSQL; column types spelled out literally (see 0001).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_badge_credentials"
down_revision: str | Sequence[str] | None = "0002_trust_history"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIMESTAMP = sa.DateTime(timezone=True)
INTERRUPTED_REASON = "superseded: issuance interrupted before signing"


def upgrade() -> None:
    with op.batch_alter_table("assessments") as batch:
        batch.add_column(sa.Column("reviewed_by", sa.Text(), nullable=True))
        batch.add_column(sa.Column("reviewed_at", TIMESTAMP, nullable=True))

    with op.batch_alter_table("badges") as batch:
        batch.add_column(sa.Column("superseded_at", TIMESTAMP, nullable=True))

    # the old two-step issuance's unsigned leftovers: superseded, bit kept set (docstring)
    op.execute(
        sa.text(
            "UPDATE badges SET revoked = true, "
            "revoked_at = COALESCE(revoked_at, CURRENT_TIMESTAMP), "
            "revoke_reason = COALESCE(revoke_reason, :reason), "
            "superseded_at = CURRENT_TIMESTAMP "
            "WHERE credential_jwt IS NULL"
        ).bindparams(reason=INTERRUPTED_REASON)
    )

    with op.batch_alter_table("badges") as batch:
        batch.drop_constraint(op.f("uq_badges_assessment_id"), type_="unique")
        batch.create_check_constraint(
            op.f("ck_badges_superseded_revoked"), "superseded_at IS NULL OR revoked"
        )
        batch.create_check_constraint(
            op.f("ck_badges_signed"), "credential_jwt IS NOT NULL OR superseded_at IS NOT NULL"
        )
        batch.create_index("idx_badges_assessment_id", ["assessment_id"])
    op.create_index(
        "uq_badges_one_current",
        "badges",
        ["assessment_id"],
        unique=True,
        sqlite_where=sa.text("superseded_at IS NULL"),
        postgresql_where=sa.text("superseded_at IS NULL"),
    )


def downgrade() -> None:
    """Back to one row per assessment: only the current credential of each is kept.

    Superseded credentials are deleted, so their bits are no longer set in a list built
    after the downgrade: downgrading forgets that those credentials were replaced.
    """
    op.drop_index("uq_badges_one_current", table_name="badges")
    op.execute(sa.text("DELETE FROM badges WHERE superseded_at IS NOT NULL"))
    with op.batch_alter_table("badges") as batch:
        batch.drop_index("idx_badges_assessment_id")
        batch.drop_constraint(op.f("ck_badges_signed"), type_="check")
        batch.drop_constraint(op.f("ck_badges_superseded_revoked"), type_="check")
        batch.create_unique_constraint(op.f("uq_badges_assessment_id"), ["assessment_id"])
        batch.drop_column("superseded_at")
    # ALTER TABLE … DROP COLUMN in place (SQLite ≥ 3.35): a batch copy of assessments would
    # have to drop a table that dimension scores, badges and appeals reference
    for column in ("reviewed_at", "reviewed_by"):
        op.execute(sa.text(f"ALTER TABLE assessments DROP COLUMN {column}"))
