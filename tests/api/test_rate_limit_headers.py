"""The rate-limit middleware puts the limit's headers on every answer counted against a limit,
and keeps the answer's own ``Retry-After`` (a 503 when the database is out of reach,
docs/api.md "Errors") unless the limit itself refuses the request.  Found by the multi-host
test (tests/multihost): with the database link cut after authentication, 503s lost their
``Retry-After``."""

from __future__ import annotations

import asyncio
from typing import Any

from aaaf.api.rate_limit import RateLimiter, RateLimitMiddleware


def _answer(public_per_minute: int, hits: int) -> dict[bytes, list[bytes]]:
    """The response headers of the ``hits``-th request to a route answering 503 with
    ``Retry-After: 2``, with ``public_per_minute`` requests allowed per client address."""

    async def route(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 503, "headers": [(b"retry-after", b"2")]})
        await send({"type": "http.response.body", "body": b"{}"})

    middleware = RateLimitMiddleware(
        route, limiter=RateLimiter(public_per_minute=public_per_minute), routes=[]
    )
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    for _ in range(hits):
        sent.clear()
        scope = {"type": "http", "path": "/x", "method": "GET", "client": ("192.0.2.7", 1234), "headers": []}
        asyncio.run(middleware(scope, receive, send))
    headers: dict[bytes, list[bytes]] = {}
    for name, value in sent[0]["headers"]:
        headers.setdefault(name, []).append(value)
    return headers


def test_an_answers_retry_after_survives_the_limit_headers() -> None:
    headers = _answer(public_per_minute=10, hits=1)
    assert headers[b"retry-after"] == [b"2"]  # the 503's own, once
    assert headers[b"x-ratelimit-limit"] == [b"10"]
    assert headers[b"x-ratelimit-remaining"] == [b"9"]


def test_a_refused_request_carries_the_limits_retry_after_alone() -> None:
    headers = _answer(public_per_minute=1, hits=2)
    [retry_after] = headers[b"retry-after"]
    assert int(retry_after) >= 1  # the limit's own (the route never ran)
    assert headers[b"x-ratelimit-remaining"] == [b"0"]
