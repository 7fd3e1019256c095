"""Webhook subscriptions (document 004 §6.3) with their retry policies (issue 14 §5).

Part of the organization's repositories (:class:`aaaf.store.org_store.OrgStore`); it extends
:class:`TrustHistoryRepository` so that its methods may use every earlier concept's.  The
signing secret arrives sealed (SCORING.md §7 "Webhook secrets"): this layer never sees it in
clear.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Row, delete, insert, select, update

from aaaf.errors import AAAFError
from aaaf.store import tables as t
from aaaf.store.records import Webhook
from aaaf.store.repositories.base import as_uuid, not_found, now_utc
from aaaf.store.repositories.trust_history import TrustHistoryRepository
from aaaf.store.row_mapping import record_from_row

DEFAULT_MAX_RETRIES = 3
DEFAULT_RETRY_BACKOFF_SECONDS = 60.0
_UNSET: Any = object()


def _webhook_from_row(row: Row[Any]) -> Webhook:
    return record_from_row(Webhook, row)


class WebhookRepository(TrustHistoryRepository):
    """Webhook subscriptions (document 004 §6.3)."""

    def create_webhook(
        self,
        url: str,
        event_types: Sequence[str],
        *,
        secret_sealed: str,
        max_retries: int = DEFAULT_MAX_RETRIES,
        retry_backoff_seconds: float = DEFAULT_RETRY_BACKOFF_SECONDS,
        now: datetime | None = None,
    ) -> Webhook:
        """Subscribe ``url`` to ``event_types`` (document 004 §6.3), signed with the secret
        sealed in ``secret_sealed``."""
        if not url or not event_types or not secret_sealed:
            raise AAAFError(
                "INVALID_REQUEST",
                "A webhook needs a URL, at least one event type and a signing secret.",
                {"fields": ["url", "event_types", "secret"]},
            )
        webhook_id = uuid.uuid4()
        at = now or now_utc()
        with self._writing() as connection:
            connection.execute(
                insert(t.webhooks).values(
                    id=webhook_id,
                    organization_id=self.organization_id,
                    url=url,
                    event_types=list(dict.fromkeys(event_types)),
                    secret_sealed=secret_sealed,
                    active=True,
                    max_retries=max_retries,
                    retry_backoff_seconds=retry_backoff_seconds,
                    created_at=at,
                    updated_at=at,
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

    def update_webhook(
        self,
        webhook_id: uuid.UUID | str,
        *,
        url: str | None = None,
        event_types: Sequence[str] | None = None,
        active: bool | None = None,
        max_retries: int | None = None,
        retry_backoff_seconds: float | None = None,
        disabled_reason: str | None = _UNSET,
        now: datetime | None = None,
    ) -> Webhook:
        """Change what is given (None leaves a field as it is); ``NOT_FOUND`` for another
        organization's webhook.  Re-activating clears ``disabled_reason`` unless one is given."""
        current = self.get_webhook(webhook_id)
        values: dict[str, object] = {"updated_at": now or now_utc()}
        if url is not None:
            values["url"] = url
        if event_types is not None:
            values["event_types"] = list(dict.fromkeys(event_types))
        if active is not None:
            values["active"] = active
            if active:
                values["disabled_reason"] = None
        if max_retries is not None:
            values["max_retries"] = max_retries
        if retry_backoff_seconds is not None:
            values["retry_backoff_seconds"] = retry_backoff_seconds
        if disabled_reason is not _UNSET:
            values["disabled_reason"] = disabled_reason
        with self._writing() as connection:
            connection.execute(
                update(t.webhooks)
                .where(t.webhooks.c.id == current.id, t.webhooks.c.organization_id == self.organization_id)
                .values(**values)
            )
        return self.get_webhook(current.id)

    def delete_webhook(self, webhook_id: uuid.UUID | str) -> None:
        """Delete a webhook and its delivery log (the events stay: other webhooks share them)."""
        wanted = as_uuid(webhook_id)
        with self._writing() as connection:
            connection.execute(
                delete(t.webhook_deliveries).where(
                    t.webhook_deliveries.c.webhook_id == wanted,
                    t.webhook_deliveries.c.organization_id == self.organization_id,
                )
            )
            result = connection.execute(
                delete(t.webhooks).where(
                    t.webhooks.c.id == wanted, t.webhooks.c.organization_id == self.organization_id
                )
            )
        if wanted is None or result.rowcount == 0:
            raise not_found("Webhook", webhook_id)
