"""``AAAFClient``: the synchronous client (issue 18 §1).

Every API resource is an attribute generated from ``openapi.json`` (``client.agents``,
``client.events``, ``client.assessments``, ``client.badges``, ``client.trust``,
``client.workflow``, ``client.evals``…; methods named by operation id).  On top:

* ``client.ingest(event)`` queues an event (SCORING.md §1's canonical form); a background
  thread sends the queue as ``POST /api/v1/events/batch`` whenever ``flush_at`` (1 000) events
  wait or ``flush_interval`` (5 s) has passed, in chunks under the API's limits, retrying as
  :mod:`aaaf_client._ingest` says.
* The queue is bounded (``max_queue_size``): ``overflow="block"`` makes ``ingest`` wait for
  room, ``overflow="drop"`` refuses the event (``ingest`` returns False, the summary counts it).
* ``client.flush()`` and ``client.close()`` return only when every event queued before the
  call was acknowledged or reported failed, with an :class:`IngestSummary` of the events settled
  since the previous summary; ``on_error`` is called with each failed event.  Events still
  queued when the interpreter exits are sent then (``atexit``).
"""

from __future__ import annotations

import atexit
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

import httpx
from attrs import evolve

from aaaf_client._generated.client import AuthenticatedClient
from aaaf_client._generated.resources import SyncResources
from aaaf_client._ingest import (
    BATCH_PATH,
    MAX_BATCH_EVENTS,
    ErrorCallback,
    IngestSummary,
    Ledger,
    Outage,
    OverflowPolicy,
    Queued,
    backoff,
    batch_body,
    connection_failure,
    encode_event,
    judge,
    oversized_error,
    take_chunk,
    too_large,
)
from aaaf_client.errors import AAAFError

_HEADERS = {"Content-Type": "application/json"}


def deliver(
    http: httpx.Client,
    chunk: list[Queued],
    *,
    retry_timeout: float,
    outage: Outage,
    settle: Callable[[list[Queued], dict[str, Any] | None, AAAFError | None], None],
    stopping: Callable[[], bool] = lambda: False,
) -> None:
    """Send one chunk until it is answered or ``retry_timeout`` has passed; ``settle`` gets the
    batch answer or the error that failed the whole chunk."""
    if len(chunk) == 1 and too_large(chunk[0]):
        settle(chunk, None, oversized_error())
        return
    body = batch_body(chunk)
    attempt = 0
    while True:
        try:
            response = http.post(BATCH_PATH, content=body, headers=_HEADERS)
            outcome = judge(response.status_code, response.content, response.headers)
        except httpx.TransportError as exc:
            outcome = connection_failure(exc)
        if outcome.outcome == "done":
            outage.end()
            settle(chunk, outcome.result, None)
            return
        assert outcome.error is not None
        wait = backoff(attempt, outcome.delay)
        if outcome.outcome == "failed":
            outage.end()  # the service answered: retrying cannot help
            settle(chunk, None, outcome.error)
            return
        if time.monotonic() - outage.begin() + wait > retry_timeout:
            settle(chunk, None, outcome.error)
            return
        time.sleep(wait)
        attempt += 1


