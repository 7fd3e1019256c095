"""Appeals (document 004 §5.4) and badges (§4, §7.2; status list index, revocation)."""

from __future__ import annotations

import threading
import uuid

import pytest

from aaaf.errors import AAAFError
from aaaf.store import Agent, Assessment, OrgStore, Store, open_store

from .factories import PERFORMANCE_ROWS, T0, minutes, org_of


def completed_assessment(org: OrgStore, agent: Agent) -> Assessment:
    running = org.create_assessment(
        agent.id, type="passive_only", window_start=T0 - minutes(60), window_end=T0
    )
    return org.complete_assessment(
        running.id,
        result={"type": "passive_only"},
        dimension_rows=PERFORMANCE_ROWS,
        performance_composite=0.5,
        performance_tier="Competent",
        capability_composite=0.3,
        capability_tier="Functional",
        evidence_summary={},
        valid_until=T0 + minutes(90 * 24 * 60),
        completed_at=T0,
    )


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
    second = org.file_appeal(
        assessment.id,
        dimensions=["speed"],
        justification="j",
        counter_evidence=evidence,
        filed_at=T0 + minutes(2),
    )
    assert first.status == "filed" and first.dimensions_challenged == ("accuracy", "delegation_capability")
    assert first.counter_evidence == tuple(evidence) and first.resolved_at is None
    assert org.get_appeal(first.id) == first
    assert org.appeals(assessment.id) == [first, second]
    assert org.get_assessment(assessment.id).appeals == (first, second)

    reviewing = org.resolve_appeal(
        first.id, status="under_review", reviewer_notes=None, resolution=None, resolved_at=None
    )
    assert reviewing.status == "under_review"
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
    with pytest.raises(AAAFError) as caught:
        org.resolve_appeal(first.id, status="rejected", reviewer_notes="", resolution=None, resolved_at=T0)
    assert caught.value.code == "CONFLICT"
    with pytest.raises(AAAFError) as caught:
        org.resolve_appeal(second.id, status="filed", reviewer_notes="", resolution=None, resolved_at=T0)
    assert caught.value.code == "INVALID_REQUEST"
    assert accepted.to_dict()["resolved_at"] == "2026-04-16T12:03:00Z"


def test_unknown_appeal_is_not_found(org: OrgStore) -> None:
    with pytest.raises(AAAFError) as caught:
        org.get_appeal(uuid.uuid4())
    assert caught.value.code == "NOT_FOUND"


def test_badge_status_indexes_are_allocated_per_organization(store: Store) -> None:
    first_org, second_org = org_of(store, "first"), org_of(store, "second")
    agents = [first_org.enroll_agent(f"agent-{i}") for i in range(3)]
    badges = [
        first_org.upsert_badge(
            completed_assessment(first_org, agent).id,
            agent.id,
            json_data={"n": i},
            valid_until=T0 + minutes(10),
            issued_at=T0,
            svg_url=f"https://x/{i}.svg",
        )
        for i, agent in enumerate(agents)
    ]
    assert [badge.status_index for badge in badges] == [0, 1, 2]
    other_agent = second_org.enroll_agent("b")
    other = second_org.upsert_badge(
        completed_assessment(second_org, other_agent).id,
        other_agent.id,
        json_data={},
        valid_until=T0,
        issued_at=T0,
    )
    assert other.status_index == 0  # each organization has its own status list
    assert [b.status_index for b in first_org.badges()] == [0, 1, 2]
    assert first_org.badges(agent_id=agents[1].id) == [badges[1]]


def test_reissue_keeps_the_index_and_updates_the_content(org: OrgStore) -> None:
    agent = org.enroll_agent("a")
    assessment = completed_assessment(org, agent)
    first = org.upsert_badge(assessment.id, agent.id, json_data={"v": 1}, valid_until=T0, issued_at=T0)
    again = org.upsert_badge(
        assessment.id,
        agent.id,
        json_data={"v": 2},
        valid_until=T0 + minutes(1),
        issued_at=T0 + minutes(1),
        credential_jwt="eyJhbGciOiJFZERTQSJ9.e30.sig",
        png_url="https://x/a.png",
    )
    assert (again.id, again.status_index) == (first.id, first.status_index)
    assert again.json_data == {"v": 2} and again.credential_jwt == "eyJhbGciOiJFZERTQSJ9.e30.sig"
    assert org.get_badge(assessment.id) == again
    assert len(org.badges()) == 1


def test_revocation_is_recorded_once(org: OrgStore, store: Store) -> None:
    agent = org.enroll_agent("a")
    assessment = completed_assessment(org, agent)
    org.upsert_badge(assessment.id, agent.id, json_data={}, valid_until=T0 + minutes(5), issued_at=T0)
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


def test_badge_for_someone_elses_assessment_is_refused(org: OrgStore) -> None:
    agent, other = org.enroll_agent("a"), org.enroll_agent("b")
    assessment = completed_assessment(org, agent)
    with pytest.raises(AAAFError) as caught:
        org.upsert_badge(assessment.id, other.id, json_data={}, valid_until=T0, issued_at=T0)
    assert caught.value.code == "INVALID_REQUEST"
    with pytest.raises(AAAFError) as caught:
        org.get_badge(assessment.id)
    assert caught.value.code == "NOT_FOUND"


def test_concurrent_first_issues_get_distinct_indexes(store_url: str) -> None:
    stores = [open_store(store_url) for _ in range(4)]
    try:
        org_id = stores[0].create_organization("race").id
        setup = stores[0].scope(org_id)
        pairs = []
        for i in range(len(stores)):
            agent = setup.enroll_agent(f"agent-{i}")
            pairs.append((completed_assessment(setup, agent).id, agent.id))
        barrier = threading.Barrier(len(stores))
        errors: list[BaseException] = []

        def issue(store: Store, assessment_id: uuid.UUID, agent_id: uuid.UUID) -> None:
            org = store.scope(org_id)
            barrier.wait()
            try:
                org.upsert_badge(assessment_id, agent_id, json_data={}, valid_until=T0, issued_at=T0)
            except BaseException as error:
                errors.append(error)

        threads = [
            threading.Thread(target=issue, args=(store, *pair))
            for store, pair in zip(stores, pairs, strict=True)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        assert sorted(badge.status_index for badge in setup.badges()) == [0, 1, 2, 3]
    finally:
        for store in stores:
            store.close()
