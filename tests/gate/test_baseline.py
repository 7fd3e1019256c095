"""Which stored assessment an agent gate compares with, on both databases: the one named,
else the assessment of the most recent gate it passed or promotion that is still valid —
completed, not rejected by a reviewer, not expired (SCORING.md §2.4).  A candidate that
failed its gate is never the baseline unless promoted.  End to end (a failed gate re-run
fails again) in test_agent_gate.py."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest

from aaaf.errors import AAAFError
from aaaf.services.gate_baselines import find_baseline, promote, record_gate
from tests.badges.conftest import clock, completed_assessment


def _gated(org: Any, record: Any, *, passed: bool) -> None:
    agent = org.get_agent(str(record.agent_id))
    verdict = "PROGRESS" if passed else "REGRESS"
    record_gate(org, agent, record, baseline=None, verdict=verdict, passed=passed, fail_on=("regress",))


def test_only_a_passed_or_promoted_assessment_is_the_default_baseline(store: Any) -> None:
    org = store.scope(store.default_organization().id)
    now = clock()
    passed = completed_assessment(org, agent_name="bot", completed_at=now - timedelta(days=10))
    agent = org.get_agent("bot")
    assert find_baseline(org, agent, now=now) is None  # never gated, never promoted
    _gated(org, passed, passed=True)
    assert find_baseline(org, agent, now=now).id == passed.id
    # a newer candidate that failed is recorded as failed and is not the baseline
    failed = completed_assessment(org, agent_name="bot", completed_at=now - timedelta(days=5))
    _gated(org, failed, passed=False)
    assert find_baseline(org, agent, now=now).id == passed.id
    assert [(d.kind, d.passed) for d in org.gate_decisions(agent.id)] == [("gate", True), ("gate", False)]
    # promoted explicitly, it is
    promote(org, str(failed.id))
    assert find_baseline(org, agent, now=now).id == failed.id
    # a rejected or expired baseline gives way to the previous one
    org.set_review_state(failed.id, "rejected")
    assert find_baseline(org, agent, now=now).id == passed.id
    short = completed_assessment(org, agent_name="bot", completed_at=now - timedelta(days=3), validity_days=1)
    _gated(org, short, passed=True)
    assert find_baseline(org, agent, now=now).id == passed.id
    # held for review is still valid: a pending review is not a rejection
    pending = completed_assessment(
        org, agent_name="bot", completed_at=now - timedelta(days=1), review_state="pending_review"
    )
    _gated(org, pending, passed=True)
    assert find_baseline(org, agent, now=now).id == pending.id
    # named: that one, whatever the record says
    assert find_baseline(org, agent, now=now, assessment_id=str(failed.id)).id == failed.id


def test_named_baselines_and_promotions_are_checked(store: Any) -> None:
    org = store.scope(store.default_organization().id)
    now = clock()
    kept = completed_assessment(org, agent_name="bot", completed_at=now - timedelta(days=10))
    agent = org.get_agent("bot")
    other = completed_assessment(org, agent_name="someone-else", completed_at=now)
    with pytest.raises(AAAFError) as caught:
        find_baseline(org, agent, now=now, assessment_id=str(other.id))
    assert caught.value.code == "INVALID_REQUEST" and "another agent" in caught.value.message
    with pytest.raises(AAAFError) as missing:
        find_baseline(org, agent, now=now, assessment_id=str(uuid.uuid4()))
    assert missing.value.code == "NOT_FOUND"
    with pytest.raises(AAAFError) as unknown:
        promote(org, str(uuid.uuid4()))
    assert unknown.value.code == "NOT_FOUND"
    running = org.create_assessment(
        agent.id, type="full", window_start=now - timedelta(days=30), window_end=now
    )
    with pytest.raises(AAAFError) as not_done:
        promote(org, str(running.id))
    assert (
        not_done.value.code == "INVALID_REQUEST" and "only a completed assessment" in not_done.value.message
    )
    assert promote(org, str(kept.id)).id == kept.id
    fresh = org.enroll_agent("fresh")
    assert find_baseline(org, fresh, now=now) is None
    # another organization's assessment is not found, let alone promoted
    stranger = store.scope(store.create_organization("stranger").id)
    with pytest.raises(AAAFError) as foreign:
        promote(stranger, str(kept.id))
    assert foreign.value.code == "NOT_FOUND"
