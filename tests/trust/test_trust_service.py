"""The trust service end to end on the store (SQLite and PostgreSQL): compute, history, review, override."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

import pytest

from aaaf.errors import AAAFError
from aaaf.scoring.trust import TRUST_WEIGHTS, score_trust_from_events
from aaaf.services import trust as trust_service
from tests.trust.factories import NOW, add, eval_raw, every_dimension


@pytest.fixture()
def org(store: Any) -> Any:
    return store.scope(store.default_organization().id)


def test_read_only_compute_matches_the_engine_and_records_nothing(org: Any) -> None:
    agent = org.enroll_agent("alpha")
    add(org, agent, every_dimension(80.0))
    result = trust_service.compute_trust(org, "alpha", at=NOW, record=False)
    expected = score_trust_from_events(org.events(agent.id), at=NOW, agent="alpha")
    assert result.to_dict() == expected.to_dict()
    # every dimension 80, a day old (inside the grace period): 10 · 80 = 800, gold
    assert result.composite == pytest.approx(800.0)
    assert result.tier == "gold" and result.covered == 16
    assert trust_service.history(org, agent) == []


def test_history_anomaly_and_review_end_to_end(org: Any) -> None:
    agent = org.enroll_agent("beta")
    add(org, agent, every_dimension(90.0))
    first = trust_service.trust_report(org, agent, at=NOW, record=True)
    # first score ever: 900, committed, nothing to compare with
    assert first.entry is not None and first.entry.committed and not first.entry.was_anomalous
    assert first.entry.score == pytest.approx(900.0) and first.entry.tier == "platinum"

    # a second security verdict of 0 → security (90 + 0) / 2 = 45 < 50: gated, 599
    # |599 − 900| = 301 > 200: anomalous, held; the canonical score stays 900
    add(org, agent, [eval_raw("security", 0.0, key="sec-zero")])
    later = NOW + timedelta(hours=1)
    held = trust_service.trust_report(org, agent, at=later, record=True)
    assert held.result.composite == 599.0 and held.result.gated
    assert held.entry is not None and held.entry.was_anomalous and not held.entry.committed
    assert held.held_for_review
    assert held.canonical is not None and held.canonical.id == first.entry.id
    assert held.to_dict()["history"]["canonical_score"] == pytest.approx(900.0)
    assert [(a.name, e.id) for a, e in trust_service.pending_reviews(org)] == [("beta", held.entry.id)]

    approved = trust_service.review(org, str(held.entry.id), approve=True, reviewer="rita", at=later)
    assert approved.committed and approved.review_decision == "approved" and approved.reviewed_by == "rita"
    assert org.last_committed_score(agent.id, "trust").id == held.entry.id
    assert trust_service.pending_reviews(org) == []
    with pytest.raises(AAAFError) as twice:
        trust_service.review(org, held.entry.id, approve=False, reviewer="rita", at=later)
    assert twice.value.code == "CONFLICT"

    # now 599 is canonical: a return to 900 (security evidence 100 → (90+0+100)/3 = 63.3) is +~300: held again
    add(org, agent, [eval_raw("security", 100.0, key="sec-hundred")])
    back = trust_service.trust_report(org, agent, at=later + timedelta(hours=1), record=True)
    # security 190/3 = 63.33: 10 · (0.93·90 + 0.07·63.33) = 10 · (83.7 + 4.4333) = 881.33
    assert back.result.composite == pytest.approx(10 * (0.93 * 90 + 0.07 * 190 / 3))
    assert back.entry is not None and back.entry.was_anomalous
    rejected = trust_service.review(org, back.entry.id, approve=False, reviewer="sam", at=later)
    assert not rejected.committed and rejected.review_decision == "rejected"
    assert org.last_committed_score(agent.id, "trust").id == held.entry.id

    entries = trust_service.history(org, agent)
    assert [(e.was_anomalous, e.committed) for e in entries] == [(False, True), (True, True), (True, False)]
    assert entries[0].details["covered"] == 16
    assert entries[1].details["gated"] is True


def test_a_change_of_exactly_200_points_is_not_anomalous(org: Any) -> None:
    agent = org.enroll_agent("gamma")
    add(org, agent, every_dimension(80.0, prefix="a"))
    trust_service.trust_report(org, agent, at=NOW, record=True)  # 800
    # every dimension gets a second observation of 40: mean 60 → 600; |600 − 800| = 200, not > 200
    add(org, agent, every_dimension(40.0, prefix="b"))
    report = trust_service.trust_report(org, agent, at=NOW, record=True)
    assert report.result.composite == pytest.approx(600.0)
    assert report.entry is not None and not report.entry.was_anomalous and report.entry.committed


def test_reviewing_a_committed_score_is_a_conflict_and_a_bad_id_is_bad_input(org: Any) -> None:
    agent = org.enroll_agent("delta")
    add(org, agent, every_dimension(70.0))
    report = trust_service.trust_report(org, agent, at=NOW, record=True)
    assert report.entry is not None
    with pytest.raises(AAAFError) as conflict:
        trust_service.review(org, report.entry.id, approve=True, reviewer="x", at=NOW)
    assert conflict.value.code == "CONFLICT"
    with pytest.raises(AAAFError) as bad:
        trust_service.review(org, "not-a-uuid", approve=True, reviewer="x", at=NOW)
    assert bad.value.code == "INVALID_REQUEST"


def test_no_composite_is_not_recorded(org: Any) -> None:
    agent = org.enroll_agent("empty")
    report = trust_service.trust_report(org, agent, at=NOW, record=True)
    assert report.result.composite is None and report.entry is None
    assert report.not_recorded_reason is not None
    assert trust_service.history(org, agent) == []


def test_override_stored_as_given_rejected_when_applied_with_a_warning(
    org: Any, caplog: pytest.LogCaptureFixture
) -> None:
    agent = org.enroll_agent("eps")
    add(org, agent, [eval_raw("accuracy", 80.0), eval_raw("safety", 40.0)])
    stored, rejected = trust_service.set_override(org, {"accuracy": 0.112}, set_by="ops", at=NOW)
    assert stored.weights == {"accuracy": 0.112} and stored.set_by == "ops"
    assert rejected is not None and "1.002" in rejected
    with caplog.at_level(logging.WARNING, logger="aaaf.services.trust"):
        result = trust_service.compute_trust(org, agent, at=NOW, record=False)
    assert any("override rejected" in message for message in caplog.messages)
    assert result.weights_in_force == dict(TRUST_WEIGHTS)
    # base weights over accuracy and safety: 10 · (0.11·80 + 0.09·40) / 0.20 = 10 · 12.4 / 0.2 = 620
    assert result.composite == pytest.approx(620.0)

    _, ok = trust_service.set_override(org, {"accuracy": 0.15, "teamwork": 0.01}, set_by="ops", at=NOW)
    assert ok is None
    applied = trust_service.compute_trust(org, agent, at=NOW, record=False)
    # 10 · (0.15·80 + 0.09·40) / 0.24 = 10 · 15.6 / 0.24 = 650
    assert applied.composite == pytest.approx(650.0)
    assert applied.to_dict()["weights_in_force"]["accuracy"] == 0.15
    status = trust_service.weights_status(org)
    assert status["applied"] and status["override"]["set_by"] == "ops"

    trust_service.clear_override(org)
    assert trust_service.weights_status(org)["override"] is None
    assert trust_service.compute_trust(org, agent, at=NOW, record=False).composite == pytest.approx(620.0)


def test_fleet_scores_every_agent_in_one_pass(org: Any) -> None:
    for name, level in (("a1", 95.0), ("a2", 50.0)):
        agent = org.enroll_agent(name)
        add(org, agent, every_dimension(level, prefix=name))
    org.enroll_agent("a3")  # no evidence
    reports = trust_service.trust_reports_for_all(org, at=NOW, record=True)
    assert [(r.result.agent, r.result.tier) for r in reports] == [
        ("a1", "platinum"),
        ("a2", "bronze"),
        ("a3", "uncertified"),
    ]
    assert [r.entry is not None for r in reports] == [True, True, False]


def test_operational_fill_ins_come_from_stored_task_evidence(org: Any) -> None:
    agent = org.enroll_agent("ops-agent")
    raws = []
    for i in range(3):
        done = NOW - timedelta(days=1 + i)
        raws.append(
            {
                "type": "task_completed",
                "timestamp": done.isoformat(),
                "data": {
                    "task_id": f"t{i}",
                    "completion_status": "accepted",
                    "time_to_complete_seconds": 100,
                    "revision_count": 0,
                    "errors": [],
                    "cost_usd": 1.0,
                    "budget_usd": 2.0,
                },
            }
        )
    add(org, agent, raws)
    result = trust_service.compute_trust(org, agent, at=NOW, record=False)
    # every task: max(0, 1 − 1/2) = 0.5 → costEfficiency 50
    assert result.dimensions["costEfficiency"].source == "operational"
    assert result.dimensions["costEfficiency"].score == pytest.approx(50.0)


# ----------------------------------------------------------------------------- nothing changed (issue 21)


def test_an_identical_score_adds_no_history_row(org: Any) -> None:
    agent = org.enroll_agent("steady")
    add(org, agent, every_dimension(80.0))  # a day old: inside the grace week, no decay
    first = trust_service.trust_report(org, agent, at=NOW, record=True)
    assert first.entry is not None and first.result.composite == pytest.approx(800.0)
    again = trust_service.trust_report(org, agent, at=NOW + timedelta(hours=1), record=True)
    assert again.result.composite == first.result.composite  # still 800 exactly: nothing decayed
    assert again.entry is None
    assert again.not_recorded_reason == (
        f"unchanged since history entry {first.entry.id}: same composite, tier, dimension scores "
        "and weights in force"
    )
    assert again.canonical is not None and again.canonical.id == first.entry.id
    assert again.to_dict()["history"]["recorded"] is False
    assert [entry.id for entry in trust_service.history(org, agent)] == [first.entry.id]


def test_decay_below_the_reported_precision_is_not_a_change(org: Any) -> None:
    agent = org.enroll_agent("aging")
    add(org, agent, every_dimension(80.0, days_ago=8.0))
    # 8 days old: 80 − (8 − 7)/7 = 79.857142…; composite 798.57… → shown 798, dimensions 79.8
    first = trust_service.trust_report(org, agent, at=NOW, record=True)
    assert first.entry is not None
    assert first.result.composite == pytest.approx(10 * (80 - 1 / 7))
    # a minute later every score lost 1/(7·1440) = 0.0000992 more: unrounded different,
    # shown the same (798; 79.8) → not recorded
    minute = trust_service.trust_report(org, agent, at=NOW + timedelta(minutes=1), record=True)
    assert minute.result.composite != first.result.composite
    assert minute.result.composite == pytest.approx(10 * (80 - (1 + 1 / 1440) / 7))
    assert minute.entry is None and minute.not_recorded_reason is not None
    # a day later: 80 − 2/7 = 79.714… → 79.7 and 797: a change, recorded and committed
    day = trust_service.trust_report(org, agent, at=NOW + timedelta(days=1), record=True)
    assert day.entry is not None and day.entry.committed
    assert day.entry.score == pytest.approx(10 * (80 - 2 / 7))
    assert len(trust_service.history(org, agent)) == 2


def test_other_weights_in_force_are_a_change_even_with_the_same_composite(org: Any) -> None:
    agent = org.enroll_agent("balanced")
    add(org, agent, every_dimension(80.0))
    first = trust_service.trust_report(org, agent, at=NOW, record=True)
    assert first.entry is not None
    _, rejected = trust_service.set_override(org, {"accuracy": 0.15, "teamwork": 0.01}, set_by="ops", at=NOW)
    assert rejected is None
    # every dimension 80: any weights give 800 again — but other weights are in force
    reweighted = trust_service.trust_report(org, agent, at=NOW, record=True)
    assert reweighted.result.composite == pytest.approx(800.0)
    assert reweighted.entry is not None
    assert reweighted.entry.details["weights_in_force"]["accuracy"] == 0.15
    # a new observation that moves one dimension's reported score is a change as well
    add(org, agent, [eval_raw("safety", 79.0, key="safety-2")])
    moved = trust_service.trust_report(org, agent, at=NOW, record=True)
    assert moved.entry is not None
    assert len(trust_service.history(org, agent)) == 3
