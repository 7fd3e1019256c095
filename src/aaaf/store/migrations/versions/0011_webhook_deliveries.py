"""Webhook secrets sealed, retry policies, the event outbox and the delivery log (issue 14 §5).

Revision ID: 0011_webhook_deliveries
Revises: 0010_eval_runs
Create Date: 2026-11-23

SCORING.md §7 "Webhook secrets": document 004 §7's ``webhooks.secret_hash`` becomes an
encrypted secret (an HMAC signature needs the secret itself), sealed with ``AAAF_SECRET_KEY``
(``secret_sealed``); the clear ``secret`` and its hash go.  A migration cannot seal (it has no
secret), so a webhook stored before this revision — only the Python API could make one — is
kept but deactivated with an empty sealed secret and ``disabled_reason`` saying to create it
again.  Each webhook gets its retry policy (3 retries, 60 s base backoff by default).

``webhook_events`` is the outbox (document 004 §6.3 events written in the unit of work that
caused them) and ``webhook_deliveries`` one row per (event, webhook) with its attempts.

Runs on SQLite (batch mode: the table is copied) and PostgreSQL; column types spelled out
literally (see 0001).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_webhook_deliveries"
down_revision: str | Sequence[str] | None = "0010_eval_runs"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_DOCUMENT = sa.JSON()  # json (not jsonb) on PostgreSQL: documents kept verbatim
TIMESTAMP = sa.DateTime(timezone=True)
EVENT_TYPES = (
    "assessment.started",
    "assessment.completed",
    "assessment.failed",
    "badge.expiring",
    "badge.expired",
    "appeal.filed",
    "appeal.resolved",
    "evidence.threshold_reached",
)
DELIVERY_STATUSES = ("pending", "succeeded", "failed")


def _one_of(column: str, values: Sequence[str]) -> str:
    return f"{column} IN ({', '.join(repr(value) for value in values)})"


def _timestamps() -> list[sa.Column[object]]:
    return [
        sa.Column("created_at", TIMESTAMP, server_default=sa.func.current_timestamp(), nullable=False),
        sa.Column("updated_at", TIMESTAMP, server_default=sa.func.current_timestamp(), nullable=False),
    ]


def upgrade() -> None:
    with op.batch_alter_table("webhooks") as batch:
        batch.add_column(sa.Column("secret_sealed", sa.Text(), server_default="", nullable=False))
        batch.add_column(sa.Column("max_retries", sa.Integer(), server_default=sa.text("3"), nullable=False))
        batch.add_column(
            sa.Column("retry_backoff_seconds", sa.Double(53), server_default=sa.text("60"), nullable=False)
        )
        batch.add_column(sa.Column("disabled_reason", sa.Text(), nullable=True))
        batch.add_column(_timestamps()[1])
    webhooks = sa.table(
        "webhooks",
        sa.column("active", sa.Boolean()),
        sa.column("disabled_reason", sa.Text()),
    )
    op.execute(
        webhooks.update().values(
            active=False,
            disabled_reason="stored before webhook secrets were sealed (SCORING.md §7): create it again",
        )
    )
    with op.batch_alter_table("webhooks") as batch:
        batch.drop_column("secret")
        batch.drop_column("secret_hash")

    op.create_table(
        "webhook_events",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("organization_id", sa.Uuid(), nullable=False),
        sa.Column("type", sa.Text(), nullable=False),
        sa.Column("dedupe_key", sa.Text(), nullable=True),
        sa.Column("payload", sa.Text(), nullable=False),
        _timestamps()[0],
        sa.CheckConstraint(_one_of("type", EVENT_TYPES), name=op.f("ck_webhook_events_type")),
        sa.ForeignKeyConstraint(
            ["organization_id"],
            ["organizations.id"],
            name=op.f("fk_webhook_events_organization_id_organizations"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_events")),
        sa.UniqueConstraint(
            "organization_id", "dedupe_key", name=op.f("uq_webhook_events_organization_id_dedupe_key")
        ),
    )
    op.create_table(
        "webhook_deliveries",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("organization_id", sa.Uuid(), nullable=False),
        sa.Column("webhook_id", sa.Uuid(), nullable=False),
        sa.Column("event_id", sa.Uuid(), nullable=False),
        sa.Column("status", sa.Text(), server_default="pending", nullable=False),
        sa.Column("attempt_count", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("next_attempt_at", TIMESTAMP, nullable=True),
        sa.Column("last_attempt_at", TIMESTAMP, nullable=True),
        sa.Column("last_status_code", sa.Integer(), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("attempts", JSON_DOCUMENT, nullable=False),
        *_timestamps(),
        sa.CheckConstraint(_one_of("status", DELIVERY_STATUSES), name=op.f("ck_webhook_deliveries_status")),
        sa.ForeignKeyConstraint(
            ["organization_id"],
            ["organizations.id"],
            name=op.f("fk_webhook_deliveries_organization_id_organizations"),
        ),
        sa.ForeignKeyConstraint(
            ["webhook_id"], ["webhooks.id"], name=op.f("fk_webhook_deliveries_webhook_id_webhooks")
        ),
        sa.ForeignKeyConstraint(
            ["event_id"], ["webhook_events.id"], name=op.f("fk_webhook_deliveries_event_id_webhook_events")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_deliveries")),
    )
    op.create_index("idx_webhook_deliveries_due", "webhook_deliveries", ["status", "next_attempt_at"])
    op.create_index("idx_webhook_deliveries_webhook", "webhook_deliveries", ["webhook_id", "created_at"])


def downgrade() -> None:
    """Back to clear secrets: the sealed ones cannot be opened here, so webhooks come back
    inactive with an empty secret (create them again)."""
    op.drop_table("webhook_deliveries")
    op.drop_table("webhook_events")
    with op.batch_alter_table("webhooks") as batch:
        batch.add_column(sa.Column("secret", sa.Text(), server_default="", nullable=False))
        batch.add_column(sa.Column("secret_hash", sa.Text(), server_default="", nullable=False))
    op.execute(sa.text("UPDATE webhooks SET active = false"))
    with op.batch_alter_table("webhooks") as batch:
        batch.drop_column("secret_sealed")
        batch.drop_column("max_retries")
        batch.drop_column("retry_backoff_seconds")
        batch.drop_column("disabled_reason")
        batch.drop_column("updated_at")
