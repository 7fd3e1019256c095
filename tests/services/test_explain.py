"""The explain service on SQLite and PostgreSQL: hand-worked changes from the recorded events
and spec, and a dimension re-scored by an accepted appeal explained as it was re-scored.

Four accepted tasks within a day (weight 1), t0 revised once: accuracy = 0.6 (1 − 1/4) + 0.4
= 0.85.  Without t0 no task is revised: 1.0, change −0.15.  Without t1 one of three is
revised: 0.6 (1 − 1/3) + 0.4 = 0.8, change +0.05 (t1, t2, t3 raised it).
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from aaaf.evidence.validation import validate_event
from aaaf.services.appeals import file_appeal, resolve_appeal
from aaaf.services.assess import assess_agent
from aaaf.services.explain import explain_assessment
from tests.cli.events_factory import NOW, task_events


@pytest.fixture()
def assessed(store):
    org = store.scope(store.default_organization().id)
    org.update_config(min_tasks_performance=4, min_tasks_capability=4)
    agent = org.enroll_agent("coder")
    events = [
        e
        for i in range(4)
        for e in task_events(None, f"t{i}", completed_at=NOW - timedelta(hours=i + 1), revisions=int(i == 0))
    ]
    org.add_events([(agent.id, validate_event(e, now=NOW, default_agent="coder")) for e in events])
    return org, assess_agent(org, "coder", now=NOW)


def test_hand_worked_accuracy_changes(assessed) -> None:
    org, record = assessed
    body = explain_assessment(org, str(record.id), dimension="accuracy").to_dict()
    assert body["status"] == "explained"
    accuracy = body["dimensions"]["accuracy"]
    assert accuracy["score"] == pytest.approx(0.85, abs=1e-12) and accuracy["recomputed_matches"]
    assert accuracy["tasks_examined"] == 4 and accuracy["tasks_lowering"] == 1
    (t0,) = accuracy["lowered_by"]
    assert t0["task_id"] == "t0"
    assert t0["without"] == 1.0 and t0["change"] == pytest.approx(-0.15, abs=1e-12)
    full = explain_assessment(org, str(record.id))
    changes = {c.task_id: c.change for c in full.dimensions["accuracy"].contributions}
    assert changes == pytest.approx({"t0": -0.15, "t1": 0.05, "t2": 0.05, "t3": 0.05}, abs=1e-12)


def test_after_an_accepted_appeal_the_dimension_is_explained_as_re_scored(assessed) -> None:
    org, record = assessed
    appeal = file_appeal(
        org,
        str(record.id),
        dimensions=["accuracy"],
        justification="scope change",
        counter_evidence=[{"task_id": "t0", "claim": "scope change"}],
        now=NOW,
    )
    resolve_appeal(org, str(appeal.id), decision="accepted", notes=None, now=NOW)
    body = explain_assessment(org, str(record.id)).to_dict()
    accuracy = body["dimensions"]["accuracy"]
    assert accuracy["score"] == 1.0 and accuracy["recomputed_matches"] is True
    assert accuracy["excluded_tasks"] == ["t0"] and accuracy["tasks_examined"] == 3
    assert accuracy["lowered_by"] == []
    # unchallenged dimensions still see t0: it lowered nothing there but is examined
    assert body["dimensions"]["task_completion_rate"]["tasks_examined"] == 4
    assert all(d.get("recomputed_matches", True) for d in body["dimensions"].values())
