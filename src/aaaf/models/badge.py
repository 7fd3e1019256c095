"""Badge verification (docs/scoring.md §7): the verdict and every check behind it."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from aaaf.models._base import PublicModel
from aaaf.models.error import ErrorDetail


class VerificationCheck(PublicModel):
    name: str
    ok: bool
    skipped: bool
    reason: str


class BadgeVerification(PublicModel):
    """``valid`` and, when not, ``reason`` (the first failed check); what the badge says."""

    valid: bool
    reason: str
    expired: bool
    revoked: bool | None
    revoke_reason: str | None
    revoked_at: str | None
    revocation_checked: bool
    revocation: str
    format: str | None
    kid: str | None
    credential_id: str | None
    issuer: str | None
    subject_id: str | None
    subject: dict[str, Any] | None
    valid_from: str | None
    valid_until: str | None
    checks: list[VerificationCheck]


class IssuedBadge(PublicModel):
    """The files ``aaaf badge issue`` wrote for one assessment."""

    assessment_id: str
    files: list[str]


class StatusListWritten(PublicModel):
    """What ``aaaf badge status-list --json`` prints: the signed revocation list's file and
    how many badges it marks revoked (W3C Bitstring Status List; docs/api.md)."""

    status_list: str
    revoked: int
    signed_now: bool = Field(
        True, description="Whether it was signed now (false: `--if-due` found it current and left it)."
    )
    valid_until: str | None = Field(None, description="Until when the list in the file is valid.")


class BadgeRecord(PublicModel):
    """A badge's record without its credential (``aaaf badge revoke --json``)."""

    id: str
    assessment_id: str
    agent_id: str
    organization_id: str
    status_index: int
    svg_url: str | None
    png_url: str | None
    issued_at: str
    valid_until: str
    revoked: bool
    revoked_at: str | None
    revoke_reason: str | None
    superseded_at: str | None
    current: bool


class BadgeRevoked(PublicModel):
    """``aaaf badge revoke --json``: the revoked badge and the status list rewritten."""

    badge: BadgeRecord
    status_list: str


class BadgeRevocation(PublicModel):
    """``POST /api/v1/badges/{id}/revoke``'s answer: revoked, when and why."""

    assessment_id: str
    revoked: bool
    revoked_at: str | None
    revoke_reason: str | None


class BadgeIssueOutcome(PublicModel):
    """One agent of ``aaaf badge --all --json``: the files written, or the error why none was."""

    agent: str
    assessment_id: str | None
    files: list[str]
    error: ErrorDetail | None = None
