"""Sending webhook deliveries (issue 14 §5; document 004 §6.3 and §8 phase 2 "Webhook delivery
with retry logic (3 retries, exponential backoff)").

:func:`deliver_due` claims every delivery whose next attempt is due (a bounded batch; see
:mod:`aaaf.store.webhook_outbox` for how several senders share the work) and sends them
concurrently over one pooled client (kept-alive connections per host) — at most
``webhook_concurrency`` at once and ``webhook_concurrency_per_endpoint`` to one endpoint
(scheme, host, port), each attempt bounded by ``webhook_timeout_seconds`` as a whole, so a slow
endpoint holds its own slots and never holds up the others.  An attempt starts only while its
lease (twice the timeout plus ``webhook_lease_margin_seconds``, measured from before the claim)
still covers the timeout and the margin; a delivery whose turn comes later is given back
unattempted, due again, for the next round (``released`` in the summary), so no sender sends a
delivery another may have claimed again meanwhile.

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
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import httpx
from standardwebhooks import Webhook as StandardWebhook

from aaaf.errors import AAAFError
from aaaf.scoring.results import iso
from aaaf.services.context import system_clock
from aaaf.services.issuer import Database, secret_box
from aaaf.services.outbound_url import check_url_form
from aaaf.services.pinned_transport import PinnedTransport
from aaaf.services.webhooks import open_secret
from aaaf.settings import Settings, get_settings
from aaaf.store.webhook_outbox import AttemptRecord, ClaimedDelivery, claim_due, record_attempts, released

USER_AGENT = "AAAF-Webhooks/1"
_HTTPX_LOG = logging.getLogger("httpx")
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
    released: int = 0
    seconds: float = 0.0

    def to_dict(self) -> dict[str, object]:
        return {
            "claimed": self.claimed,
            "succeeded": self.succeeded,
            "retrying": self.retrying,
            "failed": self.failed,
            "disabled_webhooks": list(self.disabled_webhooks),
            "lost_leases": self.lost_leases,
            "released": self.released,
            "seconds": round(self.seconds, 6),
        }


def backoff_delay(base_seconds: float, attempt_number: int, rng: random.Random | None = None) -> float:
    """The wait before retry ``attempt_number`` (1 = the first retry): ``base × 2^(n-1)``
    with equal jitter (uniform between half of it and all of it)."""
    full = base_seconds * (2.0 ** max(attempt_number - 1, 0))
    jitter: float = (rng or _RANDOM).uniform(0, full / 2)
    return full / 2 + jitter


# every attempt's headers but the signature's three
_FIXED_HEADERS = {"content-type": "application/json", "user-agent": USER_AGENT}


def signed_headers(secret: str, message_id: str, payload: str, moment: datetime) -> dict[str, str]:
    """The Standard Webhooks headers of one attempt."""
    return {**_FIXED_HEADERS, **_signature(StandardWebhook(secret), message_id, payload, moment)}


def _signature(signer: StandardWebhook, message_id: str, payload: str, moment: datetime) -> dict[str, str]:
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(int(moment.timestamp())),
        "webhook-signature": signer.sign(message_id, moment, payload),
    }


@dataclass(frozen=True)
class _Outcome:
    status_code: int | None
    error: str | None
    seconds: float


class _Poster:
    """``client.post(url, content=…, headers=…)`` for a round's attempts without the client's
    layers an attempt never uses (authentication, redirects, event hooks): the same request —
    the client's default headers, then :data:`_FIXED_HEADERS` and the signature's, its cookies,
    its timeout — built from what is merged once per round, sent to the client's transport,
    its answer read and any cookie it sets kept, as the client does."""

    # 3.74-3.79 M instructions a delivery instead of 4.33 through ``client.post``
    # (benchmarks/count_webhook_work.py, 400 deliveries under callgrind)

    def __init__(self, client: httpx.AsyncClient, transport: httpx.AsyncBaseTransport) -> None:
        headers = httpx.Headers(client.headers)
        headers.update(_FIXED_HEADERS)
        self._headers = headers.raw
        self._extensions = {"timeout": client.timeout.as_dict()}
        self._cookies = client.cookies
        self._transport = transport

    async def post(self, url: httpx.URL, content: bytes, signature: dict[str, str]) -> httpx.Response:
        request = httpx.Request(
            "POST",
            url,
            content=content,
            headers=[*self._headers, *((name.encode(), value.encode()) for name, value in signature.items())],
            cookies=self._cookies or None,
            extensions=self._extensions,
        )
        response = await self._transport.handle_async_request(request)
        response.request = request
        try:
            if "set-cookie" in response.headers:  # what the client's cookie jar would take
                self._cookies.extract_cookies(response)
            if _HTTPX_LOG.isEnabledFor(logging.INFO):  # the client's line (``aaaf worker`` shows it)
                _HTTPX_LOG.info(
                    'HTTP Request: %s %s "%s %d %s"',
                    request.method,
                    request.url,
                    response.http_version,
                    response.status_code,
                    response.reason_phrase,
                )
            await response.aread()
        except BaseException:
            await response.aclose()
            raise
        return response


class _Round:
    """What a round's attempts share: the limits, the recorder, the poster, and what is worked
    out once per webhook rather than per attempt — its secret opened and its signing key
    decoded (a ``standardwebhooks.Webhook``), its URL's form checked and parsed, its
    endpoint's limiter."""

    def __init__(
        self,
        store: Database,
        settings: Settings,
        clock: Callable[[], datetime],
        claimed: tuple[datetime, float],
        expected: int,
    ) -> None:
        self.box = secret_box(store, settings)
        self.settings = settings
        self.clock = clock
        # the claim's ``now`` (a delivery given back is due from then) and, on the
        # ``time.perf_counter`` scale, the last moment an attempt may start: its lease (measured
        # from before the claim) must still cover the attempt's timeout and the margin
        self.claimed_now, claimed_at = claimed
        self.start_by = (
            claimed_at
            + lease_seconds(settings)
            - settings.webhook_timeout_seconds
            - settings.webhook_lease_margin_seconds
        )
        self.limiter = asyncio.Semaphore(settings.webhook_concurrency)
        self.recorder = _Recorder(store, expected)
        self.summary = DeliverySummary()
        self._endpoint_limiters: dict[str, asyncio.Semaphore] = {}
        self._limiter_of_url: dict[str, asyncio.Semaphore] = {}
        self._signers: dict[str, StandardWebhook] = {}
        self._checked_urls: dict[str, httpx.URL] = {}
        self.poster: _Poster  # once the round's client is open

    def endpoint_limiter(self, url: str) -> asyncio.Semaphore:
        # per URL, not per attempt: parsing each URL for its endpoint was 6 % of a round's time
        found = self._limiter_of_url.get(url)
        if found is None:
            found = self._endpoint_limiters.setdefault(
                _endpoint(url), asyncio.Semaphore(self.settings.webhook_concurrency_per_endpoint)
            )
            self._limiter_of_url[url] = found
        return found

    def checked_url(self, url: str) -> httpx.URL:
        """``url`` parsed once its form is checked (:func:`check_url_form`), once per URL (a
        refused one raises each time)."""
        found = self._checked_urls.get(url)
        if found is None:
            check_url_form(url)
            found = self._checked_urls[url] = httpx.URL(url)
        return found

    def signer(self, secret_sealed: str) -> StandardWebhook:
        """The webhook's signer, its secret opened once (one that cannot be opened raises each time)."""
        # per webhook, not per attempt: opening and decoding the key was 3 % of a round's time
        found = self._signers.get(secret_sealed)
        if found is None:
            found = self._signers[secret_sealed] = StandardWebhook(open_secret(self.box, secret_sealed))
        return found


