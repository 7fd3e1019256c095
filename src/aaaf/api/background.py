"""``aaaf serve``'s background loop (issue 14 §4–5): webhook deliveries and periodic duties
inside the server process.

Until the job queue takes these over (``aaaf worker``; the SQLite default keeps running them
in-process), an asyncio task started by the app's lifespan calls
:func:`aaaf.services.webhook_delivery.deliver_due` every ``background_interval_seconds`` and
:func:`aaaf.services.duties.run_periodic_duties` every ``duties_interval_seconds`` (both
``AAAF_*`` settings; an interval of 0 turns the loop off, as the test suite does unless a test
turns it on).  The work runs in a thread, so the server keeps answering; several server
processes may run the loop at once (deliveries are claimed, duties are idempotent).  One
failing round is logged and the loop goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime

from aaaf.settings import Settings
from aaaf.store import Store

log = logging.getLogger("aaaf.background")
MAX_ROUNDS_PER_TICK = 10


def _one_round(store: Store, settings: Settings, run_duties: bool) -> None:
    from aaaf.services.duties import run_periodic_duties
    from aaaf.services.webhook_delivery import deliver_due

    if run_duties:
        duties = run_periodic_duties(store, now=datetime.now(UTC))
        if duties.emitted:
            log.info("periodic duties: %s", duties.to_dict())
    for _ in range(MAX_ROUNDS_PER_TICK):  # a full batch: more may be due, go on (bounded)
        sent = deliver_due(store, now=datetime.now(UTC), settings=settings)
        if sent.claimed:
            log.info("webhook deliveries: %s", sent.to_dict())
        if sent.claimed < settings.webhook_batch_size:
            break


async def _loop(store: Store, settings: Settings) -> None:
    last_duties = float("-inf")
    while True:
        run_duties = time.monotonic() - last_duties >= settings.duties_interval_seconds
        if run_duties:
            last_duties = time.monotonic()
        try:
            await asyncio.to_thread(_one_round, store, settings, run_duties)
        except Exception:
            log.exception("background round failed; trying again next round")
        await asyncio.sleep(settings.background_interval_seconds)


@contextlib.asynccontextmanager
async def background_loop(store: Store, settings: Settings) -> AsyncIterator[asyncio.Task[None] | None]:
    """Run the loop while the block runs (nothing when the interval is 0)."""
    if settings.background_interval_seconds <= 0:
        yield None
        return
    task = asyncio.create_task(_loop(store, settings), name="aaaf-background")
    try:
        yield task
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
