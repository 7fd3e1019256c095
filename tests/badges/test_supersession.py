"""An accepted appeal supersedes the badge already issued (store migration 0003), on SQLite and PostgreSQL.

The credential handed out before the appeal carries the old scores: once the appeal is
accepted its status bit is set with the reason "superseded: appeal <id> accepted", the
status list file beside the issuer key is rewritten, and ``aaaf badge`` issues a new
credential (own id, fresh bit) with the corrected scores.  Our verifier and the third-party
openbadgeslib OB 3.0 verifier (given the list through its offline ``download`` hook) both
see the old credential as revoked and the new one as valid.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from openbadgeslib.ob3 import OB3Verifier
from openbadgeslib.ob3.verifier import OB3VerificationError

from aaaf.badges.credential import credential_of_payload, split_token
from aaaf.badges.verify import verify
from aaaf.errors import AAAFError
from aaaf.evidence.validation import validate_event
from aaaf.scoring.results import AAAFResult
from aaaf.services import badge_revocation as revocation
from aaaf.services import badges as service
from aaaf.services.appeals import file_appeal, resolve_appeal
from aaaf.services.assess import assess_agent
from aaaf.services.assessment_rows import composites
from aaaf.store import DimensionRow
from tests.badges.conftest import BASE_URL, clock, completed_assessment, session_of
from tests.cli.events_factory import agent_log

# coder-000 was revised once (every fourth task is): excluding it on appeal raises accuracy
COUNTER_EVIDENCE = [{"task_id": "coder-000", "claim": "the revision was a scope change"}]


@pytest.fixture()
def session(store: Any, badge_settings: Path) -> Any:
    return session_of(store)


def assessed(session: Any) -> Any:
    """A real assessment of 36 tasks over the last 28 days (so an appeal can re-score it)."""
    now = clock()
    agent = session.org.enroll_agent("coder")
    session.org.add_events(
        [
            (agent.id, validate_event(event, now=now, default_agent="coder"))
            for event in agent_log(None, 36, now=now, prefix="coder")
        ]
    )
    return assess_agent(session.org, "coder", now=now)


def accept_appeal(session: Any, assessment: Any) -> Any:
    appeal = file_appeal(
        session.org,
        str(assessment.id),
        dimensions=["accuracy"],
        justification="scope change, not an error",
        counter_evidence=COUNTER_EVIDENCE,
        now=clock(),
    )
    return resolve_appeal(session.org, str(appeal.id), decision="accepted", notes="agreed", now=clock())


def subject(token: str) -> dict[str, Any]:
    return dict(credential_of_payload(split_token(token)[1])["credentialSubject"])


def offline(token: str) -> Any:
    """openbadgeslib's download hook, answering every URL with our status list."""
    asked: list[str] = []

    def download(url: str) -> bytes:
        asked.append(url)
        return token.encode()

    download.asked = asked  # type: ignore[attr-defined]
    return download


def test_appeal_supersedes_and_reissue_gets_a_fresh_bit(session: Any) -> None:
    assessment = assessed(session)
    old = service.issue(session, assessment.id, now=clock())
    keys = [revocation.issuer_key(session.store).public]
    list_path = revocation.default_status_list_path(session.store)

    appeal = accept_appeal(session, assessment)
    reason = f"superseded: appeal {appeal.id} accepted"
    changes = appeal.resolution["changes"]
    assert changes["accuracy"]["after"] > changes["accuracy"]["before"]  # the appeal changed a score

    # the old credential's row: kept, bit set, reason recorded (document 004 §7 columns)
    (retired,) = session.org.badge_credentials(assessment.id)
    assert retired.revoked and retired.revoke_reason == reason and not retired.current
    assert retired.status_index == old.status_index and retired.credential_jwt == old.token
    assert appeal.resolution["superseded_badge"] == {
        "credential_id": retired.credential_id,
        "status_index": old.status_index,
    }
    # the status list file beside the issuer key was rewritten with the bit set
    assert list_path.is_file()
    status = list_path.read_bytes()
    before = verify(old.token, keys, now=clock(), status_list=status)
    assert not before.valid and before.revoked is True and before.revoke_reason == reason
    assert before.failed[0].name == "status" and reason in before.reason

    new = service.issue(session, assessment.id, now=clock())
    assert new.status_index == old.status_index + 1 and new.token != old.token
    old_subject, new_subject = subject(old.token), subject(new.token)
    rescored = session.org.get_assessment(assessment.id)
    assert new_subject["performance"]["composite_score"] == rescored.performance_composite
    assert new_subject["performance"]["dimensions"]["accuracy"] == changes["accuracy"]["after"]
    assert old_subject["performance"]["dimensions"]["accuracy"] == changes["accuracy"]["before"]
    old_id = credential_of_payload(split_token(old.token)[1])["id"]
    new_id = credential_of_payload(split_token(new.token)[1])["id"]
    assert old_id != new_id and new_id == session.org.get_badge(assessment.id).credential_id
    # issuing did not change a bit, so the list stands; the new credential is valid against it
    status = list_path.read_bytes()
    assert verify(new.token, keys, now=clock(), status_list=status).valid
    assert verify(old.token, keys, now=clock(), status_list=status).revoke_reason == reason
    # the public verification answer is about the latest credential
    assert revocation.verify_issued(session.store, assessment.id, clock()).valid
    # issuing again changes nothing: the current credential still says what the assessment says
    again = service.issue(session, assessment.id, now=clock())
    assert again.token == new.token and len(session.org.badge_credentials(assessment.id)) == 2


