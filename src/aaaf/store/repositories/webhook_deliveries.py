"""The webhook outbox of one organization (issue 14 §5; document 004 §6.3).

:meth:`WebhookDeliveryRepository.add_webhook_event` writes an event and one pending delivery
per active webhook subscribed to its type, in the caller's unit of work: the event is sent
if and only if the work that caused it commits.  A ``dedupe_key`` (unique per organization)
makes an event happen at most once, which is what keeps the periodic duties idempotent.
The delivery log (attempts, status codes, timings, next attempt) and redelivery live here;
sending is :mod:`aaaf.services.webhook_delivery` over :mod:`aaaf.store.webhook_outbox`.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Row, Select, exists, insert, select, update
from sqlalchemy.exc import IntegrityError

from aaaf.store import tables as t
from aaaf.store.records import WebhookDelivery
from aaaf.store.repositories.base import OrgScoped, as_uuid, not_found
from aaaf.store.row_mapping import record_from_row


def delivery_from_row(row: Row[Any]) -> WebhookDelivery:
    """A delivery from a row of ``webhook_deliveries`` joined with its event's type and payload."""
    return record_from_row(WebhookDelivery, row, event_type=row.type)


def deliveries_query() -> Select[Any]:
    """Deliveries with their event's type and payload."""
    d, e = t.webhook_deliveries, t.webhook_events
    return select(d, e.c.type, e.c.payload).join(e, e.c.id == d.c.event_id)


def write_webhook_events(
    connection: Connection,
    organization_id: uuid.UUID,
    events: Sequence[tuple[str, str]],
    *,
    at: datetime,
    dedupe_key: str | None = None,
) -> list[uuid.UUID]:
    """Write ``events`` (type, exact JSON body) and a pending delivery of each, due at ``at``,
    to every active webhook of the organization subscribed to its type, on ``connection``
    (the caller's transaction: one read of the webhooks and one insert per table whatever
    the number of events); the ids of the events written.  An event nobody subscribes to is
    not written, unless it has a ``dedupe_key`` to remember (one event only)."""
    if not events:
        return []
    hooks = connection.execute(
        select(t.webhooks.c.id, t.webhooks.c.event_types).where(
            t.webhooks.c.organization_id == organization_id,
            t.webhooks.c.active.is_(True),
        )
    ).all()
    event_rows: list[dict[str, Any]] = []
    delivery_rows: list[dict[str, Any]] = []
    for event_type, payload in events:
        subscribed = [hook.id for hook in hooks if event_type in hook.event_types]
        if not subscribed and dedupe_key is None:
            continue
        event_id = uuid.uuid4()
        event_rows.append(
            {
                "id": event_id,
                "organization_id": organization_id,
                "type": event_type,
                "dedupe_key": dedupe_key,
                "payload": payload,
                "created_at": at,
            }
        )
        delivery_rows.extend(
            {
                "id": uuid.uuid4(),
                "organization_id": organization_id,
                "webhook_id": webhook_id,
                "event_id": event_id,
                "status": "pending",
                "attempt_count": 0,
                "next_attempt_at": at,
                "attempts": [],
                "created_at": at,
                "updated_at": at,
            }
            for webhook_id in subscribed
        )
    if event_rows:
        connection.execute(insert(t.webhook_events), event_rows)
    if delivery_rows:
        connection.execute(insert(t.webhook_deliveries), delivery_rows)
    return [row["id"] for row in event_rows]


class WebhookDeliveryRepository(OrgScoped):
    """The organization's webhook events and their deliveries."""

    def has_webhook_event(self, dedupe_key: str) -> bool:
        """Whether an event with this ``dedupe_key`` was emitted already."""
        with self._reading() as connection:
            return bool(
                connection.execute(
                    select(
                        exists().where(
                            t.webhook_events.c.organization_id == self.organization_id,
                            t.webhook_events.c.dedupe_key == dedupe_key,
                        )
                    )
                ).scalar()
            )

    def add_webhook_event(
        self, event_type: str, payload: str, *, at: datetime, dedupe_key: str | None = None
    ) -> uuid.UUID | None:
        """Record an event (``payload``: the exact JSON body) and a pending delivery, due at
        ``at``, to every active webhook subscribed to ``event_type``.  None (and nothing
        written) when an event with ``dedupe_key`` exists already, or when nobody subscribes
        and there is no ``dedupe_key`` to remember."""
        if dedupe_key is not None and self.has_webhook_event(dedupe_key):
            return None
        try:
            with self._writing() as connection:
                written = write_webhook_events(
                    connection, self.organization_id, [(event_type, payload)], at=at, dedupe_key=dedupe_key
                )
                return written[0] if written else None
        except IntegrityError:
            if dedupe_key is not None and self.has_webhook_event(dedupe_key):
                return None  # a concurrent duty emitted it first
            raise

    def webhook_deliveries(self, webhook_id: uuid.UUID | str) -> list[WebhookDelivery]:
        """A webhook's delivery log, newest first."""
        wanted = as_uuid(webhook_id)
        d = t.webhook_deliveries
        with self._reading() as connection:
            rows = connection.execute(
                deliveries_query()
                .where(d.c.organization_id == self.organization_id, d.c.webhook_id == wanted)
                .order_by(d.c.created_at.desc(), d.c.id.desc())
            ).all()
        return [delivery_from_row(row) for row in rows]

    def get_webhook_delivery(
        self, webhook_id: uuid.UUID | str, delivery_id: uuid.UUID | str
    ) -> WebhookDelivery:
        d = t.webhook_deliveries
        wanted, hook = as_uuid(delivery_id), as_uuid(webhook_id)
        row = None
        if wanted is not None and hook is not None:
            with self._reading() as connection:
                row = connection.execute(
                    deliveries_query().where(
                        d.c.organization_id == self.organization_id,
                        d.c.webhook_id == hook,
                        d.c.id == wanted,
                    )
                ).one_or_none()
        if row is None:
            raise not_found("Delivery", delivery_id)
        return delivery_from_row(row)

    def schedule_redelivery(
        self, webhook_id: uuid.UUID | str, delivery_id: uuid.UUID | str, *, at: datetime
    ) -> WebhookDelivery:
        """Send a delivery again (same ``webhook-id``) from ``at``, with a fresh retry budget;
        its earlier attempts stay in the log."""
        delivery = self.get_webhook_delivery(webhook_id, delivery_id)
        with self._writing() as connection:
            connection.execute(
                update(t.webhook_deliveries)
                .where(
                    t.webhook_deliveries.c.id == delivery.id,
                    t.webhook_deliveries.c.organization_id == self.organization_id,
                )
                .values(status="pending", attempt_count=0, next_attempt_at=at, updated_at=at)
            )
        return self.get_webhook_delivery(webhook_id, delivery.id)
