"""Webhooks: subscriptions and the events they receive (document 004 §6.3; issue 14 §5).

* **Subscriptions.** :func:`create_webhook` checks the target (:mod:`aaaf.services.outbound_url`),
  makes the signing secret — ``whsec_`` + base64 of 32 random bytes, returned once and stored
  sealed with ``AAAF_SECRET_KEY`` (SCORING.md §7 "Webhook secrets") — and records the retry
  policy (3 retries, exponential backoff from 60 s, by default).
* **Emission** (an outbox).  :func:`emit` writes the event and one pending delivery per active
  subscribed webhook through the caller's :class:`~aaaf.store.OrgStore`: called inside a unit of
  work, the event exists if and only if that work commits.  The payload is document 004 §6.3's
  ``{"event", "timestamp", "data"}``; the ``data`` of each of the eight types is built here.
  Sending is :mod:`aaaf.services.webhook_delivery`.
"""

from __future__ import annotations

import base64
import json
import os
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from aaaf.errors import AAAFError
from aaaf.models.webhook import DeliveryOut, WebhookCreated, WebhookOut
from aaaf.secret_box import SecretBox
from aaaf.services.outbound_url import check_outbound_url
from aaaf.settings import Settings, get_settings
from aaaf.store.records import Webhook, WebhookDelivery
from aaaf.store.repositories.webhooks import DEFAULT_MAX_RETRIES, DEFAULT_RETRY_BACKOFF_SECONDS
from aaaf.store.tables import WEBHOOK_EVENT_TYPES

if TYPE_CHECKING:
    from aaaf.store.org_store import OrgStore
    from aaaf.store.records import Appeal, Assessment, Badge

__all__ = [
    "DEFAULT_MAX_RETRIES",
    "DEFAULT_RETRY_BACKOFF_SECONDS",
    "MAX_RETRIES_LIMIT",
    "SECRET_PURPOSE",
    "WEBHOOK_EVENT_TYPES",
    "CreatedWebhook",
    "create_webhook",
    "delete_webhook",
    "deliveries",
    "delivery_out",
    "emit",
    "get_webhook",
    "list_webhooks",
    "new_signing_secret",
    "payload_json",
    "redeliver",
    "shown_delivery",
    "update_webhook",
    "webhook_out",
]

SECRET_PURPOSE = "webhook secret"
SECRET_PREFIX = "whsec_"
MAX_RETRIES_LIMIT = 10
MAX_BACKOFF_SECONDS = 86_400.0


@dataclass(frozen=True)
class CreatedWebhook:
    """A new subscription and its signing secret (shown once)."""

    webhook: Webhook
    secret: str

    def to_model(self) -> WebhookCreated:
        return WebhookCreated(**self.webhook.to_dict(), secret=self.secret)


def new_signing_secret() -> str:
    """A Standard Webhooks secret: ``whsec_`` + base64 of 32 random bytes (SCORING.md §7)."""
    return SECRET_PREFIX + base64.b64encode(os.urandom(32)).decode("ascii")


def open_secret(box: SecretBox, webhook_secret_sealed: str) -> str:
    """The signing secret of a webhook (its sealed form opened)."""
    return box.open(webhook_secret_sealed, purpose=SECRET_PURPOSE).decode("ascii")


def check_event_types(event_types: Sequence[str]) -> list[str]:
    """The types, deduplicated; 400 ``INVALID_EVENT_TYPE`` naming any not of document 004 §6.3."""
    if not event_types:
        raise AAAFError(
            "INVALID_REQUEST",
            "event_types: subscribe to at least one event type.",
            {"field": "event_types", "allowed": list(WEBHOOK_EVENT_TYPES)},
        )
    unknown = [name for name in event_types if name not in WEBHOOK_EVENT_TYPES]
    if unknown:
        raise AAAFError(
            "INVALID_EVENT_TYPE",
            f"Unrecognized webhook event type(s): {', '.join(map(repr, unknown))}.",
            {"field": "event_types", "unknown": unknown, "allowed": list(WEBHOOK_EVENT_TYPES)},
        )
    return list(dict.fromkeys(event_types))


