"""Security headers on every response (docs/security.md "Headers").

* ``Content-Security-Policy``: HTML pages (the dashboard, the verification page) run only
  scripts served by the installation itself (``script-src 'self'``; htmx is served from
  ``/static``); no plugin, no ``<base>``, forms post only here; anything else (JSON, badges,
  pictures) may load nothing (``default-src 'none'``).  The API reference (``/docs``) alone
  keeps the inline start-up script Swagger UI needs.
* ``frame-ancestors 'none'`` and ``X-Frame-Options: DENY``: no page loads in a frame.
* ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: same-origin``.
* ``Cache-Control: no-store`` on what a signed-in browser or a key holder is answered (and on
  the sign-in page), unless the route chose its own caching.
* ``Strict-Transport-Security`` when the request came over https (directly, or through a proxy
  ``aaaf serve --forwarded-allow-ips`` trusts).
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
DOCS_POLICY = PAGE_POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
RESOURCE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"
HSTS = "max-age=31536000; includeSubDomains"
_SIGNED_IN_HEADERS = (b"authorization", b"x-api-key")
_SESSION_COOKIE = b"aaaf_session="


def _signed_in(scope: Scope) -> bool:
    for name, value in scope.get("headers", ()):
        if name in _SIGNED_IN_HEADERS or (name == b"cookie" and _SESSION_COOKIE in value):
            return True
    return scope.get("path") == "/sign-in"


def add_security_headers(scope: Scope, headers: MutableHeaders) -> None:
    """Add the headers of the module docstring to the answer ``headers`` of the request
    ``scope`` (a header the route set itself is kept)."""
    html = headers.get("content-type", "").startswith("text/html")
    docs = scope.get("path") == "/docs"
    policy = (DOCS_POLICY if docs else PAGE_POLICY) if html else RESOURCE_POLICY
    headers.setdefault("Content-Security-Policy", policy)
    headers.setdefault("X-Frame-Options", "DENY")
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "same-origin")
    if _signed_in(scope) and "cache-control" not in headers:
        headers["Cache-Control"] = "no-store"
    if scope.get("scheme") == "https":
        headers.setdefault("Strict-Transport-Security", HSTS)


class SecurityHeaders:
    """Pure ASGI middleware adding the headers of the module docstring.  An unexpected
    exception's 500 is answered outside every middleware (Starlette's ``ServerErrorMiddleware``),
    so :mod:`aaaf.api.errors` adds them there with :func:`add_security_headers`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                add_security_headers(scope, MutableHeaders(scope=message))
            await send(message)

        await self.app(scope, receive, send_with_headers)
