"""The installation-wide side of the webhook outbox (issue 14 §5): claim due deliveries of
every organization and record each attempt.

Several processes (``aaaf serve``'s background loop, ``aaaf worker``s on other machines) may
send at once: a batch of deliveries is *claimed* by moving their ``next_attempt_at`` forward
by a lease in one UPDATE of the due rows (on PostgreSQL locked as they are picked, a row
another sender is claiming skipped; on SQLite the write transaction serialises the senders),
so exactly one sender gets each; a sender that dies mid-send leaves the delivery due again
when the lease runs out.

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

from sqlalchemy import ColumnElement, Connection, Engine, bindparam, func, null, select, true, update

from aaaf.scoring.results import iso
from aaaf.store import tables as t
from aaaf.store.engine import read_connection, write_transaction
from aaaf.store.records import WebhookDelivery
from aaaf.store.repositories.webhook_deliveries import delivery_from_row

INTERRUPTED_ERROR = "interrupted: the sender stopped before this attempt's outcome was recorded"


@dataclass(frozen=True)
class ClaimedDelivery:
    """A delivery this sender holds until ``lease_until``, with what sending it needs; the
    delivery as its claim left it (``attempt_count`` counts this attempt, whose
    ``interrupted`` entry ends ``attempts``)."""

    delivery: WebhookDelivery
    url: str
    secret_sealed: str
    max_retries: int
    retry_backoff_seconds: float
    lease_until: datetime


def _with_claim_entry(dialect: str, at: datetime) -> ColumnElement[Any]:
    """The delivery's log with its claim's ``interrupted`` entry appended, in SQL (the entry's
    attempt is the count before the claim, plus one): each element kept as written."""
    d = t.webhook_deliveries
    fields: list[Any] = [
        "attempt", d.c.attempt_count + 1,
        "at", iso(at),
        "status_code", null(),
        "duration_ms", null(),
        "error", INTERRUPTED_ERROR,
    ]  # fmt: skip
    if dialect == "postgresql":  # ``json`` has no append: the elements again, the entry after them
        entry = func.json_build_object(*fields, "interrupted", true())
        listed = (
            func.json_array_elements(d.c.attempts)
            .table_valued("value", with_ordinality="n")
            .render_derived(name="a")
        )
        in_order = select(listed.c.value).order_by(listed.c.n).correlate(d)  # order kept by ORDINALITY
        elements = func.array(in_order.scalar_subquery())
        return func.array_to_json(func.array_append(elements, entry))
    return func.json_insert(d.c.attempts, "$[#]", func.json_object(*fields, "interrupted", func.json("true")))


def claim_due(engine: Engine, *, now: datetime, limit: int, lease: timedelta) -> list[ClaimedDelivery]:
    """Up to ``limit`` pending deliveries due at ``now`` to active webhooks, oldest due first,
    each claimed for ``lease``: one UPDATE … RETURNING moves their next attempt to the lease's
    end, appends each one's ``interrupted`` entry and returns what sending them needs, in one
    transaction (``BEGIN IMMEDIATE`` on SQLite, which serialises the senders; on
    PostgreSQL the due rows are locked as they are picked and a row another sender is
    claiming is skipped)."""
    d, w, e = t.webhook_deliveries, t.webhooks, t.webhook_events
    lease_until = now + lease
    due = (
        select(d.c.id)
        .join(w, w.c.id == d.c.webhook_id)
        .where(d.c.status == "pending", d.c.next_attempt_at <= now, w.c.active.is_(True))
        .order_by(d.c.next_attempt_at, d.c.id)
        .limit(limit)
        .with_for_update(of=d, skip_locked=True)
    )

    def of_webhook(column: Any) -> Any:
        return select(column).where(w.c.id == d.c.webhook_id).correlate(d).scalar_subquery()

    def of_event(column: Any) -> Any:
        return select(column).where(e.c.id == d.c.event_id).correlate(d).scalar_subquery()

    with write_transaction(engine) as connection:
        # what sending needs comes back from the UPDATE itself (its webhook's and event's
        # columns as subqueries: SQLite's RETURNING sees only the updated table)
        claim = (
            update(d)
            .where(d.c.id.in_(due.scalar_subquery()), d.c.status == "pending")
            .values(
                next_attempt_at=lease_until,
                attempts=_with_claim_entry(connection.dialect.name, now),
                attempt_count=d.c.attempt_count + 1,
            )
            .returning(
                *d.c,
                of_event(e.c.type).label("type"),
                of_event(e.c.payload).label("payload"),
                of_webhook(w.c.url).label("url"),
                of_webhook(w.c.secret_sealed).label("secret_sealed"),
                of_webhook(w.c.max_retries).label("max_retries"),
                of_webhook(w.c.retry_backoff_seconds).label("retry_backoff_seconds"),
            )
        )
        rows = sorted(connection.execute(claim).all(), key=lambda row: row.id)
    claimed = [
        ClaimedDelivery(
            delivery=delivery_from_row(row),
            url=row.url,
            secret_sealed=row.secret_sealed,
            max_retries=int(row.max_retries),
            retry_backoff_seconds=float(row.retry_backoff_seconds),
            lease_until=lease_until,
        )
        for row in rows
    ]
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
    released: bool = False  # not attempted: the claim undone, the delivery due at ``next_attempt_at``


def released(claimed: ClaimedDelivery, *, at: datetime, due: datetime) -> AttemptRecord:
    """A claimed delivery given back unattempted at ``at`` (its lease could no longer cover an
    attempt): recording it drops its claim's ``interrupted`` entry and count and makes it due
    at ``due``."""
    return AttemptRecord(claimed, at=at, attempt={}, status="pending", next_attempt_at=due, released=True)


def record_attempts(engine: Engine, records: Sequence[AttemptRecord]) -> list[bool]:
    """Record each attempt's outcome in its delivery's log (in place of the ``interrupted``
    entry its claim wrote) with the delivery's status and next attempt, all in one transaction;
    per record, False when the lease was lost meanwhile (another sender owns the delivery now):
    nothing of that one is written.  A :func:`released` record undoes its claim instead.

    While its lease holds (still pending, due at the lease's end: only its claim set that), a
    delivery's row is as its claim returned it, so the new values come from the claim and one
    UPDATE of the held rows writes them all; only when it finds fewer (a lease lost) is it
    undone and the rows read first, to write those still held."""
    # the read only on a lost lease: a statement less a batch (0.07 -> 0.05 a delivery), its
    # recording 340 k -> 282 k instructions a delivery, 3.58 -> 3.54 M in all (count_webhook_work.py)
    if not records:
        return []
    try:
        with write_transaction(engine) as connection:
            _write(connection, records)
        return [True] * len(records)
    except _LeaseLost:
        pass
    d = t.webhook_deliveries
    with write_transaction(engine) as connection:
        current = {
            row.id: row
            for row in connection.execute(
                select(d.c.id, d.c.status, d.c.next_attempt_at)
                .where(d.c.id.in_([record.claimed.delivery.id for record in records]))
                .order_by(d.c.id)
                .with_for_update()  # PostgreSQL: no claim slips in between the check and the write
            )
        }
        written = [_held(current.get(record.claimed.delivery.id), record) for record in records]
        _write(connection, [record for record, held in zip(records, written, strict=True) if held])
    return written


class _LeaseLost(Exception):
    """Fewer rows held than records: the batch's write is undone (see :func:`record_attempts`)."""


def _held(row: Any, record: AttemptRecord) -> bool:
    return row is not None and row.status == "pending" and row.next_attempt_at == record.claimed.lease_until


def _write(connection: Connection, records: Sequence[AttemptRecord]) -> None:
    """One UPDATE of every record's delivery while its lease holds (and each 410's webhook
    turned off); :class:`_LeaseLost` when it found fewer."""
    if not records:
        return
    d = t.webhook_deliveries
    result = connection.execute(
        update(d)
        .where(
            d.c.id == bindparam("row_id"),
            d.c.status == "pending",
            d.c.next_attempt_at == bindparam("lease_until", type_=d.c.next_attempt_at.type),
        )
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
        [_release_row(record) if record.released else _outcome_row(record) for record in records],
    )
    if result.rowcount != len(records):
        raise _LeaseLost
    for record in records:
        if record.disable_reason is not None:
            connection.execute(
                update(t.webhooks)
                .where(t.webhooks.c.id == record.claimed.delivery.webhook_id)
                .values(active=False, disabled_reason=record.disable_reason, updated_at=record.at)
            )


def _outcome_row(record: AttemptRecord) -> dict[str, Any]:
    """The values recording an attempt's outcome in place of its claim's ``interrupted`` entry."""
    delivery = record.claimed.delivery
    entry = dict(record.attempt)
    log = list(delivery.attempts)
    if log and log[-1].get("interrupted") and log[-1].get("attempt") == entry.get("attempt"):
        log.pop()  # the claim's entry: this is its outcome
    return {
        "row_id": delivery.id,
        "lease_until": record.claimed.lease_until,
        "new_attempts": [*log, entry],
        "new_attempt_count": max(delivery.attempt_count, int(entry.get("attempt") or 0)),
        "new_status": record.status,
        "new_next_attempt_at": record.next_attempt_at,
        "new_last_attempt_at": record.at,
        "new_last_status_code": entry.get("status_code"),
        "new_last_error": entry.get("error"),
        "new_updated_at": record.at,
    }


def _release_row(record: AttemptRecord) -> dict[str, Any]:
    """The values undoing a claim: its ``interrupted`` entry and count gone, due again."""
    delivery = record.claimed.delivery
    log = list(delivery.attempts)
    count = delivery.attempt_count
    if log and log[-1].get("interrupted") and log[-1].get("attempt") == count:
        log.pop()
    return {
        "row_id": delivery.id,
        "lease_until": record.claimed.lease_until,
        "new_attempts": log,
        "new_attempt_count": max(count - 1, 0),
        "new_status": "pending",
        "new_next_attempt_at": record.next_attempt_at,
        "new_last_attempt_at": delivery.last_attempt_at,
        "new_last_status_code": delivery.last_status_code,
        "new_last_error": delivery.last_error,
        "new_updated_at": record.at,
    }


def pending_count(engine: Engine, *, webhook_id: uuid.UUID | None = None) -> int:
    """Deliveries still pending (all, or one webhook's)."""
    d = t.webhook_deliveries
    query = select(d.c.id).where(d.c.status == "pending")
    if webhook_id is not None:
        query = query.where(d.c.webhook_id == webhook_id)
    with read_connection(engine) as connection:
        return len(connection.execute(query).all())
