"""Webhook subscriptions (document 004 §6.3) and stress tests (§5.3, §7.2)."""

from __future__ import annotations

import uuid

import pytest

from aaaf.errors import AAAFError
from aaaf.store import OrgStore, Store

from .factories import T0, minutes, org_of


@pytest.fixture()
def org(store: Store) -> OrgStore:
    return org_of(store)


def test_webhook_crud_and_event_filter(org: OrgStore) -> None:
    completed = org.create_webhook(
        "https://a.example/hook", ["assessment.completed", "badge.expiring"], secret_sealed="v1.sealed-a"
    )
    appeals = org.create_webhook("https://b.example/hook", ["appeal.filed"], secret_sealed="v1.sealed-b")
    assert completed.secret_sealed == "v1.sealed-a"
    assert (completed.max_retries, completed.retry_backoff_seconds) == (3, 60.0)
    assert "secret_sealed" not in completed.to_dict() and "sealed-a" not in repr(completed)
    assert org.get_webhook(completed.id) == completed
    assert org.webhooks() == [completed, appeals]
    assert org.webhooks(event_type="badge.expiring") == [completed]
    assert org.webhooks(event_type="assessment.failed") == []
    changed = org.update_webhook(appeals.id, active=False, max_retries=1, disabled_reason="gone")
    assert (changed.active, changed.max_retries, changed.disabled_reason) == (False, 1, "gone")
    assert org.update_webhook(appeals.id, active=True).disabled_reason is None
    org.delete_webhook(completed.id)
    assert org.webhooks(active_only=True) == [org.get_webhook(appeals.id)]
    for ref in (completed.id, "not-an-id"):
        with pytest.raises(AAAFError) as caught:
            org.delete_webhook(ref)
        assert caught.value.code == "NOT_FOUND"
    with pytest.raises(AAAFError) as caught:
        org.create_webhook("https://c.example", [], secret_sealed="s")
    assert caught.value.code == "INVALID_REQUEST"


def test_stress_tests_own_and_system(org: OrgStore, store: Store) -> None:
    system = store.add_system_stress_test(
        "complexity_ceiling", task_definition={"prompt": "L3 task"}, complexity_level=3, domain="code"
    )
    own = org.create_stress_test(
        "domain_breadth", task_definition={"prompt": "probe"}, domain="legal", expected_outcome={"pass": True}
    )
    other_org = org_of(store, "other")
    foreign = other_org.create_stress_test("speed", task_definition={})
    assert {test.id for test in org.stress_tests()} == {system.id, own.id}
    assert org.stress_tests(dimension="domain_breadth") == [own]
    assert org.get_stress_test(system.id) == system
    with pytest.raises(AAAFError) as caught:
        org.get_stress_test(foreign.id)
    assert caught.value.code == "NOT_FOUND"
    with pytest.raises(AAAFError) as caught:
        org.delete_stress_test(system.id)  # the system library is not the org's to delete
    assert caught.value.code == "NOT_FOUND"
    assert own.to_dict()["expected_outcome"] == {"pass": True} and system.to_dict()["organization_id"] is None


def test_stress_test_results(org: OrgStore, store: Store) -> None:
    agent = org.enroll_agent("a")
    assessment = org.create_assessment(agent.id, type="full", window_start=T0, window_end=T0)
    ladder = org.create_stress_test("complexity_ceiling", task_definition={"level": 4}, complexity_level=4)
    later = org.record_stress_test_result(
        assessment.id,
        ladder.id,
        outcome="partial",
        score=0.55,
        details={"steps": 3},
        executed_at=T0 + minutes(2),
    )
    earlier = org.record_stress_test_result(
        assessment.id, ladder.id, outcome="pass", score=None, details={}, executed_at=T0 + minutes(1)
    )
    assert later.agent_id == agent.id and later.score == 0.55
    assert org.stress_test_results(assessment.id) == [earlier, later]
    with pytest.raises(AAAFError) as caught:
        org.record_stress_test_result(
            assessment.id, ladder.id, outcome="meh", score=None, details={}, executed_at=T0
        )
    assert caught.value.code == "INVALID_REQUEST"
    with pytest.raises(AAAFError) as caught:
        org.delete_stress_test(ladder.id)  # results are kept (document 004 §7.3)
    assert caught.value.code == "CONFLICT"
    unused = org.create_stress_test("speed", task_definition={})
    org.delete_stress_test(unused.id)
    with pytest.raises(AAAFError) as caught:
        org.get_stress_test(unused.id)
    assert caught.value.code == "NOT_FOUND"
    with pytest.raises(AAAFError) as caught:
        org.record_stress_test_result(
            uuid.uuid4(), ladder.id, outcome="pass", score=None, details={}, executed_at=T0
        )
    assert caught.value.code == "NOT_FOUND"
