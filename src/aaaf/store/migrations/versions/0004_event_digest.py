"""Events carry the digest of their content (issue 21, SCORING.md §1 *2026-11-23*).

Revision ID: 0004_event_digest
Revises: 0003_badge_credentials
Create Date: 2026-11-23

``events.content_digest`` is the SHA-256 (hex) of the RFC 8785 form of ``{agent, type,
timestamp, data}`` (``aaaf.evidence.canonical.event_digest``).  For an event sent
without ``id`` it is also its ``idempotency_key``; for one sent with an ``id`` it tells a
re-sent event (same digest: nothing new is stored) from a different event under a known
id (``DUPLICATE_CONFLICT``).  Rows stored before this revision have none (null): their
digest is computed from the stored row when a key of theirs comes again.  Nullable, no
default: adding it rewrites nothing on either database.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_event_digest"
down_revision: str | Sequence[str] | None = "0003_badge_credentials"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("events", sa.Column("content_digest", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_column("content_digest")
