"""Typed exceptions of the SDK (issue 18 §1): each carries document 004 §6.4's error ``code``,
``message`` and ``details`` (``{"error": {"code", "message", "details"}}``) and the HTTP status.

The class follows the status (``NotFoundError`` for 404, ``RateLimitedError`` for 429…); the
``code`` names the precise problem (``NOT_FOUND``, ``INSUFFICIENT_EVIDENCE``,
``PAYLOAD_TOO_LARGE`` and SCORING.md §7's other codes).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from email.utils import parsedate_to_datetime
from typing import Any, Protocol, TypeVar


class AAAFError(Exception):
    """Any error answer of the service (or a failure to reach it)."""

    def __init__(
        self,
        code: str,
        message: str,
        details: Mapping[str, Any] | None = None,
        *,
        status_code: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.details: dict[str, Any] = dict(details or {})
        self.status_code = status_code
        self.retry_after = retry_after


class BadRequestError(AAAFError):
    """400: the request (or one event) is invalid."""


class AuthenticationError(AAAFError):
    """401: no key, or an unknown or revoked one."""


class PermissionDeniedError(AAAFError):
    """403: the key lacks a scope, or the action is forbidden."""


class NotFoundError(AAAFError):
    """404: the resource does not exist in the caller's organization."""


class ConflictError(AAAFError):
    """409: a name already taken, a conflicting duplicate."""


class PayloadTooLargeError(AAAFError):
    """413: a body over 1 MiB or a batch over 1 000 events."""


class UnprocessableError(AAAFError):
    """422: e.g. ``INSUFFICIENT_EVIDENCE``, ``WEIGHT_SUM_INVALID``, ``APPEAL_NOT_ALLOWED``."""


class RateLimitedError(AAAFError):
    """429 ``RATE_LIMITED``; ``retry_after`` holds the server's ``Retry-After`` in seconds."""


class ServerError(AAAFError):
    """5xx: the service failed or is unavailable."""


class ConnectionFailedError(AAAFError):
    """The service could not be reached (code ``CONNECTION_ERROR``)."""


_BY_STATUS: dict[int, type[AAAFError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    413: PayloadTooLargeError,
    422: UnprocessableError,
    429: RateLimitedError,
}


def retry_after_seconds(value: str | None) -> float | None:
    """``Retry-After`` as seconds: a number of seconds or an HTTP date (RFC 9110 §10.2.3)."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        from datetime import UTC, datetime

        moment = parsedate_to_datetime(value)
        return max(0.0, (moment - datetime.now(UTC)).total_seconds())
    except (TypeError, ValueError):
        return None


def error_from_response(status: int, content: bytes, headers: Mapping[str, str]) -> AAAFError:
    """The typed exception of an error answer (§6.4's body; any other body is kept in
    ``details["body"]`` under the code ``HTTP_<status>``)."""
    code, message, details = f"HTTP_{status}", f"HTTP {status}", {}
    try:
        body = json.loads(content)
    except ValueError:
        body = None
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict) and isinstance(error.get("code"), str):
        code = error["code"]
        message = str(error.get("message", message))
        raw_details = error.get("details")
        details = dict(raw_details) if isinstance(raw_details, dict) else {}
    elif content:
        details = {"body": content[:2000].decode("utf-8", "replace")}
    cls = _BY_STATUS.get(status, ServerError if status >= 500 else AAAFError)
    return cls(
        code,
        message,
        details,
        status_code=status,
        retry_after=retry_after_seconds(headers.get("retry-after")),
    )


class _HasStatus(Protocol):
    @property
    def status_code(self) -> int: ...
    @property
    def content(self) -> bytes: ...
    @property
    def headers(self) -> Any: ...


R = TypeVar("R", bound=_HasStatus)


def checked(response: R) -> R:
    """``response`` itself when it is a success; else raise its typed exception."""
    status = int(response.status_code)
    if status >= 400:
        raise error_from_response(status, response.content, response.headers)
    return response