async def _attempt(claimed: ClaimedDelivery, run: _Round, moment: datetime) -> _Outcome:
    started = time.perf_counter()
    timeout = run.settings.webhook_timeout_seconds
    try:
        # the form here; where the host resolves is checked by the transport as it connects
        url = run.checked_url(claimed.url)
        delivery = claimed.delivery
        signature = _signature(
            run.signer(claimed.secret_sealed), delivery.message_id, delivery.payload, moment
        )
        async with asyncio.timeout(timeout):
            response = await run.poster.post(url, delivery.payload.encode("utf-8"), signature)
        return _Outcome(response.status_code, None, time.perf_counter() - started)
    except AAAFError as error:
        return _Outcome(None, error.message, time.perf_counter() - started)
    except TimeoutError:
        return _Outcome(None, f"timed out after {timeout:g} s", time.perf_counter() - started)
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


# Batches cut the recording of 2 000 deliveries (10 rounds) from 1 148 writes to 41, its
# thread's CPU from 0.97 s to 0.12 s (of about 3.6 s in all).  A batch of outcomes is written
# once this many wait, or this long after the first of them finished, or when no attempt of
# the round is left to finish, whichever comes first.
RECORD_BATCH = 64
RECORD_WAIT_SECONDS = 0.5


class _Recorder:
    """Records the outcomes of a round's attempts in batches, a transaction each (one thread
    hop and one commit for many attempts instead of one each): a batch is written when
    :data:`RECORD_BATCH` outcomes wait, :data:`RECORD_WAIT_SECONDS` after its first one
    finished, or as soon as the round has no attempt left to finish.  Until then an attempt
    stays logged as its claim wrote it (``interrupted``, shown ``in_progress``)."""

    def __init__(self, store: Database, expected: int) -> None:
        self._store = store
        self._to_come = expected  # outcomes not handed in yet
        self._waiting: list[tuple[AttemptRecord, asyncio.Future[bool]]] = []
        self._first_waiting_at = 0.0
        self._arrived = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None
        self.writes = 0

    async def record(self, record: AttemptRecord) -> bool:
        """Whether it was written (False: the lease was lost meanwhile)."""
        loop = asyncio.get_running_loop()
        written: asyncio.Future[bool] = loop.create_future()
        if not self._waiting:
            self._first_waiting_at = loop.time()
        self._waiting.append((record, written))
        self._to_come -= 1
        self._arrived.set()
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write())
        return await written

    async def _gathered(self) -> None:
        """Until a batch is due (see the class)."""
        loop = asyncio.get_running_loop()
        while self._to_come > 0 and len(self._waiting) < RECORD_BATCH:
            left = self._first_waiting_at + RECORD_WAIT_SECONDS - loop.time()
            if left <= 0:
                return
            self._arrived.clear()
            try:
                async with asyncio.timeout(left):
                    await self._arrived.wait()
            except TimeoutError:
                return

    async def _write(self) -> None:
        while self._waiting:
            await self._gathered()
            batch, self._waiting = self._waiting, []
            self.writes += 1
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


