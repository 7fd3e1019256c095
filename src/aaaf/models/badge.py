"""Badge verification (SCORING.md §6): the verdict and every check behind it."""

from __future__ import annotations

from typing import Any

from aaaf.models._base import PublicModel


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
    how many badges it marks revoked (W3C Bitstring Status List; SCORING.md §7)."""

    status_list: str
    revoked: int
