"""Which stored assessment an agent gate compares with (issue 20 §1), on both databases: the one
named, else the agent's latest *valid* one — completed, not rejected by a reviewer, not expired
(SCORING.md §2.4).  The decision on real stored assessments is tested end to end in
test_agent_gate.py."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest

from aaaf.errors import AAAFError
from aaaf.services.gate import find_baseline
from tests.badges.conftest import clock, completed_assessment


def test_the_latest_valid_assessment_is_the_baseline(store: Any) -> None:
    org = store.scope(store.default_organization().id)
    now = clock()
    kept = completed_assessment(org, agent_name="bot", completed_at=now - timedelta(days=10))
    completed_assessment(org, agent_name="bot", completed_at=now - timedelta(days=5), review_state="rejected")
    completed_assessment(org, agent_name="bot", completed_at=now - timedelta(days=3), validity_days=1)
    agent = org.get_agent("bot")
    assert find_baseline(org, agent, now=now).id == kept.id
    # held for review is still valid: a pending review is not a rejection
    pending = completed_assessment(
        org, agent_name="bot", completed_at=now - timedelta(days=1), review_state="pending_review"
    )
    assert find_baseline(org, agent, now=now).id == pending.id
    # named: that one, whatever is newer
    assert find_baseline(org, agent, now=now, assessment_id=str(kept.id)).id == kept.id
    other = completed_assessment(org, agent_name="someone-else", completed_at=now)
    with pytest.raises(AAAFError) as caught:
        find_baseline(org, agent, now=now, assessment_id=str(other.id))
    assert caught.value.code == "INVALID_REQUEST" and "another agent" in caught.value.message
    with pytest.raises(AAAFError) as missing:
        find_baseline(org, agent, now=now, assessment_id=str(uuid.uuid4()))
    assert missing.value.code == "NOT_FOUND"
    fresh = org.enroll_agent("fresh")
    assert find_baseline(org, fresh, now=now) is None
