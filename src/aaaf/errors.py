"""One error type for the whole product (DESIGN.md: one error type, mapped once).

`AAAFError` carries a machine-readable `code` from document 004 §6.4 (plus the codes
SCORING.md adds), a human message that names the problem, and `details`.  The API maps
it to the §6.4 JSON body and HTTP status; the CLI maps it to an exit code (2 for bad
input, 1 for anything else).
"""

from __future__ import annotations

from typing import Any

# code -> (HTTP status, CLI exit code)
ERROR_CODES: dict[str, tuple[int, int]] = {
    "INVALID_REQUEST": (400, 2),
    "INVALID_EVENT_TYPE": (400, 2),
    "UNAUTHORIZED": (401, 1),
    "FORBIDDEN": (403, 1),
    "NOT_FOUND": (404, 2),
    "CONFLICT": (409, 2),
    "ASSESSMENT_IN_PROGRESS": (409, 1),
    "APPEAL_NOT_ALLOWED": (422, 2),
    "INSUFFICIENT_EVIDENCE": (422, 2),
    "WEIGHT_SUM_INVALID": (422, 2),
    "BADGE_HELD": (409, 2),
    "VERIFICATION_FAILED": (422, 1),
    "PAYLOAD_TOO_LARGE": (413, 2),
    "RATE_LIMITED": (429, 1),
    "INTERNAL_ERROR": (500, 1),
    # per-item codes of batch and collect errors (SCORING.md §7 "Error codes")
    "DUPLICATE_CONFLICT": (409, 2),
    "AGENT_MISMATCH": (400, 2),
    # an event marked as stress-test evidence sent by anything but this installation's harness
    # (docs/stress-tests.md "Provenance")
    "STRESS_EVIDENCE_REFUSED": (400, 2),
    "NOT_IMPLEMENTED": (501, 1),
    # code of an agent or a library author runs only in a sandbox (docs/stress-tests.md "Sandbox"):
    # none is configured or available, so nothing ran
    "SANDBOX_UNAVAILABLE": (503, 2),
    # the database cannot be reached right now (a lost connection, a refused one, a pool
    # timeout): retry after Retry-After (docs/api.md "Errors")
    "SERVICE_UNAVAILABLE": (503, 1),
    # a command needs an optional part of the install that is missing (aaaf.extras): it names the
    # extra to install
    "MISSING_EXTRA": (501, 2),
}


class AAAFError(Exception):
    """An error with a §6.4 code, a message naming the problem, and details."""

    def __init__(self, code: str, message: str, details: dict[str, Any] | None = None) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message
        self.details: dict[str, Any] = dict(details or {})

    @property
    def http_status(self) -> int:
        return ERROR_CODES[self.code][0]

    @property
    def exit_code(self) -> int:
        return ERROR_CODES[self.code][1]

    def to_dict(self) -> dict[str, Any]:
        """The §6.4 error body."""
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details:
            body["details"] = self.details
        return {"error": body}

    def __repr__(self) -> str:
        return f"AAAFError({self.code!r}, {self.message!r}, {self.details!r})"