async def _send_one(claimed: ClaimedDelivery, run: _Round) -> None:
    clock, summary = run.clock, run.summary
    # the endpoint's slot first: waiting for it holds no shared one
    async with run.endpoint_limiter(claimed.url), run.limiter:
        moment = clock()
        late = time.perf_counter() > run.start_by
        outcome = None if late else await _attempt(claimed, run, moment)
    if outcome is None:  # its lease cannot cover an attempt now: given back, due again, not attempted
        if await run.recorder.record(released(claimed, at=moment, due=run.claimed_now)):
            summary.released += 1
        else:
            summary.lost_leases += 1
        return
    delivery = claimed.delivery
    number = delivery.attempt_count  # the claim counted this attempt
    attempt: dict[str, object] = {
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
    recorded = await run.recorder.record(
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


def lease_seconds(settings: Settings) -> float:
    """How long a claim holds its deliveries: twice the attempt timeout plus the margin."""
    return settings.webhook_timeout_seconds * 2 + settings.webhook_lease_margin_seconds


def _claim(store: Database, now: datetime, limit: int | None, settings: Settings) -> list[ClaimedDelivery]:
    lease = timedelta(seconds=lease_seconds(settings))
    return claim_due(store.engine, now=now, limit=limit or settings.webhook_batch_size, lease=lease)


async def _send_claimed(
    store: Database,
    claimed: list[ClaimedDelivery],
    settings: Settings,
    clock: Callable[[], datetime],
    started: tuple[datetime, float],
) -> DeliverySummary:
    run = _Round(store, settings, clock, started, len(claimed))
    run.summary.claimed = len(claimed)
    # connects to the address it checked, each host looked up once in the round (DNS
    # rebinding; docs/security.md "Outbound requests")
    transport = PinnedTransport(
        settings, pin_per_host=True, limits=httpx.Limits(max_connections=settings.webhook_concurrency * 2)
    )
    async with httpx.AsyncClient(
        timeout=httpx.Timeout(settings.webhook_timeout_seconds),
        follow_redirects=False,
        transport=transport,
        trust_env=False,
    ) as http:
        run.poster = _Poster(http, transport)
        await asyncio.gather(*(_send_one(item, run) for item in claimed))
    run.summary.seconds = time.perf_counter() - started[1]
    return run.summary


async def deliver_due_async(
    store: Database,
    *,
    now: datetime,
    limit: int | None = None,
    settings: Settings | None = None,
    clock: Callable[[], datetime] = system_clock,
) -> DeliverySummary:
    """:func:`deliver_due` for a caller already inside an event loop (the claim runs in a
    thread, so the loop goes on meanwhile)."""
    settings = settings or get_settings()
    started = time.perf_counter()
    claimed = await asyncio.to_thread(_claim, store, now, limit, settings)
    if not claimed:
        return DeliverySummary(seconds=time.perf_counter() - started)
    return await _send_claimed(store, claimed, settings, clock, (now, started))


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
    Claims in the calling thread, then sends in an event loop of its own, only when something
    was claimed (call :func:`deliver_due_async` from inside a loop)."""
    settings = settings or get_settings()
    started = time.perf_counter()
    claimed = _claim(store, now, limit, settings)
    if not claimed:
        return DeliverySummary(seconds=time.perf_counter() - started)
    return asyncio.run(_send_claimed(store, claimed, settings, clock, (now, started)))
