"""One rule for every JSON body (docs/security.md "Input"): refused with 400
``INVALID_REQUEST`` before any route parses it when it

* nests arrays and objects deeper than :data:`MAX_JSON_DEPTH` (a 100 000-deep body would
  exhaust the parser's recursion);
* holds ``NaN`` or ``Infinity`` (not JSON by RFC 8259, and never a weight or a limit);
* holds a NUL character (``\\u0000``) in any string — PostgreSQL cannot store one, so no text
  field of any route takes one, on either database.

:func:`json_problem` is the check; :class:`JsonBodyRules` applies it to every request whose
body is JSON, and the OTLP route (``/v1/traces``, gzip or not) to its body once inflated.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from aaaf.api.errors import error_body
from aaaf.errors import AAAFError

MAX_JSON_DEPTH = 64
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NUL = re.compile(rb"(?<!\\)(?:\\\\)*\\u0000")
_NOT_NUMBER = re.compile(rb"(?<![A-Za-z0-9_])-?(?:NaN|Infinity)(?![A-Za-z0-9_])")
_BRACKETS = b"[]{}"
_OTHER_BYTES = bytes(b for b in range(256) if b not in _BRACKETS)


def json_problem(body: bytes) -> tuple[str, str] | None:
    """(message, field) saying why ``body`` breaks the module's rule, or None."""
    if b"\\u0000" in body and _NUL.search(body):  # the search only when there may be one
        return (
            "The request body contains a NUL character (\\u0000) in a string; no text field takes one.",
            "body",
        )
    outside = _STRING.sub(b'""', body)
    if (b"NaN" in outside or b"Infinity" in outside) and _NOT_NUMBER.search(outside):
        return "The request body contains NaN or Infinity, which are not JSON numbers (RFC 8259).", "body"
    brackets = outside.translate(None, _OTHER_BYTES)
    if len(brackets) > MAX_JSON_DEPTH:
        deepest = max(accumulate(1 if byte in b"[{" else -1 for byte in brackets), default=0)
        if deepest > MAX_JSON_DEPTH:
            return f"The request body nests deeper than {MAX_JSON_DEPTH} levels.", "body"
    return None


def check_json(body: bytes) -> None:
    """400 ``INVALID_REQUEST`` when ``body`` breaks the module's rule."""
    problem = json_problem(body)
    if problem is not None:
        raise AAAFError("INVALID_REQUEST", problem[0], {"field": problem[1]})


def _is_json(scope: Scope) -> bool:
    """Whether the request's body is JSON as sent (a compressed body is checked by its route once
    inflated: ``/v1/traces``, which also answers in OTLP's own error format)."""
    if scope.get("path") == "/v1/traces":
        return False
    json_type = False
    for name, value in scope.get("headers", ()):
        if name == b"content-encoding" and bytes(value).strip().lower() not in (b"", b"identity"):
            return False
        if name == b"content-type":
            base = bytes(value).split(b";", 1)[0].strip().lower()
            json_type = base == b"application/json" or base.endswith(b"+json")
    return json_type


class JsonBodyRules:
    """Pure ASGI middleware applying :func:`json_problem` to JSON request bodies (already
    bounded by the body size limit) and handing the body on unchanged otherwise."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _is_json(scope):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([], message), send)
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        problem = json_problem(body)
        if problem is None:
            await self.app(scope, _replay([body], None, receive), send)
            return
        content = json.dumps(error_body("INVALID_REQUEST", problem[0], {"field": problem[1]})).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 400,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(content)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": content})


def _replay(bodies: list[bytes], last: Message | None, receive: Receive | None = None) -> Receive:
    """A ``receive`` giving the buffered body once, then what the client sends next."""
    pending: list[Message] = [{"type": "http.request", "body": body, "more_body": False} for body in bodies]
    if last is not None:
        pending.append(last)

    async def replay() -> Message:
        if pending:
            return pending.pop(0)
        if receive is not None:
            return await receive()
        return {"type": "http.disconnect"}

    return replay
