"""The badge carries the assessment's audit (SCORING.md §2.6; issue 16 §3).

Every assessment reports ``audit: {coverage, honesty, audited_tasks, required_rate, met}``;
its badge's JSON (the credential subject, signed) carries exactly those five members, the
badge still verifies — with our verifier and openbadgeslib's — and reads back the same.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from openbadgeslib.ob3 import OB3Verifier

from aaaf.badges.credential import build_credential, credential_document, sign, split_token, status_entry
from aaaf.badges.data import badge_data_from_credential
from aaaf.badges.keys import IssuerKey
from aaaf.badges.verify import verify
from aaaf.services import badge_revocation as revocation
from aaaf.services import badges as service
from tests.badges.conftest import clock, completed_assessment, sample_badge, session_of

# an assessment's audit as the scoring core reports it: 5 of 25 completed tasks audited,
# 15 facts checked, 5 refuted → coverage 5/25 = 0.2 ≥ 0.2 (met), honesty 10/15
ASSESSMENT_AUDIT: dict[str, Any] = {
    "coverage": 0.2,
    "honesty": 10 / 15,
    "audited_tasks": 5,
    "required_rate": 0.2,
    "met": True,
    "self_report_unreliable": True,
    "facts_checked": 15,
    "facts_refuted": 5,
    "completed_tasks": 25,
    "audited_completed_tasks": 5,
    "refuted": [
        {"task_id": "task-003", "fact": "checklist.memory_search_performed", "reported": True, "found": False}
    ],
    "event_ids": ["e-1"],
}
ON_THE_BADGE = {"coverage": 0.2, "honesty": 10 / 15, "audited_tasks": 5, "required_rate": 0.2, "met": True}


@pytest.fixture()
def session(store: Any, badge_settings: Path) -> Any:
    return session_of(store)


def test_the_badge_json_of_an_audited_assessment_carries_its_audit(session: Any, tmp_path: Path) -> None:
    assessment = completed_assessment(session.org, audit=ASSESSMENT_AUDIT)
    paths = service.issue_badge(session, str(assessment.id), ["json", "jwt", "svg"], tmp_path, clock())
    document = json.loads(paths[0].read_text())
    assert document["credentialSubject"]["audit"] == ON_THE_BADGE  # the five §2.6 members only
    # it is signed: the JWT's credential says the same, and the badge verifies
    _, payload = split_token(paths[1].read_text().strip())
    assert payload["credentialSubject"]["audit"] == ON_THE_BADGE
    keys = [revocation.issuer_key(session.store).public]
    for path in paths:
        result = verify(path.read_bytes(), keys, now=clock())
        assert result.valid, (path.name, result.reason)
    # what the API serves (redrawn from the credential on record) carries it too
    stored = service.stored_badge(session.org.get_badge(assessment.id))
    assert stored.data.audit == ON_THE_BADGE
    assert json.loads(stored.render("json"))["credentialSubject"]["audit"] == ON_THE_BADGE
    # issuing again keeps the credential (it still says what the assessment says)
    again = service.issue(session, assessment.id, now=clock())
    assert again.token == stored.token


def test_an_assessment_without_an_audit_object_has_no_audit_member(session: Any, tmp_path: Path) -> None:
    assessment = completed_assessment(session.org)
    issued = service.issue(session, assessment.id, now=clock())
    assert "audit" not in split_token(issued.token)[1]["credentialSubject"]
    assert issued.data.audit is None


def test_openbadgeslib_accepts_a_badge_with_an_audit(issuer: IssuerKey) -> None:
    data = sample_badge(audit=dict(ON_THE_BADGE))
    credential = build_credential(data, status=status_entry(data.status_list_url, 3), now=clock())
    token = sign(credential, issuer)
    checked = OB3Verifier(issuer.public.pem()).verify(token, expected_recipient=data.subject_id)
    assert checked.raw["credentialSubject"]["audit"] == ON_THE_BADGE
    assert badge_data_from_credential(credential_document(token)).audit == ON_THE_BADGE
    assert verify(token.encode(), [issuer.public], now=clock()).valid


def test_a_credential_signed_without_the_audit_is_superseded_on_reissue(session: Any) -> None:
    """A badge signed before badges carried the audit is re-issued with it, and says why."""
    from dataclasses import replace

    from aaaf.badges.data import badge_data_from_assessment
    from aaaf.badges.digest import image_digests
    from aaaf.badges.png import render_png
    from aaaf.badges.svg import render_svg
    from aaaf.store.records import SignedCredential
    from tests.badges.conftest import BASE_URL

    assessment = completed_assessment(session.org, audit=ASSESSMENT_AUDIT)
    current = badge_data_from_assessment(
        assessment, agent_name="security-auditor", organization_name="x", base_url=BASE_URL
    )
    legacy_data = replace(current, audit=None)
    key = revocation.issuer_key(session.store)
    svg = render_svg(legacy_data)

    def legacy(slot: Any) -> SignedCredential:
        credential = build_credential(
            legacy_data,
            status=status_entry(legacy_data.status_list_url, slot.status_index),
            now=clock(),
            credential_id=slot.credential_id,
            images=image_digests(svg, render_png(svg)),
        )
        token = sign(credential, key)
        return SignedCredential(json_data=credential_document(token), credential_jwt=token)

    session.org.issue_badge(
        assessment.id, assessment.agent_id, sign=legacy, valid_until=current.valid_until, issued_at=clock()
    )
    reissued = service.issue(session, assessment.id, now=clock())
    assert split_token(reissued.token)[1]["credentialSubject"]["audit"] == ON_THE_BADGE
    credentials = session.org.badge_credentials(assessment.id)
    assert credentials[0].revoke_reason == service.AUDIT_REASON and not credentials[0].current
    assert service.issue(session, assessment.id, now=clock()).token == reissued.token
