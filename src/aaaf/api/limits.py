"""Request-size limits (issue 13 §2; SCORING.md §7: 413 ``PAYLOAD_TOO_LARGE``).

A body over :data:`MAX_BODY_BYTES` (1 MiB) is refused before any route sees it, whether
it declares its length or is sent chunked; a batch over :data:`MAX_BATCH_EVENTS` events is
refused by the events route.  Both answers name the limit.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from aaaf.api.errors import error_body

MAX_BODY_BYTES = 1_048_576
MAX_BATCH_EVENTS = 1_000


def _too_large_body(limit: int, received: int | None) -> bytes:
    details: dict[str, Any] = {"limit_bytes": limit}
    if received is not None:
        details["content_length"] = received
    return json.dumps(
        error_body(
            "PAYLOAD_TOO_LARGE",
            f"The request body is larger than the limit of {limit} bytes (1 MiB).",
            details,
        )
    ).encode()


class BodySizeLimit:
    """Pure ASGI middleware: buffer at most ``limit`` bytes of a body, else answer 413."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS", "DELETE"):
            await self.app(scope, receive, send)
            return
        declared = None
        names = {name for name, _ in scope.get("headers", ())}
        if b"content-length" in names and b"transfer-encoding" in names:
            await _refuse_framing(send)  # two framings: how a request is smuggled past a proxy
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = None
        if declared is not None and declared > self.limit:
            await self._refuse(send, declared, scope)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._refuse(send, declared, scope)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send, declared: int | None, scope: Scope) -> None:
        content = _too_large_body(self.limit, declared)
        media_type = b"application/json"
        if scope.get("path") == "/v1/traces":  # OTLP/HTTP answers a Status in the request's type
            from aaaf.api import otlp_codec

            headers = dict(scope.get("headers", ()))
            kind = otlp_codec.media_type(headers.get(b"content-type", b"").decode("latin-1"))
            message = f"The request body is larger than the limit of {self.limit} bytes (1 MiB)."
            content, media_type = otlp_codec.status_body(413, message, kind), kind.encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", media_type),
                    (b"content-length", str(len(content)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": content})


async def _refuse_framing(send: Send) -> None:
    """400 for a request with both ``Content-Length`` and ``Transfer-Encoding`` (RFC 9112 §6.3:
    a server may reject it; one that picks a framing lets a request be smuggled), and close."""
    content = json.dumps(
        error_body(
            "INVALID_REQUEST",
            "The request has both Content-Length and Transfer-Encoding; send one.",
            {"field": "headers"},
        )
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 400,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(content)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": content})


class RefuseNulCharacters:
    """Pure ASGI middleware: a NUL character in the path or the query string is 400
    ``INVALID_REQUEST`` naming where it was — PostgreSQL cannot store or compare one, and an
    id or filter that contains one can name nothing (the collect path rejects it the same way)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            from urllib.parse import unquote_to_bytes

            where = None
            if b"\x00" in unquote_to_bytes(scope.get("raw_path") or scope.get("path", "").encode()):
                where = "path"
            elif b"\x00" in unquote_to_bytes(scope.get("query_string", b"")):
                where = "query"
            if where is not None:
                body = json.dumps(
                    error_body(
                        "INVALID_REQUEST",
                        f"The request {where} contains a NUL character (\\u0000).",
                        {"field": where},
                    )
                ).encode()
                await send(
                    {
                        "type": "http.response.start",
                        "status": 400,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)
