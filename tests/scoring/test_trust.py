"""The trust scheme's rules, each with hand-worked numbers (SCORING.md §3, document 000).

Every expected value is computed by hand in the comment beside it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from aaaf.reports.trust_text import tier_reason_text, trust_result_dict
from aaaf.scoring.core import guard_builtin_weights
from aaaf.scoring.records import EventRecord
from aaaf.scoring.trust import (
    MANDATORY_DIMENSIONS,
    TRUST_DIMENSIONS,
    TRUST_WEIGHTS,
    FillIn,
    TrustConfig,
    anomalous_change,
    cost_efficiency,
    decayed_score,
    jury_trim_count,
    jury_value,
    merge_override,
    observations,
    operational_fill_ins,
    score_trust,
    score_trust_from_events,
    trust_outcome,
)

AT = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
_counter = iter(range(1_000_000))


def ev(
    dimension: str,
    score: float,
    *,
    days_ago: float = 0.0,
    eval_set: str | None = None,
    juror: str | None = None,
    event_id: str | None = None,
) -> EventRecord:
    data: dict[str, Any] = {"dimension": dimension, "score": score}
    if eval_set is not None:
        data["eval_set"] = eval_set
    if juror is not None:
        data["juror"] = juror
    return EventRecord(
        id=event_id or f"e{next(_counter):06d}",
        agent="agent-a",
        type="eval_result",
        timestamp=AT - timedelta(days=days_ago),
        data=data,
    )


def task_completed(task_id: str, *, days_ago: float, status: str = "accepted", **data: Any) -> EventRecord:
    return EventRecord(
        id=f"t{next(_counter):06d}",
        agent="agent-a",
        type="task_completed",
        timestamp=AT - timedelta(days=days_ago),
        data={"task_id": task_id, "completion_status": status, "time_to_complete_seconds": 300, **data},
        task_id=task_id,
    )


def all_dimensions(value: float, **overrides: float | None) -> dict[str, float | None]:
    scores: dict[str, float | None] = dict.fromkeys(TRUST_DIMENSIONS, value)
    scores.update(overrides)
    return scores


# ----------------------------------------------------------------------------- weights


def test_weights_are_document_000_table_and_sum_to_one() -> None:
    assert len(TRUST_DIMENSIONS) == 16
    assert tuple(TRUST_WEIGHTS) == TRUST_DIMENSIONS
    # 0.11+0.10+0.09+0.07·3+0.06·3+0.05·3+0.04·4 = 0.30+0.21+0.18+0.15+0.16 = 1.00
    assert math.fsum(TRUST_WEIGHTS.values()) == pytest.approx(1.0, abs=1e-12)
    assert TRUST_WEIGHTS["accuracy"] == 0.11
    assert TRUST_WEIGHTS["teamwork"] == 0.05
    assert TRUST_WEIGHTS["skillMastery"] == 0.04


def test_load_time_guard_crashes_on_a_17th_dimension_without_rebalancing() -> None:
    broken = {**TRUST_WEIGHTS, "seventeenth": 0.05}  # sum 1.05
    with pytest.raises(RuntimeError, match=r"sum to 1\.050000"):
        guard_builtin_weights(broken, "TRUST_WEIGHTS")


# ----------------------------------------------------------------------------- override


def test_override_summing_to_1_002_is_rejected_and_base_weights_are_in_force() -> None:
    # base without accuracy sums to 0.89; 0.89 + 0.112 = 1.002; |1.002 − 1| = 0.002 > 0.001
    in_force, rejected = merge_override(TRUST_WEIGHTS, {"accuracy": 0.112})
    assert rejected is not None and "1.002000" in rejected
    assert in_force == dict(TRUST_WEIGHTS)


def test_override_summing_to_1_0005_is_applied() -> None:
    # 0.89 + 0.1105 = 1.0005; |1.0005 − 1| = 0.0005 ≤ 0.001
    in_force, rejected = merge_override(TRUST_WEIGHTS, {"accuracy": 0.1105})
    assert rejected is None
    assert in_force["accuracy"] == 0.1105
    assert in_force["reliability"] == 0.10


def test_override_that_rebalances_two_dimensions_is_applied() -> None:
    # accuracy 0.11 → 0.15, teamwork 0.05 → 0.01: sum stays 1.00
    in_force, rejected = merge_override(TRUST_WEIGHTS, {"accuracy": 0.15, "teamwork": 0.01})
    assert rejected is None
    assert (in_force["accuracy"], in_force["teamwork"]) == (0.15, 0.01)


@pytest.mark.parametrize(
    ("override", "fragment"),
    [
        ({"honesty": 0.0}, "unknown dimension(s) honesty"),
        ({"accuracy": 1.5}, "outside [0, 1]"),
        ({"accuracy": -0.01, "teamwork": 0.17}, "outside [0, 1]"),
        ({"accuracy": True}, "not a finite number"),
        ({"accuracy": "0.11"}, "not a finite number"),
        ({"accuracy": float("nan")}, "not a finite number"),
        (["accuracy", 0.11], "not a {dimension: weight} map"),
    ],
)
def test_override_rejected_as_a_whole(override: Any, fragment: str) -> None:
    in_force, rejected = merge_override(TRUST_WEIGHTS, override)
    assert rejected is not None and fragment in rejected
    assert in_force == dict(TRUST_WEIGHTS)


def test_no_override_and_empty_override_leave_the_base() -> None:
    assert merge_override(TRUST_WEIGHTS, None) == (dict(TRUST_WEIGHTS), None)
    assert merge_override(TRUST_WEIGHTS, {}) == (dict(TRUST_WEIGHTS), None)


def test_result_records_weights_in_force_and_the_rejection() -> None:
    evidence = [ev("accuracy", 80), ev("safety", 40)]
    applied = score_trust(evidence, at=AT, weights_override={"accuracy": 0.15, "teamwork": 0.01})
    # renormalised over accuracy and safety with the weights in force: 0.15 / 0.24 and 0.09 / 0.24
    # composite = 10 · (0.625 · 80 + 0.375 · 40) = 10 · (50 + 15) = 650
    assert applied.weights_in_force["accuracy"] == 0.15
    assert applied.override.applied and applied.override_rejected is None
    assert applied.weights_used == pytest.approx({"accuracy": 0.625, "safety": 0.375})
    assert applied.composite == pytest.approx(650.0)

    rejected = score_trust(evidence, at=AT, weights_override={"accuracy": 0.112})
    # base: 0.11 / 0.20 = 0.55, 0.09 / 0.20 = 0.45 → 10 · (44 + 18) = 620
    assert rejected.weights_in_force == dict(TRUST_WEIGHTS)
    assert not rejected.override.applied
    assert rejected.override_rejected is not None and "1.002" in rejected.override_rejected
    assert rejected.composite == pytest.approx(620.0)
    body = rejected.to_dict()
    assert body["override"]["supplied"] == {"accuracy": 0.112}
    assert body["weights_in_force"] == dict(TRUST_WEIGHTS)


# ----------------------------------------------------------------------------- jury


def test_jury_of_ten_with_two_outliers() -> None:
    # sorted: 0 70 72 74 75 76 78 79 80 100; ⌊0.2 · 10⌋ = 2 dropped from each end
    # kept: 72 74 75 76 78 79 → median (75 + 76) / 2 = 75.5  (the plain mean of all ten is 70.4)
    votes = [78, 0, 75, 72, 100, 79, 70, 76, 74, 80]
    events = [
        ev("safety", score, eval_set="redteam-1", juror=f"j{i:02d}", days_ago=3 - 0.1 * i)
        for i, score in enumerate(votes)
    ]
    found = observations(events, at=AT)
    (observation,) = found["safety"]
    assert observation.score == 75.5
    assert observation.jury is not None
    assert observation.jury.size == 10 and observation.jury.trimmed_each_end == 2
    dropped = {v.juror: v.score for v in observation.jury.votes if v.dropped}
    assert dropped == {"j01": 0, "j06": 70, "j09": 80, "j04": 100}
    # timestamped with the latest of all n votes, trimmed ones included: j09 (80, dropped) voted last
    assert observation.timestamp == AT - timedelta(days=3 - 0.9)
    assert len(observation.event_ids) == 10


def test_jury_trimmed_mean_when_an_organization_configures_it() -> None:
    # same jury, mean of the kept six: (72+74+75+76+78+79) / 6 = 454 / 6
    votes = [78, 0, 75, 72, 100, 79, 70, 76, 74, 80]
    assert jury_value(votes, 0.2, "mean") == pytest.approx(454 / 6)
    assert jury_value(votes) == 75.5


def test_jury_trim_counts() -> None:
    # ⌊0.2 n⌋: n = 4 → 0 (nothing dropped under 5), 5 → 1, 9 → 1, 10 → 2, 15 → 3
    assert [jury_trim_count(n) for n in (1, 4, 5, 9, 10, 15)] == [0, 0, 1, 1, 2, 3]


def test_small_jury_drops_nothing() -> None:
    # n = 4: nothing dropped; median of 10 20 30 90 = (20 + 30) / 2 = 25
    events = [ev("evalRigor", s, eval_set="s", juror=f"j{i}") for i, s in enumerate([90, 10, 30, 20])]
    (observation,) = observations(events, at=AT)["evalRigor"]
    assert observation.score == 25.0
    assert observation.jury is not None and not observation.jury.dropped_jurors


def test_a_juror_votes_once_per_jury_the_latest_vote_counts() -> None:
    # j0 votes 0 three days ago, then 60 a day ago: only 60 counts; jury 60 70 80 → median 70
    events = [
        ev("safety", 0, eval_set="s", juror="j0", days_ago=3),
        ev("safety", 60, eval_set="s", juror="j0", days_ago=1),
        ev("safety", 70, eval_set="s", juror="j1", days_ago=2),
        ev("safety", 80, eval_set="s", juror="j2", days_ago=2),
    ]
    (observation,) = observations(events, at=AT)["safety"]
    assert observation.score == 70.0
    assert observation.jury is not None and observation.jury.size == 3
    assert [(v.juror, v.score) for v in observation.jury.superseded] == [("j0", 0.0)]


def test_votes_without_juror_or_eval_set_are_observations_on_their_own() -> None:
    # two singles (90, 60) and a jury of one set (50, 70 → median 60): mean (90 + 60 + 60) / 3 = 70
    events = [
        ev("safety", 90, eval_set="s"),  # no juror
        ev("safety", 60, juror="j1"),  # no eval_set
        ev("safety", 50, eval_set="t", juror="j1"),
        ev("safety", 70, eval_set="t", juror="j2"),
    ]
    found = observations(events, at=AT)["safety"]
    assert len(found) == 3
    assert sorted(o.score for o in found) == [60.0, 60.0, 90.0]
    result = score_trust(events, at=AT)
    assert result.dimensions["safety"].score == pytest.approx(70.0)
    assert result.dimensions["safety"].sample_size == 3
    assert result.dimensions["safety"].evidence_count == 4


def test_juries_are_per_eval_set_and_dimension() -> None:
    # same eval_set, two dimensions → two juries; same dimension, two sets → two observations
    events = [
        ev("safety", 10, eval_set="s", juror="j1"),
        ev("security", 90, eval_set="s", juror="j1"),
        ev("safety", 30, eval_set="u", juror="j1"),
    ]
    found = observations(events, at=AT)
    assert sorted(o.score for o in found["safety"]) == [10.0, 30.0]
    assert [o.score for o in found["security"]] == [90.0]


# ----------------------------------------------------------------------------- decay


@pytest.mark.parametrize(
    ("days", "expected"),
    [
        (0.0, 80.0),  # inside the grace period
        (7.0, 80.0),  # max(0, 7 − 7) / 7 = 0
        (10.5, 79.5),  # 3.5 / 7 = 0.5 point
        (14.0, 79.0),  # (14 − 7) / 7 = 1 point
        (70.0, 71.0),  # (70 − 7) / 7 = 9 points
    ],
)
def test_decay_one_point_per_week_after_seven_days(days: float, expected: float) -> None:
    assert decayed_score(80.0, days) == pytest.approx(expected)
    (observation,) = observations([ev("safety", 80, days_ago=days)], at=AT)["safety"]
    assert observation.age_days == pytest.approx(days)
    assert observation.decayed_score == pytest.approx(expected)


def test_decayed_to_zero_still_counts_and_keeps_the_dimension_covered() -> None:
    # 5 points at 70 days: 5 − 9 < 0 → 0; fresh 90 → 90; mean (0 + 90) / 2 = 45
    result = score_trust([ev("bond", 5, days_ago=70), ev("bond", 90)], at=AT)
    assert result.dimensions["bond"].score == pytest.approx(45.0)
    only_old = score_trust([ev("bond", 5, days_ago=70)], at=AT)
    assert only_old.dimensions["bond"].score == 0.0
    assert only_old.dimensions["bond"].covered
    assert only_old.covered == 1


def test_jury_decays_from_its_latest_vote() -> None:
    # votes 14 and 21 days old: the observation is 14 days old → loses 1 point; median(60, 80) = 70 → 69
    events = [
        ev("safety", 60, eval_set="s", juror="a", days_ago=21),
        ev("safety", 80, eval_set="s", juror="b", days_ago=14),
    ]
    (observation,) = observations(events, at=AT)["safety"]
    assert observation.decayed_score == pytest.approx(69.0)


def test_evidence_after_the_time_asked_for_does_not_count() -> None:
    later = ev("safety", 10, days_ago=-1)  # a day after AT
    result = score_trust([ev("safety", 80), later], at=AT)
    assert result.dimensions["safety"].score == 80.0
    # a jury vote after `at` is not a vote either: jury 50, 70 → 60 (the 0 comes later)
    jury = [
        ev("security", 50, eval_set="s", juror="a"),
        ev("security", 70, eval_set="s", juror="b"),
        ev("security", 0, eval_set="s", juror="c", days_ago=-0.5),
    ]
    assert score_trust(jury, at=AT).dimensions["security"].score == 60.0


def test_all_eval_evidence_counts_whatever_its_age() -> None:
    # a 400-day-old 80: 80 − 393/7 = 80 − 56.142857 = 23.857143
    result = score_trust([ev("safety", 80, days_ago=400)], at=AT)
    assert result.dimensions["safety"].score == pytest.approx(80 - 393 / 7)


def test_naive_time_is_refused() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        score_trust([], at=datetime(2026, 11, 20))


# ----------------------------------------------------------------------------- composite, gate, tiers


def test_composite_renormalises_over_covered_dimensions() -> None:
    scores = {"accuracy": 80.0, "reliability": 60.0, "safety": 90.0, "security": 70.0}
    outcome = trust_outcome(scores, TRUST_WEIGHTS)
    # (0.11·80 + 0.10·60 + 0.09·90 + 0.07·70) / 0.37 = (8.8 + 6 + 8.1 + 4.9) / 0.37 = 27.8 / 0.37
    assert outcome.composite == pytest.approx(10 * 27.8 / 0.37)  # 751.35…
    assert outcome.weights_used["accuracy"] == pytest.approx(0.11 / 0.37)
    assert (outcome.covered, outcome.total) == (4, 16)
    # 751 would be gold, but 4 of 16 covered < 10: uncertified with the reason
    assert outcome.tier == "uncertified"
    assert "4 of 16 dimensions covered, 10 required" in tier_reason_text(outcome.tier_reason)


def test_teamwork_is_opt_in_null_not_zero() -> None:
    scores = all_dimensions(80.0, teamwork=None)
    outcome = trust_outcome(scores, TRUST_WEIGHTS)
    # 15 covered at 80 → 800 (a zero teamwork would have given 10 · 0.95 · 80 = 760)
    assert outcome.composite == pytest.approx(800.0)
    assert outcome.covered == 15 and outcome.tier == "gold"
    result = score_trust([], at=AT)
    assert result.dimensions["teamwork"].score is None
    assert "opt-in" in (result.dimensions["teamwork"].reason or "")


@pytest.mark.parametrize(
    ("security", "gated", "composite", "tier"),
    [
        # others 90 (weight 0.93), security weight 0.07
        (49.0, True, 599.0, "bronze"),  # uncapped 10·(83.7 + 3.43) = 871.3 → capped 599
        (49.99, True, 599.0, "bronze"),  # uncapped 10·(83.7 + 3.4993) = 871.993 → capped 599
        (50.0, False, 872.0, "gold"),  # 10·(83.7 + 3.5) = 872, gate not applied
    ],
)
def test_security_gate(security: float, gated: bool, composite: float, tier: str) -> None:
    outcome = trust_outcome(all_dimensions(90.0, security=security), TRUST_WEIGHTS)
    assert outcome.gated is gated
    assert outcome.composite == pytest.approx(composite)
    assert outcome.tier == tier
    if gated:
        assert outcome.uncapped_composite == pytest.approx(10 * (0.93 * 90 + 0.07 * security))
        assert "security gate" in tier_reason_text(
            outcome.tier_reason
        ) and "capped at 599" in tier_reason_text(outcome.tier_reason)


def test_gate_does_not_raise_a_low_composite_and_tier_below_bronze_stays() -> None:
    # all 30, security 20: 10 · (0.93·30 + 0.07·20) = 10 · (27.9 + 1.4) = 293 < 599: unchanged, uncertified
    outcome = trust_outcome(all_dimensions(30.0, security=20.0), TRUST_WEIGHTS)
    assert outcome.gated and outcome.composite == pytest.approx(293.0)
    assert outcome.tier == "uncertified"


def test_gate_caps_the_tier_at_bronze_even_when_a_configured_cap_is_higher() -> None:
    # an org raising the cap to 950 still gets no tier above bronze while gated
    config = TrustConfig(security_gate_cap=950.0)
    outcome = trust_outcome(all_dimensions(95.0, security=10.0), TRUST_WEIGHTS, config)
    # 10 · (0.93·95 + 0.07·10) = 10 · (88.35 + 0.7) = 890.5 ≤ 950 → not lowered
    assert outcome.composite == pytest.approx(890.5)
    assert outcome.tier == "bronze"


@pytest.mark.parametrize(
    ("value", "tier"),
    [
        (90.0, "platinum"),
        (89.99, "gold"),
        (75.0, "gold"),
        (60.0, "silver"),
        (40.0, "bronze"),
        (39.99, "uncertified"),
    ],
)
def test_tier_bounds_are_inclusive_on_the_unrounded_composite(value: float, tier: str) -> None:
    # every dimension at `value` → composite 10 · value (900 platinum; 899.9 gold ...)
    outcome = trust_outcome(all_dimensions(value), TRUST_WEIGHTS)
    assert outcome.composite == pytest.approx(10 * value)
    assert outcome.tier == tier


def test_coverage_nine_vs_ten_dimensions() -> None:
    nine = [*MANDATORY_DIMENSIONS, "latency", "bond", "selfAudit", "evalRigor", "memoryQuality"]
    scores: dict[str, float | None] = {name: (85.0 if name in nine else None) for name in TRUST_DIMENSIONS}
    outcome = trust_outcome(scores, TRUST_WEIGHTS)
    # 9 covered at 85 → composite 850 (gold by value), but 9 < 10 → uncertified
    assert outcome.composite == pytest.approx(850.0)
    assert outcome.covered == 9
    assert outcome.tier == "uncertified"
    assert "9 of 16 dimensions covered, 10 required" in tier_reason_text(outcome.tier_reason)

    scores["harnessStability"] = 85.0  # the tenth
    outcome = trust_outcome(scores, TRUST_WEIGHTS)
    assert outcome.covered == 10 and outcome.tier == "gold"
    assert outcome.tier_reason.at_least == (850.0, 750) and outcome.tier_reason.coverage is None
    assert tier_reason_text(outcome.tier_reason) == "gold: composite 850 ≥ 750 (gold)"


def test_mandatory_dimension_missing_blocks_every_tier() -> None:
    # 15 covered at 95 (950, platinum by value) but safety null → uncertified naming safety
    outcome = trust_outcome(all_dimensions(95.0, safety=None), TRUST_WEIGHTS)
    assert outcome.covered == 15
    assert outcome.composite == pytest.approx(950.0)
    assert outcome.tier == "uncertified"
    assert outcome.mandatory_missing == ("safety",)
    assert "mandatory dimension(s) not covered: safety" in tier_reason_text(outcome.tier_reason)
    assert set(MANDATORY_DIMENSIONS) == {"accuracy", "reliability", "safety", "security"}


def test_no_evidence_at_all() -> None:
    result = score_trust([], at=AT)
    assert result.composite is None and result.tier == "uncertified"
    assert result.covered == 0 and result.total == 16
    body = result.to_dict()
    assert body["composite"] is None
    assert all(d["score"] is None and d["reason"] for d in body["dimensions"].values())


def test_uncertified_reason_below_bronze() -> None:
    # 10 · (0.93 · 35 + 0.07 · 60) = 10 · (32.55 + 4.2) = 367.5
    outcome = trust_outcome(all_dimensions(35.0, security=60.0), TRUST_WEIGHTS)
    assert tier_reason_text(outcome.tier_reason) == "uncertified: composite 367 is below bronze (400)"
    gated = trust_outcome(all_dimensions(35.0), TRUST_WEIGHTS)
    assert tier_reason_text(gated.tier_reason) == (
        "uncertified: security gate: security 35.00 < 50, composite 350 already under the 599 cap"
        " and no tier above bronze; composite 350 is below bronze (400)"
    )


def test_anomalous_change_is_strictly_more_than_200_points() -> None:
    # 800 → 600 is a 200-point swing: not anomalous; 800 → 599.5 is 200.5: anomalous
    assert not anomalous_change(600.0, 800.0)
    assert anomalous_change(599.5, 800.0)
    assert anomalous_change(1000.0, 799.0)
    assert not anomalous_change(700.0, None)
    assert not anomalous_change(None, 700.0)


# ----------------------------------------------------------------------------- fill-ins


def test_fill_in_only_where_no_eval_result_exists() -> None:
    fill_ins: Mapping[str, FillIn | float | None] = {
        "accuracy": FillIn(source="accuracy", score=70.0, sample_size=12, evidence_count=30),
        "reliability": 55.0,
        "latency": FillIn(source="speed", score=None, reason="no completed task"),
    }
    # an eval_result for accuracy 400 days old (decayed 80 → 23.857) still beats the fill-in
    result = score_trust([ev("accuracy", 80, days_ago=400)], fill_ins, at=AT)
    accuracy = result.dimensions["accuracy"]
    assert accuracy.source == "eval_result" and accuracy.score == pytest.approx(80 - 393 / 7)
    reliability = result.dimensions["reliability"]
    assert reliability.source == "operational" and reliability.score == 55.0
    assert not reliability.observations  # not decayed: there are no observations
    latency = result.dimensions["latency"]
    assert latency.score is None and "no completed task" in (latency.reason or "")
    # an eval_result after `at` does not count, so the fill-in is used
    later = score_trust([ev("accuracy", 80, days_ago=-1)], fill_ins, at=AT)
    assert later.dimensions["accuracy"].source == "operational"
    assert later.dimensions["accuracy"].score == 70.0
    assert later.dimensions["accuracy"].sample_size == 12


def test_cost_efficiency_plain_mean_over_window_tasks_with_budget() -> None:
    events = [
        task_completed("t1", days_ago=1, cost_usd=2.0, budget_usd=10.0),  # 1 − 0.2 = 0.8
        task_completed("t2", days_ago=2, cost_usd=15.0, budget_usd=10.0),  # max(0, −0.5) = 0
        task_completed("t3", days_ago=20, cost_usd=5.0, budget_usd=20.0),  # 0.75 (no recency weight)
        task_completed("t4", days_ago=3, cost_usd=1.0),  # no budget: skipped
        task_completed("t5", days_ago=3, cost_usd=1.0, budget_usd=0.0),  # budget 0: skipped
        task_completed("t6", days_ago=31, cost_usd=0.0, budget_usd=10.0),  # outside the window
        # t7: two completions, the latest counts (0.5), the earlier one (1.0) does not
        task_completed("t7", days_ago=5, cost_usd=0.0, budget_usd=10.0),
        task_completed("t7", days_ago=4, cost_usd=5.0, budget_usd=10.0),
        # t8: its counting completion lies after `at`, so it is not a window task
        task_completed("t8", days_ago=6, cost_usd=0.0, budget_usd=10.0),
        task_completed("t8", days_ago=-1, cost_usd=0.0, budget_usd=10.0),
    ]
    fill_in = cost_efficiency(events, at=AT)
    # (0.8 + 0 + 0.75 + 0.5) / 4 = 2.05 / 4 = 0.5125 → 51.25
    assert fill_in.score == pytest.approx(51.25)
    assert fill_in.sample_size == 4
    assert cost_efficiency(events[3:6], at=AT).score is None


def test_operational_fill_ins_are_the_aaaf_values_times_100() -> None:
    from aaaf.scoring.aaaf import performance_dimensions
    from aaaf.scoring.defaults import AAAFConfig

    events = []
    for i in range(6):
        task = f"t{i}"
        events.append(
            EventRecord(
                id=f"a{i}",
                agent="agent-a",
                type="task_assigned",
                timestamp=AT - timedelta(days=2 + i),
                data={"task_id": task, "domain": "code", "complexity_level": 1, "assigned_at": "x"},
                task_id=task,
            )
        )
        events.append(
            task_completed(
                task,
                days_ago=1 + i,
                time_to_complete_seconds=600 + 60 * i,
                revision_count=1 if i == 0 else 0,
                cost_usd=1.0,
                budget_usd=4.0,
            )
        )
    fill = operational_fill_ins(events, at=AT)
    aaaf = performance_dimensions(events, AAAFConfig(), AT)
    assert fill["accuracy"].score == pytest.approx(100 * aaaf["accuracy"].score)  # type: ignore[operator]
    assert fill["latency"].score == pytest.approx(100 * aaaf["speed"].score)  # type: ignore[operator]
    assert aaaf["consistency"].score is not None
    assert fill["reliability"].score == pytest.approx(100 * aaaf["consistency"].score)
    # every task: 1 − 1/4 = 0.75 → 75
    assert fill["costEfficiency"].score == pytest.approx(75.0)
    # speed by hand: n_i = (600 + 60 i) / 600, speed_i = clamp(2 − n_i) = 1 − 0.1 i for i = 0..5
    # recency weights by age 1..6 days (≤ 7) are all 1 → mean (1 + .9 + .8 + .7 + .6 + .5) / 6 = 0.75
    assert fill["latency"].score == pytest.approx(75.0)

    result = score_trust_from_events(events, at=AT)
    assert result.dimensions["latency"].source == "operational"
    assert result.dimensions["latency"].score == pytest.approx(75.0)
    assert result.dimensions["safety"].score is None


def test_fill_in_uses_the_window_ending_at_the_time_asked_for() -> None:
    events = [task_completed("t1", days_ago=40, cost_usd=1.0, budget_usd=2.0)]
    assert cost_efficiency(events, at=AT).score is None  # 40 days before AT: outside
    assert cost_efficiency(events, at=AT - timedelta(days=15)).score == pytest.approx(50.0)


def test_result_json_shape() -> None:
    result = score_trust(
        [ev("safety", s, eval_set="s", juror=f"j{i}") for i, s in enumerate([10, 50, 60, 70, 99])],
        at=AT,
        agent="agent-a",
    )
    body = trust_result_dict(result)
    for key in (
        "agent",
        "at",
        "composite",
        "tier",
        "tier_reason",
        "covered",
        "total",
        "weights_in_force",
        "gated",
    ):
        assert key in body
    assert body["agent"] == "agent-a" and body["at"] == "2026-11-20T12:00:00Z"
    safety = body["dimensions"]["safety"]
    # 5 votes, 1 dropped each end (10 and 99) → median of 50 60 70 = 60
    assert safety["score"] == 60.0 and safety["observations"] == 1
    assert safety["jury"]["dropped_jurors"] == ["j0", "j4"]
    assert body["composite"] == 600.0  # one covered dimension: 10 · 60
    assert set(body["dimensions"]) == set(TRUST_DIMENSIONS)


def test_the_evidence_vocabulary_names_the_same_16_dimensions() -> None:
    # the evidence edge validates eval_result.dimension against its own copy of the names
    from aaaf.evidence.vocabulary import TRUST_DIMENSIONS as VALIDATED

    assert tuple(VALIDATED) == TRUST_DIMENSIONS
