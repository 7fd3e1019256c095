"""Issuing, holding, reviewing and revoking badges through the store (SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from aaaf.badges.credential import split_token
from aaaf.badges.keys import parse_public_keys
from aaaf.badges.verify import verify
from aaaf.errors import AAAFError
from aaaf.services import badge_revocation as revocation
from aaaf.services import badges as service
from tests.badges.conftest import BASE_URL, clock, completed_assessment, session_of


@pytest.fixture()
def session(store: Any, badge_settings: Path) -> Any:
    return session_of(store)


def assert_key_sealed_in_database(store: Any) -> None:
    """SCORING.md §7 "Secrets": the private key is in the database, never in clear."""
    from cryptography.hazmat.primitives import serialization
    from sqlalchemy import select

    from aaaf.store import tables as t

    key = revocation.issuer_key(store)
    raw = key.private_key.private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
    )
    with store.engine.connect() as connection:
        rows = connection.execute(select(t.issuer_keys)).all()
    assert [(row.name, row.kid) for row in rows] == [("issuer", key.kid)]
    stored = " ".join(str(value) for value in rows[0])
    assert raw.hex() not in stored and "PRIVATE KEY" not in stored
    assert rows[0].private_key_sealed.startswith("v1.")


def test_issue_writes_every_format_and_records_the_badge(
    session: Any, badge_settings: Path, tmp_path: Path
) -> None:
    assessment = completed_assessment(session.org)
    out = tmp_path / "badges"
    paths = service.issue_badge(
        session, str(assessment.id), ["svg", "png", "json", "jwt", "md"], out, clock()
    )
    assert [p.name for p in paths] == [
        f"{assessment.agent_name}.{ext}" for ext in ("svg", "png", "json", "jwt", "md")
    ]
    # the key was created on first use and sealed in the database: no key file anywhere
    assert not badge_settings.exists()
    assert_key_sealed_in_database(session.store)
    keys = [revocation.issuer_key(session.store).public]
    for path in paths[:4]:
        result = verify(path.read_bytes(), keys, now=clock())
        assert result.valid, (path, result.reason)
    badge = session.org.get_badge(assessment.id)
    assert badge.status_index == 0 and not badge.revoked
    assert badge.credential_jwt == paths[3].read_text().strip()
    assert badge.valid_until == assessment.valid_until
    assert badge.svg_url == f"{BASE_URL}/api/v1/badges/{assessment.id}.svg"
    assert badge.json_data["proof"]["jwt"] == badge.credential_jwt
    _, payload = split_token(badge.credential_jwt)
    assert payload["credentialStatus"]["statusListIndex"] == "0"
    assert payload["issuer"]["id"] == f"{BASE_URL}/api/v1/organizations/{session.organization.id}"
    assert payload["credentialSubject"]["performance"]["composite_score"] == 0.8


def test_each_badge_gets_its_own_status_bit_and_reissue_keeps_it(session: Any, tmp_path: Path) -> None:
    first = completed_assessment(session.org, agent_name="a")
    second = completed_assessment(session.org, agent_name="b")
    one = service.issue(session, first.id, now=clock())
    two = service.issue(session, second.id, now=clock())
    again = service.issue(session, first.id, now=clock())
    assert (one.status_index, two.status_index, again.status_index) == (0, 1, 0)


def test_a_held_assessment_gets_no_badge_until_approved(session: Any, tmp_path: Path) -> None:
    held = completed_assessment(session.org, review_state="pending_review")
    with pytest.raises(AAAFError) as caught:
        service.issue_badge(session, held.id, ["svg"], tmp_path, clock())
    assert caught.value.code == "BADGE_HELD"
    assert not list(tmp_path.glob("*.svg"))
    approved = service.review(session, held.id, approve=True)
    assert approved.review_state == "approved"
    assert service.issue_badge(session, held.id, ["svg"], tmp_path, clock())


def test_a_rejected_assessment_never_gets_a_badge(session: Any, tmp_path: Path) -> None:
    held = completed_assessment(session.org, review_state="pending_review")
    assert service.review(session, held.id, approve=False).review_state == "rejected"
    with pytest.raises(AAAFError) as caught:
        service.issue_badge(session, held.id, ["json"], tmp_path, clock())
    assert caught.value.code == "CONFLICT" and "rejected" in caught.value.message
    with pytest.raises(AAAFError) as again:
        service.review(session, held.id, approve=True)
    assert again.value.code == "CONFLICT"


def test_only_a_completed_assessment_earns_a_badge(session: Any, tmp_path: Path) -> None:
    agent = session.org.enroll_agent("thin")
    now = clock()
    record = session.org.create_assessment(
        agent.id, type="full", window_start=now - timedelta(days=30), window_end=now
    )
    session.org.fail_assessment(record.id, {"code": "INSUFFICIENT_EVIDENCE", "message": "too few tasks"}, now)
    with pytest.raises(AAAFError) as caught:
        service.issue_badge(session, record.id, ["svg"], tmp_path, now)
    assert caught.value.code == "CONFLICT" and "failed" in caught.value.message
    with pytest.raises(AAAFError) as missing:
        service.issue_badge(session, "00000000-0000-4000-8000-000000000000", ["svg"], tmp_path, now)
    assert missing.value.code == "NOT_FOUND"


def test_unknown_format_is_bad_input() -> None:
    with pytest.raises(AAAFError) as caught:
        service.parse_formats(["svg", "gif"])
    assert caught.value.code == "INVALID_REQUEST" and "gif" in caught.value.message


def test_revoke_records_the_reason_and_rewrites_the_status_list(session: Any, tmp_path: Path) -> None:
    assessment = completed_assessment(session.org)
    kept = completed_assessment(session.org, agent_name="kept")
    paths = service.issue_badge(session, assessment.id, ["png"], tmp_path, clock())
    kept_paths = service.issue_badge(session, kept.id, ["png"], tmp_path, clock())
    now = clock()
    badge, list_path = revocation.revoke(session, assessment.id, reason="evidence was fabricated", now=now)
    assert badge.revoked and badge.revoke_reason == "evidence was fabricated" and badge.revoked_at == now
    stored = session.org.get_badge(assessment.id)
    assert stored.revoked and stored.revoke_reason == "evidence was fabricated"
    assert list_path == revocation.default_status_list_path(session.store)
    keys = parse_public_keys(revocation.issuer_key(session.store).public.pem())
    result = verify(paths[0].read_bytes(), keys, now=clock(), status_list=list_path.read_bytes())
    assert result.revoked is True and result.revoke_reason == "evidence was fabricated"
    assert not result.valid and result.failed[0].name == "status"
    fine = verify(kept_paths[0].read_bytes(), keys, now=clock(), status_list=list_path.read_bytes())
    assert fine.valid and fine.revoked is False
    # the public verification answer agrees
    assert revocation.verify_issued(session.store, assessment.id, clock()).revoked is True
    assert revocation.verify_issued(session.store, kept.id, clock()).valid


def test_revoking_needs_a_badge_and_a_reason(session: Any) -> None:
    assessment = completed_assessment(session.org)
    with pytest.raises(AAAFError) as no_badge:
        revocation.revoke(session, assessment.id, reason="x", now=clock())
    assert no_badge.value.code == "NOT_FOUND"
    service.issue(session, assessment.id, now=clock())
    with pytest.raises(AAAFError) as no_reason:
        revocation.revoke(session, assessment.id, reason="  ", now=clock())
    assert no_reason.value.code == "INVALID_REQUEST"


def test_issue_all_reports_held_and_missing(session: Any, tmp_path: Path) -> None:
    completed_assessment(session.org, agent_name="ok")
    completed_assessment(session.org, agent_name="held", review_state="pending_review")
    session.org.enroll_agent("never-assessed")
    outcomes = {o.agent: o for o in service.issue_all(session, ["svg", "md"], tmp_path, clock())}
    assert len(outcomes["ok"].paths) == 2 and outcomes["ok"].error is None
    assert outcomes["held"].error is not None and outcomes["held"].error.code == "BADGE_HELD"
    assert (
        outcomes["never-assessed"].error is not None and outcomes["never-assessed"].error.code == "NOT_FOUND"
    )


def test_a_stored_badge_renders_without_resigning(session: Any) -> None:
    assessment = completed_assessment(session.org)
    issued = service.issue(session, assessment.id, now=clock())
    stored = service.stored_badge(session.org.get_badge(assessment.id))
    assert stored.token == issued.token and stored.data == issued.data
    for fmt in ("svg", "png", "json", "jwt", "md"):
        assert stored.render(fmt) == issued.render(fmt)


def test_no_badge_for_an_expired_or_superseded_assessment(session: Any, tmp_path: Path) -> None:
    now = clock()
    # completed 91 days ago with 90 days' validity: expired yesterday
    expired = completed_assessment(session.org, agent_name="late", completed_at=now - timedelta(days=91))
    with pytest.raises(AAAFError) as caught:
        service.issue(session, expired.id, now=now)
    assert caught.value.code == "CONFLICT" and caught.value.exit_code == 2
    assert "expired on" in caught.value.message
    # the day before it expired it still earned one
    assert service.issue(session, expired.id, now=now - timedelta(days=2)).status_index == 0
    older = completed_assessment(session.org, agent_name="twice", completed_at=now - timedelta(days=3))
    newer = completed_assessment(session.org, agent_name="twice", completed_at=now - timedelta(days=1))
    with pytest.raises(AAAFError) as superseded:
        service.issue(session, older.id, now=now)
    assert superseded.value.code == "CONFLICT"
    assert superseded.value.details == {"assessment_id": str(older.id), "superseded_by": str(newer.id)}
    assert service.issue(session, newer.id, now=now)
    outcomes = {o.agent: o for o in service.issue_all(session, ["md"], tmp_path, now)}
    assert outcomes["late"].error is not None and "expired" in outcomes["late"].error.message
    assert outcomes["twice"].error is None


def test_a_credential_without_image_digests_is_superseded_on_reissue(session: Any) -> None:
    """A badge signed before pictures were bound to credentials is re-issued with its digests."""
    from aaaf.badges.credential import build_credential, credential_document, sign, status_entry
    from aaaf.badges.data import badge_data_from_assessment
    from aaaf.store.records import SignedCredential

    assessment = completed_assessment(session.org)
    data = badge_data_from_assessment(
        assessment, agent_name="security-auditor", organization_name="x", base_url=BASE_URL
    )
    key = revocation.issuer_key(session.store)

    def legacy(slot: Any) -> SignedCredential:
        credential = build_credential(
            data,
            status=status_entry(data.status_list_url, slot.status_index),
            now=clock(),
            credential_id=slot.credential_id,
        )
        token = sign(credential, key)
        return SignedCredential(json_data=credential_document(token), credential_jwt=token)

    session.org.issue_badge(
        assessment.id, assessment.agent_id, sign=legacy, valid_until=data.valid_until, issued_at=clock()
    )
    old_png = service.stored_badge(session.org.get_badge(assessment.id)).render("png")
    assert verify(old_png, [key.public], now=clock()).reason.startswith("image: image does not match")
    reissued = service.issue(session, assessment.id, now=clock())
    assert reissued.status_index == 1
    credentials = session.org.badge_credentials(assessment.id)
    assert credentials[0].revoke_reason == service.REDRAWN_REASON and not credentials[0].current
    for fmt in ("png", "svg"):
        assert verify(reissued.render(fmt), [key.public], now=clock()).valid
    # issuing again keeps the new credential (nothing re-signed)
    assert service.issue(session, assessment.id, now=clock()).token == reissued.token
