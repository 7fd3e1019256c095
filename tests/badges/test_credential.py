"""The OB 3.0 credential: every field the 1EdTech data model requires, the §4.5 names, the VC-JWT."""

from __future__ import annotations

import json
import math
import re
from datetime import timedelta
from typing import Any

from aaaf.badges.credential import (
    OB3_CONTEXT,
    VC2_CONTEXT,
    build_credential,
    credential_document,
    sign,
    split_token,
    status_entry,
)
from aaaf.badges.data import parse_datetime
from aaaf.badges.keys import IssuerKey
from aaaf.scoring.defaults import CAPABILITY_DIMENSIONS, PERFORMANCE_DIMENSIONS
from tests.badges.conftest import CAPABILITY_SCORES, PERFORMANCE_SCORES, clock, sample_badge

URI = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:\S+$")
DATETIME_Z = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")


def has_type(node: dict[str, Any], name: str) -> bool:
    value = node.get("type")
    return value == name or (isinstance(value, list) and name in value)


def the_credential() -> dict[str, Any]:
    data = sample_badge()
    return build_credential(data, status=status_entry(data.status_list_url, 7), now=clock())


def test_every_field_the_ob3_data_model_requires() -> None:
    """1EdTech OB 3.0 §B.1 multiplicities [1] / [1..*] for each class the badge uses."""
    credential = the_credential()
    # AchievementCredential / OpenBadgeCredential
    assert credential["@context"][:2] == [VC2_CONTEXT, OB3_CONTEXT]
    assert credential["type"] == ["VerifiableCredential", "OpenBadgeCredential"]
    assert URI.match(credential["id"])
    assert isinstance(credential["name"], str) and credential["name"]
    assert DATETIME_Z.match(credential["validFrom"]) and DATETIME_Z.match(credential["validUntil"])
    # Profile (issuer)
    issuer = credential["issuer"]
    assert URI.match(issuer["id"]) and has_type(issuer, "Profile")
    # AchievementSubject
    subject = credential["credentialSubject"]
    assert has_type(subject, "AchievementSubject") and URI.match(subject["id"])
    # Achievement and its Criteria
    achievement = subject["achievement"]
    assert URI.match(achievement["id"]) and has_type(achievement, "Achievement")
    for required in ("name", "description"):
        assert isinstance(achievement[required], str) and achievement[required]
    assert achievement["criteria"]["narrative"]
    assert achievement["achievementType"].startswith("ext:")
    # Alignment: type, targetName, targetUrl
    alignments = list(achievement["alignment"])
    for description in achievement["resultDescription"]:
        alignments += description.get("alignment", [])
    assert alignments
    for alignment in alignments:
        assert (
            has_type(alignment, "Alignment") and alignment["targetName"] and URI.match(alignment["targetUrl"])
        )
    # ResultDescription: id, type, name, resultType
    for description in achievement["resultDescription"]:
        assert URI.match(description["id"]) and has_type(description, "ResultDescription")
        assert description["name"] and description["resultType"] in ("ScaledScore", "PerformanceLevel")
    # Result: type; resultDescription names one of the achievement's; value a string
    described = {d["id"] for d in achievement["resultDescription"]}
    for result in subject["result"]:
        assert has_type(result, "Result") and result["resultDescription"] in described
        assert "value" not in result or isinstance(result["value"], str)
    # Evidence: type; CredentialSchema: id, type; BitstringStatusListEntry
    for evidence in credential["evidence"]:
        assert has_type(evidence, "Evidence") and URI.match(evidence["id"])
    for schema in credential["credentialSchema"]:
        assert URI.match(schema["id"]) and schema["type"] == "1EdTechJsonSchemaValidator2019"
    status = credential["credentialStatus"]
    assert status["type"] == "BitstringStatusListEntry" and status["statusPurpose"] == "revocation"
    assert status["statusListIndex"] == "7" and URI.match(status["statusListCredential"])


def test_results_carry_both_composites_both_tiers_and_every_dimension() -> None:
    credential = the_credential()
    data = sample_badge()
    by_key = {
        r["resultDescription"].split("#")[1]: r.get("value")
        for r in credential["credentialSubject"]["result"]
    }
    dimensions = [f"performance.{d}" for d in PERFORMANCE_DIMENSIONS] + [
        f"capability.{d}" for d in CAPABILITY_DIMENSIONS
    ]
    assert set(by_key) == {
        "performance-composite",
        "performance-tier",
        "capability-composite",
        "capability-tier",
        *dimensions,
    }
    # unrounded text of the float, not the displayed 0.79
    assert by_key["performance-composite"] == "0.7912345678901234"
    assert float(by_key["performance-composite"]) == data.performance.composite_score
    assert by_key["capability-composite"] == "0.3996"
    assert by_key["performance-tier"] == "Expert" and by_key["capability-tier"] == "Functional"
    assert by_key["performance.speed"] is None  # a null dimension has no value
    assert by_key["capability.tool_proficiency"] == "0.3996"


