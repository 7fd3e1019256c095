"""Rate limits (issue 13 §4; SCORING.md §7 "Rate limits"), with the ``limits`` library.

* **Per key.**  An authenticated request counts against its API key (or its OAuth client):
  :data:`DEFAULT_PER_MINUTE` (100) requests in any 60 seconds by default, or the
  organization's ``rate_limit_per_minute`` setting (``PATCH …/config``, ``aaaf config set``).
  A request counts whatever its body: a batch of 1 000 events is one request.
* **Per client IP** for every request no key is counted for — the public routes (badge
  verification and images, JWKS, status lists, ``/health``, ``/docs``, ``POST /oauth/token``,
  creating organizations) and unknown routes: ``AAAF_PUBLIC_RATE_LIMIT_PER_MINUTE`` (600,
  since one office's viewers of a badge share an address).
* A moving window (the ``limits`` library's exact strategy): request 101 within any 60
  seconds is refused, whatever the clock's minute.  Counters live in memory, or in Redis when
  ``AAAF_REDIS_URL`` is set, so every server process shares one budget per key
  (``AAAF_RATE_LIMIT_PREFIX`` namespaces the keys).  If Redis cannot be reached the request
  is let through (the limit protects the service; it must not stop it): every Redis call gives
  up after ``AAAF_REDIS_TIMEOUT_MS`` (200 ms), an outage is logged once (one warning when it
  starts, one line when Redis answers again — never a trace per request), and while it lasts
  Redis is asked again at most every :data:`OUTAGE_RETRY_SECONDS`, so a hung Redis delays
  one request, not every one.

Refused: 429 ``RATE_LIMITED`` (document 004 §6.4's body) with ``Retry-After``.  Every
limited answer carries the IETF draft's (draft-ietf-httpapi-ratelimit-headers)
``RateLimit-Policy: "per-key";q=100;w=60`` and ``RateLimit: "per-key";r=<remaining>;t=<seconds
to reset>``, and ``X-RateLimit-Limit``, ``X-RateLimit-Remaining`` and ``X-RateLimit-Reset``
(seconds until the window frees a request, as ``t``).
"""

from __future__ import annotations

import json
import logging
import math
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from fastapi.dependencies.models import Dependant
from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage, RedisStorage, Storage
from limits.strategies import MovingWindowRateLimiter
from starlette.routing import BaseRoute, Mount, compile_path
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from aaaf.api.errors import error_body

_T = TypeVar("_T")

log = logging.getLogger("aaaf.api")

DEFAULT_PER_MINUTE = 100
DEFAULT_PUBLIC_PER_MINUTE = 600
WINDOW_SECONDS = 60
STATE_KEY = "rate_limit"
OUTAGE_RETRY_SECONDS = 1.0


@dataclass(frozen=True)
class Decision:
    """One request's standing against its limit."""

    policy: str
    limit: int
    remaining: int
    reset_seconds: int
    allowed: bool

    def headers(self) -> list[tuple[bytes, bytes]]:
        out = [
            ("RateLimit-Policy", f'"{self.policy}";q={self.limit};w={WINDOW_SECONDS}'),
            ("RateLimit", f'"{self.policy}";r={self.remaining};t={self.reset_seconds}'),
            ("X-RateLimit-Limit", str(self.limit)),
            ("X-RateLimit-Remaining", str(self.remaining)),
            ("X-RateLimit-Reset", str(self.reset_seconds)),
        ]
        if not self.allowed:
            out.append(("Retry-After", str(max(1, self.reset_seconds))))
        return [(name.lower().encode(), value.encode()) for name, value in out]

    def error(self) -> tuple[str, str, dict[str, Any]]:
        who = "this API key" if self.policy == "per-key" else "this client address"
        return (
            "RATE_LIMITED",
            f"Rate limit of {self.limit} requests per {WINDOW_SECONDS} s exceeded for {who};"
            f" retry in {max(1, self.reset_seconds)} s.",
            {
                "limit": self.limit,
                "window_seconds": WINDOW_SECONDS,
                "retry_after": max(1, self.reset_seconds),
            },
        )


