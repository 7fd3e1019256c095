"""Trust score history and the adaptive weight override (SCORING.md §3)."""

from __future__ import annotations

import pytest

from aaaf.errors import AAAFError
from aaaf.store import OrgStore, Store

from .factories import T0, minutes, org_of


@pytest.fixture()
def org(store: Store) -> OrgStore:
    return org_of(store)


def test_history_and_the_canonical_score(org: OrgStore) -> None:
    agent = org.enroll_agent("a")
    assert org.last_committed_score(agent.id, "trust") is None
    first = org.append_score_history(
        agent.id,
        scheme="trust",
        score=612.5,
        tier="silver",
        details={"gated": False},
        was_anomalous=False,
        committed=True,
        computed_at=T0,
        at=T0,
    )
    jump = org.append_score_history(
        agent.id,
        scheme="trust",
        score=905.0000000000001,
        tier="platinum",
        details={},
        was_anomalous=True,
        committed=False,
        computed_at=T0 + minutes(1),
        at=T0 + minutes(1),
    )
    org.append_score_history(
        agent.id,
        scheme="workflow",
        score=0.5,
        tier=None,
        details={},
        was_anomalous=False,
        committed=True,
        computed_at=T0 + minutes(2),
        at=T0 + minutes(2),
    )
    assert [entry.id for entry in org.score_history(agent.id, "trust")] == [first.id, jump.id]
    assert org.last_committed_score(agent.id, "trust") == first  # the anomalous one is held
    approved = org.review_score(jump.id, approve=True, reviewer="alice", at=T0 + minutes(3))
    assert (approved.committed, approved.review_decision, approved.reviewed_by) == (True, "approved", "alice")
    assert approved.score is not None and approved.score.hex() == (905.0000000000001).hex()
    assert org.last_committed_score(agent.id, "trust") == approved
    with pytest.raises(AAAFError) as caught:
        org.review_score(jump.id, approve=False, reviewer="bob", at=T0)
    assert caught.value.code == "CONFLICT"
    with pytest.raises(AAAFError) as caught:
        org.review_score(first.id, approve=True, reviewer="bob", at=T0)  # never anomalous
    assert caught.value.code == "CONFLICT"
    assert approved.to_dict()["reviewed_at"] == "2026-04-16T12:03:00Z"


def test_rejected_score_stays_uncommitted(org: OrgStore) -> None:
    agent = org.enroll_agent("a")
    base = org.append_score_history(
        agent.id,
        scheme="trust",
        score=500.0,
        tier="bronze",
        details={},
        was_anomalous=False,
        committed=True,
        computed_at=T0,
        at=T0,
    )
    jump = org.append_score_history(
        agent.id,
        scheme="trust",
        score=950.0,
        tier="platinum",
        details={},
        was_anomalous=True,
        committed=False,
        computed_at=T0 + minutes(1),
        at=T0 + minutes(1),
    )
    rejected = org.review_score(jump.id, approve=False, reviewer="r", at=T0 + minutes(2))
    assert (rejected.committed, rejected.review_decision) == (False, "rejected")
    assert org.last_committed_score(agent.id, "trust") == base


def test_override_is_stored_as_given(org: OrgStore) -> None:
    """Not validated when stored (SCORING.md §3): an invalid override is kept verbatim."""
    assert org.trust_override() is None
    invalid = {"safety": 1.5, "charisma": 0.2}
    first = org.set_trust_override(invalid, set_by="ops", set_at=T0)
    assert first.weights == invalid and first.active
    assert org.trust_override() == first
    second = org.set_trust_override({"safety": 0.2}, set_by=None, set_at=T0 + minutes(1))
    assert org.trust_override() == second
    org.clear_trust_override()
    assert org.trust_override() is None


def test_history_of_unknown_agent_is_not_found(org: OrgStore) -> None:
    with pytest.raises(AAAFError) as caught:
        org.score_history("ghost", "trust")  # type: ignore[arg-type]
    assert caught.value.code == "NOT_FOUND"