def test_the_section_4_5_names_are_in_the_subject_unrounded() -> None:
    subject = the_credential()["credentialSubject"]
    data = sample_badge()
    assert subject["agent"] == {
        "id": data.agent_id,
        "name": "security-auditor",
        "organization_id": data.organization_id,
    }
    assert subject["assessment"]["id"] == data.assessment_id
    assert set(subject["assessment"]) >= {"timestamp", "valid_until", "window_start", "window_end"}
    assert subject["performance"] == {
        "composite_score": 0.7912345678901234,
        "tier": "Expert",
        "dimensions": PERFORMANCE_SCORES,
    }
    assert subject["capability"]["composite_score"] == 0.3996
    assert subject["capability"]["dimensions"] == CAPABILITY_SCORES
    assert subject["capability"]["dimensions"]["orchestration_skills"] is None
    assert subject["standards_alignment"] == [
        "NIST AI 100-1",
        "ISO/IEC 42001:2023",
        "ISO/IEC 25059:2023",
        "ISO/IEC 22989:2022",
    ]
    assert subject["verification_url"] == data.verification_url


def test_alignment_names_the_standards_of_document_004() -> None:
    achievement = the_credential()["credentialSubject"]["achievement"]
    assert [a["targetName"] for a in achievement["alignment"]] == [
        "NIST AI 100-1",
        "ISO/IEC 42001:2023",
        "ISO/IEC 25059:2023",
        "ISO/IEC 22989:2022",
    ]
    review = next(
        d for d in achievement["resultDescription"] if d["id"].endswith("#performance.review_compliance")
    )
    assert review["alignment"][0]["targetName"] == "ISO/IEC 42001:2023"
    assert "A.6.2.6" in review["alignment"][0]["targetCode"]
    orchestration = next(
        d for d in achievement["resultDescription"] if d["id"].endswith("#capability.orchestration_skills")
    )
    assert [a["targetName"] for a in orchestration["alignment"]] == [
        "NIST AI Agent Standards Initiative",
        "IEEE P2894",
    ]


def test_validity_is_completion_to_valid_until() -> None:
    data = sample_badge()
    credential = the_credential()
    assert parse_datetime(credential["validFrom"]) == data.completed_at
    assert parse_datetime(credential["validUntil"]) == data.valid_until


def test_valid_from_is_never_in_the_future() -> None:
    now = clock()
    data = sample_badge(now, completed_at=now + timedelta(hours=3))
    credential = build_credential(data, status=None, now=now)
    assert parse_datetime(credential["validFrom"]) == now
    assert "credentialStatus" not in credential


def test_vc_jwt_is_the_credential_with_its_registered_claims(issuer: IssuerKey) -> None:
    credential = the_credential()
    token = sign(credential, issuer)
    header, payload = split_token(token)
    assert header == {"alg": "EdDSA", "typ": "vc+jwt", "kid": issuer.kid}
    assert "vc" not in payload  # native OB 3.0 VC-JWT: the payload is the credential
    assert payload["iss"] == credential["issuer"]["id"]
    assert payload["sub"] == credential["credentialSubject"]["id"]
    assert payload["jti"] == credential["id"]
    assert payload["nbf"] == math.floor(parse_datetime(credential["validFrom"]).timestamp())
    assert payload["exp"] == math.floor(parse_datetime(credential["validUntil"]).timestamp())
    assert payload["nbf"] <= clock().timestamp()
    body = {k: v for k, v in payload.items() if k not in ("iss", "sub", "jti", "nbf", "exp")}
    assert body == credential


def test_json_document_is_the_signed_credential_and_its_proof(issuer: IssuerKey) -> None:
    credential = the_credential()
    token = sign(credential, issuer)
    document = credential_document(token)
    assert document["proof"] == {"type": "JwtProof2020", "jwt": token}
    assert {k: v for k, v in document.items() if k != "proof"} == credential
    # survives a JSON round trip with full float precision
    assert json.loads(json.dumps(document)) == document
