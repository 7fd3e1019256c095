"""Offline verification of a badge: is it the issuer's, does it say what it shows, is it current?

Anyone holding a badge — PNG, SVG, ``.json`` or bare JWT — and the issuer's public key
can run these checks without the issuer's server (issue 7).  Each check has a name and,
when it fails, a reason naming what is wrong:

``format``     the file holds a credential (baked PNG/SVG, JSON with proof, JWT);
``signature``  the JWS verifies, ``alg`` EdDSA, with one of the given issuer keys;
``credential`` it is an OB 3.0 ``OpenBadgeCredential`` (contexts, types, issuer, subject);
``claims``     ``iss``/``sub``/``jti``/``nbf``/``exp`` are bound to the credential, ``nbf`` not in the future;
``document``   (``.json``) the readable document is exactly what the proof signed;
``scores``     the OB results and the document 004 §4.5 members agree, and each tier is
               the one its composite earns (SCORING.md §0, §2.3);
``image``      (PNG, SVG) the picture is the one the credential was issued for: its
               SHA-256 equals the one the credential carries (SCORING.md §7 "Badge
               images", :mod:`aaaf.badges.digest`; nothing is re-drawn), else
               "image does not match credential";
``validity``   ``validFrom`` has passed and ``validUntil`` has not (an expired badge is
               reported ``expired: true`` — SCORING.md §2.4);
``status``     revocation: from a status list given (the list is the issuer's, signed by
               the same key, and the badge's bit is not set) or from a ``status_source``
               (the issuing installation's own database); a revoked or superseded badge
               reports when and why.  When neither can answer, the check is skipped and
               says in words that revocation was *not* checked — a failure instead with
               ``require_status``.

``valid`` is true only when every check that ran passed.  The result also says what was
verified: agent, organization, assessment, both tiers and scores, issued and valid until, and
how much of each axis's evidence the issuer stress-tested itself (:func:`subject_summary`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from aaaf.badges.bake import BakingError, Extracted, extract
from aaaf.badges.credential import (
    VC2_CONTEXT,
    credential_of_payload,
    numeric_date,
    result_description_id,
    score_text,
)
from aaaf.badges.data import BadgeData, badge_data_from_credential, parse_datetime, provenance_of, utc
from aaaf.badges.digest import check_image
from aaaf.badges.keys import PublicKey
from aaaf.badges.signature import credential_subject, issuer_id, verify_jws
from aaaf.badges.status_check import StatusSource, revocation_words, status_of
from aaaf.models import BadgeVerification
from aaaf.scoring.core import tier_for
from aaaf.scoring.defaults import AXES, CAPABILITY_TIERS, PERFORMANCE_TIERS, AAAFConfig

_OB_CONTEXT = re.compile(r"^https://purl\.imsglobal\.org/spec/ob/v3p0/context(-\d+\.\d+\.\d+)?\.json$")
_TIERS = {"performance": PERFORMANCE_TIERS, "capability": CAPABILITY_TIERS}


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    reason: str
    skipped: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "ok": self.ok, "skipped": self.skipped, "reason": self.reason}


@dataclass(frozen=True)
class VerificationResult:
    """The verdict and every check behind it."""

    valid: bool
    checks: tuple[Check, ...]
    expired: bool = False
    revoked: bool | None = None
    revoke_reason: str | None = None
    revoked_at: str | None = None
    kind: str | None = None
    kid: str | None = None
    credential: Mapping[str, Any] | None = field(default=None, repr=False)
    revocation_checked: bool = False
    revocation: str = "not checked: the credential could not be read"

    @property
    def failed(self) -> list[Check]:
        return [check for check in self.checks if not check.ok and not check.skipped]

    @property
    def reason(self) -> str:
        """Why the badge is not valid (the first failed check), or 'valid'."""
        failed = self.failed
        return "valid" if not failed else f"{failed[0].name}: {failed[0].reason}"

    @property
    def subject(self) -> dict[str, Any] | None:
        """What the badge says (agent, organization, assessment, tiers, scores, dates), or None."""
        return None if self.credential is None else subject_summary(self.credential)

    def to_model(self) -> BadgeVerification:
        """The public shape :class:`aaaf.models.BadgeVerification`."""
        return BadgeVerification.model_validate(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        credential = self.credential or {}
        subject = credential_subject(credential) or {}
        return {
            "valid": self.valid,
            "reason": self.reason,
            "expired": self.expired,
            "revoked": self.revoked,
            "revoke_reason": self.revoke_reason,
            "revoked_at": self.revoked_at,
            "revocation_checked": self.revocation_checked,
            "revocation": self.revocation,
            "format": self.kind,
            "kid": self.kid,
            "credential_id": credential.get("id"),
            "issuer": issuer_id(credential.get("issuer")),
            "subject_id": subject.get("id"),
            "subject": self.subject,
            "valid_from": credential.get("validFrom"),
            "valid_until": credential.get("validUntil"),
            "checks": [check.to_dict() for check in self.checks],
        }


BORDERLINE_PROBABILITY = AAAFConfig().borderline_probability
"""A credential does not carry its issuer's threshold: the default of SCORING.md §2.5 (0.8)."""


