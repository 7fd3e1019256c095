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

from fastapi import APIRouter, Response
from pydantic import Field

from aaaf.api.deps import Admin, NowDep, StoreDep
from aaaf.api.models import Page, Request
from aaaf.api.pagination import CursorQuery, LimitQuery, paginate, time_key
from aaaf.models.webhook import DeliveryOut, WebhookCreated, WebhookOut
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


@router.post("", status_code=201, response_model=WebhookCreated, operation_id="create_webhook")
def create_webhook(body: WebhookCreate, org: Admin, store: StoreDep, now: NowDep) -> WebhookCreated:
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
    return created.to_model()


@router.get("", response_model=Page[WebhookOut], operation_id="list_webhooks")
def list_webhooks(org: Admin, cursor: CursorQuery = None, limit: LimitQuery = 100) -> Page[WebhookOut]:
    """The organization's webhooks, oldest first (inactive ones included)."""
    return paginate(
        webhook_service.list_webhooks(org),
        key=lambda hook: [time_key(hook.created_at), str(hook.id)],
        cursor=cursor,
        limit=limit,
        render=webhook_service.webhook_out,
        page=Page[WebhookOut],
    )


@router.get("/{webhook_id}", response_model=WebhookOut, operation_id="get_webhook")
def get_webhook(webhook_id: str, org: Admin) -> WebhookOut:
    """One webhook (never its secret)."""
    return webhook_service.get_webhook(org, webhook_id)


@router.patch("/{webhook_id}", response_model=WebhookOut, operation_id="update_webhook")
def update_webhook(webhook_id: str, body: WebhookUpdate, org: Admin, now: NowDep) -> WebhookOut:
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
    )


@router.delete("/{webhook_id}", status_code=204, response_class=Response, operation_id="delete_webhook")
def delete_webhook(webhook_id: str, org: Admin) -> Response:
    """Delete a webhook and its delivery log."""
    webhook_service.delete_webhook(org, webhook_id)
    return Response(status_code=204)


@router.get(
    "/{webhook_id}/deliveries", response_model=Page[DeliveryOut], operation_id="list_webhook_deliveries"
)
def list_deliveries(
    webhook_id: str, org: Admin, now: NowDep, cursor: CursorQuery = None, limit: LimitQuery = 100
) -> Page[DeliveryOut]:
    """The webhook's delivery log, newest first: every attempt with its time, status code or
    error and duration, and the next attempt of a pending delivery."""
    return paginate(
        webhook_service.deliveries(org, webhook_id),
        key=lambda delivery: [time_key(delivery.created_at), str(delivery.id)],
        cursor=cursor,
        limit=limit,
        descending=True,
        render=lambda delivery: webhook_service.delivery_out(delivery, now),
        page=Page[DeliveryOut],
    )


@router.post(
    "/{webhook_id}/deliveries/{delivery_id}/redeliver",
    status_code=202,
    response_model=DeliveryOut,
    operation_id="redeliver_webhook_delivery",
)
def redeliver(webhook_id: str, delivery_id: str, org: Admin, now: NowDep) -> DeliveryOut:
    """Send a delivery again (same ``webhook-id``) with a fresh retry budget."""
    return webhook_service.redeliver(org, webhook_id, delivery_id, now=now)
