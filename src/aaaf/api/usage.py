"""Usage metering of the API (issue 13 §4): API calls, events accepted and assessments run per
organization and UTC day.

Counting must not cost a write transaction per request (on SQLite that would serialise every
request behind the single writer): :class:`UsageMeter` adds counts up in memory under a lock,
and a background task of the server adds them to the database every
:data:`FLUSH_INTERVAL_S` seconds (one upsert transaction for everything counted meanwhile),
when the server stops, and before ``GET …/usage`` answers (so a process's own counts are
always current).  Several server processes each add their own counts to the same rows.  What
a process counted in its last interval is lost if it is killed with SIGKILL — usage is a
meter, not evidence (events themselves are committed before they are acknowledged).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import uuid
from collections import defaultdict
from datetime import date, datetime
from typing import Annotated

from fastapi import Depends, Request

from aaaf.store import Store
from aaaf.store.usage import COUNTERS, add_usage

log = logging.getLogger("aaaf.api")

FLUSH_INTERVAL_S = 5.0


class UsageMeter:
    """Counts in memory, flushed to the store (thread-safe: routes run in a thread pool)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._flush_lock = threading.Lock()
        self._counts: defaultdict[tuple[uuid.UUID, date], dict[str, int]] = defaultdict(dict)

    def add(self, organization_id: uuid.UUID, at: datetime, counter: str, amount: int = 1) -> None:
        if counter not in COUNTERS:
            raise ValueError(f"unknown usage counter {counter!r}")
        if amount <= 0:
            return
        with self._lock:
            counts = self._counts[(organization_id, at.date())]
            counts[counter] = counts.get(counter, 0) + amount

    def flush(self, store: Store) -> None:
        """Add what was counted since the last flush to the store (kept for the next flush
        when the write fails)."""
        with self._flush_lock:
            with self._lock:
                pending, self._counts = self._counts, defaultdict(dict)
            if not pending:
                return
            try:
                add_usage(store.engine, pending)
            except Exception:
                with self._lock:
                    for key, counts in pending.items():
                        mine = self._counts[key]
                        for name, amount in counts.items():
                            mine[name] = mine.get(name, 0) + amount
                raise

    async def run(self, store: Store, interval: float | None = None) -> None:
        """Flush every ``interval`` seconds (:data:`FLUSH_INTERVAL_S` as it is when the
        server starts, unless given) until cancelled."""
        from aaaf.store.availability import database_unavailable

        every = FLUSH_INTERVAL_S if interval is None else interval
        while True:
            await asyncio.sleep(every)
            try:
                await asyncio.to_thread(self.flush, store)
            except Exception as error:  # a failed flush is retried with the next one
                if database_unavailable(error):  # an outage: one line, no trace (docs/jobs.md)
                    log.warning(
                        "could not record usage, the database is unavailable: %s", type(error).__name__
                    )
                else:
                    log.exception("could not record usage")


async def get_meter(request: Request) -> UsageMeter:
    meter: UsageMeter = request.app.state.usage_meter
    return meter


MeterDep = Annotated[UsageMeter, Depends(get_meter)]
