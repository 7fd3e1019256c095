"""The dashboard's error pages: a browser asking for a page that does not exist, or one that
failed, gets an HTML page in the dashboard's look (404, 403, 500), not the API's JSON error.

Only for what a person's browser asks for: a request that accepts ``text/html`` for a path
outside the API and the machine-read files (``/api/``, ``/.well-known/``, ``/static/``,
``/health``, ``/v1/``); every other request keeps the API's JSON error (docs/api.md).
"""

from __future__ import annotations

from types import SimpleNamespace

from fastapi import Request
from fastapi.responses import HTMLResponse

MACHINE_PREFIXES = ("/api/", "/.well-known/", "/static/", "/health", "/v1/", "/metrics", "/openapi", "/docs")
HEADINGS = {404: "NOT_FOUND", 403: "FORBIDDEN", 401: "UNAUTHORIZED", 500: "INTERNAL_ERROR"}


def wants_html(request: Request) -> bool:
    """A browser's request for a dashboard page (module docstring)."""
    path = request.url.path
    if any(path.startswith(prefix) for prefix in MACHINE_PREFIXES):
        return False
    return "text/html" in request.headers.get("accept", "")


def error_page(request: Request, status: int, message: str) -> HTMLResponse:
    """The dashboard's error template with ``message``, signed in or not."""
    from aaaf.api.web.routes import render_error

    code = HEADINGS.get(status, "INVALID_REQUEST")
    response = render_error(request, SimpleNamespace(code=code, message=message), status)
    assert isinstance(response, HTMLResponse)
    return response