class AAAFClient(SyncResources):
    """The synchronous client: ``AAAFClient(base_url="http://127.0.0.1:8000", api_key="…")``
    (``base_url`` is the server root, SCORING.md §7)."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = 30.0,
        flush_at: int = MAX_BATCH_EVENTS,
        flush_interval: float = 5.0,
        max_queue_size: int = 100_000,
        overflow: OverflowPolicy = "block",
        retry_timeout: float = 120.0,
        on_error: ErrorCallback | None = None,
        id_factory: Callable[[], str] | None = None,
    ) -> None:
        if overflow not in ("block", "drop"):
            raise ValueError(f'overflow is "block" or "drop", not {overflow!r}')
        if not 1 <= flush_at <= MAX_BATCH_EVENTS:
            raise ValueError(f"flush_at is between 1 and {MAX_BATCH_EVENTS}")
        if max_queue_size < 1:
            raise ValueError("max_queue_size is at least 1")
        self.api = AuthenticatedClient(
            base_url=base_url.rstrip("/"), token=api_key, timeout=httpx.Timeout(timeout)
        )
        super().__init__(self.api)
        self.flush_at = flush_at
        self.flush_interval = flush_interval
        self.max_queue_size = max_queue_size
        self.overflow: OverflowPolicy = overflow
        self.retry_timeout = retry_timeout
        self._id_factory = id_factory
        self._cond = threading.Condition()
        self._pending: deque[Queued] = deque()
        self._seq = 0  # the last sequence number given to a queued event
        self._settled = 0  # every event up to this sequence number is settled
        self._flush_wanted = False
        self._closed = False
        self._ledger = Ledger(on_error)
        self._worker: threading.Thread | None = None
        self._outage = Outage()
        _OPEN.add(self)  # closed at interpreter exit unless closed before

    # ingestion -------------------------------------------------------------------------------
    def ingest(self, event: Mapping[str, Any]) -> bool:
        """Queue ``event``; False when a full queue dropped it (``overflow="drop"``)."""
        data = encode_event(event, self._id_factory)
        with self._cond:
            if self._closed:
                raise AAAFError("CLIENT_CLOSED", "ingest() after close()")
            self._ensure_worker()
            while len(self._pending) >= self.max_queue_size:
                if self.overflow == "drop":
                    self._ledger.drop()
                    return False
                self._cond.wait()
            self._seq += 1
            self._pending.append(Queued(self._seq, data))
            if len(self._pending) >= min(self.flush_at, self.max_queue_size):
                self._cond.notify_all()
        return True

    @property
    def queued(self) -> int:
        """Events waiting in the queue (not counting a chunk being sent)."""
        return len(self._pending)

    def flush(self, timeout: float | None = None) -> IngestSummary:
        """Send everything queued so far; return once it is all acknowledged or reported
        failed, with the summary of the events settled since the previous summary."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            target = self._seq
            self._flush_wanted = True
            self._cond.notify_all()
            while self._settled < target:
                if self._worker is None or not self._worker.is_alive():
                    raise AAAFError("CLIENT_CLOSED", "the delivery thread is not running")
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    raise TimeoutError(f"{target - self._settled} events not settled after {timeout} s")
                self._cond.wait(left if left is not None else 1.0)
            if not self._pending:
                self._flush_wanted = False
            return self._ledger.take()

    def close(self, timeout: float | None = None) -> IngestSummary:
        """:meth:`flush`, then stop the delivery thread and the HTTP connections (idempotent)."""
        if self._closed:
            return self._ledger.take()
        summary = self.flush(timeout) if self._worker is not None else self._ledger.take()
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        if self._worker is not None:
            self._worker.join(timeout=10)
        self.api.get_httpx_client().close()
        _OPEN.discard(self)
        return summary

    def __enter__(self) -> AAAFClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # the delivery thread ---------------------------------------------------------------------
    def _ensure_worker(self) -> None:
        if self._worker is None:
            self._worker = threading.Thread(target=self._run, name="aaaf-client-ingest", daemon=True)
            self._worker.start()

    def _ready(self) -> bool:
        size = len(self._pending)  # a full queue is sent at once: blocked producers wait for it
        return size > 0 and (
            size >= self.flush_at or size >= self.max_queue_size or self._flush_wanted or self._closed
        )

    def _run(self) -> None:
        http = self.api.get_httpx_client()
        while True:
            with self._cond:
                deadline = time.monotonic() + self.flush_interval
                while not self._ready():
                    if self._closed and not self._pending:
                        return
                    left = deadline - time.monotonic()
                    if left <= 0:
                        if self._pending:
                            break
                        deadline = time.monotonic() + self.flush_interval
                        left = self.flush_interval
                    self._cond.wait(left)
                chunk = take_chunk(self._pending, self.flush_at)
                self._cond.notify_all()  # room for producers blocked on a full queue
            deliver(http, chunk, retry_timeout=self.retry_timeout, outage=self._outage, settle=self._settle)

    def _start_over_in_child(self) -> None:
        """After ``os.fork()``, in the child: the parent's delivery thread did not come along,
        its lock may have been held by that thread, and its connections are the parent's.  The
        child gets its own; its copy of the parent's queue is dropped (the parent sends those
        events), so what the child ingests is delivered once, by the child."""
        self._cond = threading.Condition()
        self._pending = deque()
        self._settled = self._seq
        self._flush_wanted = False
        self._worker = None
        self._ledger = Ledger(self._ledger.on_error)
        self._outage = Outage()
        self.api = evolve(self.api)  # a copy without the parent's httpx client (made on first use)
        SyncResources.__init__(self, self.api)

    def _settle(self, chunk: list[Queued], result: dict[str, Any] | None, error: AAAFError | None) -> None:
        with self._cond:
            if result is not None:
                self._ledger.record(chunk, result)
            elif error is not None:
                self._ledger.fail_all(chunk, error)
            self._settled = chunk[-1].seq
            if not self._pending:
                self._flush_wanted = False
            self._cond.notify_all()


_OPEN: set[AAAFClient] = set()


@atexit.register
def _close_at_exit() -> None:
    """Flush every client still open when the interpreter exits (its events are not lost)."""
    for client in list(_OPEN):
        client.close()


def _start_over_after_fork() -> None:
    """Every client still open starts over in a forked child (as Langfuse's client does)."""
    for client in list(_OPEN):
        client._start_over_in_child()


os.register_at_fork(after_in_child=_start_over_after_fork)
