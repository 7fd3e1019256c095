"""What issuing one badge reads (SQLite and PostgreSQL): the assessment is loaded once, its
credentials read once, the inserted row is not read back — and what was read but changed
before the write is read again there."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from aaaf.services import badge_revocation as revocation
from aaaf.services import badges as service
from tests.badges.conftest import clock, completed_assessment, session_of
from tests.sql_statements import statements


@pytest.fixture()
def session(store: Any, badge_settings: Path) -> Any:
    return session_of(store)


def _selects_from(table: str, sent: list[str]) -> list[str]:
    """The statements reading ``table``'s rows directly (not the agent summary's refresh,
    whose reads are windows over many rows, and not an INSERT ... RETURNING)."""
    return [
        s
        for s in sent
        if s.startswith("SELECT") and re.search(rf"\bFROM {table}\b", s) and "row_number" not in s
    ]


def test_issuing_a_badge_loads_the_assessment_once_and_its_credentials_once(session: Any) -> None:
    assessment = completed_assessment(session.org)
    key = revocation.issuer_key(session.store)  # read once per batch by the worker
    with statements(session.store) as sent:
        issued = service.issue(session, assessment.id, now=clock(), key=key)
    assert issued.status_index == 0
    # get_assessment's load: the row, its dimensions, its appeals — once (was twice, plus the
    # latest completed one's row and the write's re-read: 4 reads of the assessment row)
    assert len([s for s in sent if re.search(r"\bFROM dimension_scores\b", s)]) == 1
    rows = [s for s in _selects_from("assessments", sent) if "assessments.id =" in s.split("WHERE", 1)[-1]]
    assert len(rows) == 1, rows
    # the credential rows once, before rendering (were read again under the write, and the
    # inserted row read back); the next free status bit is a max(), apart
    badge_reads = [s for s in _selects_from("badges", sent) if s.startswith("SELECT badges.id,")]
    assert len(badge_reads) == 1, badge_reads
    assert session.org.get_badge(assessment.id).credential_jwt == issued.token


def test_a_superseded_assessment_still_says_which_is_current(session: Any) -> None:
    from datetime import timedelta

    from aaaf.errors import AAAFError

    first = completed_assessment(session.org, completed_at=clock() - timedelta(days=2))
    second = completed_assessment(session.org, completed_at=clock() - timedelta(days=1))
    with pytest.raises(AAAFError) as raised:
        service.issue(session, first.id, now=clock())
    assert raised.value.code == "CONFLICT"
    assert raised.value.details["superseded_by"] == str(second.id)
    assert "completed " in raised.value.message
    assert service.issue(session, second.id, now=clock()).status_index == 0


def test_the_store_checks_the_record_handed_to_it(session: Any) -> None:
    """The assessment handed to ``OrgStore.issue_badge`` must be the one named, of the agent
    named: another agent's is refused as before; one of another id is read again."""
    from datetime import timedelta

    from aaaf.errors import AAAFError
    from aaaf.store.records import SignedCredential

    mine = completed_assessment(session.org, agent_name="a")
    theirs = completed_assessment(session.org, agent_name="b")

    def sign(slot: Any) -> SignedCredential:
        return SignedCredential(
            json_data={}, credential_jwt=f"jwt-{slot.status_index}", svg_url="s", png_url="p"
        )

    common = {"sign": sign, "valid_until": clock() + timedelta(days=90), "issued_at": clock()}
    with pytest.raises(AAAFError) as raised:
        session.org.issue_badge(mine.id, theirs.agent_id, assessment=mine, **common)
    assert raised.value.code == "INVALID_REQUEST"
    with pytest.raises(AAAFError) as raised:  # a record of another assessment: read, then refused
        session.org.issue_badge(mine.id, theirs.agent_id, assessment=theirs, **common)
    assert raised.value.code == "INVALID_REQUEST"
    badge = session.org.issue_badge(mine.id, mine.agent_id, assessment=theirs, **common)
    assert (badge.assessment_id, badge.agent_id, badge.credential_jwt) == (mine.id, mine.agent_id, "jwt-0")


def _sign(slot: Any) -> Any:
    from aaaf.store.records import SignedCredential

    return SignedCredential(json_data={}, credential_jwt=f"jwt-{slot.status_index}", svg_url="s", png_url="p")


