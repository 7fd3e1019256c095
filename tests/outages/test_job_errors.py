"""A triggered assessment's job tells a lost database from a scoring error (issue 34 §7): the
first is raised so the queue runs the job again with backoff (the assessment stays as it
was, nothing is emitted); only the second fails the assessment, with its reason."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from aaaf.services import assessment_jobs
from aaaf.services.assessment_jobs import run_triggered_assessment, trigger_assessment
from tests.jobs.helpers import RecordingQueue, assessable_agent


def _triggered(store: Any) -> tuple[Any, Any]:
    now = datetime.now(UTC)
    org = store.scope(store.default_organization().id)
    record = trigger_assessment(org, assessable_agent(org, "flaky", now=now), RecordingQueue(), now=now)
    return org, record


def test_a_lost_database_is_raised_for_a_retry_and_fails_nothing(
    store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    org, record = _triggered(store)

    def lost(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError(
            "SELECT 1", {}, Exception("terminating connection due to administrator command")
        )

    monkeypatch.setattr(assessment_jobs, "score_agent", lost)
    with pytest.raises(OperationalError):
        run_triggered_assessment(store, org.organization_id, record.id, now=datetime.now(UTC))
    assert org.get_assessment(record.id).status == "in_progress"  # left for the next attempt
    monkeypatch.undo()
    done = run_triggered_assessment(store, org.organization_id, record.id, now=datetime.now(UTC))
    assert done.status == "completed"


def test_a_scoring_error_fails_the_assessment_with_its_reason(
    store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    org, record = _triggered(store)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(assessment_jobs, "score_agent", broken)
    failed = run_triggered_assessment(store, org.organization_id, record.id, now=datetime.now(UTC))
    assert failed.status == "failed"
    assert failed.error == {"code": "INTERNAL_ERROR", "message": "scoring failed unexpectedly"}
