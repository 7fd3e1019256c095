"""Every failure as document 004 §6.4's JSON, mapped once (DESIGN.md "one error type").

``{"error": {"code", "message", "details"}}`` with the HTTP status of the code
(:data:`aaaf.errors.ERROR_CODES`).  Beyond :class:`~aaaf.errors.AAAFError` this maps what
the framework raises: a body or parameter that fails validation is 400 ``INVALID_REQUEST``
naming every offending field (never FastAPI's 422 body: 422 means ``INSUFFICIENT_EVIDENCE``,
``WEIGHT_SUM_INVALID`` or ``APPEAL_NOT_ALLOWED``), an unknown route 404 ``NOT_FOUND``, a
method the route lacks 405, a database that cannot be reached 503 ``SERVICE_UNAVAILABLE`` with
``Retry-After`` (:mod:`aaaf.store.availability`; handled like the rest, so the connection stays
open), and anything unexpected 500 ``INTERNAL_ERROR`` with a request id that the server log
repeats beside the stack trace (the client never sees one) — with the security headers every
answer carries (:mod:`aaaf.api.security_headers`).
"""

from __future__ import annotations

import logging
import traceback
import uuid
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy import exc as sa_exc
from starlette.exceptions import HTTPException as StarletteHTTPException

from aaaf.errors import AAAFError
from aaaf.store.availability import UNAVAILABLE_TYPES, database_unavailable

log = logging.getLogger("aaaf.api")


