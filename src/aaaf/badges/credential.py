"""The badge as an Open Badges 3.0 ``OpenBadgeCredential`` (W3C VC 2.0 data model), signed as a VC-JWT.

Shape (1EdTech OB 3.0 §B.1, issue 7 item 2):

* ``@context``: the VC 2.0 context, then the OB 3.0 context;
* ``type``: ``["VerifiableCredential", "OpenBadgeCredential"]``;
* ``issuer``: the organization as a ``Profile``;
* ``credentialSubject``: the agent (``id`` = ``urn:uuid:<agent id>``) as an
  ``AchievementSubject`` holding the ``Achievement`` (id, name, description, criteria,
  a ``resultDescription`` per composite, tier and dimension, ``alignment`` to the
  standards of document 004 §2) and a ``result`` for each of them — scores as their
  unrounded decimal text, since an OB ``Result.value`` is a string — plus the document
  004 §4.5 members under their own names (``agent``, ``assessment``, ``performance``,
  ``capability``, ``standards_alignment``, ``verification_url``) with unrounded numbers,
  so that a reader of document 004 finds them, the assessment's ``audit`` (SCORING.md
  §2.6: ``coverage``, ``honesty``, ``audited_tasks``, ``required_rate``, ``met``) and its
  ``evidence_sources`` (per axis, the tasks and events stress-tested by this installation
  and those reported by the organization, and the stress runs: docs/stress-tests.md
  "Provenance");
* ``validFrom``/``validUntil`` (completion, and completion + validity — SCORING.md §2.4),
  ``evidence`` (OB 3.0 ``Evidence``): the assessment, whose ``narrative`` says in words where
  each axis's evidence came from, and each stress run of this installation behind it;
  ``credentialStatus`` (a
  ``BitstringStatusListEntry`` for revocation), ``credentialSchema`` and
  ``imageDigests``, the SHA-256 of the SVG and PNG it is baked into
  (:mod:`aaaf.badges.digest`, SCORING.md §7 "Badge images").

Signing (OB 3.0 §8.2, native VC-JWT): the JWT payload *is* the credential — no ``vc``
wrapper — with the registered claims bound to it: ``iss`` = issuer id, ``sub`` = subject
id, ``jti`` = credential id, ``nbf`` = ``validFrom`` (never in the future), ``exp`` =
``validUntil``; header ``alg`` ``EdDSA`` (Ed25519), ``typ`` ``vc+jwt``, ``kid`` the RFC 7638
thumbprint.  RFC 9864 deprecates the polymorphic ``EdDSA`` name in favour of ``Ed25519``,
and joserfc warns about it, but OB 3.0 verifiers (openbadgeslib among them) accept only
``EdDSA`` for Ed25519 keys, so that is what we write.

The ``.json`` file is the same credential with its proof attached
(``proof: {type: JwtProof2020, jwt: …}``), so it verifies on its own: the verifier
checks the JWT and that the readable document is exactly what the JWT signed.
"""

from __future__ import annotations

import base64
import json
import math
import warnings
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from joserfc import jws

from aaaf.badges.data import AXIS_TIERS, BadgeData, parse_datetime, utc, xsd_datetime
from aaaf.badges.keys import IssuerKey
from aaaf.scoring.defaults import AXES, BADGE_STANDARDS, STANDARDS_ALIGNMENT
from aaaf.scoring.evidence_sources import provenance_lines

VC2_CONTEXT = "https://www.w3.org/ns/credentials/v2"
OB3_CONTEXT = "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json"
OB3_SCHEMA = {
    "id": "https://purl.imsglobal.org/spec/ob/v3p0/schema/json/ob_v3p0_achievementcredential_schema.json",
    "type": "1EdTechJsonSchemaValidator2019",
}
CREDENTIAL_TYPES = ["VerifiableCredential", "OpenBadgeCredential"]
ACHIEVEMENT_TYPE = "ext:AgentAssessmentBadge"
JWT_ALG = "EdDSA"
JWT_TYP = "vc+jwt"
PROOF_TYPE = "JwtProof2020"
REGISTERED_CLAIMS = ("iss", "sub", "jti", "nbf", "exp", "iat", "aud")
IMAGE_DIGESTS = "imageDigests"  # the digests of the pictures (aaaf.badges.digest)

