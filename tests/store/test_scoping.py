"""Tenant isolation: every OrgStore query is filtered by its organization, and another
organization's rows are NOT_FOUND, never visible (document 004 §6.1 multi-tenant)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from aaaf.errors import AAAFError
from aaaf.store import OrgStore, Store
from aaaf.store.records import SignedCredential

from .factories import PERFORMANCE_ROWS, T0, completed, minutes, org_of


@pytest.fixture()
def two_orgs(store: Store) -> tuple[OrgStore, OrgStore, dict[str, Any]]:
    org_a, org_b = org_of(store, "A"), org_of(store, "B")
    agent = org_a.enroll_agent("a-agent")
    org_a.add_events([(agent.id, completed("t1", T0, key="k1"))])
    assessment = org_a.create_assessment(agent.id, type="full", window_start=T0 - minutes(60), window_end=T0)
    org_a.complete_assessment(
        assessment.id,
        result={"type": "full"},
        dimension_rows=PERFORMANCE_ROWS,
        performance_composite=0.5,
        performance_tier="Competent",
        capability_composite=None,
        capability_tier=None,
        evidence_summary={},
        valid_until=T0 + minutes(10),
        completed_at=T0,
    )
    org_a.issue_badge(
        assessment.id,
        agent.id,
        sign=lambda slot: SignedCredential(json_data={"tier": "Competent"}, credential_jwt="jwt"),
        valid_until=T0,
        issued_at=T0,
    )
    appeal = org_a.file_appeal(
        assessment.id,
        dimensions=["accuracy"],
        justification="j",
        counter_evidence=[{"task_id": "t1"}],
        filed_at=T0,
    )
    hook = org_a.create_webhook("https://a.example/hook", ["assessment.completed"], secret_sealed="s")
    history = org_a.append_score_history(
        agent.id,
        scheme="trust",
        score=700.0,
        tier="silver",
        details={},
        was_anomalous=True,
        committed=False,
        computed_at=T0,
        at=T0,
    )
    return (
        org_a,
        org_b,
        {
            "agent": agent,
            "assessment": assessment,
            "appeal": appeal,
            "webhook": hook,
            "history": history,
        },
    )


LOOKUPS: dict[str, Callable[[OrgStore, dict[str, Any]], object]] = {
    "agent by id": lambda org, ids: org.get_agent(ids["agent"].id),
    "agent by name": lambda org, ids: org.get_agent("a-agent"),
    "events": lambda org, ids: org.events(ids["agent"].id),
    "events_for_agents": lambda org, ids: org.events_for_agents([ids["agent"].id]),
    "count_events": lambda org, ids: org.count_events(ids["agent"].id),
    "assessment": lambda org, ids: org.get_assessment(ids["assessment"].id),
    "assessments of agent": lambda org, ids: org.assessments(ids["agent"].id),
    "badge": lambda org, ids: org.get_badge(ids["assessment"].id),
    "appeal": lambda org, ids: org.get_appeal(ids["appeal"].id),
    "appeals": lambda org, ids: org.appeals(ids["assessment"].id),
    "webhook": lambda org, ids: org.get_webhook(ids["webhook"].id),
    "score history": lambda org, ids: org.score_history(ids["agent"].id, "trust"),
    "create assessment": lambda org, ids: org.create_assessment(
        ids["agent"].id, type="full", window_start=T0, window_end=T0
    ),
    "add events": lambda org, ids: org.add_events([(ids["agent"].id, completed("t9", T0, key="k9"))]),
    "file appeal": lambda org, ids: org.file_appeal(
        ids["assessment"].id, dimensions=["accuracy"], justification="x", counter_evidence=[], filed_at=T0
    ),
    "issue badge": lambda org, ids: org.issue_badge(
        ids["assessment"].id,
        ids["agent"].id,
        sign=lambda slot: SignedCredential(json_data={}, credential_jwt="jwt"),
        valid_until=T0,
        issued_at=T0,
    ),
    "supersede badge": lambda org, ids: org.supersede_badge(ids["assessment"].id, reason="x", at=T0),
    "revoke badge": lambda org, ids: org.revoke_badge(ids["assessment"].id, reason="x", at=T0),
    "review score": lambda org, ids: org.review_score(ids["history"].id, approve=True, reviewer="r", at=T0),
    "delete webhook": lambda org, ids: org.delete_webhook(ids["webhook"].id),
}


@pytest.mark.parametrize("lookup", LOOKUPS, ids=list(LOOKUPS))
def test_other_organization_sees_nothing(
    two_orgs: tuple[OrgStore, OrgStore, dict[str, Any]], lookup: str
) -> None:
    _, org_b, ids = two_orgs
    with pytest.raises(AAAFError) as caught:
        LOOKUPS[lookup](org_b, ids)
    assert caught.value.code == "NOT_FOUND"


def test_listings_are_per_organization(two_orgs: tuple[OrgStore, OrgStore, dict[str, Any]]) -> None:
    org_a, org_b, _ = two_orgs
    assert org_b.agents() == [] and org_b.assessments() == [] and org_b.badges() == []
    assert org_b.webhooks() == [] and org_b.trust_override() is None
    assert len(org_a.agents()) == 1 and len(org_a.badges()) == 1 and len(org_a.webhooks()) == 1
    assert org_b.delete_events_before(T0 + minutes(60)) == 0
    assert org_a.count_events(org_a.get_agent("a-agent").id) == 1


@pytest.mark.parametrize("lookup", ["agent by id", "events", "assessment", "badge", "appeal", "webhook"])
def test_the_owner_sees_everything(two_orgs: tuple[OrgStore, OrgStore, dict[str, Any]], lookup: str) -> None:
    org_a, _, ids = two_orgs
    assert LOOKUPS[lookup](org_a, ids)
