"""Appeals (document 004 §5.4) and badges (§4, §7.2; one row per credential, status list index,
supersession, revocation) and the reviewer of a held assessment (SCORING.md §2.4)."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable

import pytest
from sqlalchemy import insert
from sqlalchemy.exc import IntegrityError

from aaaf.errors import AAAFError
from aaaf.store import Appeal, Assessment, Badge, OrgStore, Store, open_store
from aaaf.store import tables as t
from aaaf.store.records import BadgeSlot, SignedCredential

from .factories import T0, completed_assessment, minutes, org_of


@pytest.fixture()
def org(store: Store) -> OrgStore:
    return org_of(store)


def test_appeal_is_filed_listed_and_resolved(org: OrgStore) -> None:
    agent = org.enroll_agent("a")
    assessment = completed_assessment(org, agent)
    evidence = [{"task_id": "task-1", "claim": "scope change, not an error"}]
    first = org.file_appeal(
        assessment.id,
        dimensions=["accuracy", "delegation_capability"],
        justification="Revisions were scope changes.",
        counter_evidence=evidence,
        filed_at=T0 + minutes(1),
    )
    assert first.status == "filed" and first.dimensions_challenged == ("accuracy", "delegation_capability")
    assert first.counter_evidence == tuple(evidence) and first.resolved_at is None
    assert org.get_appeal(first.id) == first

    def file_second() -> Appeal:
        return org.file_appeal(
            assessment.id,
            dimensions=["speed"],
            justification="j",
            counter_evidence=evidence,
            filed_at=T0 + minutes(2),
        )

    # at most one open appeal per assessment (SCORING.md §7 "appeal already open")
    with pytest.raises(AAAFError) as caught:
        file_second()
    assert caught.value.code == "APPEAL_NOT_ALLOWED" and caught.value.exit_code == 2
    assert caught.value.details["open_appeal_id"] == str(first.id)
    assert "appeal already open" in caught.value.message

    reviewing = org.resolve_appeal(
        first.id, status="under_review", reviewer_notes=None, resolution=None, resolved_at=None
    )
    assert reviewing.status == "under_review"
    with pytest.raises(AAAFError) as caught:
        file_second()
    assert caught.value.code == "APPEAL_NOT_ALLOWED"
    assert caught.value.details["open_appeal_status"] == "under_review"
    assert org.appeals(assessment.id) == [reviewing]
    accepted = org.resolve_appeal(
        first.id,
        status="accepted",
        reviewer_notes="Agreed.",
        resolution={"rescored": ["accuracy"], "before": {"accuracy": 0.6}, "after": {"accuracy": 0.8}},
        resolved_at=T0 + minutes(3),
    )
    assert (accepted.status, accepted.reviewer_notes, accepted.resolved_at) == (
        "accepted",
        "Agreed.",
        T0 + minutes(3),
    )
    assert accepted.resolution == {
        "rescored": ["accuracy"],
        "before": {"accuracy": 0.6},
        "after": {"accuracy": 0.8},
    }
    # decided: another appeal may now be filed, and both stay on the record
    second = file_second()
    assert org.appeals(assessment.id) == [accepted, second]
    assert org.get_assessment(assessment.id).appeals == (accepted, second)
    with pytest.raises(AAAFError) as caught:
        org.resolve_appeal(first.id, status="rejected", reviewer_notes="", resolution=None, resolved_at=T0)
    assert caught.value.code == "CONFLICT"
    with pytest.raises(AAAFError) as caught:
        org.resolve_appeal(second.id, status="filed", reviewer_notes="", resolution=None, resolved_at=T0)
    assert caught.value.code == "INVALID_REQUEST"
    assert accepted.to_dict()["resolved_at"] == "2026-04-16T12:03:00Z"


def test_concurrent_filings_leave_one_open_appeal(store_url: str) -> None:
    """Two processes filing at once: one appeal, the other refused (the row lock / BEGIN IMMEDIATE)."""
    setup = open_store(store_url)
    try:
        org = org_of(setup)
        assessment = completed_assessment(org, org.enroll_agent("racer"))
    finally:
        setup.close()
    outcomes: list[str] = []
    barrier = threading.Barrier(4)

    def file_one(index: int) -> None:
        own = open_store(store_url)
        try:
            scoped = own.scope(org.organization_id)
            barrier.wait()
            try:
                scoped.file_appeal(
                    assessment.id,
                    dimensions=["accuracy"],
                    justification=f"filing {index}",
                    counter_evidence=[{"task_id": "task-1", "claim": "c"}],
                    filed_at=T0 + minutes(index),
                )
                outcomes.append("filed")
            except AAAFError as error:
                outcomes.append(error.code)
        finally:
            own.close()

    threads = [threading.Thread(target=file_one, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["APPEAL_NOT_ALLOWED"] * 3 + ["filed"]
    check = open_store(store_url)
    try:
        assert len(check.scope(org.organization_id).appeals(assessment.id)) == 1
    finally:
        check.close()


def test_unknown_appeal_is_not_found(org: OrgStore) -> None:
    with pytest.raises(AAAFError) as caught:
        org.get_appeal(uuid.uuid4())
    assert caught.value.code == "NOT_FOUND"


def signer(label: str = "c", seen: list[BadgeSlot] | None = None) -> Callable[[BadgeSlot], SignedCredential]:
    """A stand-in for signing: the "JWT" names the slot it was made for."""

    def sign(slot: BadgeSlot) -> SignedCredential:
        if seen is not None:
            seen.append(slot)
        return SignedCredential(
            json_data={"label": label, "id": slot.credential_id},
            credential_jwt=f"jwt.{label}.{slot.status_index}",
            svg_url=f"https://x/{label}.svg",
        )

    return sign


def issue(
    org: OrgStore, assessment: Assessment, label: str = "c", *, supersede: str | None = None, at: int = 0
) -> Badge:
    return org.issue_badge(
        assessment.id,
        assessment.agent_id,
        sign=signer(label),
        valid_until=T0 + minutes(10),
        issued_at=T0 + minutes(at),
        supersede_reason=supersede,
    )


def test_badge_status_indexes_are_allocated_per_organization(store: Store) -> None:
    first_org, second_org = org_of(store, "first"), org_of(store, "second")
    agents = [first_org.enroll_agent(f"agent-{i}") for i in range(3)]
    badges = [
        issue(first_org, completed_assessment(first_org, agent), f"n{i}") for i, agent in enumerate(agents)
    ]
    assert [badge.status_index for badge in badges] == [0, 1, 2]
    assert [badge.credential_jwt for badge in badges] == ["jwt.n0.0", "jwt.n1.1", "jwt.n2.2"]
    assert badges[0].json_data == {"label": "n0", "id": f"urn:uuid:{badges[0].id}"}
    assert badges[0].svg_url == "https://x/n0.svg" and badges[0].current
    other_agent = second_org.enroll_agent("b")
    other = issue(second_org, completed_assessment(second_org, other_agent))
    assert other.status_index == 0  # each organization has its own status list
    assert [b.status_index for b in first_org.badges()] == [0, 1, 2]
    assert first_org.badges(agent_id=agents[1].id) == [badges[1]]


def test_the_row_is_written_once_complete_with_the_slot_it_was_signed_for(org: OrgStore) -> None:
    agent = org.enroll_agent("a")
    assessment = completed_assessment(org, agent)
    seen: list[BadgeSlot] = []
    badge = org.issue_badge(
        assessment.id, agent.id, sign=signer("x", seen), valid_until=T0 + minutes(10), issued_at=T0
    )
    assert seen == [BadgeSlot(badge.id, badge.status_index)]
    assert badge.credential_jwt == "jwt.x.0" and badge.credential_id == f"urn:uuid:{badge.id}"
    assert org.get_badge(assessment.id) == badge


def test_a_failed_signing_leaves_no_row(org: OrgStore) -> None:
    agent = org.enroll_agent("a")
    assessment = completed_assessment(org, agent)

    def crash(slot: BadgeSlot) -> SignedCredential:
        raise RuntimeError("power cut while signing")

    with pytest.raises(RuntimeError):
        org.issue_badge(assessment.id, agent.id, sign=crash, valid_until=T0, issued_at=T0)
    assert org.badges() == [] and org.current_badge(assessment.id) is None

    def unsigned(slot: BadgeSlot) -> SignedCredential:
        return SignedCredential(json_data={}, credential_jwt="")

    with pytest.raises(AAAFError) as caught:
        org.issue_badge(assessment.id, agent.id, sign=unsigned, valid_until=T0, issued_at=T0)
    assert caught.value.code == "INVALID_REQUEST" and org.badges() == []
    # the index reserved by a failed issue is simply the next one again
    assert issue(org, assessment).status_index == 0


def _raw_badge_row(org: OrgStore, assessment: Assessment, index: int, **values: object) -> dict[str, object]:
    return {
        "id": uuid.uuid4(),
        "assessment_id": assessment.id,
        "agent_id": assessment.agent_id,
        "organization_id": org.organization_id,
        "status_index": index,
        "json_data": {},
        "issued_at": T0,
        "valid_until": T0,
        "revoked": False,
        **values,
    }


def test_the_schema_refuses_an_unsigned_current_row_and_two_current_rows(org: OrgStore) -> None:
    agent = org.enroll_agent("a")
    assessment = completed_assessment(org, agent)
    with pytest.raises(IntegrityError), org.engine.begin() as connection:  # ck_badges_signed
        connection.execute(insert(t.badges).values(_raw_badge_row(org, assessment, 0, credential_jwt=None)))
    issue(org, assessment)
    with pytest.raises(IntegrityError), org.engine.begin() as connection:  # uq_badges_one_current
        connection.execute(insert(t.badges).values(_raw_badge_row(org, assessment, 1, credential_jwt="j")))
    with pytest.raises(IntegrityError), org.engine.begin() as connection:  # ck_badges_superseded_revoked
        connection.execute(
            insert(t.badges).values(_raw_badge_row(org, assessment, 1, credential_jwt="j", superseded_at=T0))
        )
    assert len(org.badges()) == 1


def test_a_second_credential_needs_the_first_superseded(org: OrgStore, store: Store) -> None:
    agent = org.enroll_agent("a")
    assessment = completed_assessment(org, agent)
    other = completed_assessment(org, org.enroll_agent("b"))
    first = issue(org, assessment, "old")
    issue(org, other, "other")
    with pytest.raises(AAAFError) as caught:
        issue(org, assessment, "again")
    assert caught.value.code == "CONFLICT"

    reason = "superseded: appeal 1234 accepted"
    retired = org.supersede_badge(assessment.id, reason=reason, at=T0 + minutes(2))
    assert retired is not None and retired.id == first.id
    assert (retired.revoked, retired.revoked_at, retired.revoke_reason) == (True, T0 + minutes(2), reason)
    assert retired.superseded_at == T0 + minutes(2) and not retired.current
    assert retired.status_index == first.status_index and retired.credential_jwt == first.credential_jwt
    assert org.supersede_badge(assessment.id, reason=reason, at=T0) is None  # nothing current any more
    # until a new one is issued, the latest credential is the superseded one
    assert org.get_badge(assessment.id) == retired and store.find_badge(assessment.id) == retired
    assert org.current_badge(assessment.id) is None

    fresh = issue(org, assessment, "new", at=3)
    assert fresh.status_index == 2 and fresh.current and not fresh.revoked  # a fresh bit, never reused
    assert org.get_badge(assessment.id) == fresh == org.current_badge(assessment.id)
    assert store.find_badge(assessment.id) == fresh
    assert org.badge_credentials(assessment.id) == [retired, fresh]
    assert [b.status_index for b in org.badges()] == [0, 1, 2]
    assert [b.status_index for b in org.badges(current_only=True)] == [1, 2]


def test_issuing_can_supersede_in_the_same_transaction(org: OrgStore) -> None:
    agent = org.enroll_agent("a")
    assessment = completed_assessment(org, agent)
    first = issue(org, assessment, "old")
    second = issue(org, assessment, "new", supersede="superseded: assessment re-scored", at=1)
    old, new = org.badge_credentials(assessment.id)
    assert old.id == first.id and old.revoke_reason == "superseded: assessment re-scored"
    assert old.superseded_at == T0 + minutes(1) and new == second and second.status_index == 1


def test_revocation_is_recorded_once(org: OrgStore, store: Store) -> None:
    agent = org.enroll_agent("a")
    assessment = completed_assessment(org, agent)
    org.issue_badge(assessment.id, agent.id, sign=signer(), valid_until=T0 + minutes(5), issued_at=T0)
    revoked = org.revoke_badge(assessment.id, reason="key compromise", at=T0 + minutes(1))
    assert (revoked.revoked, revoked.revoke_reason, revoked.revoked_at) == (
        True,
        "key compromise",
        T0 + minutes(1),
    )
    again = org.revoke_badge(assessment.id, reason="other", at=T0 + minutes(2))
    assert again == revoked
    assert not revoked.expired(T0 + minutes(5)) and revoked.expired(T0 + minutes(6))
    # public verification finds it without knowing the organization
    assert store.find_badge(assessment.id) == revoked
    assert store.find_badge(uuid.uuid4()) is None and store.find_badge("garbage") is None
    # superseding a revoked credential keeps the revocation's own record
    retired = org.supersede_badge(assessment.id, reason="superseded: appeal x accepted", at=T0 + minutes(3))
    assert retired is not None and retired.revoke_reason == "key compromise"
    assert retired.superseded_at == T0 + minutes(3)


def test_badge_for_someone_elses_assessment_is_refused(org: OrgStore) -> None:
    agent, other = org.enroll_agent("a"), org.enroll_agent("b")
    assessment = completed_assessment(org, agent)
    with pytest.raises(AAAFError) as caught:
        org.issue_badge(assessment.id, other.id, sign=signer(), valid_until=T0, issued_at=T0)
    assert caught.value.code == "INVALID_REQUEST"
    with pytest.raises(AAAFError) as caught:
        org.get_badge(assessment.id)
    assert caught.value.code == "NOT_FOUND"
    assert org.badge_credentials("garbage") == [] and org.current_badge("garbage") is None


def test_the_reviewer_and_time_of_a_decision_are_recorded(org: OrgStore) -> None:
    agent = org.enroll_agent("a")
    assessment = completed_assessment(org, agent)
    assert (assessment.reviewed_by, assessment.reviewed_at) == (None, None)
    org.set_review_state(assessment.id, "pending_review")
    decided = org.set_review_state(assessment.id, "approved", reviewer="rita", at=T0 + minutes(4))
    assert (decided.review_state, decided.reviewed_by, decided.reviewed_at) == (
        "approved",
        "rita",
        T0 + minutes(4),
    )
    assert org.get_assessment(assessment.id) == decided
    assert decided.to_dict()["reviewed_by"] == "rita"
    assert decided.to_dict()["reviewed_at"] == "2026-04-16T12:04:00Z"


def test_concurrent_first_issues_get_distinct_indexes(store_url: str) -> None:
    stores = [open_store(store_url) for _ in range(4)]
    try:
        org_id = stores[0].create_organization("race").id
        setup = stores[0].scope(org_id)
        assessments = [
            completed_assessment(setup, setup.enroll_agent(f"agent-{i}")) for i in range(len(stores))
        ]
        barrier = threading.Barrier(len(stores))
        errors: list[BaseException] = []

        def run(store: Store, assessment: Assessment) -> None:
            org = store.scope(org_id)
            barrier.wait()
            try:
                issue(org, assessment)
            except BaseException as error:
                errors.append(error)

        threads = [threading.Thread(target=run, args=pair) for pair in zip(stores, assessments, strict=True)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        assert sorted(badge.status_index for badge in setup.badges()) == [0, 1, 2, 3]
        assert all(badge.credential_jwt == f"jwt.c.{badge.status_index}" for badge in setup.badges())
    finally:
        for store in stores:
            store.close()


def test_concurrent_issues_of_one_assessment_leave_one_current_credential(store_url: str) -> None:
    stores = [open_store(store_url) for _ in range(3)]
    try:
        org_id = stores[0].create_organization("race").id
        setup = stores[0].scope(org_id)
        assessment = completed_assessment(setup, setup.enroll_agent("a"))
        barrier = threading.Barrier(len(stores))
        errors: list[BaseException] = []

        def run(store: Store) -> None:
            org = store.scope(org_id)
            barrier.wait()
            try:
                issue(org, assessment)
            except BaseException as error:
                errors.append(error)

        threads = [threading.Thread(target=run, args=(store,)) for store in stores]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(setup.badges()) == 1
        assert len(errors) == 2
        assert all(isinstance(e, AAAFError) and e.code == "CONFLICT" for e in errors)
    finally:
        for store in stores:
            store.close()
