"""The FastAPI application of the AAAF service (document 004 §6; issue 13).

:func:`create_app` builds it around one :class:`~aaaf.store.Store` (opened, and upgraded to
the schema head, when the server starts; closed when it stops).  Routes are thin: they
authenticate, scope to the caller's organization and call the same services the CLI calls.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from typing import Any

from fastapi import FastAPI

from aaaf.api.docs import install_docs
from aaaf.api.errors import install_error_handlers
from aaaf.api.json_rules import JsonBodyRules
from aaaf.api.limits import MAX_BODY_BYTES, BodySizeLimit, RefuseNulCharacters
from aaaf.api.rate_limit import RateLimiter, RateLimitMiddleware
from aaaf.api.routes import ROUTERS
from aaaf.api.security_headers import SecurityHeaders
from aaaf.api.usage import UsageMeter
from aaaf.services.job_port import RunningQueue

log = logging.getLogger("aaaf.api")

DESCRIPTION = """The AAAF service: organizations enroll agents, stream evidence events, trigger
assessments and fetch results (docs/api.md).

Authenticate with an API key (`ak_…`) as `Authorization: Bearer ak_…` or `X-API-Key: ak_…`.
Errors are `{"error": {"code", "message", "details"}}` (docs/api.md)."""


def create_app(
    database_url: str | None = None,
    *,
    admin_key: str | None = None,
    max_body_bytes: int = MAX_BODY_BYTES,
    job_queue: Callable[[Any], RunningQueue] | None = None,
) -> FastAPI:
    """The app; ``database_url`` and ``admin_key`` default to ``AAAF_DATABASE_URL`` and
    ``AAAF_ADMIN_KEY``.  The service context (settings and clock) is built here
    once and handed to every request (``aaaf.api.deps``).  ``job_queue(store)`` starts the queue
    triggered assessments go to (``aaaf serve`` passes
    :func:`aaaf.jobs.runner.queue_for_server`); without one a trigger answers 501."""
    from aaaf.services.context import default_context

    context = default_context()
    settings = context.settings
    url = database_url or settings.database_url
    admin = admin_key if admin_key is not None else settings.admin_key

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        from aaaf.api.background import background_loop
        from aaaf.store import open_store

        app.state.store = open_store(url, clock=context.clock)
        app.state.job_queue = None if job_queue is None else job_queue(app.state.store)
        log.info("serving %s", app.state.store.url)
        flusher = asyncio.create_task(meter.run(app.state.store))
        # what start-up built lives as long as the server: out of the collector's full passes,
        # which walked all of it every ~20 requests of the 10 000-agent overview, +110 ms each
        # (its collections 8.4 -> 2.2 ms CPU a request, 8 % of it, counted by gc callbacks)
        gc.freeze()
        try:
            async with background_loop(
                app.state.store, settings, context.clock
            ):  # issue 14: webhooks, duties
                yield
        finally:
            gc.unfreeze()
            flusher.cancel()
            with suppress(asyncio.CancelledError):
                await flusher
            try:
                meter.flush(app.state.store)  # the last counts (issue 13 §4)
            except Exception:
                log.exception("could not record usage at shutdown")
            if app.state.job_queue is not None:
                app.state.job_queue.close()
            app.state.store.close()

    app = FastAPI(
        title="AAAF",
        version=_version(),
        description=DESCRIPTION,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json",
    )
    app.state.admin_key = admin or None
    app.state.context = context
    meter = UsageMeter()
    app.state.usage_meter = meter
    app.state.rate_limiter = RateLimiter(
        settings.redis_url,
        prefix=settings.rate_limit_prefix,
        public_per_minute=settings.public_rate_limit_per_minute,
        timeout_ms=settings.redis_timeout_ms,
    )
    install_error_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    install_docs(app)
    from aaaf.api.web.routes import install_dashboard

    install_dashboard(app)  # issue 17: the server-rendered pages at / (not in openapi.json)
    app.add_middleware(JsonBodyRules)  # inside the size limit: JSON and forms (docs/security.md "Input")
    app.add_middleware(BodySizeLimit, limit=max_body_bytes)
    app.add_middleware(RefuseNulCharacters)
    app.add_middleware(RateLimitMiddleware, limiter=app.state.rate_limiter, routes=app.router.routes)
    app.add_middleware(SecurityHeaders)  # outermost: on every answer, refusals included
    return app


def openapi_document(app: FastAPI | None = None) -> dict[str, Any]:
    """The OpenAPI document of the app (committed as ``openapi.json``)."""
    return (app or create_app("sqlite://")).openapi()


def _version() -> str:
    from importlib.metadata import version

    return version("aaaf")
