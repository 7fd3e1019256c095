"""Sending webhook deliveries (issue 14 §5; document 004 §6.3 and §8 phase 2 "Webhook delivery
with retry logic (3 retries, exponential backoff)").

:func:`deliver_due` claims every delivery whose next attempt is due (a bounded batch; see
:mod:`aaaf.store.webhook_outbox` for how several senders share the work) and sends them
concurrently over one pooled client (kept-alive connections per host) — at most
``webhook_concurrency`` at once and ``webhook_concurrency_per_endpoint`` to one endpoint
(scheme, host, port), each attempt bounded by ``webhook_timeout_seconds`` as a whole, so a slow
endpoint holds its own slots and never holds up the others.

Each request is signed per Standard Webhooks (the ``standardwebhooks`` package):
``webhook-id`` is the event's message id, the same on every retry and redelivery;
``webhook-timestamp`` is the attempt's time; ``webhook-signature`` is ``v1,`` + HMAC-SHA256
of ``id.timestamp.body`` under the webhook's secret.  A 2xx answer delivers; 410 Gone
disables the webhook (its deliveries stop); anything else — another status, a timeout, a
refused connection, a target now resolving inside the network — is retried up to the
webhook's ``max_retries`` (3 by default) after ``retry_backoff_seconds × 2^(n-1)`` with
"equal jitter" (between half and all of it), then the delivery is ``failed``.  Every
attempt is recorded (time, status code or error in words, duration), one cut off by a crash
too: the claim records it ``interrupted`` (:mod:`aaaf.store.webhook_outbox`).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import httpx
from standardwebhooks import Webhook as StandardWebhook

from aaaf.errors import AAAFError
from aaaf.scoring.results import iso
from aaaf.secret_box import SecretBox
from aaaf.services.context import system_clock
from aaaf.services.issuer import Database, secret_box
from aaaf.services.outbound_url import check_url_form
from aaaf.services.pinned_transport import PinnedTransport
from aaaf.services.webhooks import open_secret
from aaaf.settings import Settings, get_settings
from aaaf.store.webhook_outbox import AttemptRecord, ClaimedDelivery, claim_due, record_attempts

USER_AGENT = "AAAF-Webhooks/1"
GONE = 410
_RANDOM = random.Random()


@dataclass
class DeliverySummary:
    """What one :func:`deliver_due` round did."""

    claimed: int = 0
    succeeded: int = 0
    retrying: int = 0
    failed: int = 0
    disabled_webhooks: list[str] = field(default_factory=list)
    lost_leases: int = 0
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "claimed": self.claimed,
            "succeeded": self.succeeded,
            "retrying": self.retrying,
            "failed": self.failed,
            "disabled_webhooks": list(self.disabled_webhooks),
            "lost_leases": self.lost_leases,
            "seconds": round(self.seconds, 6),
        }


def backoff_delay(base_seconds: float, attempt_number: int, rng: random.Random | None = None) -> float:
    """The wait before retry ``attempt_number`` (1 = the first retry): ``base × 2^(n-1)``
    with equal jitter (uniform between half of it and all of it)."""
    full = base_seconds * (2.0 ** max(attempt_number - 1, 0))
    jitter: float = (rng or _RANDOM).uniform(0, full / 2)
    return full / 2 + jitter


def signed_headers(secret: str, message_id: str, payload: str, moment: datetime) -> dict[str, str]:
    """The Standard Webhooks headers of one attempt."""
    return {
        "content-type": "application/json",
        "user-agent": USER_AGENT,
        "webhook-id": message_id,
        "webhook-timestamp": str(int(moment.timestamp())),
        "webhook-signature": StandardWebhook(secret).sign(message_id, moment, payload),
    }


@dataclass(frozen=True)
class _Outcome:
    status_code: int | None
    error: str | None
    seconds: float


async def _attempt(
    client: httpx.AsyncClient, claimed: ClaimedDelivery, box: SecretBox, settings: Settings, moment: datetime
) -> _Outcome:
    started = time.perf_counter()
    try:
        # the form here; where the host resolves is checked by the transport as it connects
        check_url_form(claimed.url)
        secret = open_secret(box, claimed.secret_sealed)
        delivery = claimed.delivery
        headers = signed_headers(secret, delivery.message_id, delivery.payload, moment)
        async with asyncio.timeout(settings.webhook_timeout_seconds):
            response = await client.post(
                claimed.url, content=delivery.payload.encode("utf-8"), headers=headers
            )
        return _Outcome(response.status_code, None, time.perf_counter() - started)
    except AAAFError as error:
        return _Outcome(None, error.message, time.perf_counter() - started)
    except TimeoutError:
        return _Outcome(
            None, f"timed out after {settings.webhook_timeout_seconds:g} s", time.perf_counter() - started
        )
    except httpx.HTTPError as error:
        return _Outcome(None, error_text(error), time.perf_counter() - started)


def error_text(error: BaseException) -> str:
    """What went wrong, in words: the error's class and the first message along its causes
    (httpx's ``ReadError`` of a reset connection has none of its own; the ``OSError`` under it
    says "Connection reset by peer")."""
    seen: set[int] = set()
    current: BaseException | None = error
    detail = ""
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        text = str(current).strip()
        if text:
            detail = text if current is error else f"{text} ({type(current).__name__})"
            break
        current = current.__cause__ or current.__context__
    return f"{type(error).__name__}: {detail or 'no message'}"[:500]


def _endpoint(url: str) -> str:
    """The endpoint a URL's deliveries share a limit on: scheme, host and port."""
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError):
        return url
    return f"{parsed.scheme}://{parsed.host}:{parsed.port or ''}"