def test_the_third_party_verifier_agrees_on_old_and_new(session: Any) -> None:
    assessment = assessed(session)
    old = service.issue(session, assessment.id, now=clock())
    accept_appeal(session, assessment)
    new = service.issue(session, assessment.id, now=clock())
    status = revocation.default_status_list_path(session.store).read_text().strip()
    verifier = OB3Verifier(revocation.issuer_key(session.store).public.pem())
    hook = offline(status)
    assert (
        verifier.verify(new.token, check_status=True, download=hook).id == f"urn:uuid:{_badge_id(new.token)}"
    )
    assert hook.asked == [f"{BASE_URL}/api/v1/organizations/{session.organization.id}/status-list"]
    with pytest.raises(OB3VerificationError, match=f"'revocation' is set at index {old.status_index}"):
        verifier.verify(old.token, check_status=True, download=offline(status))
    # baked into the PNG, the old badge is just as revoked
    png = OB3Verifier.extract_token_from_png(old.render("png"))
    with pytest.raises(OB3VerificationError, match="revocation"):
        verifier.verify(png, check_status=True, download=offline(status))


def _badge_id(token: str) -> str:
    return str(credential_of_payload(split_token(token)[1])["id"]).removeprefix("urn:uuid:")


def test_an_appeal_before_any_badge_supersedes_nothing(session: Any) -> None:
    assessment = assessed(session)
    appeal = accept_appeal(session, assessment)
    assert "superseded_badge" not in appeal.resolution
    assert not revocation.default_status_list_path(session.store).exists()
    first = service.issue(session, assessment.id, now=clock())
    assert first.status_index == 0
    assert subject(first.token)["performance"]["composite_score"] == (
        session.org.get_assessment(assessment.id).performance_composite
    )


def test_a_rescoring_outside_an_appeal_also_supersedes_on_issue(session: Any) -> None:
    """Whatever changed the scores, a badge is never re-rendered with scores it no longer has."""
    assessment = assessed(session)
    old = service.issue(session, assessment.id, now=clock())
    org = session.org
    org.replace_dimension_scores(
        assessment.id,
        rows=[DimensionRow("performance", "speed", 0.5, 36, 36, {})],
        result=assessment.result,
        **composites(AAAFResult.from_dict(assessment.result)),
    )
    new = service.issue(session, assessment.id, now=clock())
    assert new.status_index == old.status_index + 1
    assert subject(new.token)["performance"]["dimensions"]["speed"] == 0.5
    retired = org.badge_credentials(assessment.id)[0]
    assert retired.revoke_reason == service.RESCORED_REASON and retired.superseded_at is not None
    keys = [revocation.issuer_key(session.store).public]
    status = revocation.default_status_list_path(session.store).read_bytes()  # rewritten on issue
    assert verify(old.token, keys, now=clock(), status_list=status).revoke_reason == service.RESCORED_REASON


def test_a_badge_revoked_by_hand_is_not_issued_again(session: Any, tmp_path: Path) -> None:
    assessment = completed_assessment(session.org)
    service.issue(session, assessment.id, now=clock())
    revocation.revoke(session, assessment.id, reason="evidence was fabricated", now=clock())
    with pytest.raises(AAAFError) as caught:
        service.issue_badge(session, assessment.id, ["png"], tmp_path, clock())
    assert caught.value.code == "CONFLICT" and "evidence was fabricated" in caught.value.message
    # an appeal accepted afterwards supersedes it but keeps the revocation's own reason
    retired, _ = revocation.supersede(
        session.org, assessment.id, reason=revocation.appeal_reason("a1"), now=clock()
    )
    assert retired is not None and retired.revoke_reason == "evidence was fabricated"
    with pytest.raises(AAAFError):
        service.issue(session, assessment.id, now=clock())


def test_the_status_list_sets_every_revoked_and_superseded_bit(session: Any) -> None:
    kept = completed_assessment(session.org, agent_name="kept")
    revoked = completed_assessment(session.org, agent_name="revoked")
    appealed = completed_assessment(session.org, agent_name="appealed")
    tokens = {a.id: service.issue(session, a.id, now=clock()).token for a in (kept, revoked, appealed)}
    revocation.revoke(session, revoked.id, reason="key compromise", now=clock())
    revocation.supersede(session.org, appealed.id, reason=revocation.appeal_reason("a2"), now=clock())
    keys = [revocation.issuer_key(session.store).public]
    status = revocation.default_status_list_path(session.store).read_bytes()
    outcome = {a: verify(token, keys, now=clock(), status_list=status) for a, token in tokens.items()}
    assert outcome[kept.id].valid
    assert outcome[revoked.id].revoke_reason == "key compromise"
    assert outcome[appealed.id].revoke_reason == "superseded: appeal a2 accepted"