# Where each standard of document 004 §2 is officially described (Alignment.targetUrl).
STANDARDS: Mapping[str, tuple[str, str]] = {
    "NIST AI 100-1": (
        "https://doi.org/10.6028/NIST.AI.100-1",
        "Artificial Intelligence Risk Management Framework (AI RMF 1.0)",
    ),
    "ISO/IEC 42001:2023": (
        "https://www.iso.org/standard/81230.html",
        "Information technology — Artificial intelligence — Management system",
    ),
    "ISO/IEC 25059:2023": (
        "https://www.iso.org/standard/80655.html",
        "Software engineering — SQuaRE — Quality model for AI systems",
    ),
    "ISO/IEC 22989:2022": (
        "https://www.iso.org/standard/74296.html",
        "Information technology — Artificial intelligence — Artificial intelligence concepts and terminology",
    ),
    "NIST AI 600-1": (
        "https://doi.org/10.6028/NIST.AI.600-1",
        "Artificial Intelligence Risk Management Framework: Generative Artificial Intelligence Profile",
    ),
    "IEEE P2894": ("https://standards.ieee.org/", "Standard for AI Agent Interoperability (project)"),
    "NIST AI Agent Standards Initiative": ("https://www.nist.gov/", "AI Agent Standards Initiative (2026)"),
}
AXIS_LABEL = {"performance": "Performance", "capability": "Capability"}


def _alignment(standard: str, code: str | None = None) -> dict[str, Any]:
    url, title = STANDARDS[standard]
    entry: dict[str, Any] = {
        "type": ["Alignment"],
        "targetName": standard,
        "targetUrl": url,
        "targetDescription": title,
        "targetFramework": standard,
    }
    if code:
        entry["targetCode"] = code
    return entry


def _dimension_alignments(dimension: str) -> list[dict[str, Any]]:
    """The dimension's primary standard(s) and clause (document 004 §2 mapping table)."""
    standard, clause = STANDARDS_ALIGNMENT[dimension]
    return [_alignment(name.strip(), clause) for name in standard.split("+")]


def result_description_id(data: BadgeData, key: str) -> str:
    return f"{data.achievement_id}#{key}"


def _result_descriptions(data: BadgeData) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for axis, dimensions in AXES.items():
        label = AXIS_LABEL[axis]
        out.append(
            {
                "id": result_description_id(data, f"{axis}-composite"),
                "type": ["ResultDescription"],
                "name": f"{label} composite score",
                "resultType": "ScaledScore",
                "valueMin": "0",
                "valueMax": "1",
            }
        )
        out.append(
            {
                "id": result_description_id(data, f"{axis}-tier"),
                "type": ["ResultDescription"],
                "name": f"{label} tier",
                "resultType": "PerformanceLevel",
                "allowedValue": list(AXIS_TIERS[axis]),
            }
        )
        for dimension in dimensions:
            out.append(
                {
                    "id": result_description_id(data, f"{axis}.{dimension}"),
                    "type": ["ResultDescription"],
                    "name": f"{label} dimension {dimension}",
                    "resultType": "ScaledScore",
                    "valueMin": "0",
                    "valueMax": "1",
                    "alignment": _dimension_alignments(dimension),
                }
            )
    return out


def score_text(value: float) -> str:
    """A score as OB ``Result.value`` text: the shortest decimal that round-trips (unrounded)."""
    if not math.isfinite(value):
        raise ValueError(f"score is not finite: {value!r}")
    return repr(float(value))


def _result(data: BadgeData, key: str, value: str | None) -> dict[str, Any]:
    entry: dict[str, Any] = {"type": ["Result"], "resultDescription": result_description_id(data, key)}
    if value is not None:
        entry["value"] = value
    return entry


def _results(data: BadgeData) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for axis, dimensions in AXES.items():
        summary = data.axis(axis)
        composite = summary.composite_score
        out.append(_result(data, f"{axis}-composite", None if composite is None else score_text(composite)))
        out.append(_result(data, f"{axis}-tier", summary.tier))
        for dimension in dimensions:
            score = summary.dimensions.get(dimension)
            out.append(_result(data, f"{axis}.{dimension}", None if score is None else score_text(score)))
    return out


