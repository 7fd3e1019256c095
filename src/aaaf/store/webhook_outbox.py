"""The installation-wide side of the webhook outbox (issue 14 §5): claim due deliveries of
every organization and record each attempt.

Several processes (``aaaf serve``'s background loop, ``aaaf worker``s on other machines) may
send at once: a delivery is *claimed* by moving its ``next_attempt_at`` forward by a lease
with a conditional UPDATE (it matches only while the row still holds the value that was
read), so exactly one sender gets it; a sender that dies mid-send leaves the delivery due
again when the lease runs out.  Works the same on SQLite and PostgreSQL.

Every attempt is in the delivery's log, even one cut off by a crash: the claim itself appends
the attempt, ``interrupted`` (and counts it), in the claiming transaction, committed before
the request is sent; recording the outcome replaces that entry (the outcomes that finished
meanwhile are recorded together, in one transaction).  A sender that dies mid-attempt leaves it there, so the log
shows every request the endpoint may have seen.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Engine, bindparam, select, update

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


@dataclass(frozen=True)
class AttemptRecord:
    """One attempt's outcome to record: its log entry, the delivery's new status and next
    attempt, and with ``disable_reason`` the webhook turned off too (a 410 answer)."""

    claimed: ClaimedDelivery
    at: datetime
    attempt: Mapping[str, Any]
    status: str
    next_attempt_at: datetime | None
    disable_reason: str | None = None


def record_attempts(engine: Engine, records: Sequence[AttemptRecord]) -> list[bool]:
    """Record each attempt's outcome in its delivery's log (in place of the ``interrupted``
    entry its claim wrote) with the delivery's status and next attempt, all in one transaction
    (a statement to read the logs and one to write them, whatever their number); per record,
    False when the lease was lost meanwhile (another sender owns the delivery now): nothing of
    that one is written."""
    if not records:
        return []
    d = t.webhook_deliveries
    written: list[bool] = []
    rows: list[dict[str, Any]] = []
    with write_transaction(engine) as connection:
        current = {
            row.id: row
            for row in connection.execute(
                select(d.c.id, d.c.attempts, d.c.attempt_count, d.c.next_attempt_at, d.c.status)
                .where(d.c.id.in_([record.claimed.delivery.id for record in records]))
                .order_by(d.c.id)
                .with_for_update()  # PostgreSQL: no claim slips in between the check and the write
            )
        }
        for record in records:
            row = current.get(record.claimed.delivery.id)
            if row is None or row.status != "pending" or row.next_attempt_at != record.claimed.lease_until:
                written.append(False)
                continue
            written.append(True)
            entry = dict(record.attempt)
            log = list(row.attempts or [])
            if log and log[-1].get("interrupted") and log[-1].get("attempt") == entry.get("attempt"):
                log.pop()  # the claim's entry: this is its outcome
            rows.append(
                {
                    "row_id": row.id,
                    "new_attempts": [*log, entry],
                    "new_attempt_count": max(int(row.attempt_count), int(entry.get("attempt") or 0)),
                    "new_status": record.status,
                    "new_next_attempt_at": record.next_attempt_at,
                    "new_last_attempt_at": record.at,
                    "new_last_status_code": entry.get("status_code"),
                    "new_last_error": entry.get("error"),
                    "new_updated_at": record.at,
                }
            )
        if rows:
            connection.execute(
                update(d)
                .where(d.c.id == bindparam("row_id"))
                .values(
                    attempts=bindparam("new_attempts", type_=d.c.attempts.type),
                    attempt_count=bindparam("new_attempt_count"),
                    status=bindparam("new_status"),
                    next_attempt_at=bindparam("new_next_attempt_at", type_=d.c.next_attempt_at.type),
                    last_attempt_at=bindparam("new_last_attempt_at", type_=d.c.last_attempt_at.type),
                    last_status_code=bindparam("new_last_status_code"),
                    last_error=bindparam("new_last_error"),
                    updated_at=bindparam("new_updated_at", type_=d.c.updated_at.type),
                ),
                rows,
            )
        for record, done in zip(records, written, strict=True):
            if done and record.disable_reason is not None:
                connection.execute(
                    update(t.webhooks)
                    .where(t.webhooks.c.id == record.claimed.delivery.webhook_id)
                    .values(active=False, disabled_reason=record.disable_reason, updated_at=record.at)
                )
    return written


def pending_count(engine: Engine, *, webhook_id: uuid.UUID | None = None) -> int:
    """Deliveries still pending (all, or one webhook's)."""
    d = t.webhook_deliveries
    query = select(d.c.id).where(d.c.status == "pending")
    if webhook_id is not None:
        query = query.where(d.c.webhook_id == webhook_id)
    with read_connection(engine) as connection:
        return len(connection.execute(query).all())
