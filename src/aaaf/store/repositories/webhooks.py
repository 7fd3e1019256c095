"""Webhook subscriptions (document 004 §6.3).

Part of the organization's repositories (:class:`aaaf.store.org_store.OrgStore`); it extends
:class:`TrustHistoryRepository` so that its methods may use every earlier concept's.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Row, delete, insert, select

from aaaf.errors import AAAFError
from aaaf.store import tables as t
from aaaf.store.records import (
    Webhook,
)
from aaaf.store.repositories.base import as_uuid, not_found
from aaaf.store.repositories.trust_history import TrustHistoryRepository


def _webhook_from_row(row: Row[Any]) -> Webhook:
    return Webhook(
        id=row.id,
        organization_id=row.organization_id,
        url=row.url,
        event_types=tuple(row.event_types),
        secret=row.secret,
        secret_hash=row.secret_hash,
        active=bool(row.active),
        created_at=row.created_at,
    )


class WebhookRepository(TrustHistoryRepository):
    """Webhook subscriptions (document 004 §6.3)."""

    def create_webhook(self, url: str, event_types: Sequence[str], *, secret: str) -> Webhook:
        """Subscribe ``url`` to ``event_types`` (document 004 §6.3), signed with ``secret``."""
        if not url or not event_types or not secret:
            raise AAAFError(
                "INVALID_REQUEST",
                "A webhook needs a URL, at least one event type and a signing secret.",
                {"fields": ["url", "event_types", "secret"]},
            )
        webhook_id = uuid.uuid4()
        with self._writing() as connection:
            connection.execute(
                insert(t.webhooks).values(
                    id=webhook_id,
                    organization_id=self.organization_id,
                    url=url,
                    event_types=list(event_types),
                    secret=secret,
                    secret_hash=hashlib.sha256(secret.encode()).hexdigest(),
                    active=True,
                    created_at=self._clock(),
                )
            )
        return self.get_webhook(webhook_id)

    def webhooks(self, *, event_type: str | None = None, active_only: bool = False) -> list[Webhook]:
        """Subscriptions, oldest first; ``event_type`` keeps those subscribed to it."""
        query = select(t.webhooks).where(t.webhooks.c.organization_id == self.organization_id)
        if active_only:
            query = query.where(t.webhooks.c.active.is_(True))
        with self._reading() as connection:
            rows = connection.execute(query.order_by(t.webhooks.c.created_at, t.webhooks.c.id)).all()
        found = [_webhook_from_row(row) for row in rows]
        if event_type is not None:
            found = [hook for hook in found if event_type in hook.event_types]
        return found

    def get_webhook(self, webhook_id: uuid.UUID | str) -> Webhook:
        wanted = as_uuid(webhook_id)
        row = None
        if wanted is not None:
            with self._reading() as connection:
                row = connection.execute(
                    select(t.webhooks).where(
                        t.webhooks.c.id == wanted, t.webhooks.c.organization_id == self.organization_id
                    )
                ).one_or_none()
        if row is None:
            raise not_found("Webhook", webhook_id)
        return _webhook_from_row(row)

    def delete_webhook(self, webhook_id: uuid.UUID | str) -> None:
        wanted = as_uuid(webhook_id)
        with self._writing() as connection:
            result = connection.execute(
                delete(t.webhooks).where(
                    t.webhooks.c.id == wanted, t.webhooks.c.organization_id == self.organization_id
                )
            )
        if wanted is None or result.rowcount == 0:
            raise not_found("Webhook", webhook_id)
