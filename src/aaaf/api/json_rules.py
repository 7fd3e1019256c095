"""One rule for every JSON body and every form (docs/security.md "Input"): refused with 400
``INVALID_REQUEST`` before any route parses it when a JSON body

* nests arrays and objects deeper than :data:`MAX_JSON_DEPTH` (a 100 000-deep body would
  exhaust the parser's recursion);
* holds ``NaN`` or ``Infinity`` (not JSON by RFC 8259, and never a weight or a limit);
* holds a NUL character (``\\u0000``) in any string — PostgreSQL cannot store one, so no text
  field of any route takes one, on either database.

:func:`json_problem` is the check; :class:`JsonBodyRules` applies it to every request whose
body is JSON, and the OTLP route (``/v1/traces``, gzip or not) to its body once inflated.

The equivalent rule for forms (``application/x-www-form-urlencoded`` and ``multipart/form-data``:
the dashboard's forms, ``POST /oauth/token``, an eval-run upload): no field name, text value or
file name holds a NUL, and no text value is longer than :data:`MAX_FORM_FIELD_CHARS`
(:func:`form_problem`, applied by the same middleware); an uploaded ``.json`` or ``.jsonl`` file
is held to :func:`json_problem` like a body.  What an archive holds (an inspect_ai ``.eval``)
is checked by the service reading it, once parsed (:mod:`aaaf.json_values`).  A browser's form is
answered with the dashboard's error page, anything else with the §6.4 JSON.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import accumulate
from urllib.parse import parse_qsl

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from aaaf.api.errors import error_response
from aaaf.errors import AAAFError
from aaaf.evidence.limits import printable
from aaaf.json_values import MAX_JSON_DEPTH

MAX_FORM_FIELD_CHARS = 65_536
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NUL = re.compile(rb"(?<!\\)(?:\\\\)*\\u0000")
_NOT_NUMBER = re.compile(rb"(?<![A-Za-z0-9_])-?(?:NaN|Infinity)(?![A-Za-z0-9_])")
_BRACKETS = b"[]{}"
_OTHER_BYTES = bytes(b for b in range(256) if b not in _BRACKETS)
_NOT_MARKS = bytes(b for b in range(256) if b not in b'"[]{}')
_ONE_KIND = bytes.maketrans(b"{}", b"[]")


def json_problem(body: bytes) -> tuple[str, str] | None:
    """(message, field) saying why ``body`` breaks the module's rule, or None."""
    if b"\\" in body and b"\\u0000" in body and _NUL.search(body):  # only when there may be one
        return (
            "The request body contains a NUL character (\\u0000) in a string; no text field takes one.",
            "body",
        )
    brackets = _plain_brackets(body)
    if brackets is None:
        outside = _outside_strings(body)
        if (b"NaN" in outside or b"Infinity" in outside) and _NOT_NUMBER.search(outside):
            return "The request body contains NaN or Infinity, which are not JSON numbers (RFC 8259).", "body"
        brackets = outside.translate(None, _OTHER_BYTES)
    if len(brackets) > MAX_JSON_DEPTH and _nests_deeper(brackets, MAX_JSON_DEPTH):
        return f"The request body nests deeper than {MAX_JSON_DEPTH} levels.", "body"
    return None


def _plain_brackets(body: bytes) -> bytes | None:
    """The brackets of ``body`` outside its strings, when no string holds a bracket, no
    quote is escaped and neither ``NaN`` nor ``Infinity`` is written anywhere (so none outside
    a string); else None.  Of the quotes and brackets alone, an empty string is two quotes in
    a row and so is the gap between two strings with no bracket in it: taking out two quotes
    in a row leaves every bracket on its side of every string, so when they all go the
    brackets left are those outside strings.  A 1 000-event batch body (bench_api's): 4.4-5.4
    -> 0.6-1.0 ms in json_problem (timeit, old and new alternately, five times, loaded machine)."""
    if b"\\" in body and b'\\"' in body:  # one byte is found faster than two
        return None
    if (b"N" in body and b"NaN" in body) or (b"I" in body and b"Infinity" in body):
        return None
    marks = body.translate(None, _NOT_MARKS)
    while b'""' in marks:
        marks = marks.replace(b'""', b"")
    return None if b'"' in marks else marks


def _nests_deeper(brackets: bytes, limit: int) -> bool:
    """Whether the running depth of ``brackets`` (``[{`` one more, ``]}`` one less) goes past
    ``limit``.  Balanced brackets lose one level each time every ``[]`` pair is taken out (a
    pass of ``bytes.replace``), so ``limit`` passes empty them unless they nest deeper; the
    running count decides otherwise."""
    level = brackets.translate(_ONE_KIND)
    for _ in range(limit):
        if not level:
            return False
        level = level.replace(b"[]", b"")
    if not level:
        return False
    return max(accumulate(1 if byte in b"[{" else -1 for byte in brackets), default=0) > limit


