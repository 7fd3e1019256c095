"""Our own verifier: each kind of file verifies, and each kind of tampering fails with the right reason."""

from __future__ import annotations

import base64
import json
from datetime import timedelta
from typing import Any

import pytest

from aaaf.badges.bake import bake_png, bake_svg
from aaaf.badges.credential import build_credential, credential_document, sign, status_entry
from aaaf.badges.data import BadgeData
from aaaf.badges.digest import image_digests
from aaaf.badges.keys import IssuerKey
from aaaf.badges.png import render_png
from aaaf.badges.status_list import Revocation, build_status_list_credential, sign_status_list
from aaaf.badges.svg import render_svg
from aaaf.badges.verify import VerificationResult, verify
from tests.badges.conftest import clock, sample_badge

STATUS_INDEX = 4


def issued(key: IssuerKey, data: BadgeData | None = None) -> tuple[BadgeData, str]:
    """A signed credential carrying the digests of the badge's own SVG and PNG."""
    badge = data or sample_badge()
    svg = render_svg(badge)
    credential = build_credential(
        badge,
        status=status_entry(badge.status_list_url, STATUS_INDEX),
        now=clock(),
        images=image_digests(svg, render_png(svg)),
    )
    return badge, sign(credential, key)


def status_list(key: IssuerKey, data: BadgeData, revoked: list[Revocation]) -> str:
    document = build_status_list_credential(
        issuer_id=data.issuer_id,
        organization_name=data.organization_name,
        list_url=data.status_list_url,
        revocations=revoked,
        highest_index=10,
        now=clock(),
        valid_for=timedelta(hours=24),
    )
    return sign_status_list(document, key)


def failed_check(result: VerificationResult) -> str:
    assert not result.valid
    return result.failed[0].name


def b64(obj: Any) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).rstrip(b"=").decode()


def with_payload(token: str, edit: Any) -> str:
    """The same header and signature around an edited payload (a forgery)."""
    header, payload, signature = token.split(".")
    body = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    edit(body)
    return ".".join([header, b64(body), signature])


@pytest.mark.parametrize("kind", ["jwt", "json", "png", "svg"])
def test_each_kind_of_file_verifies(kind: str, issuer: IssuerKey) -> None:
    data, token = issued(issuer)
    svg = render_svg(data)
    content = {
        "jwt": token.encode(),
        "json": json.dumps(credential_document(token), indent=2).encode(),
        "png": bake_png(render_png(svg), token),
        "svg": bake_svg(svg, token).encode(),
    }[kind]
    result = verify(content, [issuer.public], now=clock())
    assert result.valid, result.reason
    assert result.kind == kind and result.kid == issuer.kid
    names = [c.name for c in result.checks]
    assert names[:5] == [
        "format",
        "signature",
        "credential",
        "claims",
        "document" if kind == "json" else "scores",
    ]
    assert result.checks[-1].name == "status" and result.checks[-1].skipped
    assert result.expired is False and result.revoked is None


def test_tampered_score_fails_the_signature(issuer: IssuerKey) -> None:
    _, token = issued(issuer)

    def raise_score(body: dict[str, Any]) -> None:
        body["credentialSubject"]["performance"]["composite_score"] = 0.95

    result = verify(with_payload(token, raise_score), [issuer.public], now=clock())
    assert failed_check(result) == "signature"
    assert "altered" in result.reason


def test_tampered_tier_fails_the_signature(issuer: IssuerKey) -> None:
    _, token = issued(issuer)

    def promote(body: dict[str, Any]) -> None:
        for result in body["credentialSubject"]["result"]:
            if result["resultDescription"].endswith("#performance-tier"):
                result["value"] = "Elite"

    result = verify(with_payload(token, promote), [issuer.public], now=clock())
    assert failed_check(result) == "signature"


def test_hand_edited_json_fails_the_document_check(issuer: IssuerKey) -> None:
    _, token = issued(issuer)
    document = credential_document(token)
    document["credentialSubject"]["capability"]["tier"] = "Full-Stack"
    result = verify(json.dumps(document).encode(), [issuer.public], now=clock())
    assert failed_check(result) == "document"
    assert "credentialSubject.capability.tier" in result.reason


def test_hand_edited_svg_fails_the_image_check(issuer: IssuerKey) -> None:
    data, token = issued(issuer)
    baked = bake_svg(render_svg(data), token)
    forged = baked.replace(">0.79<", ">0.99<")
    assert forged != baked
    result = verify(forged.encode(), [issuer.public], now=clock())
    assert failed_check(result) == "image"
    assert result.reason.startswith("image: image does not match credential")


def test_wrong_key_fails_naming_the_key(issuer: IssuerKey) -> None:
    _, token = issued(issuer)
    stranger = IssuerKey.generate()
    result = verify(token, [stranger.public], now=clock())
    assert failed_check(result) == "signature"
    assert issuer.kid in result.reason and stranger.kid in result.reason


