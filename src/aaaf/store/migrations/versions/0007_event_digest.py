"""Events carry the digest of their content (issue 21, SCORING.md §1 *2026-11-23*).

Revision ID: 0007_event_digest
Revises: 0006_config_history
Create Date: 2026-11-23

``events.content_digest`` is the SHA-256 (hex) of the RFC 8785 form of ``{agent, type,
timestamp, data}`` (``aaaf.evidence.canonical.event_digest``).  For an event sent
without ``id`` it is also its ``idempotency_key``; for one sent with an ``id`` it tells a
re-sent event (same digest: nothing new is stored) from a different event under a known
id (``DUPLICATE_CONFLICT``).

Events stored earlier without an ``id`` get their derived key and digest here, so that
sending them again after the upgrade stores nothing new.  Where the old code stored the
same keyless event several times, the first copy (by id) gets the key and the others keep
none (nothing is deleted).  Keyed rows keep a null digest: it is computed from the row
when their key comes again.  The column is nullable without a default: adding it
rewrites nothing.
"""

import json
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

from aaaf.evidence.canonical import event_digest

revision: str = "0007_event_digest"
down_revision: str | Sequence[str] | None = "0006_config_history"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 2000


def _instant(value: object) -> datetime:
    if isinstance(value, datetime):
        return value if value.tzinfo is not None else value.replace(tzinfo=UTC)
    return datetime.fromisoformat(f"{value}+00:00")  # SQLite: naive UTC text


def _agent(value: object) -> uuid.UUID:
    return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))


def upgrade() -> None:
    op.add_column("events", sa.Column("content_digest", sa.Text(), nullable=True))
    connection = op.get_bind()
    page = sa.text(
        "SELECT id, agent_id, type, timestamp, data FROM events "
        "WHERE idempotency_key IS NULL AND id > :last ORDER BY id LIMIT :size"
    )
    first_page = sa.text(
        "SELECT id, agent_id, type, timestamp, data FROM events "
        "WHERE idempotency_key IS NULL ORDER BY id LIMIT :size"
    )
    known = sa.text(
        "SELECT idempotency_key FROM events WHERE agent_id = :agent AND idempotency_key IN :keys"
    ).bindparams(sa.bindparam("keys", expanding=True))
    update = sa.text("UPDATE events SET idempotency_key = :key, content_digest = :key WHERE id = :id")
    last: object = None
    while True:
        if last is None:
            rows = connection.execute(first_page, {"size": BATCH}).all()
        else:
            rows = connection.execute(page, {"last": last, "size": BATCH}).all()
        if not rows:
            return
        last = rows[-1][0]
        by_agent: dict[object, list[tuple[object, str]]] = {}
        for event_id, agent_id, event_type, timestamp, data in rows:
            document = json.loads(data) if isinstance(data, str) else data
            digest = event_digest(_agent(agent_id), event_type, _instant(timestamp), document)
            by_agent.setdefault(agent_id, []).append((event_id, digest))
        updates: list[dict[str, object]] = []
        for agent_id, pairs in by_agent.items():
            taken = {
                key
                for (key,) in connection.execute(known, {"agent": agent_id, "keys": [d for _, d in pairs]})
            }
            for event_id, digest in pairs:
                if digest in taken:
                    continue  # a copy the old code stored again (the first copy has the key)
                taken.add(digest)
                updates.append({"key": digest, "id": event_id})
        if updates:
            connection.execute(update, updates)


def downgrade() -> None:
    op.execute(sa.text("UPDATE events SET idempotency_key = NULL WHERE idempotency_key = content_digest"))
    with op.batch_alter_table("events") as batch:
        batch.drop_column("content_digest")
