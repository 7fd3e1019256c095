"""Webhooks (document 004 §6.3; issue 14 §5; docs/webhooks.md).

Managing webhooks takes the ``admin`` scope: a webhook makes the server send the
organization's events to a URL, so it is configuration, like keys.  Creating one returns its
signing ``secret`` (``whsec_…``) this once.  Targets on private, loopback or link-local
addresses are refused (400 ``INVALID_REQUEST``) unless ``AAAF_WEBHOOK_ALLOW_LOOPBACK=true``.
``GET /api/v1/webhooks/{id}/deliveries`` is the delivery log (attempts, status codes,
timings, next attempt), newest first; ``POST …/deliveries/{delivery_id}/redeliver`` sends
one again with the same ``webhook-id``.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response
from pydantic import BaseModel, Field

from aaaf.api.deps import Admin, NowDep, StoreDep
from aaaf.api.models import Page, Request
from aaaf.api.pagination import CursorQuery, LimitQuery, paginate, time_key
from aaaf.services import webhooks as webhook_service
from aaaf.services.issuer import secret_box

router = APIRouter(prefix="/api/v1/webhooks", tags=["webhooks"])

EVENT_TYPES_HELP = "Event types (docs/webhooks.md): " + ", ".join(webhook_service.WEBHOOK_EVENT_TYPES) + "."


class WebhookCreate(Request):
    url: str = Field(min_length=1, max_length=2048, description="http(s) URL the events are POSTed to.")
    event_types: list[str] = Field(min_length=1, max_length=8, description=EVENT_TYPES_HELP)
    max_retries: int = Field(
        default=webhook_service.DEFAULT_MAX_RETRIES,
        ge=0,
        le=webhook_service.MAX_RETRIES_LIMIT,
        description="Retries after a failed attempt (3 by default).",
    )
    retry_backoff_seconds: float = Field(
        default=webhook_service.DEFAULT_RETRY_BACKOFF_SECONDS,
        gt=0,
        le=86_400,
        description="The first retry's wait; doubled for each further retry, with jitter.",
    )


class WebhookUpdate(Request):
    url: str | None = Field(default=None, min_length=1, max_length=2048)
    event_types: list[str] | None = Field(
        default=None, min_length=1, max_length=8, description=EVENT_TYPES_HELP
    )
    active: bool | None = None
    max_retries: int | None = Field(default=None, ge=0, le=webhook_service.MAX_RETRIES_LIMIT)
    retry_backoff_seconds: float | None = Field(default=None, gt=0, le=86_400)


class WebhookOut(BaseModel):
    id: str
    organization_id: str
    url: str
    event_types: list[str]
    active: bool
    max_retries: int
    retry_backoff_seconds: float
    disabled_reason: str | None
    created_at: str
    updated_at: str


class WebhookCreated(WebhookOut):
    """A new webhook: ``secret`` (``whsec_`` + base64 of 32 random bytes) verifies its
    signatures and is shown this once."""

    secret: str


class DeliveryAttempt(BaseModel):
    attempt: int
    at: str
    status_code: int | None
    duration_ms: float | None = Field(description="None for an attempt whose outcome was never recorded.")
    error: str | None
    interrupted: bool = Field(
        default=False,
        description="The sender stopped (a crash) after the attempt began and before its outcome was "
        "recorded; `at` is when it was claimed. The endpoint may have received it.",
    )
    in_progress: bool = Field(
        default=False,
        description="The attempt began and is still within its sender's lease: its outcome is not "
        "known yet (it becomes `interrupted` only if the lease runs out unrecorded).",
    )


class DeliveryOut(BaseModel):
    id: str
    webhook_id: str
    message_id: str = Field(description="The `webhook-id` header, the same on every retry.")
    event: str
    status: str = Field(description="pending, succeeded or failed.")
    attempt_count: int
    next_attempt_at: str | None
    last_attempt_at: str | None
    last_status_code: int | None
    last_error: str | None
    attempts: list[DeliveryAttempt]
    created_at: str


@router.post("", status_code=201, response_model=WebhookCreated, operation_id="create_webhook")
def create_webhook(body: WebhookCreate, org: Admin, store: StoreDep, now: NowDep) -> dict[str, Any]:
    """Subscribe a URL to event types; the signing secret is in this answer only."""
    created = webhook_service.create_webhook(
        org,
        secret_box(store),
        body.url,
        body.event_types,
        now=now,
        max_retries=body.max_retries,
        retry_backoff_seconds=body.retry_backoff_seconds,
    )
    return {**created.webhook.to_dict(), "secret": created.secret}


@router.get("", response_model=Page[WebhookOut], operation_id="list_webhooks")
def list_webhooks(org: Admin, cursor: CursorQuery = None, limit: LimitQuery = 100) -> dict[str, Any]:
    """The organization's webhooks, oldest first (inactive ones included)."""
    return paginate(
        org.webhooks(),
        key=lambda hook: [time_key(hook.created_at), str(hook.id)],
        cursor=cursor,
        limit=limit,
        render=lambda hook: hook.to_dict(),
    )


@router.get("/{webhook_id}", response_model=WebhookOut, operation_id="get_webhook")
def get_webhook(webhook_id: str, org: Admin) -> dict[str, Any]:
    """One webhook (never its secret)."""
    return org.get_webhook(webhook_id).to_dict()


@router.patch("/{webhook_id}", response_model=WebhookOut, operation_id="update_webhook")
def update_webhook(webhook_id: str, body: WebhookUpdate, org: Admin, now: NowDep) -> dict[str, Any]:
    """Change the URL, the event types, the retry policy, or turn it off and on."""
    return webhook_service.update_webhook(
        org,
        webhook_id,
        now=now,
        url=body.url,
        event_types=body.event_types,
        active=body.active,
        max_retries=body.max_retries,
        retry_backoff_seconds=body.retry_backoff_seconds,
    ).to_dict()


@router.delete("/{webhook_id}", status_code=204, response_class=Response, operation_id="delete_webhook")
def delete_webhook(webhook_id: str, org: Admin) -> Response:
    """Delete a webhook and its delivery log."""
    org.delete_webhook(webhook_id)
    return Response(status_code=204)


@router.get(
    "/{webhook_id}/deliveries", response_model=Page[DeliveryOut], operation_id="list_webhook_deliveries"
)
def list_deliveries(
    webhook_id: str, org: Admin, now: NowDep, cursor: CursorQuery = None, limit: LimitQuery = 100
) -> dict[str, Any]:
    """The webhook's delivery log, newest first: every attempt with its time, status code or
    error and duration, and the next attempt of a pending delivery."""
    webhook = org.get_webhook(webhook_id)
    return paginate(
        org.webhook_deliveries(webhook.id),
        key=lambda delivery: [time_key(delivery.created_at), str(delivery.id)],
        cursor=cursor,
        limit=limit,
        descending=True,
        render=lambda delivery: webhook_service.shown_delivery(delivery.to_dict(), now),
    )


@router.post(
    "/{webhook_id}/deliveries/{delivery_id}/redeliver",
    status_code=202,
    response_model=DeliveryOut,
    operation_id="redeliver_webhook_delivery",
)
def redeliver(webhook_id: str, delivery_id: str, org: Admin, now: NowDep) -> dict[str, Any]:
    """Send a delivery again (same ``webhook-id``) with a fresh retry budget."""
    return webhook_service.redeliver(org, webhook_id, delivery_id, now=now).to_dict()
