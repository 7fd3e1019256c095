"""``AsyncAAAFClient``: the asyncio client, with the surface of :class:`aaaf_client.AAAFClient`
(issue 18 §1): the same generated resources (``await client.agents.get_agent(…)``) and the
same ingestion helper, whose delivery runs as an asyncio task instead of a thread.

``await client.ingest(event)`` waits for room when the queue is full (``overflow="block"``);
``await client.flush()`` / ``await client.close()`` return the :class:`IngestSummary`.  Events
still queued at interpreter exit (a loop that ended without ``close()``) are sent then,
synchronously, with the same chunks and retries.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

import httpx

from aaaf_client._generated.client import AuthenticatedClient
from aaaf_client._generated.resources import AsyncResources
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
from aaaf_client.client import deliver
from aaaf_client.errors import AAAFError

_HEADERS = {"Content-Type": "application/json"}


class AsyncAAAFClient(AsyncResources):
    """The asyncio client: ``AsyncAAAFClient(base_url=…, api_key=…)``, same options as
    :class:`aaaf_client.AAAFClient`."""

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
        self._base_url = base_url.rstrip("/")
        self._api_key = api_key
        self._timeout = timeout
        self.api = AuthenticatedClient(base_url=self._base_url, token=api_key, timeout=httpx.Timeout(timeout))
        super().__init__(self.api)
        self.flush_at = flush_at
        self.flush_interval = flush_interval
        self.max_queue_size = max_queue_size
        self.overflow: OverflowPolicy = overflow
        self.retry_timeout = retry_timeout
        self._id_factory = id_factory
        self._cond: asyncio.Condition | None = None
        self._pending: deque[Queued] = deque()
        self._inflight: list[Queued] = []
        self._seq = 0
        self._settled = 0
        self._flush_wanted = False
        self._closed = False
        self._ledger = Ledger(on_error)
        self._worker: asyncio.Task[None] | None = None
        self._outage = Outage()
        _OPEN.add(self)  # drained at interpreter exit unless closed before

    # ingestion -------------------------------------------------------------------------------
    def _condition(self) -> asyncio.Condition:
        if self._cond is None:
            self._cond = asyncio.Condition()
        if self._worker is None or self._worker.done():
            self._worker = asyncio.get_running_loop().create_task(self._run(), name="aaaf-client-ingest")
        return self._cond

    async def ingest(self, event: Mapping[str, Any]) -> bool:
        """Queue ``event``; False when a full queue dropped it (``overflow="drop"``)."""
        data = encode_event(event, self._id_factory)
        if self._closed:
            raise AAAFError("CLIENT_CLOSED", "ingest() after close()")
        cond = self._condition()
        if len(self._pending) >= self.max_queue_size:
            if self.overflow == "drop":
                self._ledger.drop()
                return False
            async with cond:
                await cond.wait_for(lambda: len(self._pending) < self.max_queue_size)
        self._seq += 1
        self._pending.append(Queued(self._seq, data))
        if len(self._pending) >= min(self.flush_at, self.max_queue_size):
            async with cond:
                cond.notify_all()
            await asyncio.sleep(0)  # let the delivery task run even if the caller never yields
        return True

    @property
    def queued(self) -> int:
        return len(self._pending)

    async def flush(self, timeout: float | None = None) -> IngestSummary:
        """Send everything queued so far; return once it is all acknowledged or reported
        failed, with the summary of the events settled since the previous summary."""
        if self._seq == self._settled:
            return self._ledger.take()
        cond = self._condition()
        target = self._seq
        async with cond:
            self._flush_wanted = True
            cond.notify_all()
            await asyncio.wait_for(cond.wait_for(lambda: self._settled >= target), timeout)
            if not self._pending:
                self._flush_wanted = False
        return self._ledger.take()

    async def close(self, timeout: float | None = None) -> IngestSummary:
        """:meth:`flush`, then stop the delivery task and the HTTP connections (idempotent)."""
        if self._closed:
            return self._ledger.take()
        summary = await self.flush(timeout)
        self._closed = True
        if self._worker is not None and self._cond is not None:
            async with self._cond:
                self._cond.notify_all()
            await self._worker
        await self.api.get_async_httpx_client().aclose()
        _OPEN.discard(self)
        return summary

    async def __aenter__(self) -> AsyncAAAFClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # the delivery task -----------------------------------------------------------------------
    def _ready(self) -> bool:
        size = len(self._pending)  # a full queue is sent at once: blocked producers wait for it
        return size > 0 and (
            size >= self.flush_at or size >= self.max_queue_size or self._flush_wanted or self._closed
        )

    async def _run(self) -> None:
        assert self._cond is not None
        cond = self._cond
        http = self.api.get_async_httpx_client()
        while True:
            async with cond:
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
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(cond.wait(), left)
                self._inflight = take_chunk(self._pending, self.flush_at)
                cond.notify_all()
            result, error = await self._deliver(http, self._inflight)
            async with cond:
                if result is not None:
                    self._ledger.record(self._inflight, result)
                elif error is not None:
                    self._ledger.fail_all(self._inflight, error)
                self._settled = self._inflight[-1].seq
                self._inflight = []
                if not self._pending:
                    self._flush_wanted = False
                cond.notify_all()

    async def _deliver(
        self, http: httpx.AsyncClient, chunk: list[Queued]
    ) -> tuple[dict[str, Any] | None, AAAFError | None]:
        if len(chunk) == 1 and too_large(chunk[0]):
            return None, oversized_error()
        body = batch_body(chunk)
        attempt = 0
        while True:
            try:
                response = await http.post(BATCH_PATH, content=body, headers=_HEADERS)
                outcome = judge(response.status_code, response.content, response.headers)
            except httpx.TransportError as exc:
                outcome = connection_failure(exc)
            if outcome.outcome == "done":
                self._outage.end()
                return outcome.result, None
            wait = backoff(attempt, outcome.delay)
            if outcome.outcome == "failed":
                self._outage.end()  # the service answered: retrying cannot help
                return None, outcome.error
            if time.monotonic() - self._outage.begin() + wait > self.retry_timeout:
                return None, outcome.error
            await asyncio.sleep(wait)
            attempt += 1

    def _drain_synchronously(self) -> IngestSummary:
        """Deliver what a loop left behind (the chunk in flight, then the queue) with a plain
        httpx client: at interpreter exit no event loop runs any more."""
        leftovers = [*self._inflight, *self._pending]
        self._inflight, self._pending = [], deque()
        queue = deque(leftovers)

        def settle(chunk: list[Queued], result: dict[str, Any] | None, error: AAAFError | None) -> None:
            if result is not None:
                self._ledger.record(chunk, result)
            elif error is not None:
                self._ledger.fail_all(chunk, error)
            self._settled = chunk[-1].seq

        headers = {"Authorization": f"Bearer {self._api_key}"}
        with httpx.Client(base_url=self._base_url, headers=headers, timeout=self._timeout) as http:
            while queue:
                chunk = take_chunk(queue, self.flush_at)
                deliver(http, chunk, retry_timeout=self.retry_timeout, outage=self._outage, settle=settle)
        self._closed = True
        return self._ledger.take()


_OPEN: set[AsyncAAAFClient] = set()


@atexit.register
def _drain_at_exit() -> None:
    """Send what every unclosed async client still holds when the interpreter exits."""
    for client in list(_OPEN):
        if not client._closed and (client._pending or client._inflight):
            client._drain_synchronously()
        _OPEN.discard(client)