def _check_policy(max_retries: int | None, retry_backoff_seconds: float | None) -> None:
    if max_retries is not None and not 0 <= max_retries <= MAX_RETRIES_LIMIT:
        raise AAAFError(
            "INVALID_REQUEST",
            f"max_retries must be between 0 and {MAX_RETRIES_LIMIT}.",
            {"field": "max_retries"},
        )
    if retry_backoff_seconds is not None and not 0 < retry_backoff_seconds <= MAX_BACKOFF_SECONDS:
        raise AAAFError(
            "INVALID_REQUEST",
            f"retry_backoff_seconds must be above 0 and at most {MAX_BACKOFF_SECONDS:g}.",
            {"field": "retry_backoff_seconds"},
        )


def create_webhook(
    org: OrgStore,
    box: SecretBox,
    url: str,
    event_types: Sequence[str],
    *,
    now: datetime,
    max_retries: int = DEFAULT_MAX_RETRIES,
    retry_backoff_seconds: float = DEFAULT_RETRY_BACKOFF_SECONDS,
    settings: Settings | None = None,
) -> CreatedWebhook:
    """Subscribe ``url`` to ``event_types``; the secret is returned here and never again."""
    settings = settings or get_settings()
    types = check_event_types(event_types)
    _check_policy(max_retries, retry_backoff_seconds)
    check_outbound_url(url, settings)
    secret = new_signing_secret()
    webhook = org.create_webhook(
        url,
        types,
        secret_sealed=box.seal(secret.encode("ascii"), purpose=SECRET_PURPOSE),
        max_retries=max_retries,
        retry_backoff_seconds=retry_backoff_seconds,
        now=now,
    )
    return CreatedWebhook(webhook, secret)


def webhook_out(webhook: Webhook) -> WebhookOut:
    """A webhook as the API shows it (never its secret)."""
    return WebhookOut(**webhook.to_dict())


def list_webhooks(org: OrgStore) -> list[Webhook]:
    """The organization's webhooks, oldest first (inactive ones included)."""
    return org.webhooks()


def get_webhook(org: OrgStore, webhook_id: str) -> WebhookOut:
    return webhook_out(org.get_webhook(webhook_id))


def delete_webhook(org: OrgStore, webhook_id: str) -> None:
    """Delete a webhook and its delivery log."""
    org.delete_webhook(webhook_id)


def deliveries(org: OrgStore, webhook_id: str) -> list[WebhookDelivery]:
    """The webhook's delivery log, oldest first (404 for another organization's webhook)."""
    return org.webhook_deliveries(org.get_webhook(webhook_id).id)


def delivery_out(delivery: WebhookDelivery, now: datetime) -> DeliveryOut:
    """A delivery as the log shows it at ``now`` (:func:`shown_delivery`)."""
    return DeliveryOut(**shown_delivery(delivery.to_dict(), now))


def update_webhook(
    org: OrgStore,
    webhook_id: str,
    *,
    now: datetime,
    url: str | None = None,
    event_types: Sequence[str] | None = None,
    active: bool | None = None,
    max_retries: int | None = None,
    retry_backoff_seconds: float | None = None,
    settings: Settings | None = None,
) -> WebhookOut:
    """Change a subscription (what is None stays); a new URL is checked like a new webhook's."""
    settings = settings or get_settings()
    org.get_webhook(webhook_id)  # another organization's is 404 before anything is checked
    types = check_event_types(event_types) if event_types is not None else None
    _check_policy(max_retries, retry_backoff_seconds)
    if url is not None:
        check_outbound_url(url, settings)
    webhook: Webhook = org.update_webhook(
        webhook_id,
        url=url,
        event_types=types,
        active=active,
        max_retries=max_retries,
        retry_backoff_seconds=retry_backoff_seconds,
        now=now,
    )
    return webhook_out(webhook)


def redeliver(org: OrgStore, webhook_id: str, delivery_id: str, *, now: datetime) -> DeliveryOut:
    """Send a delivery again (same ``webhook-id``), now, with a fresh retry budget; an
    inactive webhook must be re-activated first (409 ``CONFLICT``)."""
    webhook = org.get_webhook(webhook_id)
    org.get_webhook_delivery(webhook.id, delivery_id)
    if not webhook.active:
        raise AAAFError(
            "CONFLICT",
            f"Webhook {webhook.id} is inactive ({webhook.disabled_reason or 'turned off'});"
            " set active to true first.",
            {"webhook_id": str(webhook.id), "active": False},
        )
    delivery: WebhookDelivery = org.schedule_redelivery(webhook.id, delivery_id, at=now)
    return DeliveryOut(**delivery.to_dict())