class _Recorder:
    """Records the outcomes of a round's attempts as they finish, a batch per transaction: each
    write takes every outcome that finished while the previous write ran (one thread hop and
    one commit for many attempts instead of one each)."""

    def __init__(self, store: Database) -> None:
        self._store = store
        self._waiting: list[tuple[AttemptRecord, asyncio.Future[bool]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def record(self, record: AttemptRecord) -> bool:
        """Whether it was written (False: the lease was lost meanwhile)."""
        written: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._waiting.append((record, written))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write())
        return await written

    async def _write(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, []
            try:
                results = await asyncio.to_thread(record_attempts, self._store.engine, [r for r, _ in batch])
            except Exception as error:  # each attempt's sender raises it, as its own write would
                for _, written in batch:
                    if not written.done():
                        written.set_exception(error)
                continue
            for (_, written), result in zip(batch, results, strict=True):
                if not written.done():
                    written.set_result(result)


async def _send_one(
    client: httpx.AsyncClient,
    claimed: ClaimedDelivery,
    *,
    recorder: _Recorder,
    box: SecretBox,
    settings: Settings,
    clock: Callable[[], datetime],
    limiter: asyncio.Semaphore,
    endpoint_limiters: dict[str, asyncio.Semaphore],
    summary: DeliverySummary,
) -> None:
    endpoint = endpoint_limiters.setdefault(
        _endpoint(claimed.url), asyncio.Semaphore(settings.webhook_concurrency_per_endpoint)
    )
    async with endpoint, limiter:  # the endpoint's slot first: waiting for it holds no shared one
        moment = clock()
        outcome = await _attempt(client, claimed, box, settings, moment)
    delivery = claimed.delivery
    number = delivery.attempt_count  # the claim counted this attempt
    attempt: dict[str, Any] = {
        "attempt": number,
        "at": iso(moment),
        "status_code": outcome.status_code,
        "duration_ms": round(outcome.seconds * 1000, 3),
        "error": outcome.error,
    }
    disable: str | None = None
    next_at: datetime | None = None
    code = outcome.status_code
    if code is not None and 200 <= code < 300:
        status = "succeeded"
    elif code == GONE:
        status = "failed"
        disable = f"the endpoint answered 410 Gone at {iso(moment)}"
    elif number <= claimed.max_retries:
        status = "pending"
        next_at = clock() + timedelta(seconds=backoff_delay(claimed.retry_backoff_seconds, number))
    else:
        status = "failed"
    recorded = await recorder.record(
        AttemptRecord(
            claimed,
            at=moment,
            attempt=attempt,
            status=status,
            next_attempt_at=next_at,
            disable_reason=disable,
        )
    )
    if not recorded:
        summary.lost_leases += 1
    elif status == "succeeded":
        summary.succeeded += 1
    elif status == "pending":
        summary.retrying += 1
    else:
        summary.failed += 1
        if disable is not None:
            summary.disabled_webhooks.append(str(delivery.webhook_id))


async def deliver_due_async(
    store: Database,
    *,
    now: datetime,
    limit: int | None = None,
    settings: Settings | None = None,
    clock: Callable[[], datetime] = system_clock,
) -> DeliverySummary:
    """:func:`deliver_due` for a caller already inside an event loop."""
    settings = settings or get_settings()
    started = time.perf_counter()
    summary = DeliverySummary()
    lease = timedelta(seconds=settings.webhook_timeout_seconds * 2 + settings.webhook_lease_margin_seconds)
    batch = limit or settings.webhook_batch_size
    claimed = await asyncio.to_thread(claim_due, store.engine, now=now, limit=batch, lease=lease)
    summary.claimed = len(claimed)
    if claimed:
        box = secret_box(store, settings)
        limiter = asyncio.Semaphore(settings.webhook_concurrency)
        endpoint_limiters: dict[str, asyncio.Semaphore] = {}
        recorder = _Recorder(store)
        async with httpx.AsyncClient(
            timeout=httpx.Timeout(settings.webhook_timeout_seconds),
            follow_redirects=False,
            # connects to the address it checked (DNS rebinding; docs/security.md "Outbound requests")
            transport=PinnedTransport(
                settings, limits=httpx.Limits(max_connections=settings.webhook_concurrency * 2)
            ),
            trust_env=False,
        ) as http:
            await asyncio.gather(
                *(
                    _send_one(
                        http,
                        item,
                        recorder=recorder,
                        box=box,
                        settings=settings,
                        clock=clock,
                        limiter=limiter,
                        endpoint_limiters=endpoint_limiters,
                        summary=summary,
                    )
                    for item in claimed
                )
            )
    summary.seconds = time.perf_counter() - started
    return summary


def deliver_due(
    store: Database,
    *,
    now: datetime,
    limit: int | None = None,
    settings: Settings | None = None,
    clock: Callable[[], datetime] = system_clock,
) -> DeliverySummary:
    """Send every delivery due at ``now`` (at most ``limit``, default ``webhook_batch_size``),
    concurrently, recording each attempt and rescheduling failures; the round's summary.
    Runs its own event loop (call :func:`deliver_due_async` from inside one)."""
    return asyncio.run(deliver_due_async(store, now=now, limit=limit, settings=settings, clock=clock))