def _outside_strings(body: bytes) -> bytes:
    """``body`` with every JSON string emptied to ``""``.  Without an escaped quote and with
    its quotes paired, every ``"`` opens or closes a string, so a split on ``"`` says the same
    as the string pattern at C speed; otherwise the pattern decides."""
    # bench_api PostgreSQL batch_vs_raw 0.22/0.16 -> 0.41/0.44 (alternate runs, with ApiKeys.for_request)
    if b'\\"' not in body:
        parts = body.split(b'"')
        if len(parts) % 2:
            return b'""'.join(parts[::2])
    return _STRING.sub(b'""', body)


def check_json(body: bytes) -> None:
    """400 ``INVALID_REQUEST`` when ``body`` breaks the module's rule."""
    problem = json_problem(body)
    if problem is not None:
        raise AAAFError("INVALID_REQUEST", problem[0], {"field": problem[1]})


def form_problem(fields: Iterable[tuple[str, str]]) -> tuple[str, str] | None:
    """(message, field) saying why a form's ``(name, text)`` fields break the module's rule,
    or None."""
    for name, value in fields:
        field = "form." + printable(name, 100)
        if "\x00" in name or "\x00" in value:
            return f"The form field {field} contains a NUL character; no text field takes one.", field
        if len(value) > MAX_FORM_FIELD_CHARS:
            return (
                f"The form field {field} is {len(value)} characters long; the limit is "
                f"{MAX_FORM_FIELD_CHARS}.",
                field,
            )
    return None


def _body_kind(scope: Scope) -> str | None:
    """``json``, ``form`` or ``multipart`` for a body the module's rule covers, as sent (a
    compressed body is checked by its route once inflated: ``/v1/traces``, which also answers in
    OTLP's own error format), else None."""
    if scope.get("path") == "/v1/traces":
        return None
    kind = None
    for name, value in scope.get("headers", ()):
        if name == b"content-encoding" and bytes(value).strip().lower() not in (b"", b"identity"):
            return None
        if name == b"content-type":
            base = bytes(value).split(b";", 1)[0].strip().lower()
            if base == b"application/json" or base.endswith(b"+json"):
                kind = "json"
            elif base == b"application/x-www-form-urlencoded":
                kind = "form"
            elif base == b"multipart/form-data":
                kind = "multipart"
    return kind


async def _problem(scope: Scope, kind: str, body: bytes) -> tuple[str, str] | None:
    if kind == "json":
        return json_problem(body)
    if kind == "form":
        text = body.decode("utf-8", "replace")
        return form_problem(parse_qsl(text, keep_blank_values=True, errors="replace"))
    request = Request(scope, _replay([body], None))
    try:
        form = await request.form()
    except Exception:  # not a readable multipart body: the route that reads it says so
        return None
    try:
        fields = [
            (name, value) if isinstance(value, str) else (f"{name}.filename", value.filename or "")
            for name, value in form.multi_items()
        ]
        problem = form_problem(fields)
        for name, value in form.multi_items():
            if problem is None and not isinstance(value, str) and _holds_json(value):
                found = json_problem(await value.read())
                if found is not None:  # the body rule, on the file: "The file … contains …"
                    problem = found[0].replace("The request body", f"The file {name}"), f"body.{name}"
        return problem
    finally:
        await form.close()


def _holds_json(part: UploadFile) -> bool:
    """Whether an uploaded file is JSON or JSON Lines by its name or declared type."""
    name = (part.filename or "").lower()
    kind = (part.content_type or "").split(";", 1)[0].strip().lower()
    return name.endswith((".json", ".jsonl")) or kind == "application/json" or kind.endswith("+json")


def _refusal(scope: Scope, message: str, field: str) -> Response:
    from aaaf.api.web.error_pages import error_page, wants_html

    request = Request(scope)
    if wants_html(request):  # a person's browser sent a dashboard form
        return error_page(request, 400, message)
    return error_response(400, "INVALID_REQUEST", message, {"field": field})


class JsonBodyRules:
    """Pure ASGI middleware applying :func:`json_problem` to JSON request bodies and
    :func:`form_problem` to forms (already bounded by the body size limit) and handing the
    body on unchanged otherwise."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = _body_kind(scope) if scope["type"] == "http" else None
        if kind is None:
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
        problem = await _problem(scope, kind, body)
        if problem is None:
            await self.app(scope, _replay([body], None, receive), send)
            return
        await _refusal(scope, *problem)(scope, _replay([], None), send)


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
