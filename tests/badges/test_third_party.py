"""The third-party verifier agrees: openbadgeslib's OB 3.0 verifier (pinned 4.6.3 in the dev extras).

It checks the EdDSA signature with the algorithm pinned to the key, the OB 3.0 context
and types, the registered claims (iss, sub, jti, nbf) against the credential, and the
validity window against the wall clock; given our status list through its offline
``download`` hook, it verifies the list's own signature and reads the badge's bit.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from openbadgeslib.ob3 import OB3Verifier
from openbadgeslib.ob3.verifier import OB3VerificationError

from aaaf.badges.bake import bake_png, bake_svg
from aaaf.badges.credential import build_credential, sign, status_entry
from aaaf.badges.data import BadgeData
from aaaf.badges.keys import IssuerKey
from aaaf.badges.png import render_png
from aaaf.badges.status_list import Revocation, build_status_list_credential, sign_status_list
from aaaf.badges.svg import render_svg
from tests.badges.conftest import clock, sample_badge

INDEX = 12


@pytest.fixture()
def badge(issuer: IssuerKey) -> tuple[BadgeData, str]:
    data = sample_badge()
    credential = build_credential(data, status=status_entry(data.status_list_url, INDEX), now=clock())
    return data, sign(credential, issuer)


def third_party(key: IssuerKey) -> OB3Verifier:
    return OB3Verifier(key.public.pem())


def offline_list(key: IssuerKey, data: BadgeData, revoked: list[Revocation]) -> Any:
    token = sign_status_list(
        build_status_list_credential(
            issuer_id=data.issuer_id,
            organization_name=data.organization_name,
            list_url=data.status_list_url,
            revocations=revoked,
            highest_index=INDEX,
            now=clock(),
            valid_for=timedelta(hours=24),
        ),
        key,
    )
    asked: list[str] = []

    def download(url: str) -> bytes:
        asked.append(url)
        return token.encode()

    download.asked = asked  # type: ignore[attr-defined]
    return download


def test_accepts_our_jwt(issuer: IssuerKey, badge: tuple[BadgeData, str]) -> None:
    data, token = badge
    credential = third_party(issuer).verify(token, expected_recipient=data.subject_id)
    assert credential.id == data.credential_id
    assert credential.issuer.id == data.issuer_id and credential.issuer.name == "Acme Agents"
    assert credential.recipient_id == data.subject_id
    assert credential.achievement.name == "AAAF Agent Assessment"
    assert len(credential.achievement.alignments) == 4
    values = {r.result_description.split("#")[1]: r.value for r in credential.results}
    assert values["performance-composite"] == "0.7912345678901234"
    assert values["capability-tier"] == "Functional"
    assert credential.raw["credentialSubject"]["performance"]["tier"] == "Expert"


def test_accepts_our_png(issuer: IssuerKey, badge: tuple[BadgeData, str]) -> None:
    data, token = badge
    png = bake_png(render_png(render_svg(data)), token)
    extracted = OB3Verifier.extract_token_from_png(png)
    assert third_party(issuer).verify(extracted).id == data.credential_id


def test_accepts_our_svg(issuer: IssuerKey, badge: tuple[BadgeData, str]) -> None:
    data, token = badge
    svg = bake_svg(render_svg(data), token).encode()
    extracted = OB3Verifier.extract_token_from_svg(svg)
    assert third_party(issuer).verify(extracted).id == data.credential_id


def test_sees_a_live_badge_as_live_and_a_revoked_one_as_revoked(
    issuer: IssuerKey, badge: tuple[BadgeData, str]
) -> None:
    data, token = badge
    verifier = third_party(issuer)
    live = offline_list(issuer, data, [Revocation(INDEX + 1, clock(), "another badge")])
    assert verifier.verify(token, check_status=True, download=live).id == data.credential_id
    assert live.asked == [data.status_list_url]
    revoked = offline_list(issuer, data, [Revocation(INDEX, clock(), "fabricated evidence")])
    with pytest.raises(OB3VerificationError, match=f"'revocation' is set at index {INDEX}"):
        verifier.verify(token, check_status=True, download=revoked)


def test_rejects_a_tampered_credential_and_a_wrong_key(
    issuer: IssuerKey, badge: tuple[BadgeData, str]
) -> None:
    import base64

    _, token = badge
    header, payload, signature = token.split(".")
    body = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    body["credentialSubject"]["performance"]["tier"] = "Elite"
    forged_payload = base64.urlsafe_b64encode(json.dumps(body).encode()).rstrip(b"=").decode()
    with pytest.raises(OB3VerificationError, match=r"[Ss]ignature"):
        third_party(issuer).verify(f"{header}.{forged_payload}.{signature}")
    with pytest.raises(OB3VerificationError, match=r"[Ss]ignature"):
        third_party(IssuerKey.generate()).verify(token)