class RateLimiter:
    """Moving-window counters in memory or in Redis (shared by every server process)."""

    def __init__(
        self,
        redis_url: str | None = None,
        *,
        prefix: str = "aaaf",
        public_per_minute: int = DEFAULT_PUBLIC_PER_MINUTE,
        timeout_ms: int = 200,
    ) -> None:
        timeout = timeout_ms / 1000
        storage: Storage = (
            RedisStorage(
                redis_url,
                key_prefix=f"{prefix}:ratelimit",
                socket_timeout=timeout,
                socket_connect_timeout=timeout,
            )
            if redis_url
            else MemoryStorage()
        )
        self.backend = "redis" if redis_url else "memory"
        self._limiter = MovingWindowRateLimiter(storage)
        self.public_per_minute = public_per_minute
        self._outage_since: float | None = None  # monotonic time the storage stopped answering
        self._next_try = 0.0
        self._state_lock = threading.Lock()  # hit() runs on the event loop and in threads

    def hit(self, identity: str, per_minute: int, *, policy: str) -> Decision:
        item = RateLimitItemPerMinute(per_minute)
        let_through = Decision(policy, per_minute, per_minute, WINDOW_SECONDS, True)

        def counted() -> Decision:
            allowed = self._limiter.hit(item, identity)
            stats = self._limiter.get_window_stats(item, identity)
            reset = max(0, math.ceil(stats.reset_time - time.time()))
            return Decision(policy, per_minute, max(0, stats.remaining), min(reset, WINDOW_SECONDS), allowed)

        return self._guarded(counted, let_through)

    def failing(self, identities: list[str], per_minute: int) -> bool:
        """Whether any of ``identities`` already failed authentication ``per_minute`` times in
        the last minute (docs/security.md "Keys"); nothing is counted."""
        item = RateLimitItemPerMinute(per_minute)
        return self._guarded(
            lambda: any(not self._limiter.test(item, f"authfail:{identity}") for identity in identities),
            False,
        )

    def failed(self, identities: list[str], per_minute: int) -> None:
        """Count one failed authentication against each of ``identities``."""
        item = RateLimitItemPerMinute(per_minute)

        def count() -> None:
            for identity in identities:
                self._limiter.hit(item, f"authfail:{identity}")

        self._guarded(count, None)

    def _guarded(self, call: Callable[[], _T], let_through: _T) -> _T:
        """``call()`` against the storage; while it is unreachable, ``let_through`` (fail open):
        the storage is asked again at most once a second, and an outage is logged once when it
        starts and once when it ends — never a line per request."""
        if self._outage_since is not None and time.monotonic() < self._next_try:
            return let_through
        try:
            answer = call()
        except Exception as error:  # the storage is unreachable: let the request through
            with self._state_lock:
                self._next_try = time.monotonic() + OUTAGE_RETRY_SECONDS
                starts = self._outage_since is None
                if starts:
                    self._outage_since = time.monotonic()
            if starts:
                log.warning(
                    "rate limit storage (%s) unreachable (%s: %s); requests are not limited until it answers",
                    self.backend,
                    type(error).__name__,
                    error,
                )
            return let_through
        with self._state_lock:
            since, self._outage_since = self._outage_since, None
        if since is not None:
            log.warning(
                "rate limit storage (%s) answers again after %.1f s; requests are limited again",
                self.backend,
                time.monotonic() - since,
            )
        return answer


def _authenticates(dependant: Dependant) -> bool:
    """Whether a route's dependencies include the caller's authentication (then its key is counted)."""
    from aaaf.api.deps import get_principal

    return any(
        dependency.call is get_principal or _authenticates(dependency)
        for dependency in dependant.dependencies
    )


def _client_address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def route_table(
    routes: list[BaseRoute], prefix: str = ""
) -> list[tuple[re.Pattern[str], set[str] | None, bool]]:
    """``(path regex, methods, authenticated)`` of every route, included routers flattened
    (FastAPI keeps an included router as one route object of its own)."""
    table: list[tuple[re.Pattern[str], set[str] | None, bool]] = []
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            inner = getattr(getattr(route, "include_context", None), "prefix", "") or ""
            table += route_table(list(included.routes), prefix + inner)
            continue
        path = getattr(route, "path", None)
        if not isinstance(path, str):
            continue
        if isinstance(route, Mount):
            regex, _, _ = compile_path(prefix + path.rstrip("/") + "/{rest:path}")
            table.append((regex, None, False))
            continue
        dependant = getattr(route, "dependant", None)
        methods = getattr(route, "methods", None)
        regex, _, _ = compile_path(prefix + path)
        table.append(
            (regex, set(methods) if methods else None, dependant is not None and _authenticates(dependant))
        )
    return table


class RateLimitMiddleware:
    """Pure ASGI middleware: limits what no key is counted for by client address, and puts
    the limit headers of whichever limit counted the request on its answer."""

    def __init__(self, app: ASGIApp, *, limiter: RateLimiter, routes: list[BaseRoute]) -> None:
        self.app = app
        self.limiter = limiter
        self.routes = routes
        self._table: list[tuple[re.Pattern[str], set[str] | None, bool]] | None = None

    def _is_authenticated(self, scope: Scope) -> bool:
        """Whether the route the request goes to counts it against a key (its dependencies
        authenticate the caller); the table is built at the first request, when every route
        (the docs' too) is in place."""
        if self._table is None:
            self._table = route_table(self.routes)
        path, method = scope.get("path", ""), scope.get("method", "GET")
        for regex, methods, authenticated in self._table:
            if regex.match(path) and (methods is None or method in methods):
                return authenticated
        return False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state = scope.setdefault("state", {})
        if not self._is_authenticated(scope):
            decision = self.limiter.hit(
                f"ip:{_client_address(scope)}", self.limiter.public_per_minute, policy="per-ip"
            )
            state[STATE_KEY] = decision
            if not decision.allowed:
                code, message, details = decision.error()
                body = json.dumps(error_body(code, message, details)).encode()
                await send(
                    {
                        "type": "http.response.start",
                        "status": 429,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            *decision.headers(),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                decision = state.get(STATE_KEY)
                if isinstance(decision, Decision):
                    # the limit's headers replace the answer's of the same name, and only those:
                    # a 503's Retry-After stays unless the limit sets its own
                    limit_headers = decision.headers()
                    replaced = {name for name, _ in limit_headers}
                    headers = [
                        (name, value)
                        for name, value in message.get("headers", [])
                        if name.lower() not in replaced
                    ]
                    message = {**message, "headers": headers + limit_headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
