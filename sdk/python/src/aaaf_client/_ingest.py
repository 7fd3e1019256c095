"""What the sync and async ingestion helpers share (issue 18 §1): encoding, chunking under the
API's batch limits, the decision to retry, and the summary of settled events.

* **Limits** (SCORING.md §7; ``aaaf.api.limits``): a batch holds at most 1 000 events and its
  body at most 1 MiB; a chunk stays under both (an event alone over the byte limit is reported
  failed with ``PAYLOAD_TOO_LARGE`` without being sent).
* **Stable ids.** An event is encoded once, when it is queued, and every attempt sends those
  same bytes: an event with an ``id`` keeps it; one without is sent without, and the service
  derives its id from its content (SCORING.md §1, 2026-11-23), which is therefore the same on
  every retry.  A retried batch that the service had already stored answers ``duplicates``,
  never a second copy.  The SDK does not invent random ids for id-less events: §1 makes two
  identical id-less events one event, and a random id would make them two.  A client that
  wants ids assigned passes ``id_factory`` (called once per id-less event, when queued).
* **Retry** on 429, 502, 503, 504 and connection errors, with exponential backoff (0.25 s
  doubling, at most 5 s, jittered) or the server's ``Retry-After``, until ``retry_timeout``
  seconds have passed since the service stopped answering (one budget per outage, shared by
  the chunks: a dead service fails the queue after ``retry_timeout``, not after that much per
  chunk); then the events are reported failed.
"""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from aaaf_client.errors import AAAFError, ConnectionFailedError, error_from_response

MAX_BATCH_EVENTS = 1_000
MAX_BODY_BYTES = 1_048_576
BATCH_PATH = "/api/v1/events/batch"
RETRY_STATUSES = frozenset({429, 502, 503, 504})
_WRAPPER = len(b'{"events":[]}')

OverflowPolicy = Literal["block", "drop"]


@dataclass(frozen=True)
class FailedEvent:
    """An event the service rejected (or that could not be delivered): the event, and the
    §6.4 / per-item error ``code``, ``message`` and ``details`` (``field`` when one is named)."""

    event: dict[str, Any]
    code: str
    message: str
    details: dict[str, Any] = field(default_factory=dict)


@dataclass
class IngestSummary:
    """Events settled since the previous summary: ``accepted`` (stored now), ``duplicates``
    (already stored: a re-sent id), ``rejected`` (each with its error) and ``dropped`` (refused
    by a full queue under ``overflow="drop"``)."""

    accepted: int = 0
    duplicates: int = 0
    rejected: list[FailedEvent] = field(default_factory=list)
    dropped: int = 0

    @property
    def settled(self) -> int:
        return self.accepted + self.duplicates + len(self.rejected)


@dataclass(frozen=True)
class Queued:
    """One queued event: its encoded bytes (sent as they are on every attempt) and sequence."""

    seq: int
    data: bytes


ErrorCallback = Callable[[FailedEvent], None]


def encode_event(event: Mapping[str, Any], id_factory: Callable[[], str] | None) -> bytes:
    """The event's JSON, once (a ``TypeError``/``ValueError`` for what JSON cannot carry,
    NaN and infinities included, raised to the caller of ``ingest``)."""
    if not isinstance(event, Mapping):
        raise TypeError(f"an event is a mapping, not {type(event).__name__}")
    if id_factory is not None and event.get("id") is None:
        event = {**event, "id": id_factory()}
    return json.dumps(event, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()


def take_chunk(pending: deque[Queued], max_events: int = MAX_BATCH_EVENTS) -> list[Queued]:
    """Pop from the left of ``pending`` (a deque) the longest run that fits one batch."""
    chunk: list[Queued] = []
    size = _WRAPPER
    while pending and len(chunk) < max_events:
        item = pending[0]
        extra = len(item.data) + (1 if chunk else 0)
        if chunk and size + extra > MAX_BODY_BYTES:
            break
        pending.popleft()
        chunk.append(item)
        size += extra
    return chunk


def batch_body(chunk: list[Queued]) -> bytes:
    return b'{"events":[' + b",".join(item.data for item in chunk) + b"]}"


def too_large(item: Queued) -> bool:
    return len(item.data) + _WRAPPER > MAX_BODY_BYTES


@dataclass
class Attempt:
    """What one attempt at sending a chunk came to."""

    outcome: Literal["done", "retry", "failed"]
    result: dict[str, Any] | None = None
    error: AAAFError | None = None
    delay: float | None = None  # the server's Retry-After, when it gave one


def judge(status: int, content: bytes, headers: Mapping[str, str]) -> Attempt:
    """Classify an answer of ``POST /api/v1/events/batch``."""
    if status in (200, 201):
        return Attempt("done", result=json.loads(content))
    error = error_from_response(status, content, headers)
    if status in RETRY_STATUSES:
        return Attempt("retry", error=error, delay=error.retry_after)
    return Attempt("failed", error=error)


def connection_failure(exc: Exception) -> Attempt:
    return Attempt("retry", error=ConnectionFailedError("CONNECTION_ERROR", f"{type(exc).__name__}: {exc}"))


def backoff(attempt: int, server_delay: float | None) -> float:
    """Seconds before the next attempt: the server's ``Retry-After`` when given, else
    exponential from 0.25 s, at most 5 s, with ±20 % jitter."""
    if server_delay is not None:
        return server_delay
    return min(5.0, 0.25 * float(2**attempt)) * random.uniform(0.8, 1.2)


class Ledger:
    """Turns batch answers into the running summary (thread-safe use is the caller's lock)."""

    def __init__(self, on_error: ErrorCallback | None) -> None:
        self.on_error = on_error
        self.summary = IngestSummary()

    def _fail(self, failed: FailedEvent) -> None:
        self.summary.rejected.append(failed)
        if self.on_error is not None:
            with contextlib.suppress(Exception):  # a failing callback must not stop delivery of the rest
                self.on_error(failed)

    def record(self, chunk: list[Queued], result: dict[str, Any]) -> None:
        self.summary.accepted += int(result.get("accepted", 0))
        self.summary.duplicates += int(result.get("duplicates", 0))
        for item in result.get("errors", []):
            index = item.get("index", -1)
            event = json.loads(chunk[index].data) if 0 <= index < len(chunk) else {}
            details = {k: item[k] for k in ("index", "id", "field") if item.get(k) is not None}
            self._fail(FailedEvent(event, str(item.get("code")), str(item.get("error", "")), details))

    def fail_all(self, chunk: list[Queued], error: AAAFError) -> None:
        for item in chunk:
            self._fail(FailedEvent(json.loads(item.data), error.code, error.message, dict(error.details)))

    def drop(self) -> None:
        self.summary.dropped += 1

    def take(self) -> IngestSummary:
        summary, self.summary = self.summary, IngestSummary()
        return summary


def oversized_error() -> AAAFError:
    return AAAFError(
        "PAYLOAD_TOO_LARGE",
        f"The event alone is larger than a batch body may be ({MAX_BODY_BYTES} bytes); it was not sent.",
        {"limit_bytes": MAX_BODY_BYTES},
        status_code=413,
    )


class Outage:
    """Since when the service has not answered usefully (``None`` while it does): the retry
    budget of every chunk counts from there."""

    def __init__(self) -> None:
        self.since: float | None = None

    def begin(self) -> float:
        if self.since is None:
            self.since = time.monotonic()
        return self.since

    def end(self) -> None:
        self.since = None
