"""``aaaf serve``'s delivery loop (issue 14 §5): due webhook deliveries sent from the server.

An asyncio task started by the app's lifespan calls
:func:`aaaf.services.webhook_delivery.deliver_due` every ``background_interval_seconds``
(``AAAF_BACKGROUND_INTERVAL_SECONDS``; 0 turns the loop off, as the test suite does unless a
test turns it on), so a webhook leaves within seconds of the work that raised it.  The work
runs in a thread, so the server keeps answering; several server processes may run the loop at
once (deliveries are claimed).  One failing round is logged and the loop goes on.  The periodic
duties are the job queue's (:func:`aaaf.jobs.periodic.run_duties`), not this loop's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from datetime import datetime

from aaaf.settings import Settings
from aaaf.store import Store

log = logging.getLogger("aaaf.background")
MAX_ROUNDS_PER_TICK = 10


Clock = Callable[[], datetime]


def _one_round(store: Store, settings: Settings, clock: Clock) -> None:
    from aaaf.services.webhook_delivery import deliver_due

    for _ in range(MAX_ROUNDS_PER_TICK):  # a full batch: more may be due, go on (bounded)
        sent = deliver_due(store, now=clock(), settings=settings)
        if sent.claimed:
            log.info("webhook deliveries: %s", sent.to_dict())
        if sent.claimed < settings.webhook_batch_size:
            break


async def _loop(store: Store, settings: Settings, clock: Clock) -> None:
    from aaaf.store.availability import database_unavailable

    while True:
        try:
            await asyncio.to_thread(_one_round, store, settings, clock)
        except Exception as error:
            if database_unavailable(error):  # an outage: one line, no trace (docs/jobs.md)
                log.warning("background round skipped, the database is unavailable: %s", type(error).__name__)
            else:
                log.exception("background round failed; trying again next round")
        await asyncio.sleep(settings.background_interval_seconds)


@contextlib.asynccontextmanager
async def background_loop(
    store: Store, settings: Settings, clock: Clock
) -> AsyncIterator[asyncio.Task[None] | None]:
    """Run the loop while the block runs (nothing when the interval is 0); each round's
    deliveries are due by ``clock`` (the app's service context's)."""
    if settings.background_interval_seconds <= 0:
        yield None
        return
    task = asyncio.create_task(_loop(store, settings, clock), name="aaaf-background")
    try:
        yield task
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