def test_a_credential_signed_by_someone_else_with_our_kid_fails(issuer: IssuerKey) -> None:
    data, _ = issued(issuer)
    forger = IssuerKey.generate()
    token = sign(build_credential(data, status=None, now=clock()), forger)
    _header, rest = token.split(".", 1)
    forged_header = b64({"alg": "EdDSA", "typ": "vc+jwt", "kid": issuer.kid})
    result = verify(f"{forged_header}.{rest}", [issuer.public], now=clock())
    assert failed_check(result) == "signature"


def test_expired_badge_verifies_as_expired(issuer: IssuerKey) -> None:
    now = clock()
    data = sample_badge(now, completed_at=now - timedelta(days=100), valid_until=now - timedelta(days=10))
    _, token = issued(issuer, data)
    result = verify(token, [issuer.public], now=now)
    assert failed_check(result) == "validity"
    assert result.expired is True
    assert result.reason.startswith("validity: expired on ")
    # the same badge was valid before it expired
    assert verify(token, [issuer.public], now=now - timedelta(days=20)).valid


def test_revoked_badge_verifies_as_revoked_with_its_reason(issuer: IssuerKey) -> None:
    data, token = issued(issuer)
    now = clock()
    revoked = status_list(issuer, data, [Revocation(STATUS_INDEX, now, "evidence was fabricated")])
    result = verify(token, [issuer.public], now=now, status_list=revoked)
    assert failed_check(result) == "status"
    assert result.revoked is True
    assert result.revoke_reason == "evidence was fabricated"
    assert "evidence was fabricated" in result.reason
    # another badge's bit does not touch this one
    other = status_list(issuer, data, [Revocation(STATUS_INDEX + 1, now, "other")])
    fine = verify(token, [issuer.public], now=now, status_list=other)
    assert fine.valid and fine.revoked is False


def test_a_status_list_not_signed_by_the_issuer_is_refused(issuer: IssuerKey) -> None:
    data, token = issued(issuer)
    forged_list = status_list(IssuerKey.generate(), data, [])
    result = verify(token, [issuer.public], now=clock(), status_list=forged_list)
    assert failed_check(result) == "status"
    assert "not the issuer's" in result.reason


def test_the_status_list_of_another_organization_is_refused(issuer: IssuerKey) -> None:
    _, token = issued(issuer)
    elsewhere = sample_badge(organization_id="99999999-2222-4333-8444-555555555555")
    result = verify(token, [issuer.public], now=clock(), status_list=status_list(issuer, elsewhere, []))
    assert failed_check(result) == "status"


def test_inconsistent_scores_signed_by_the_issuer_still_fail(issuer: IssuerKey) -> None:
    """A tier that the composite does not earn is caught even under a good signature."""
    data = sample_badge()
    wrong = sample_badge(performance=type(data.performance)("performance", 0.5, "Elite", {}))
    _, token = issued(issuer, wrong)
    result = verify(token, [issuer.public], now=clock())
    assert failed_check(result) == "scores"
    assert "'Elite'" in result.reason


def signed_with_claims(credential: dict[str, Any], key: IssuerKey, **claims: Any) -> str:
    """A VC-JWT whose registered claims are set by hand (to forge a mismatch)."""
    import warnings

    from joserfc import jws

    from aaaf.badges.credential import canonical_bytes, registered_claims

    payload = {**credential, **registered_claims(credential), **claims}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return str(
            jws.serialize_compact(
                {"alg": "EdDSA", "kid": key.kid},
                canonical_bytes(payload),
                key.jose_key(),
                algorithms=["EdDSA"],
            )
        )


@pytest.mark.parametrize(
    ("claims", "named"),
    [
        ({"jti": "urn:uuid:someone-else"}, "jti"),
        ({"sub": "urn:uuid:another-agent"}, "sub"),
        ({"iss": "https://evil.example/api/v1/organizations/x"}, "iss"),
        ({"nbf": 0}, "nbf"),
        ({"exp": 4102444800}, "exp"),
    ],
)
def test_registered_claims_must_match_the_credential(
    issuer: IssuerKey, claims: dict[str, Any], named: str
) -> None:
    credential = build_credential(sample_badge(), status=None, now=clock())
    result = verify(signed_with_claims(credential, issuer, **claims), [issuer.public], now=clock())
    assert failed_check(result) == "claims"
    assert result.reason.startswith(f"claims: {named}")


def test_garbage_fails_the_format_check(issuer: IssuerKey) -> None:
    result = verify(b"\x89PNG\r\n\x1a\nnot really", [issuer.public], now=clock())
    assert failed_check(result) == "format"
    assert result.to_dict()["valid"] is False