def error_body(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    """The §6.4 body (:class:`aaaf.models.ErrorBody`); ``details`` is always present (an
    object, possibly empty)."""
    from aaaf.models import dump
    from aaaf.models.error import error_body as body

    return dump(body(code, message, details, empty_details=True))


def error_response(
    status: int, code: str, message: str, details: dict[str, Any] | None = None, **kwargs: Any
) -> JSONResponse:
    return JSONResponse(error_body(code, message, details), status_code=status, **kwargs)


def aaaf_error_response(error: AAAFError) -> JSONResponse:
    return error_response(error.http_status, error.code, error.message, error.details)


def field_path(location: Sequence[Any]) -> str:
    """``("body", "events", 3, "type")`` → ``body.events[3].type``."""
    out = ""
    for part in location:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def validation_problems(errors: Sequence[Any]) -> list[dict[str, str]]:
    """One ``{"field", "message"}`` per problem pydantic found, in its order."""
    problems = []
    for error in errors:
        location = [part for part in error.get("loc", ()) if part != "__root__"]
        message = str(error.get("msg", "invalid value"))
        if error.get("type") == "json_invalid":
            message = "the body is not valid JSON" + (
                f" ({error['ctx']['error']})" if error.get("ctx", {}).get("error") else ""
            )
        problems.append({"field": field_path(location), "message": message})
    return problems


async def _on_aaaf_error(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, AAAFError)
    return aaaf_error_response(error)


async def _on_validation_error(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    problems = validation_problems(error.errors())
    named = "; ".join(f"{p['field']}: {p['message']}" for p in problems[:10])
    more = f" (and {len(problems) - 10} more)" if len(problems) > 10 else ""
    return error_response(
        400,
        "INVALID_REQUEST",
        f"Invalid request: {named}{more}.",
        {"field": problems[0]["field"] if problems else None, "fields": problems},
    )


async def _on_http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, StarletteHTTPException)
    headers = dict(error.headers or {})
    from aaaf.api.web.error_pages import error_page, wants_html

    if error.status_code == 404 and wants_html(request):  # a person's browser: the dashboard's page
        return error_page(request, 404, f"There is no page at {request.url.path}.")
    if error.status_code == 404:
        return error_response(
            404,
            "NOT_FOUND",
            f"No route {request.method} {request.url.path}.",
            {"path": request.url.path},
            headers=headers,
        )
    if error.status_code == 405:
        allowed = next((value for name, value in headers.items() if name.lower() == "allow"), None)
        return error_response(
            405,
            "INVALID_REQUEST",
            f"{request.method} is not allowed on {request.url.path}"
            + (f"; allowed: {allowed}." if allowed else "."),
            {"method": request.method, "path": request.url.path},
            headers=headers,
        )
    code = {401: "UNAUTHORIZED", 403: "FORBIDDEN", 413: "PAYLOAD_TOO_LARGE", 400: "INVALID_REQUEST"}.get(
        error.status_code, "INTERNAL_ERROR" if error.status_code >= 500 else "INVALID_REQUEST"
    )
    return error_response(error.status_code, code, str(error.detail), {}, headers=headers)


DATABASE_RETRY_AFTER_SECONDS = 2
_COMMIT_FRAMES = frozenset({"_commit_impl", "commit_prepared", "_commit_twophase_impl"})


def _lost_at_commit(error: BaseException) -> bool:
    """Whether the connection was lost while committing (then what was stored is unknown)."""
    return any(frame.f_code.co_name in _COMMIT_FRAMES for frame, _ in traceback.walk_tb(error.__traceback__))


def database_unavailable_response(request: Request, error: BaseException) -> JSONResponse:
    """503 ``SERVICE_UNAVAILABLE`` with ``Retry-After``; one warning line, no trace."""
    unknown = _lost_at_commit(error)
    log.warning(
        "%s %s: database unavailable (%s: %s)%s",
        request.method,
        request.url.path,
        type(error).__name__,
        str(error).strip().splitlines()[0] if str(error).strip() else "",
        "; lost at commit" if unknown else "",
    )
    retry = DATABASE_RETRY_AFTER_SECONDS
    details: dict[str, Any] = {"retry_after": retry, "outcome": "unknown" if unknown else "not_stored"}
    message = (
        "The database cannot be reached right now; "
        + (
            "the connection was lost while committing, so whether the request was stored is unknown"
            if unknown
            else "nothing of this request was stored"
        )
        + f'. Retry in {retry} s (retrying is safe; docs/api.md "Errors").'
    )
    return error_response(503, "SERVICE_UNAVAILABLE", message, details, headers={"Retry-After": str(retry)})


async def _on_database_unavailable(request: Request, error: Exception) -> JSONResponse:
    return database_unavailable_response(request, error)


async def _on_database_error(request: Request, error: Exception) -> JSONResponse:
    """A database error of another class (SQLAlchemy's "invalid transaction" after a lost
    connection, say): a 503 when a lost database is among its causes, answered here rather
    than by the catch-all, which Starlette answers and then raises again, so that the server
    closed the client's connection under it; any other is raised on to the catch-all (500)."""
    if database_unavailable(error):
        return database_unavailable_response(request, error)
    raise error


async def _on_unexpected(request: Request, error: Exception) -> Response:
    """The answer to anything unexpected (and to a lost database wrapped in something else).
    Starlette sends it from outside every middleware, so the security headers are added here
    (docs/security.md "Headers": every answer carries them)."""
    from aaaf.api.security_headers import add_security_headers

    response = _unexpected_response(request, error)
    add_security_headers(request.scope, response.headers)
    return response


def _unexpected_response(request: Request, error: Exception) -> Response:
    if database_unavailable(error):  # wrapped in something else: still a 503
        return database_unavailable_response(request, error)
    request_id = str(uuid.uuid4())
    log.error("request %s: %s %s failed", request_id, request.method, request.url.path, exc_info=error)
    from aaaf.api.web.error_pages import error_page, wants_html

    if wants_html(request):
        page = error_page(request, 500, f"Something went wrong on our side (request id {request_id}).")
        page.headers["X-Request-Id"] = request_id
        return page
    return error_response(
        500,
        "INTERNAL_ERROR",
        f"Internal server error (request id {request_id}).",
        {"request_id": request_id},
        headers={"X-Request-Id": request_id},
    )


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(AAAFError, _on_aaaf_error)
    app.add_exception_handler(RequestValidationError, _on_validation_error)
    app.add_exception_handler(StarletteHTTPException, _on_http_error)
    for unavailable in UNAVAILABLE_TYPES:
        app.add_exception_handler(unavailable, _on_database_unavailable)
    app.add_exception_handler(sa_exc.SQLAlchemyError, _on_database_error)
    app.add_exception_handler(Exception, _on_unexpected)
