"""Appeals at the service level (SCORING.md §2.4, document 004 §5.4): the 14-day window to the
second, the counter-evidence rules, and the record an appeal leaves."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from aaaf.errors import AAAFError
from aaaf.evidence.validation import validate_event
from aaaf.services.appeals import file_appeal, resolve_appeal
from aaaf.services.assess import assess_agent
from aaaf.store import open_store
from tests.cli.events_factory import NOW, agent_log


@pytest.fixture()
def assessed(sqlite_at_head: Path):
    store = open_store(f"sqlite:///{sqlite_at_head}")
    org = store.scope(store.default_organization().id)
    agent = org.enroll_agent("coder")
    org.add_events(
        [
            (agent.id, validate_event(e, now=NOW, default_agent="coder"))
            for e in agent_log(None, 36, prefix="coder")
        ]
    )
    record = assess_agent(org, "coder", now=NOW)
    yield org, record
    store.close()


EVIDENCE = [{"task_id": "coder-000", "claim": "the revision was a scope change"}]


def test_the_appeal_window_is_14_days_to_the_second(assessed) -> None:
    org, record = assessed
    last_moment = record.completed_at + timedelta(days=14)
    appeal = file_appeal(
        org,
        str(record.id),
        dimensions=["accuracy"],
        justification="scope change",
        counter_evidence=EVIDENCE,
        now=last_moment,
    )
    assert appeal.status == "filed"
    with pytest.raises(AAAFError) as refused:
        file_appeal(
            org,
            str(record.id),
            dimensions=["accuracy"],
            justification="scope change",
            counter_evidence=EVIDENCE,
            now=last_moment + timedelta(seconds=1),
        )
    assert refused.value.code == "APPEAL_NOT_ALLOWED"
    assert "window closed" in refused.value.message


@pytest.mark.parametrize(
    ("dimensions", "justification", "evidence", "needle"),
    [
        ([], "x", EVIDENCE, "at least one challenged dimension"),
        (["charisma"], "x", EVIDENCE, "not assessed"),
        (["accuracy"], "   ", EVIDENCE, "justification"),
        (["accuracy"], "x", [], "counter-evidence"),
        (["accuracy"], "x", [{"claim": "no task"}], "does not name a task_id"),
        (["accuracy"], "x", [{"task_id": "someone-else-7", "claim": "?"}], "not a task of this assessment"),
    ],
)
def test_an_appeal_must_meet_every_rule(assessed, dimensions, justification, evidence, needle) -> None:
    org, record = assessed
    with pytest.raises(AAAFError) as refused:
        file_appeal(
            org,
            str(record.id),
            dimensions=dimensions,
            justification=justification,
            counter_evidence=evidence,
            now=NOW,
        )
    assert refused.value.code == "APPEAL_NOT_ALLOWED"
    assert needle in refused.value.message


def test_rejected_appeal_changes_no_score_and_stays_on_record(assessed) -> None:
    org, record = assessed
    appeal = file_appeal(
        org,
        str(record.id),
        dimensions=["accuracy"],
        justification="scope change",
        counter_evidence=EVIDENCE,
        now=NOW,
    )
    resolved = resolve_appeal(org, str(appeal.id), decision="rejected", notes="it was an error", now=NOW)
    assert resolved.status == "rejected" and resolved.reviewer_notes == "it was an error"
    after = org.get_assessment(record.id)
    assert after.result == record.result
    assert [a.status for a in after.appeals] == ["rejected"]


def test_accepted_appeal_records_before_and_after(assessed) -> None:
    org, record = assessed
    appeal = file_appeal(
        org,
        str(record.id),
        dimensions=["accuracy"],
        justification="scope change",
        counter_evidence=EVIDENCE,
        now=NOW,
    )
    resolved = resolve_appeal(org, str(appeal.id), decision="accepted", notes=None, now=NOW)
    changes = resolved.resolution["changes"]
    before = record.result["performance"]["dimensions"]["accuracy"]["score"]
    after = org.get_assessment(record.id)
    assert changes["accuracy"] == {
        "before": before,
        "after": after.result["performance"]["dimensions"]["accuracy"]["score"],
    }
    assert resolved.resolution["excluded_tasks"] == ["coder-000"]
    assert after.performance_composite == changes["performance_composite"]["after"]
    assert str(appeal.id) in after.result["appeals"]
