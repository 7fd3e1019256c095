"""An accepted appeal re-scores with the spec the assessment recorded, not the organization's
current configuration (SCORING.md §2.4; issue 10 §1), on SQLite and PostgreSQL.

Four accepted tasks (code, level 2, 1 800 s against a 3 600 s baseline, checklist 3 of 4),
all within a day (recency weight 1); t0 was revised once.  Performance dimensions:

    task_completion_rate 1.0; accuracy 0.6 (1 − 1/4) + 0.4 = 0.85; speed 1.0;
    consistency null (no group of 5); review_compliance 0.75.

Weights when assessed: 0.4 / 0.1 / 0.1 / 0.2 / 0.2, renormalised over the covered 0.8 to
0.5 / 0.125 / 0.125 / — / 0.25:  composite = 0.5 + 0.10625 + 0.125 + 0.1875 = 0.91875.
The organization then moves to 0.25 / 0.25 / 0.15 / 0.20 / 0.15.  The appeal challenges
accuracy with t0 as counter-evidence: accuracy without t0 = 1.0, and with the recorded
weights the composite is 0.5 + 0.125 + 0.125 + 0.1875 = 0.9375 (the current weights would
give 0.3125 + 0.3125 + 0.1875 + 0.140625 = 0.953125).
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from aaaf.evidence.validation import validate_event
from aaaf.services.appeals import file_appeal, resolve_appeal
from aaaf.services.assess import assess_agent
from tests.cli.events_factory import NOW, task_events

OLD = {
    "task_completion_rate": 0.4,
    "accuracy": 0.1,
    "speed": 0.1,
    "consistency": 0.2,
    "review_compliance": 0.2,
}
NEW = {
    "task_completion_rate": 0.25,
    "accuracy": 0.25,
    "speed": 0.15,
    "consistency": 0.2,
    "review_compliance": 0.15,
}


def test_accepted_appeal_uses_the_recorded_weights(store) -> None:
    org = store.scope(store.default_organization().id)
    org.update_config(min_tasks_performance=4, min_tasks_capability=4)
    org.set_weights("performance", OLD)
    agent = org.enroll_agent("coder")
    events = [
        e
        for i in range(4)
        for e in task_events(None, f"t{i}", completed_at=NOW - timedelta(hours=i + 1), revisions=int(i == 0))
    ]
    org.add_events([(agent.id, validate_event(e, now=NOW, default_agent="coder")) for e in events])
    record = assess_agent(org, "coder", now=NOW)
    dims = record.result["performance"]["dimensions"]
    assert (dims["task_completion_rate"]["score"], dims["speed"]["score"]) == (1.0, 1.0)
    assert dims["accuracy"]["score"] == pytest.approx(0.85, abs=1e-12)
    assert dims["review_compliance"]["score"] == 0.75 and dims["consistency"]["score"] is None
    assert record.performance_composite == pytest.approx(0.91875, abs=1e-12)
    before_rows = {(d.axis, d.dimension): d for d in record.dimensions}
    before_ids = org.assessment_evidence(record.id)

    # the organization changes its weights (both axes) after the assessment
    org.set_weights("performance", NEW)
    org.set_weights(
        "capability",
        {
            "domain_breadth": 0.4,
            "complexity_ceiling": 0.1,
            "tool_proficiency": 0.1,
            "autonomy_level": 0.1,
            "learning_rate": 0.1,
            "delegation_capability": 0.1,
            "orchestration_skills": 0.1,
        },
    )
    appeal = file_appeal(
        org,
        str(record.id),
        dimensions=["accuracy"],
        justification="the revision was a scope change",
        counter_evidence=[{"task_id": "t0", "claim": "scope change"}],
        now=NOW,
    )
    resolved = resolve_appeal(org, str(appeal.id), decision="accepted", notes=None, now=NOW)
    assert resolved.resolution["config"] == "recorded"
    after = org.get_assessment(record.id)
    assert after.result["performance"]["dimensions"]["accuracy"]["score"] == 1.0
    assert after.performance_composite == pytest.approx(0.9375, abs=1e-12)
    assert after.performance_composite != pytest.approx(0.953125, abs=1e-6)
    assert after.result["performance"]["weights_used"] == pytest.approx(
        {"task_completion_rate": 0.5, "accuracy": 0.125, "speed": 0.125, "review_compliance": 0.25}
    )
    # the capability axis was not challenged: same composite, old weights
    assert after.capability_composite == record.capability_composite
    assert after.result["capability"] == record.result["capability"]
    # unchallenged dimensions byte-identical, in the rows and in the result
    for key, row in before_rows.items():
        if key[1] == "accuracy":
            continue
        again = after.dimension_score(*key)
        assert again is not None
        assert (again.score, again.sample_size, again.evidence_count, again.details, again.reason) == (
            row.score,
            row.sample_size,
            row.evidence_count,
            row.details,
            row.reason,
        )
        assert after.result[key[0]]["dimensions"][key[1]] == record.result[key[0]]["dimensions"][key[1]]
    # the stored ids: accuracy lost t0's completion; every other dimension kept its ids
    ids = org.assessment_evidence(record.id)
    assert ids is not None and before_ids is not None
    assert ids.config == before_ids.config
    t0_events = {e.id for e in org.events(agent.id) if e.task_id == "t0"}
    assert not set(ids.ids_of("accuracy")) & t0_events
    assert set(before_ids.ids_of("accuracy")) & t0_events
    for name in before_ids.dimension_events:
        if name != "accuracy":
            assert ids.ids_of(name) == before_ids.ids_of(name), name


def test_an_assessment_stored_before_specs_were_recorded_falls_back_and_says_so(store) -> None:
    from sqlalchemy import delete

    from aaaf.services.explain import explain_assessment
    from aaaf.store import tables as t

    org = store.scope(store.default_organization().id)
    org.update_config(min_tasks_performance=4, min_tasks_capability=4)
    agent = org.enroll_agent("coder")
    events = [
        e
        for i in range(4)
        for e in task_events(None, f"t{i}", completed_at=NOW - timedelta(hours=i + 1), revisions=int(i == 0))
    ]
    org.add_events([(agent.id, validate_event(e, now=NOW, default_agent="coder")) for e in events])
    record = assess_agent(org, "coder", now=NOW)
    with store.engine.begin() as connection:  # as an assessment stored before migration 0008
        connection.execute(delete(t.assessment_evidence))
    explained = explain_assessment(org, str(record.id))
    assert explained.status == "not_recorded" and "before" in (explained.message or "")
    appeal = file_appeal(
        org,
        str(record.id),
        dimensions=["accuracy"],
        justification="scope change",
        counter_evidence=[{"task_id": "t0", "claim": "scope change"}],
        now=NOW,
    )
    resolved = resolve_appeal(org, str(appeal.id), decision="accepted", notes=None, now=NOW)
    assert resolved.resolution["config"] == "in force when it ran (no spec was recorded)"
    assert org.get_assessment(record.id).result["performance"]["dimensions"]["accuracy"]["score"] == 1.0
    assert org.assessment_evidence(record.id) is None
