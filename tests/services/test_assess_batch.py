"""assess --all's batch path: worker processes and the one-transaction writer give the same
assessments as the one-agent path, and calibration compares with the previous assessment."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from aaaf.evidence.validation import validate_event
from aaaf.services.assess import assess_agent, assess_many
from aaaf.store import open_store
from tests.cli.events_factory import NOW, agent_log


@pytest.fixture()
def org(sqlite_at_head: Path):
    store = open_store(f"sqlite:///{sqlite_at_head}")
    organization = store.default_organization()
    yield store.scope(organization.id)
    store.close()


def _load(org, tasks: dict[str, int]) -> None:
    for name, count in tasks.items():
        agent = org.enroll_agent(name)
        org.add_events(
            [
                (agent.id, validate_event(e, now=NOW, default_agent=name))
                for e in agent_log(None, count, prefix=name)
            ]
        )


def _scores(record) -> str:
    result = dict(record.result)
    result.pop("calibration", None)
    return json.dumps(result, sort_keys=True)


def test_workers_and_batch_writer_match_the_single_agent_path(org) -> None:
    _load(org, {"a": 36, "b": 31, "c": 12, "d": 40})
    sequential = assess_many(org, org.agents(), now=NOW, window_end=NOW, workers=1)
    parallel = assess_many(org, org.agents(), now=NOW + timedelta(seconds=1), window_end=NOW, workers=2)
    assert [o.agent.name for o in parallel] == ["a", "b", "c", "d"]
    for one, two in zip(sequential, parallel, strict=True):
        assert (one.error is None) == (two.error is None)
        if one.assessment is not None:
            assert _scores(one.assessment) == _scores(two.assessment)
    # c had 12 tasks: refused with the INSUFFICIENT_EVIDENCE error, and nothing stored (a
    # refusal leaves no failed assessment in the history)
    c = next(o for o in parallel if o.agent.name == "c")
    assert c.error.code == "INSUFFICIENT_EVIDENCE"
    assert c.error.details["current_count"] == 12 and c.error.details["axis"] == "performance"
    assert org.assessments(c.agent.id) == []
    # the batch records read back identically through the store
    a = next(o for o in parallel if o.agent.name == "a").assessment
    again = org.get_assessment(a.id)
    assert _scores(again) == _scores(a)
    assert [d.score for d in again.dimensions] == [d.score for d in a.dimensions]
    single = assess_agent(org, "a", now=NOW + timedelta(seconds=2), window_end=NOW)
    assert _scores(single) == _scores(a)


def test_batch_calibration_flags_a_jump(org) -> None:
    _load(org, {"a": 36})
    first = assess_many(org, org.agents(), now=NOW)[0].assessment
    assert first.review_state == "not_required" and not first.anomalous
    # every task of the next 30 days is rejected: task completion collapses, the composite drops > 0.15
    agent = org.get_agent("a")
    later = NOW + timedelta(days=40)
    events = agent_log(None, 30, now=later, prefix="late")
    for event in events:
        if event["type"] == "task_completed":
            event["data"]["completion_status"] = "rejected"
    org.add_events([(agent.id, validate_event(e, now=later, default_agent="a")) for e in events])
    second = assess_many(org, org.agents(), now=later)[0].assessment
    assert second.anomalous and second.review_state == "pending_review"
    delta = second.result["calibration"]["deltas"]["performance"]
    assert abs(delta) > 0.15
    assert second.result["calibration"]["previous_assessment_id"] == str(first.id)
