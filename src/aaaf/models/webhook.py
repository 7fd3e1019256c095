"""Webhooks and their delivery log (docs/webhooks.md), as the API answers them."""

from __future__ import annotations

from pydantic import BaseModel, Field


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
