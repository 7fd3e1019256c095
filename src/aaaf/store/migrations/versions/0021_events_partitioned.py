"""Events partitioned by month on PostgreSQL; the idempotency keys in ``event_keys``.

Revision ID: 0021_events_partitioned
Revises: 0020_once_event_type_check
Create Date: 2026-11-28

PostgreSQL only (SQLite keeps one table; the upgrade is a no-op there).  ``events`` becomes a
table partitioned by range of ``timestamp``, one partition per UTC month
(``events_yYYYYmMM``, see :mod:`aaaf.store.event_partitions`), so retention drops whole
months and one agent's window reads only its months.  The primary key becomes
``(id, timestamp)`` (a partitioned table's unique constraints include its partition key);
the ``(agent_id, idempotency_key)`` uniqueness moves to the unpartitioned ``event_keys``
(agent, key, the event's timestamp), which a statement trigger keeps free of deleted
events' keys.  Every stored event is copied with its id; a row stored without a key (before
0004) stays without one, as before.  The partitions of the months with events are created,
and those of this month and the next.  Downgrade copies everything back into one table.
"""

from collections.abc import Sequence
from datetime import UTC, datetime

from alembic import op
from sqlalchemy import text

revision: str = "0021_events_partitioned"
down_revision: str | Sequence[str] | None = "0020_once_event_type_check"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = "id, agent_id, type, task_id, idempotency_key, timestamp, data, created_at, content_digest"
COLUMN_TYPES = """
    id UUID NOT NULL,
    agent_id UUID NOT NULL,
    type TEXT NOT NULL,
    task_id TEXT,
    idempotency_key TEXT,
    timestamp TIMESTAMP WITH TIME ZONE NOT NULL,
    data JSON NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE DEFAULT CURRENT_TIMESTAMP NOT NULL,
    content_digest TEXT"""
INDEXES = (
    "CREATE INDEX idx_events_agent_type ON events (agent_id, type)",
    "CREATE INDEX idx_events_agent_timestamp ON events (agent_id, timestamp)",
    "CREATE INDEX idx_events_task_id ON events (task_id)",
)
FORGET_KEYS = """
CREATE FUNCTION events_forget_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM event_keys k USING gone
    WHERE k.agent_id = gone.agent_id AND k.idempotency_key = gone.idempotency_key;
    RETURN NULL;
END $$
"""


def _next_month(start: datetime) -> datetime:
    return datetime(start.year + start.month // 12, start.month % 12 + 1, 1, tzinfo=UTC)


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    op.execute("ALTER TABLE events RENAME TO events_unpartitioned")
    op.execute("ALTER TABLE events_unpartitioned DROP CONSTRAINT pk_events")
    op.execute("ALTER TABLE events_unpartitioned DROP CONSTRAINT fk_events_agent_id_agents")
    for index in ("idx_events_agent_type", "idx_events_agent_timestamp", "idx_events_task_id"):
        op.execute(f"DROP INDEX {index}")
    op.execute(
        f"CREATE TABLE events ({COLUMN_TYPES},\n"
        "    CONSTRAINT pk_events PRIMARY KEY (id, timestamp),\n"
        "    CONSTRAINT fk_events_agent_id_agents FOREIGN KEY (agent_id) REFERENCES agents (id)\n"
        ") PARTITION BY RANGE (timestamp)"
    )
    for statement in INDEXES:
        op.execute(statement)
    now = datetime.now(UTC)
    this_month = datetime(now.year, now.month, 1, tzinfo=UTC)
    months = {this_month, _next_month(this_month)}
    stored = bind.execute(
        text("SELECT DISTINCT date_trunc('month', timestamp AT TIME ZONE 'UTC') FROM events_unpartitioned")
    ).scalars()
    months |= {datetime(month.year, month.month, 1, tzinfo=UTC) for month in stored}
    for start in sorted(months):
        op.execute(
            f"CREATE TABLE events_y{start.year:04d}m{start.month:02d} PARTITION OF events "
            f"FOR VALUES FROM ('{start.isoformat()}') TO ('{_next_month(start).isoformat()}')"
        )
    op.execute(f"INSERT INTO events ({COLUMNS}) SELECT {COLUMNS} FROM events_unpartitioned")
    op.execute(
        "CREATE TABLE event_keys (agent_id UUID NOT NULL, idempotency_key TEXT NOT NULL, "
        "timestamp TIMESTAMP WITH TIME ZONE NOT NULL, "
        "CONSTRAINT pk_event_keys PRIMARY KEY (agent_id, idempotency_key))"
    )
    op.execute(
        "INSERT INTO event_keys (agent_id, idempotency_key, timestamp) "
        "SELECT agent_id, idempotency_key, timestamp FROM events_unpartitioned "
        "WHERE idempotency_key IS NOT NULL"
    )
    op.execute("DROP TABLE events_unpartitioned")
    op.execute(FORGET_KEYS)
    op.execute(
        "CREATE TRIGGER events_forget_keys AFTER DELETE ON events REFERENCING OLD TABLE AS gone "
        "FOR EACH STATEMENT EXECUTE FUNCTION events_forget_keys()"
    )


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER events_forget_keys ON events")
    op.execute("DROP FUNCTION events_forget_keys()")
    op.execute("DROP TABLE event_keys")
    op.execute("ALTER TABLE events RENAME TO events_partitioned")
    op.execute("ALTER TABLE events_partitioned DROP CONSTRAINT pk_events")
    op.execute("ALTER TABLE events_partitioned DROP CONSTRAINT fk_events_agent_id_agents")
    for index in ("idx_events_agent_type", "idx_events_agent_timestamp", "idx_events_task_id"):
        op.execute(f"DROP INDEX {index}")
    op.execute(
        f"CREATE TABLE events ({COLUMN_TYPES},\n"
        "    CONSTRAINT pk_events PRIMARY KEY (id),\n"
        "    CONSTRAINT fk_events_agent_id_agents FOREIGN KEY (agent_id) REFERENCES agents (id),\n"
        "    CONSTRAINT uq_events_agent_id_idempotency_key UNIQUE (agent_id, idempotency_key)\n"
        ")"
    )
    op.execute(f"INSERT INTO events ({COLUMNS}) SELECT {COLUMNS} FROM events_partitioned")
    for statement in INDEXES:
        op.execute(statement)
    op.execute("DROP TABLE events_partitioned CASCADE")