def _achievement(data: BadgeData) -> dict[str, Any]:
    perf_tiers = " < ".join(AXIS_TIERS["performance"])
    cap_tiers = " < ".join(AXIS_TIERS["capability"])
    return {
        "id": data.achievement_id,
        "type": ["Achievement"],
        "achievementType": ACHIEVEMENT_TYPE,
        "name": "AAAF Agent Assessment",
        "description": (
            "A dual-axis assessment of an AI agent under the AI Agent Assessment Framework: "
            "Performance (how well it executes the tasks it is given) and Capability (what it can do), "
            "each a weighted composite of evidence-based dimension scores in [0, 1] mapped to a tier."
        ),
        "criteria": {
            "narrative": (
                "Awarded for a completed AAAF assessment of the agent's recorded "
                "evidence over its assessment window: each dimension is scored from that evidence "
                "(null when there is none), each composite is the weighted mean over the covered "
                "dimensions with the weights renormalised, and each tier is decided on the unrounded "
                f"composite, lower bound inclusive (performance: {perf_tiers}; capability: {cap_tiers}). "
                "Valid for the organization's validity period from completion unless revoked."
            )
        },
        "alignment": [_alignment(name) for name in BADGE_STANDARDS],
        "resultDescription": _result_descriptions(data),
        "tag": ["AAAF", "AI agent assessment"],
    }


def _evidence(data: BadgeData) -> list[dict[str, Any]]:
    """OB 3.0 ``evidence``: the assessment record — its ``narrative`` saying how much of each
    axis's evidence this installation stress-tested and how much the organization reported
    (docs/stress-tests.md "Provenance") — then one ``Evidence`` per stress run of this
    installation behind it."""
    record: dict[str, Any] = {
        "id": data.evidence_url,
        "type": ["Evidence"],
        "name": f"AAAF assessment {data.assessment_id}",
        "description": (
            f"{data.assessment_type} assessment over the window "
            f"{xsd_datetime(data.window_start)} to {xsd_datetime(data.window_end)}"
        ),
        "genre": "Assessment record",
    }
    if data.evidence_sources is None:
        return [record]
    record["narrative"] = "\n\n".join(provenance_lines(data.evidence_sources))
    runs = [
        {
            "id": f"{data.api_base}/stress-runs/{run}",
            "type": ["Evidence"],
            "name": f"Stress run {run}",
            "description": (
                "A run of the stress-test library by this installation's own harness; the assessment "
                "scored its evidence as stress-tested."
            ),
            "genre": "Stress test run",
        }
        for run in data.evidence_sources["stress_runs"]
    ]
    return [record, *runs]


def status_entry(status_list_url: str, index: int) -> dict[str, Any]:
    """The ``credentialStatus`` of a badge: its bit in the org's revocation list."""
    if index < 0:
        raise ValueError(f"status index must be non-negative, got {index}")
    return {
        "id": f"{status_list_url}#{index}",
        "type": "BitstringStatusListEntry",
        "statusPurpose": "revocation",
        "statusListIndex": str(index),
        "statusListCredential": status_list_url,
    }


