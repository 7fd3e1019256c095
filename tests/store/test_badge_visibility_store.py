"""Badge visibility in the store (issue 13 §1), on SQLite and PostgreSQL."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest

from aaaf.errors import AAAFError
from aaaf.services import keys as key_service
from aaaf.store import Store
from aaaf.store.repositories.badge_visibility import public_badge_visibility


def test_visibility_is_per_assessment_and_scoped(store: Store) -> None:
    now = datetime.now(UTC)
    mine, _ = key_service.create_organization(store, "mine", now=now)
    theirs, _ = key_service.create_organization(store, "theirs", now=now)
    org = store.scope(mine.id)
    agent = org.enroll_agent("a")
    assessment = org.create_assessment(agent.id, type="passive_only", window_start=now, window_end=now)
    assert org.badge_visibility(assessment.id) == "public"
    assert public_badge_visibility(store.engine, assessment.id) == ("public", None)
    org.set_badge_visibility(assessment.id, "private", at=now)
    assert org.badge_visibility(assessment.id) == "private"
    assert public_badge_visibility(store.engine, assessment.id) == ("private", mine.id)
    org.set_badge_visibility(assessment.id, "public", at=now)
    assert public_badge_visibility(store.engine, str(assessment.id))[0] == "public"
    with pytest.raises(AAAFError) as invalid:
        org.set_badge_visibility(assessment.id, "secret", at=now)
    assert invalid.value.code == "INVALID_REQUEST"
    for other_ref in (assessment.id, uuid.uuid4(), "not-an-id"):
        with pytest.raises(AAAFError) as hidden:
            store.scope(theirs.id).set_badge_visibility(other_ref, "private", at=now)
        assert hidden.value.code == "NOT_FOUND"
    assert public_badge_visibility(store.engine, "not-an-id") == ("public", None)