def member(value: Mapping[str, Any] | None, name: str) -> Mapping[str, Any]:
    """``value[name]`` when it is an object, else an empty one (reading untrusted JSON)."""
    found = value.get(name) if isinstance(value, Mapping) else None
    return found if isinstance(found, Mapping) else {}


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _score(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def subject_summary(credential: Mapping[str, Any]) -> dict[str, Any]:
    """What a (signed) credential says, in the §4.5 members' own words; absent values are None."""
    subject = credential_subject(credential) or {}
    agent, assessment = member(subject, "agent"), member(subject, "assessment")
    issuer = credential.get("issuer")
    organization_name = _text(issuer.get("name")) if isinstance(issuer, Mapping) else None

    def axis(name: str) -> dict[str, Any]:
        body = member(subject, name)
        out: dict[str, Any] = {"tier": _text(body.get("tier")), "score": _score(body.get("composite_score"))}
        sure = member(body, "uncertainty")
        if sure:  # SCORING.md §2.5: the interval and the probability of the tier awarded
            ci = sure.get("ci")
            out["interval"] = [_score(v) for v in ci] if isinstance(ci, list) and len(ci) == 2 else None
            probability = _score(member(sure, "tier_probabilities").get(out["tier"] or ""))
            out["tier_probability"] = probability
            out["borderline"] = probability is not None and probability < BORDERLINE_PROBABILITY
        return out

    try:  # where each axis's evidence came from; None when the credential does not say
        provenance = provenance_of(subject.get("evidence_sources"))
    except (KeyError, TypeError, ValueError):
        provenance = None
    return {
        "agent": {"id": _text(agent.get("id")), "name": _text(agent.get("name"))},
        "organization": {"id": _text(agent.get("organization_id")), "name": organization_name},
        "assessment_id": _text(assessment.get("id")),
        "performance": axis("performance"),
        "capability": axis("capability"),
        "issued": _text(credential.get("validFrom")),
        "valid_until": _text(credential.get("validUntil")),
        "evidence_sources": provenance,
    }


class _Checks:
    def __init__(self) -> None:
        self.items: list[Check] = []

    def passed(self, name: str, reason: str) -> None:
        self.items.append(Check(name, True, reason))

    def failed(self, name: str, reason: str) -> None:
        self.items.append(Check(name, False, reason))

    def skipped(self, name: str, reason: str) -> None:
        self.items.append(Check(name, True, reason, skipped=True))


# -- credential checks -------------------------------------------------------------------


def _check_structure(credential: Mapping[str, Any]) -> str | None:
    context = credential.get("@context")
    if not isinstance(context, list) or len(context) < 2:
        return "@context must list the VC 2.0 and OB 3.0 contexts"
    if context[0] != VC2_CONTEXT:
        return f"@context[0] must be {VC2_CONTEXT}"
    if not isinstance(context[1], str) or not _OB_CONTEXT.match(context[1]):
        return "@context[1] must be the OB 3.0 context"
    types = credential.get("type")
    types = [types] if isinstance(types, str) else types
    if not isinstance(types, list) or "VerifiableCredential" not in types:
        return "type must include VerifiableCredential"
    if not {"OpenBadgeCredential", "AchievementCredential"} & {t for t in types if isinstance(t, str)}:
        return "type must include OpenBadgeCredential"
    if not isinstance(credential.get("id"), str):
        return "the credential has no id"
    if issuer_id(credential.get("issuer")) is None:
        return "the credential has no issuer id"
    if not isinstance(credential.get("validFrom"), str):
        return "the credential has no validFrom"
    subject = credential_subject(credential)
    if subject is None or not isinstance(subject.get("id"), str):
        return "the credentialSubject has no id"
    achievement = subject.get("achievement")
    if not isinstance(achievement, Mapping):
        return "the credentialSubject holds no achievement"
    for name in ("id", "name", "description", "criteria"):
        if name not in achievement:
            return f"the achievement has no {name}"
    return None


def _check_claims(payload: Mapping[str, Any], credential: Mapping[str, Any], now: datetime) -> str | None:
    subject = credential_subject(credential) or {}
    expected = {
        "iss": issuer_id(credential.get("issuer")),
        "sub": subject.get("id"),
        "jti": credential.get("id"),
    }
    for claim, value in expected.items():
        if payload.get(claim) is None:
            return f"the JWT has no {claim} claim"
        if payload.get(claim) != value:
            return f"{claim} {payload.get(claim)!r} does not match the credential ({value!r})"
    nbf = payload.get("nbf")
    if not isinstance(nbf, int) or isinstance(nbf, bool):
        return "the JWT has no numeric nbf claim"
    try:
        valid_from = parse_datetime(str(credential["validFrom"]))
    except ValueError as error:
        return f"validFrom is not a date-time: {error}"
    if nbf != numeric_date(valid_from):
        return f"nbf {nbf} does not match validFrom {credential['validFrom']}"
    if nbf > numeric_date(now):
        return f"nbf {nbf} is in the future"
    valid_until = credential.get("validUntil")
    exp = payload.get("exp")
    if valid_until is None:
        if exp is not None:
            return "exp is set but the credential has no validUntil"
        return None
    try:
        until = parse_datetime(str(valid_until))
    except ValueError as error:
        return f"validUntil is not a date-time: {error}"
    if exp != numeric_date(until):
        return f"exp {exp!r} does not match validUntil {valid_until}"
    return None


def _differences(left: Any, right: Any, path: str = "") -> list[str]:
    """Paths where two JSON values differ (for naming what was edited)."""
    if isinstance(left, Mapping) and isinstance(right, Mapping):
        out: list[str] = []
        for key in sorted(set(left) | set(right), key=str):
            where = f"{path}.{key}" if path else str(key)
            if key not in left or key not in right:
                out.append(where)
            else:
                out.extend(_differences(left[key], right[key], where))
        return out
    if isinstance(left, list) and isinstance(right, list):
        if len(left) != len(right):
            return [path or "(root)"]
        out = []
        for index, (a, b) in enumerate(zip(left, right, strict=True)):
            out.extend(_differences(a, b, f"{path}[{index}]"))
        return out
    same = type(left) is type(right) and left == right
    return [] if same else [path or "(root)"]


def _check_document(document: Mapping[str, Any], credential: Mapping[str, Any]) -> str | None:
    readable = {k: v for k, v in document.items() if k != "proof"}
    changed = _differences(readable, dict(credential))
    if not changed:
        return None
    shown = ", ".join(changed[:5]) + (f" and {len(changed) - 5} more" if len(changed) > 5 else "")
    return f"the document differs from what its proof signed at {shown}"


def _check_scores(credential: Mapping[str, Any], data: BadgeData) -> str | None:
    subject = credential_subject(credential) or {}
    results = subject.get("result")
    by_description: dict[str, Any] = {}
    if isinstance(results, list):
        for entry in results:
            if isinstance(entry, Mapping) and isinstance(entry.get("resultDescription"), str):
                by_description[entry["resultDescription"]] = entry.get("value")
    for axis, dimensions in AXES.items():
        summary = data.axis(axis)
        composite = summary.composite_score
        pairs: list[tuple[str, str | None]] = [
            (f"{axis}-composite", None if composite is None else score_text(composite)),
            (f"{axis}-tier", summary.tier),
        ]
        for name in dimensions:
            score = summary.dimensions.get(name)
            pairs.append((f"{axis}.{name}", None if score is None else score_text(score)))
        for key, expected in pairs:
            rid = result_description_id(data, key)
            if rid not in by_description:
                return f"no result for {key}"
            if by_description[rid] != expected:
                return f"result {key} is {by_description[rid]!r} but {axis} says {expected!r}"
        if composite is not None:
            earned = tier_for(composite, _TIERS[axis])
            if summary.tier != earned:
                return f"{axis} tier {summary.tier!r} is not the tier a composite of {composite!r} earns ({earned})"
        elif summary.tier is not None:
            return f"{axis} has tier {summary.tier!r} without a composite score"
    return None


# -- the verdict -------------------------------------------------------------------------


def verify(
    content: bytes | str,
    public_keys: Sequence[PublicKey],
    *,
    now: datetime,
    status_list: bytes | str | None = None,
    status_source: StatusSource | None = None,
    require_status: bool = False,
) -> VerificationResult:
    """Verify a badge file's content (PNG/SVG/JSON/JWT bytes, or a JWT string).

    Revocation is asked of ``status_source`` first; ``status_list`` answers when the source
    cannot, and otherwise can only add a revocation (:func:`aaaf.badges.status_check.status_of`); with neither (or when
    neither can tell) the ``status`` check is skipped with the words "revocation not checked: …", or fails when
    ``require_status`` (module docstring).
    """
    checks = _Checks()
    raw = content.encode("utf-8") if isinstance(content, str) else content
    try:
        extracted: Extracted = extract(raw)
    except (BakingError, UnicodeDecodeError) as error:
        checks.failed("format", str(error))
        return VerificationResult(False, tuple(checks.items))
    checks.passed("format", f"{extracted.kind} file carrying a compact VC-JWT")

    payload, kid, why = verify_jws(extracted.token, public_keys)
    if payload is None:
        checks.failed("signature", why)
        return VerificationResult(False, tuple(checks.items), kind=extracted.kind)
    checks.passed("signature", why)
    credential = credential_of_payload(payload)

    def verdict(**extra: Any) -> VerificationResult:
        items = tuple(checks.items)
        valid = all(check.ok for check in items)
        return VerificationResult(valid, items, kind=extracted.kind, kid=kid, credential=credential, **extra)

    problem = _check_structure(credential)
    if problem:
        checks.failed("credential", problem)
        return verdict()
    checks.passed("credential", "an OB 3.0 OpenBadgeCredential (VC 2.0 data model)")

    problem = _check_claims(payload, credential, now)
    (checks.failed if problem else checks.passed)(
        "claims", problem or "iss, sub, jti, nbf and exp match the credential"
    )

    if extracted.document is not None:
        problem = _check_document(extracted.document, credential)
        (checks.failed if problem else checks.passed)(
            "document", problem or "the document is exactly what was signed"
        )

    data: BadgeData | None
    try:
        data = badge_data_from_credential(credential)
    except (KeyError, TypeError, ValueError) as error:
        data = None
        checks.failed("scores", f"the credential does not carry the AAAF badge section: {error}")
    if data is not None:
        problem = _check_scores(credential, data)
        (checks.failed if problem else checks.passed)(
            "scores", problem or "results, §4.5 scores and tiers agree"
        )
    if extracted.kind in ("png", "svg"):
        problem = check_image(extracted.kind, raw, credential)
        (checks.failed if problem else checks.passed)(
            "image", problem or f"the {extracted.kind.upper()} is the picture the credential was issued for"
        )

    expired = False
    try:
        valid_from = parse_datetime(str(credential["validFrom"]))
        valid_until = credential.get("validUntil")
        until = parse_datetime(str(valid_until)) if valid_until else None
    except ValueError as error:
        checks.failed("validity", f"unreadable validity dates: {error}")
    else:
        if valid_from > utc(now):
            checks.failed("validity", f"not valid before {credential['validFrom']}")
        elif until is not None and until <= utc(now):
            expired = True
            checks.failed("validity", f"expired on {valid_until}")
        else:
            checks.passed(
                "validity", f"valid from {credential['validFrom']} until {valid_until or 'no end date'}"
            )

    outcome = status_of(credential, kid, public_keys, now, status_list, status_source)
    if not outcome.checked:
        if require_status:
            checks.failed("status", f"{outcome.reason}; a status check is required (--require-status)")
        else:
            checks.skipped("status", outcome.reason)
    else:
        (checks.passed if outcome.ok else checks.failed)("status", outcome.reason)
    return verdict(
        expired=expired,
        revoked=outcome.revoked,
        revoke_reason=outcome.revoke_reason,
        revoked_at=outcome.revoked_at,
        revocation_checked=outcome.checked,
        revocation=outcome.reason if not outcome.checked else revocation_words(outcome),
    )