def _issue(org: Any, assessment: Any, **more: Any) -> Any:
    from datetime import timedelta

    return org.issue_badge(
        assessment.id,
        assessment.agent_id,
        sign=_sign,
        valid_until=clock() + timedelta(days=90),
        issued_at=clock(),
        assessment=assessment,
        **more,
    )


def test_credentials_issued_since_they_were_read_are_read_again_in_the_write(session: Any) -> None:
    from aaaf.errors import AAAFError

    assessment = completed_assessment(session.org)
    seen = session.org.badge_credentials(assessment.id)  # none yet
    first = _issue(session.org, assessment)  # another worker, meanwhile
    with pytest.raises(AAAFError) as raised:  # the current one is found: refused as before
        _issue(session.org, assessment, credentials=seen)
    assert raised.value.code == "CONFLICT"
    second = _issue(session.org, assessment, credentials=seen, supersede_reason="superseded: test")
    records = session.org.badge_credentials(assessment.id)
    assert [(b.id, b.current, b.revoke_reason) for b in records] == [
        (first.id, False, "superseded: test"),
        (second.id, True, None),
    ]


def test_a_current_credential_changed_since_it_was_read_is_read_again(session: Any) -> None:
    assessment = completed_assessment(session.org)
    first = _issue(session.org, assessment)
    stale = session.org.badge_credentials(assessment.id)
    second = _issue(session.org, assessment, supersede_reason="superseded: one")  # meanwhile
    third = _issue(session.org, assessment, credentials=stale, supersede_reason="superseded: two")
    records = session.org.badge_credentials(assessment.id)
    assert [(b.id, b.current, b.revoke_reason) for b in records] == [
        (first.id, False, "superseded: one"),
        (second.id, False, "superseded: two"),
        (third.id, True, None),
    ]
    # and one read as it still is is superseded without reading it again
    fourth = _issue(session.org, assessment, credentials=[third], supersede_reason="superseded: three")
    assert [(b.id, b.current) for b in session.org.badge_credentials(assessment.id)][-2:] == [
        (third.id, False),
        (fourth.id, True),
    ]


def test_a_revocation_by_hand_since_the_read_keeps_its_record(session: Any) -> None:
    assessment = completed_assessment(session.org)
    first = _issue(session.org, assessment)
    stale = session.org.badge_credentials(assessment.id)
    session.org.revoke_badge(assessment.id, reason="key leaked", at=clock())  # meanwhile
    second = _issue(session.org, assessment, credentials=stale, supersede_reason="superseded: test")
    records = session.org.badge_credentials(assessment.id)
    assert [(b.id, b.current, b.revoked, b.revoke_reason) for b in records] == [
        (first.id, False, True, "key leaked"),
        (second.id, True, False, None),
    ]


@pytest.mark.parametrize("reason", [None, "superseded: test"])
def test_workers_issuing_one_assessment_at_once_from_the_same_read(
    store_url: str, reason: str | None
) -> None:
    """Three workers read no credential, then write at once: one current credential; the
    others are refused (no reason to supersede) or supersede it in turn, each with its own bit."""
    import threading

    from aaaf.store import open_store

    stores = [open_store(store_url) for _ in range(3)]
    try:
        setup = stores[0].scope(stores[0].default_organization().id)
        assessment = completed_assessment(setup)
        seen = setup.badge_credentials(assessment.id)
        barrier = threading.Barrier(len(stores))
        errors: list[BaseException] = []

        def run(store: Any) -> None:
            org = store.scope(setup.organization_id)
            barrier.wait()
            try:
                _issue(org, assessment, credentials=seen, supersede_reason=reason)
            except BaseException as error:
                errors.append(error)

        threads = [threading.Thread(target=run, args=(store,)) for store in stores]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        records = setup.badge_credentials(assessment.id)
        assert [b.current for b in records].count(True) == 1
        if reason is None:
            assert len(records) == 1
            assert [getattr(e, "code", e) for e in errors] == ["CONFLICT", "CONFLICT"]
        else:
            assert errors == []
            assert sorted(b.status_index for b in records) == [0, 1, 2]
    finally:
        for store in stores:
            store.close()