def build_credential(
    data: BadgeData,
    *,
    status: Mapping[str, Any] | None,
    now: datetime,
    credential_id: str | None = None,
    images: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The unsigned OB 3.0 credential of a badge (module docstring).

    ``validFrom`` is the assessment's completion, but never later than ``now``: the
    credential (and its ``nbf``) is never dated in the future.  ``credential_id`` (the
    ``id`` and JWT ``jti``) names this one credential: an assessment whose scores change
    on appeal gets a new credential, so the store gives each its own ``urn:uuid:`` id;
    without one the badge's URL (``data.credential_id``) is used.  ``images`` is the
    ``imageDigests`` member (:func:`aaaf.badges.digest.image_digests`): the SHA-256 of
    the SVG and PNG the credential will be baked into (SCORING.md §7 "Badge images").
    """
    valid_from = min(utc(data.completed_at), utc(now))
    subject: dict[str, Any] = {
        "id": data.subject_id,
        "type": ["AchievementSubject"],
        "achievement": _achievement(data),
        "result": _results(data),
    }
    section = data.to_section_4_5()
    for name in (
        "agent",
        "assessment",
        "performance",
        "capability",
        "standards_alignment",
        "verification_url",
    ):
        subject[name] = section[name]
    if "audit" in section:  # SCORING.md §2.6: coverage and honesty of the assessment's audit
        subject["audit"] = section["audit"]
    if "evidence_sources" in section:  # each axis's evidence: stress-tested here or reported
        subject["evidence_sources"] = section["evidence_sources"]
    credential: dict[str, Any] = {
        "@context": [VC2_CONTEXT, OB3_CONTEXT],
        "id": credential_id or data.credential_id,
        "type": list(CREDENTIAL_TYPES),
        "name": f"AAAF assessment badge of {data.agent_name}",
        "description": (
            f"{data.organization_name} assessed agent {data.agent_name} on {xsd_datetime(data.completed_at)}: "
            f"performance {data.performance.tier or 'not rated'}, capability {data.capability.tier or 'not rated'}."
        ),
        "image": {"id": f"{data.credential_id}.svg", "type": "Image", "caption": "AAAF badge (SVG)"},
        "issuer": {
            "id": data.issuer_id,
            "type": ["Profile"],
            "name": data.organization_name,
            "url": data.base_url.rstrip("/"),
        },
        "validFrom": xsd_datetime(valid_from),
        "validUntil": xsd_datetime(data.valid_until),
        "awardedDate": xsd_datetime(valid_from),
        "credentialSubject": subject,
        "evidence": _evidence(data),
        "credentialSchema": [dict(OB3_SCHEMA)],
    }
    if status is not None:
        credential["credentialStatus"] = dict(status)
    if images is not None:
        credential[IMAGE_DIGESTS] = {kind: dict(entry) for kind, entry in images.items()}
    return credential


# -- JWT ---------------------------------------------------------------------------------


def _b64url_decode(segment: str) -> bytes:
    return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))


def canonical_bytes(document: Mapping[str, Any]) -> bytes:
    """The JSON text a JWT carries: compact, UTF-8, full float precision, no NaN."""
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


def numeric_date(ts: datetime) -> int:
    return math.floor(utc(ts).timestamp())


def registered_claims(credential: Mapping[str, Any]) -> dict[str, Any]:
    """The JWT claims bound to a credential (OB 3.0 §8.2.4.1)."""
    issuer = credential["issuer"]
    subject = credential["credentialSubject"]
    claims: dict[str, Any] = {
        "iss": issuer["id"] if isinstance(issuer, Mapping) else issuer,
        "jti": credential["id"],
        "nbf": numeric_date(parse_datetime(credential["validFrom"])),
    }
    if isinstance(subject, Mapping) and subject.get("id"):
        claims["sub"] = subject["id"]
    if credential.get("validUntil"):
        claims["exp"] = numeric_date(parse_datetime(credential["validUntil"]))
    return claims


def sign_document(document: Mapping[str, Any], key: IssuerKey) -> str:
    """Sign any VC (badge or status list) as a native VC-JWT: payload = document + claims."""
    payload = dict(document)
    for claim in REGISTERED_CLAIMS:
        payload.pop(claim, None)
    payload.update(registered_claims(document))
    header = {"alg": JWT_ALG, "typ": JWT_TYP, "kid": key.kid}
    with warnings.catch_warnings():
        # RFC 9864 deprecation of the "EdDSA" name; OB 3.0 requires it (module docstring)
        warnings.simplefilter("ignore")
        token = jws.serialize_compact(header, canonical_bytes(payload), key.jose_key(), algorithms=[JWT_ALG])
    return str(token)


def sign(credential: Mapping[str, Any], key: IssuerKey) -> str:
    """The badge credential as a compact VC-JWT."""
    return sign_document(credential, key)


def split_token(token: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(header, payload) of a compact JWS without checking anything; ValueError if malformed."""
    parts = token.strip().split(".")
    if len(parts) != 3 or not all(parts):
        raise ValueError("not a compact JWS (header.payload.signature)")
    try:
        header = json.loads(_b64url_decode(parts[0]))
        payload = json.loads(_b64url_decode(parts[1]))
    except (ValueError, UnicodeDecodeError) as error:
        raise ValueError(f"JWS segments are not base64url JSON: {error}") from error
    if not isinstance(header, dict) or not isinstance(payload, dict):
        raise ValueError("JWS header and payload must be JSON objects")
    return header, payload


def credential_of_payload(payload: Mapping[str, Any]) -> dict[str, Any]:
    """The credential a native VC-JWT carries: its payload without the registered claims."""
    return {k: v for k, v in payload.items() if k not in REGISTERED_CLAIMS}


def credential_document(token: str) -> dict[str, Any]:
    """The ``.json`` badge: the signed credential, readable, with its proof attached."""
    _, payload = split_token(token)
    document = credential_of_payload(payload)
    document["proof"] = {"type": PROOF_TYPE, "jwt": token}
    return document
