"""The error body of docs/api.md (``aaaf.errors.AAAFError.to_dict``)."""

from __future__ import annotations

from aaaf.models._base import PublicModel


class ErrorDetail(PublicModel):
    """``code`` is one of docs/api.md's error codes; ``details`` is absent when empty."""

    code: str
    message: str
    details: dict[str, object] | None = None


class ErrorBody(PublicModel):
    """docs/api.md: ``{"error": {"code", "message", "details"?}}``."""

    error: ErrorDetail


def error_body(
    code: str, message: str, details: dict[str, object] | None, *, empty_details: bool
) -> ErrorBody:
    """The §6.4 body.  ``empty_details``: whether ``details`` is given even when empty (the
    API always answers an object; the CLI leaves an empty one out)."""
    if details or empty_details:
        return ErrorBody(error=ErrorDetail(code=code, message=message, details=dict(details or {})))
    return ErrorBody(error=ErrorDetail(code=code, message=message))
