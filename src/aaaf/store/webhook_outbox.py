"""The installation-wide side of the webhook outbox (issue 14 §5): claim due deliveries of
every organization and record each attempt.

Several processes (``aaaf serve``'s background loop, ``aaaf worker``s on other machines) may
send at once: a delivery is *claimed* by moving its ``next_attempt_at`` forward by a lease
with a conditional UPDATE (it matches only while the row still holds the value that was
read), so exactly one sender gets it; a sender that dies mid-send leaves the delivery due
again when the lease runs out.  Works the same on SQLite and PostgreSQL.

Every attempt is in the delivery's log, even one cut off by a crash: the claim itself appends
the attempt, ``interrupted`` (and counts it), in the claiming transaction; recording the
outcome replaces that entry.  A sender that dies mid-attempt leaves it there, so the log
shows every request the endpoint may have seen.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Engine, select, update

from aaaf.scoring.results import iso
from aaaf.store import tables as t
from aaaf.store.engine import read_connection, write_transaction
from aaaf.store.records import WebhookDelivery
from aaaf.store.repositories.webhook_deliveries import deliveries_query, delivery_from_row

INTERRUPTED_ERROR = "interrupted: the sender stopped before this attempt's outcome was recorded"


@dataclass(frozen=True)
class ClaimedDelivery:
    """A delivery this sender holds until ``lease_until``, with what sending it needs."""

    delivery: WebhookDelivery
    url: str
    secret_sealed: str
    max_retries: int
    retry_backoff_seconds: float
    lease_until: datetime


def claim_due(engine: Engine, *, now: datetime, limit: int, lease: timedelta) -> list[ClaimedDelivery]:
    """Up to ``limit`` pending deliveries due at ``now`` to active webhooks, oldest due first,
    each claimed for ``lease``."""
    d, w = t.webhook_deliveries, t.webhooks
    query = (
        deliveries_query()
        .add_columns(w.c.url, w.c.secret_sealed, w.c.max_retries, w.c.retry_backoff_seconds)
        .join(w, w.c.id == d.c.webhook_id)
        .where(d.c.status == "pending", d.c.next_attempt_at <= now, w.c.active.is_(True))
        .order_by(d.c.next_attempt_at, d.c.id)
        .limit(limit)
    )
    with read_connection(engine) as connection:
        rows = connection.execute(query).all()
    if not rows:
        return []
    lease_until = now + lease
    claimed: list[ClaimedDelivery] = []
    with write_transaction(engine) as connection:
        for row in rows:
            begun = {
                "attempt": int(row.attempt_count) + 1,
                "at": iso(now),
                "status_code": None,
                "duration_ms": None,
                "error": INTERRUPTED_ERROR,
                "interrupted": True,
            }
            won = connection.execute(
                update(d)
                .where(d.c.id == row.id, d.c.status == "pending", d.c.next_attempt_at == row.next_attempt_at)
                .values(
                    next_attempt_at=lease_until,
                    attempts=[*(row.attempts or []), begun],
                    attempt_count=int(row.attempt_count) + 1,
                )
            ).rowcount
            if won == 1:
                claimed.append(
                    ClaimedDelivery(
                        delivery=delivery_from_row(row),
                        url=row.url,
                        secret_sealed=row.secret_sealed,
                        max_retries=int(row.max_retries),
                        retry_backoff_seconds=float(row.retry_backoff_seconds),
                        lease_until=lease_until,
                    )
                )
    return claimed


def record_attempt(
    engine: Engine,
    claimed: ClaimedDelivery,
    *,
    at: datetime,
    attempt: Mapping[str, Any],
    status: str,
    next_attempt_at: datetime | None,
    disable_reason: str | None = None,
) -> bool:
    """Record ``attempt``'s outcome in the delivery's log (in place of the ``interrupted``
    entry its claim wrote) and set its status and next attempt; with ``disable_reason`` the
    webhook is turned off too (a 410 answer).  False when the lease was lost meanwhile
    (another sender owns the delivery now): nothing is written."""
    d = t.webhook_deliveries
    delivery = claimed.delivery
    entry = dict(attempt)
    with write_transaction(engine) as connection:
        current = connection.execute(
            select(d.c.attempts, d.c.attempt_count, d.c.next_attempt_at, d.c.status).where(
                d.c.id == delivery.id
            )
        ).one_or_none()
        if current is None or current.status != "pending" or current.next_attempt_at != claimed.lease_until:
            return False
        log = list(current.attempts or [])
        if log and log[-1].get("interrupted") and log[-1].get("attempt") == entry.get("attempt"):
            log.pop()  # the claim's entry: this is its outcome
        connection.execute(
            update(d)
            .where(d.c.id == delivery.id)
            .values(
                attempts=[*log, entry],
                attempt_count=max(int(current.attempt_count), int(entry.get("attempt") or 0)),
                status=status,
                next_attempt_at=next_attempt_at,
                last_attempt_at=at,
                last_status_code=entry.get("status_code"),
                last_error=entry.get("error"),
                updated_at=at,
            )
        )
        if disable_reason is not None:
            connection.execute(
                update(t.webhooks)
                .where(t.webhooks.c.id == delivery.webhook_id)
                .values(active=False, disabled_reason=disable_reason, updated_at=at)
            )
    return True


def pending_count(engine: Engine, *, webhook_id: uuid.UUID | None = None) -> int:
    """Deliveries still pending (all, or one webhook's)."""
    d = t.webhook_deliveries
    query = select(d.c.id).where(d.c.status == "pending")
    if webhook_id is not None:
        query = query.where(d.c.webhook_id == webhook_id)
    with read_connection(engine) as connection:
        return len(connection.execute(query).all())
