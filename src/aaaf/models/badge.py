"""Badge verification (docs/scoring.md §7): the verdict and every check behind it."""

from __future__ import annotations

from pydantic import Field

from aaaf.models._base import OpenModel, PublicModel
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
    subject: dict[str, object] | None
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


class PublicVerification(PublicModel):
    """``GET /api/v1/badges/{id}/verify`` (public; docs/api.md "Verification page"): whether the
    badge on record is valid and what it says.  A private badge answers only ``valid``,
    ``assessment_id`` and ``visibility``."""

    valid: bool
    assessment_id: str
    visibility: str | None = None
    agent_name: str | None = None
    organization: str | None = None
    performance_tier: str | None = None
    capability_tier: str | None = None
    evidence_sources: dict[str, object] | None = None
    issued: str | None = None
    valid_until: str | None = None
    expired: bool | None = None
    revoked: bool | None = None
    reason: str | None = None


class BadgeOnRecord(PublicModel):
    """A badge record of the organization (``GET``/``PATCH /api/v1/badges/{id}``): its latest
    credential, status-list bit, dates, revocation and visibility.  A badge not issued yet
    answers only ``assessment_id`` and ``visibility``."""

    id: str | None = None
    assessment_id: str
    agent_id: str | None = None
    organization_id: str | None = None
    status_index: int | None = None
    svg_url: str | None = None
    png_url: str | None = None
    json_data: dict[str, object] | None = None
    credential_jwt: str | None = None
    issued_at: str | None = None
    valid_until: str | None = None
    revoked: bool | None = None
    revoked_at: str | None = None
    revoke_reason: str | None = None
    superseded_at: str | None = None
    current: bool | None = None
    visibility: str


class Jwk(PublicModel):
    """One Ed25519 public key of the issuer (RFC 8037)."""

    kty: str
    crv: str
    x: str
    kid: str
    alg: str
    use: str


class Jwks(PublicModel):
    """The issuer's public keys (a JWK Set, RFC 7517), to verify badges offline."""

    keys: list[Jwk]


class CredentialProof(PublicModel):
    """The compact JWT the credential was signed as (VC-JWT)."""

    type: str
    jwt: str


class BadgeCredential(OpenModel):
    """The ``.json`` badge: the signed Open Badges 3.0 credential, readable, with its proof
    (docs/api.md "Badge visibility"); open: status, image digests and further terms follow."""

    context: list[object] = Field(alias="@context")
    id: str
    type: list[str]
    name: str
    description: str
    image: dict[str, object]
    issuer: dict[str, object]
    validFrom: str
    validUntil: str
    awardedDate: str
    credentialSubject: dict[str, object]
    evidence: list[dict[str, object]]
    credentialSchema: list[dict[str, object]]
    proof: CredentialProof