# ---------------------------------------------------------------------------- emission
def _timestamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def payload_json(event_type: str, data: Mapping[str, object], *, now: datetime) -> str:
    """Document 004 §6.3's payload, as the exact JSON text every delivery sends and signs."""
    return json.dumps(
        {"event": event_type, "timestamp": _timestamp(now), "data": dict(data)},
        ensure_ascii=False,
        separators=(",", ":"),
    )


def emit(
    org: OrgStore,
    event_type: str,
    data: Mapping[str, object],
    *,
    now: datetime,
    dedupe_key: str | None = None,
) -> uuid.UUID | None:
    """Record a document 004 §6.3 event for the organization's subscribed webhooks, in the
    unit of work ``org`` is bound to (if any); its id, or None when nothing was recorded: an
    event already emitted under ``dedupe_key``, or one no active webhook subscribes to (kept
    only when it has a ``dedupe_key``, which must be remembered)."""
    if event_type not in WEBHOOK_EVENT_TYPES:
        raise ValueError(f"not a webhook event type: {event_type!r}")
    event_id: uuid.UUID | None = org.add_webhook_event(
        event_type, payload_json(event_type, data, now=now), at=now, dedupe_key=dedupe_key
    )
    return event_id


def _tier(assessment: Assessment, axis: str) -> str | None:
    value = getattr(assessment, f"{axis}_tier", None)
    return value if isinstance(value, str) else None


def assessment_data(assessment: Assessment) -> dict[str, object]:
    """``data`` of the ``assessment.*`` events (document 004 §6.3's example, plus the
    assessment's type, and its error when it failed)."""
    data: dict[str, object] = {
        "assessment_id": str(assessment.id),
        "agent_id": str(assessment.agent_id),
        "type": assessment.type,
        "status": assessment.status,
    }
    if assessment.status == "completed":
        data["performance_tier"] = _tier(assessment, "performance")
        data["capability_tier"] = _tier(assessment, "capability")
        data["review_state"] = assessment.review_state
    if assessment.status == "failed" and assessment.error:
        data["error"] = {key: assessment.error.get(key) for key in ("code", "message")}
    return data


def appeal_data(appeal: Appeal, assessment: Assessment) -> dict[str, object]:
    """``data`` of ``appeal.filed`` and ``appeal.resolved``."""
    data: dict[str, object] = {
        "appeal_id": str(appeal.id),
        "assessment_id": str(appeal.assessment_id),
        "agent_id": str(assessment.agent_id),
        "status": appeal.status,
        "dimensions_challenged": list(appeal.dimensions_challenged),
    }
    if appeal.resolved_at is not None:
        data["resolved_at"] = _timestamp(appeal.resolved_at)
    return data


def badge_data(badge: Badge) -> dict[str, object]:
    """``data`` of ``badge.expiring`` and ``badge.expired``."""
    return {
        "badge_id": str(badge.id),
        "assessment_id": str(badge.assessment_id),
        "agent_id": str(badge.agent_id),
        "valid_until": _timestamp(badge.valid_until),
    }


def shown_delivery(delivery: dict[str, Any], now: datetime) -> dict[str, Any]:
    """A delivery as the log shows it: the last attempt of a pending delivery whose sender's
    lease (its ``next_attempt_at``) has not run out is *in progress*, not interrupted — the
    claim records every attempt as interrupted until its outcome replaces it."""
    attempts = delivery.get("attempts") or []
    due = delivery.get("next_attempt_at")
    if (
        delivery.get("status") == "pending"
        and attempts
        and attempts[-1].get("interrupted")
        and due is not None
        and datetime.fromisoformat(str(due).replace("Z", "+00:00")) > now
    ):
        last = {**attempts[-1], "interrupted": False, "in_progress": True, "error": None}
        delivery = {**delivery, "attempts": [*attempts[:-1], last]}
    return delivery
