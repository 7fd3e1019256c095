"""SCORING.md §5 clause by clause, with the arithmetic worked by hand in the comments.

Where the evaluation order changes the last bit, the test says so and checks the bits
(``==`` on floats is intended here: §5 promises bit-identical results).
"""

from __future__ import annotations

import hashlib
import math
import random
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from typing import Any

import pytest
import rfc8785

from aaaf.errors import AAAFError
from aaaf.scoring.records import EventRecord
from aaaf.scoring.workflow import (
    WORKFLOW_CAP,
    WORKFLOW_WINDOW,
    WorkflowRun,
    capped_weights,
    positive_needed,
    score_run,
    score_runs,
    window_means,
    workflow_weights,
)

T0 = datetime(2026, 11, 1, tzinfo=UTC)


def run_data(**overrides: Any) -> dict[str, Any]:
    """A clean, fully successful run; each test overrides what it is about."""
    data: dict[str, Any] = {
        "task_id": "t-1",
        "dag_steps": 4,
        "steps_completed": 4,
        "output_quality": 1.0,
        "actual_cost": 0.0,
        "max_budget": 1.0,
        "actual_seconds": 0.0,
        "max_latency_seconds": 60.0,
        "declared_retry_budget": 0,
        "actual_retries": 0,
        "timeouts": 0,
        "hard_failures": 0,
    }
    data.update(overrides)
    return data


def run(agent: str, task_id: str, at: datetime, **overrides: Any) -> WorkflowRun:
    return WorkflowRun.from_mapping(run_data(task_id=task_id, **overrides), agent=agent, timestamp=at)


# ---------------------------------------------------------------------------- S and parts


def test_document_example_four_steps_three_completed_gate_open() -> None:
    # document 003: "a 4-step workflow completes 3 steps before a hard failure":
    # completion_ratio = 3/4.  With output_quality 1.0:
    #   S_success     = (1.0 × 3) / 4 = 0.75 > 0.7  → cost and latency count
    #   S_cost        = max(0, 1 − 0.5/2.0) = 0.75
    #   S_latency     = max(0, 1 − 30/60)   = 0.5
    #   unplanned     = max(0, 3 − 2) = 1
    #   S_reliability = 1 − ((0.10·1 + 0.20·1) + 0.50·1) = 1 − 0.8 = 0.2
    #                   (in binary: 0.1 + 0.2 = 0.30000000000000004, + 0.5 = 0.8000000000000000444,
    #                    so 1 − it = 0.19999999999999996 — the grouping §5 fixes)
    #   S = ((0.5·0.75 + 0.25·0.75) + 0.15·0.5) + 0.10·0.2 = (0.375 + 0.1875 + 0.075) + 0.02 = 0.6575
    score = score_run(
        run_data(
            steps_completed=3,
            actual_cost=0.5,
            max_budget=2.0,
            actual_seconds=30.0,
            declared_retry_budget=2,
            actual_retries=3,
            timeouts=1,
            hard_failures=1,
        )
    )
    assert score.s_success == 0.75
    assert not score.gated
    assert score.s_cost == 0.75
    assert score.s_latency == 0.5
    assert score.unplanned_retries == 1
    assert score.s_reliability == 0.19999999999999996
    assert score.s == pytest.approx(0.6575, abs=1e-15)
    assert score.s == ((0.5 * 0.75 + 0.25 * 0.75) + 0.15 * 0.5) + 0.10 * 0.19999999999999996


def test_document_example_with_lower_quality_is_gated() -> None:
    # quality 0.9: S_success = (0.9 × 3) / 4 = 2.7 / 4 = 0.675 ≤ 0.7 → S_cost = S_latency = 0
    # however cheap and fast the run was ("success-first gating").
    # S_reliability = 1 − 0.5 (one hard failure) = 0.5
    # S = ((0.5·0.675 + 0) + 0) + 0.1·0.5 = 0.3375 + 0.05 = 0.3875
    score = score_run(run_data(steps_completed=3, output_quality=0.9, hard_failures=1))
    assert score.s_success == 0.675
    assert score.gated
    assert score.s_cost == 0.0
    assert score.s_latency == 0.0
    assert score.s_reliability == 0.5
    assert score.s == pytest.approx(0.3875, abs=1e-15)


def test_gate_is_strict_at_exactly_point_seven() -> None:
    # S_success = (0.7 × 1) / 1 = 0.7 exactly → not > 0.7 → gated:
    #   S = 0.5·0.7 + 0.1·1 = 0.35 + 0.1 = 0.45
    at_gate = score_run(run_data(dag_steps=1, steps_completed=1, output_quality=0.7))
    assert at_gate.s_success == 0.7
    assert at_gate.gated and at_gate.s_cost == 0.0 and at_gate.s_latency == 0.0
    assert at_gate.s == pytest.approx(0.45, abs=1e-15)
    # 0.7001 > 0.7 → open; cost 0 and latency 0 give S_cost = S_latency = 1:
    #   S = ((0.5·0.7001 + 0.25) + 0.15) + 0.1 = 0.35005 + 0.5 = 0.85005
    above = score_run(run_data(dag_steps=1, steps_completed=1, output_quality=0.7001))
    assert not above.gated
    assert above.s_cost == 1.0 and above.s_latency == 1.0
    assert above.s == pytest.approx(0.85005, abs=1e-15)


def test_success_is_quality_times_steps_then_divided() -> None:
    # §5 fixes S_success = (quality × completed) / dag.  With quality 0.875, 4 of 5 steps:
    #   (0.875 × 4) / 5 = 3.5 / 5 = 0.7 (exact in binary up to the final rounding) → gated,
    # whereas 0.875 × (4/5) = 0.875 × 0.8000000000000000444 = 0.7000000000000001 → would open.
    assert 0.875 * (4 / 5) > 0.7  # the other order really differs
    score = score_run(run_data(dag_steps=5, steps_completed=4, output_quality=0.875))
    assert score.s_success == 0.7
    assert score.gated


def test_composite_is_summed_left_to_right() -> None:
    # quality 0.9, all 4 steps, cost 0.3 of 1.0, 30 s of 100 s, no retries:
    #   S_success = 0.9, S_cost = 0.7, S_latency = 0.7, S_reliability = 1
    #   ((0.45 + 0.175) + 0.105) + 0.1 = 0.83  (left to right, §5)
    #   0.45 + (0.175 + (0.105 + 0.1)) = 0.8300000000000001 (right to left: another bit)
    score = score_run(
        run_data(output_quality=0.9, actual_cost=0.3, actual_seconds=30.0, max_latency_seconds=100.0)
    )
    assert (score.s_success, score.s_cost, score.s_latency, score.s_reliability) == (0.9, 0.7, 0.7, 1.0)
    assert score.s == 0.83
    assert 0.5 * 0.9 + (0.25 * 0.7 + (0.15 * 0.7 + 0.1 * 1.0)) != 0.83


def test_cost_and_latency_floor_at_zero() -> None:
    # over budget: 1 − 3/2 = −0.5 → 0; over time: 1 − 120/60 = −1 → 0
    # S = ((0.5·1 + 0) + 0) + 0.1·1 = 0.6
    score = score_run(run_data(actual_cost=3.0, max_budget=2.0, actual_seconds=120.0))
    assert score.s_cost == 0.0 and score.s_latency == 0.0
    assert score.s == pytest.approx(0.6, abs=1e-15)


def test_declared_retries_are_free() -> None:
    # budget 3, retries 3: unplanned = max(0, 3 − 3) = 0 → S_reliability = 1
    within = score_run(run_data(declared_retry_budget=3, actual_retries=3))
    assert within.unplanned_retries == 0 and within.s_reliability == 1.0
    # budget 3, retries 1: max(0, 1 − 3) = 0 (unused budget is not a bonus)
    under = score_run(run_data(declared_retry_budget=3, actual_retries=1))
    assert under.unplanned_retries == 0 and under.s_reliability == 1.0
    # budget 3, retries 5: unplanned = 2 → 1 − 0.2 = 0.8 ; S = 0.5 + 0.25 + 0.15 + 0.08 = 0.98
    beyond = score_run(run_data(declared_retry_budget=3, actual_retries=5))
    assert beyond.unplanned_retries == 2
    assert beyond.s_reliability == 0.8
    assert beyond.s == pytest.approx(0.98, abs=1e-15)
    # no budget declared (absent → 0): every retry is unplanned: 2 retries → 0.8
    absent = run_data(actual_retries=2)
    del absent["declared_retry_budget"]
    assert score_run(absent).s_reliability == 0.8


def test_reliability_grouping_and_clamp() -> None:
    # 3 unplanned + 1 timeout: 1 − ((0.1·3 + 0.2·1) + 0) = 1 − (0.30000000000000004 + 0.2) = 1 − 0.5 = 0.5,
    # whereas subtracting term by term, ((1 − 0.3…04) − 0.2) − 0, gives 0.49999999999999994.
    score = score_run(run_data(actual_retries=3, timeouts=1))
    assert score.s_reliability == 0.5
    assert ((1 - 0.1 * 3) - 0.2 * 1) - 0.5 * 0 == 0.49999999999999994
    # 2 hard failures: 1 − 1.0 = 0 ; 3 hard failures: 1 − 1.5 = −0.5 → 0 (max(0, ·))
    assert score_run(run_data(hard_failures=2)).s_reliability == 0.0
    assert score_run(run_data(hard_failures=3)).s_reliability == 0.0


def test_reliability_applies_even_when_gated() -> None:
    # quality 0: S_success = 0, gated; 1 timeout → S_reliability = 0.8; S = 0.1·0.8 = 0.08
    score = score_run(run_data(output_quality=0.0, timeouts=1))
    assert score.gated
    assert score.s_reliability == 0.8
    assert score.s == pytest.approx(0.08, abs=1e-15)


@pytest.mark.parametrize(
    ("field", "value", "fragment"),
    [
        ("steps_completed", 5, "exceeds dag_steps"),
        ("dag_steps", 0, "≥ 1"),
        ("output_quality", 1.5, "≤ 1.0"),
        ("output_quality", -0.1, "≥ 0"),
        ("max_budget", 0.0, "> 0"),
        ("max_latency_seconds", -1.0, "> 0"),
        ("actual_cost", float("nan"), "finite"),
        ("actual_retries", -1, "≥ 0"),
        ("timeouts", 1.0, "integer"),
        ("hard_failures", True, "integer"),
    ],
)
def test_invalid_runs_name_the_field(field: str, value: Any, fragment: str) -> None:
    with pytest.raises(AAAFError) as caught:
        score_run(run_data(**{field: value}))
    assert caught.value.code == "INVALID_REQUEST"
    assert caught.value.details["field"] == field
    assert fragment in caught.value.message


def test_miner_must_equal_the_events_agent() -> None:
    with pytest.raises(AAAFError, match="differs from the event's agent"):
        WorkflowRun.from_mapping(run_data(miner="bob"), agent="alice", timestamp=T0)
    assert WorkflowRun.from_mapping(run_data(miner="alice"), agent="alice").agent == "alice"


def test_event_records_are_read() -> None:
    event = EventRecord(
        id="e1", agent="alice", type="workflow_run", timestamp=T0, data=run_data(), task_id="t-1"
    )
    parsed = WorkflowRun.from_event(event)
    assert (parsed.agent, parsed.task_id, parsed.timestamp, parsed.event_id) == ("alice", "t-1", T0, "e1")
    with pytest.raises(AAAFError):
        WorkflowRun.from_event(EventRecord(id="e2", agent="alice", type="task_completed", timestamp=T0))


# --------------------------------------------------------------------------------- window


def test_window_of_150_runs_keeps_the_last_100() -> None:
    # runs 0–49: quality 0 → gated, S = 0.1·1 = 0.1 ; runs 50–149: perfect → S = 1.0
    # window 100 keeps runs 50–149: mean = 100·1.0 / 100 = 1.0
    # window 150 keeps all:          mean = (50·0.1 + 100·1.0) / 150 = 105 / 150 = 0.7
    runs = [
        run("alice", f"t-{i:03d}", T0 + timedelta(minutes=i), output_quality=0.0 if i < 50 else 1.0)
        for i in range(150)
    ]
    random.Random(7).shuffle(runs)
    kept = window_means(runs)["alice"]
    assert kept.runs == 100 and kept.runs_total == 150
    assert kept.window_mean == 1.0
    assert [s.run.task_id for s in kept.scores] == [f"t-{i:03d}" for i in range(50, 150)]
    everything = window_means(runs, window=150)["alice"]
    assert everything.window_mean == pytest.approx(0.7, abs=1e-15)
    assert WORKFLOW_WINDOW == 100


def test_window_orders_by_instant_then_task_id_as_string() -> None:
    # Same instant written with two offsets: 12:00+02:00 is 10:00Z, before 11:00Z.
    early = WorkflowRun.from_mapping(run_data(task_id="z"), agent="a", timestamp="2026-11-01T12:00:00+02:00")
    late = WorkflowRun.from_mapping(
        run_data(task_id="a", output_quality=0.0), agent="a", timestamp="2026-11-01T11:00:00Z"
    )
    assert [s.run.task_id for s in window_means([late, early], window=1)["a"].scores] == ["a"]
    # Equal instants: task ids compare as strings, "t10" < "t9", so "t9" is the most recent.
    ties = [run("a", "t9", T0, output_quality=0.0), run("a", "t10", T0)]
    assert [s.run.task_id for s in window_means(ties, window=1)["a"].scores] == ["t9"]
    assert [s.run.task_id for s in window_means(list(reversed(ties)), window=1)["a"].scores] == ["t9"]


def test_a_task_counts_once_latest_run_wins() -> None:
    # t-1 run twice: the later run (quality 0 → S 0.1) replaces the earlier (S 1.0);
    # with t-2 (S 1.0): mean = (0.1 + 1.0) / 2 = 0.55
    runs = [
        run("a", "t-1", T0),
        run("a", "t-2", T0 + timedelta(minutes=1)),
        run("a", "t-1", T0 + timedelta(minutes=2), output_quality=0.0),
    ]
    held = window_means(runs)["a"]
    assert held.runs == 2 and held.runs_total == 2
    assert held.window_mean == pytest.approx(0.55, abs=1e-15)
    # at an equal instant the run whose canonical JSON sorts last wins, whatever the order
    a = run("a", "t-1", T0, actual_cost=0.25)
    b = run("a", "t-1", T0, actual_cost=0.5)
    assert window_means([a, b])["a"].scores[0].run == window_means([b, a])["a"].scores[0].run


def test_window_mean_is_fsum_over_count() -> None:
    # ten runs with S = 0.1 each (quality 0, gated): 0.1 added ten times left to right is
    # 0.9999999999999999, fsum gives 1.0, so the mean is exactly 0.1.
    runs = [run("a", f"t{i}", T0 + timedelta(seconds=i), output_quality=0.0) for i in range(10)]
    assert sum([0.1] * 10) != 1.0
    assert window_means(runs)["a"].window_mean == 0.1


def test_window_needs_timestamps_and_a_positive_size() -> None:
    with pytest.raises(AAAFError, match="no timestamp"):
        window_means([WorkflowRun.from_mapping(run_data(), agent="a")])
    with pytest.raises(AAAFError, match="window"):
        window_means([run("a", "t", T0)], window=0)


# -------------------------------------------------------------------------------- weights


def test_cap_that_needs_three_rounds() -> None:
    # scores 1.0, 0.5, 0.3, 0.15, 0.05 (∝ 20:10:6:3:1, Σ = 40), cap 1/4 (⌈1/cap⌉ = 4 ≤ 5):
    #   normalised: 1/2, 1/4, 3/20, 3/40, 1/40
    #   round 1: a = 1/2 > 1/4 → cap, excess 1/4; b = 1/4 is not above the cap.
    #            pool = 1/4 + 3/20 + 3/40 + 1/40 = 1/2, each uncapped × (1 + (1/4)/(1/2)) = × 3/2
    #            → b 3/8, c 9/40, d 9/80, e 3/80
    #   round 2: b = 3/8 > 1/4 → cap, excess 1/8; pool = 9/40 + 9/80 + 3/80 = 3/8, × 4/3
    #            → c 3/10, d 3/20, e 1/20
    #   round 3: c = 3/10 > 1/4 → cap, excess 1/20; pool = 1/5, × 5/4 → d 3/16, e 1/16
    #   final: 1/4, 1/4, 1/4, 3/16, 1/16 (Σ = 1)
    result = capped_weights({"a": 1.0, "b": 0.5, "c": 0.3, "d": 0.15, "e": 0.05}, cap=0.25)
    assert result.method == "iterative"
    assert result.rounds == 3
    assert result.capped == frozenset({"a", "b", "c"})
    expected = {"a": 0.25, "b": 0.25, "c": 0.25, "d": 3 / 16, "e": 1 / 16}
    for name, value in expected.items():
        assert result.weights[name] == pytest.approx(value, abs=1e-15)
    assert result.weights["a"] == result.weights["b"] == result.weights["c"] == 0.25


def test_one_round_at_the_default_cap() -> None:
    # seven agents, cap 0.15 (⌈1/0.15⌉ = ⌈6.67⌉ = 7 ≤ 7): scores 7,1,1,1,1,1,1 (Σ 13)
    #   a = 7/13 ≈ 0.538 > 0.15 → 0.15, excess 7/13 − 0.15; pool = 6/13
    #   others: 1/13 × (1 + excess/pool) = (1/13) × (0.85 / (6/13)) = 0.85/6 ≈ 0.14167 ≤ 0.15
    scores = {"a": 7.0, **{f"m{i}": 1.0 for i in range(6)}}
    result = capped_weights(scores, cap=WORKFLOW_CAP)
    assert result.rounds == 1 and result.capped == frozenset({"a"})
    assert result.weights["a"] == 0.15
    for i in range(6):
        assert result.weights[f"m{i}"] == pytest.approx(0.85 / 6, abs=1e-15)


def test_six_agents_with_a_fifteen_percent_cap_share_equally() -> None:
    # ⌈1/0.15⌉ = 7 > 6 positive agents: no weighting fits under 15 %, so 1/6 each
    # (≈ 16.67 %, above the cap), whatever their scores.
    result = capped_weights({f"m{i}": 0.1 * (i + 1) for i in range(6)}, cap=0.15)
    assert result.method == "equal_share"
    assert result.positive == 6 and result.positive_needed == 7
    assert set(result.weights.values()) == {1 / 6}
    assert not result.capped


def test_zero_means_get_zero_and_do_not_count() -> None:
    # 7 agents but one with mean 0: 6 positive < 7 → the six share 1/6, the zero gets 0
    scores = {f"m{i}": 0.5 for i in range(6)} | {"idle": 0.0}
    result = capped_weights(scores, cap=0.15)
    assert result.method == "equal_share"
    assert result.weights["idle"] == 0.0
    assert result.weights["m0"] == 1 / 6
    # with enough positive agents a zero still gets 0 and the rest normalise without it
    scores = {f"m{i}": 1.0 for i in range(8)} | {"idle": 0.0}
    result = capped_weights(scores, cap=0.15)
    assert result.method == "iterative" and result.weights["idle"] == 0.0
    assert result.weights["m0"] == 1 / 8


def test_all_zero_gives_all_zero_and_single_agent_gets_everything() -> None:
    result = capped_weights({"a": 0.0, "b": 0.0}, cap=0.15)
    assert result.method == "all_zero"
    assert result.weights == {"a": 0.0, "b": 0.0}
    assert capped_weights({}, cap=0.15).weights == {}
    solo = capped_weights({"a": 0.3}, cap=0.15)
    assert solo.method == "equal_share" and solo.weights == {"a": 1.0}


def test_ceil_of_one_over_cap_is_exact() -> None:
    # 1/0.15 = 6.67 → 7 ; 0.2 and 0.25 are feasible with exactly 5 and 4 agents.
    assert positive_needed(0.15) == 7
    assert positive_needed(0.25) == 4
    assert positive_needed(1.0) == 1
    # The double nearest 1/3 is slightly below 1/3, so three agents cannot all fit
    # under it: 3 × 0.33333333333333331 < 1.  A rounded 1/(1/3) = 3.0 would say 3.
    assert Fraction(1 / 3) * 3 < 1
    assert positive_needed(1 / 3) == 4
    assert capped_weights({"a": 1.0, "b": 1.0, "c": 1.0}, cap=1 / 3).method == "equal_share"


def test_underflowed_weights_still_receive_the_excess() -> None:
    # six agents at 1.0 and one at 5e-324 (the smallest double), cap 0.15 (7 ≥ ⌈1/0.15⌉):
    #   normalised: 1/6 each, and 5e-324 / 6 underflows to 0
    #   round 1: the six are capped, excess = 6 × (1/6 − 0.15) = 0.1; the pool of uncapped
    #            weights is 0, so the excess goes by score: the tiny agent gets all 0.1
    #   closed form: w = min(0.15, λ·s) with 6 × 0.15 + λ·5e-324 = 1 → the tiny agent 0.1
    scores = {f"m{i}": 1.0 for i in range(6)} | {"tiny": 5e-324}
    result = capped_weights(scores, cap=0.15)
    assert result.rounds == 1 and "tiny" not in result.capped
    assert result.weights["tiny"] == pytest.approx(0.1, abs=1e-15)
    assert math.fsum(result.weights.values()) == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize("cap", [0.0, -0.1, 1.5, float("nan")])
def test_cap_outside_zero_one_is_rejected(cap: float) -> None:
    with pytest.raises(AAAFError, match="cap"):
        capped_weights({"a": 1.0}, cap=cap)


def test_negative_or_non_finite_scores_are_rejected() -> None:
    with pytest.raises(AAAFError, match="negative"):
        capped_weights({"a": -0.1}, cap=0.5)
    with pytest.raises(AAAFError, match="finite"):
        capped_weights({"a": float("inf")}, cap=0.5)


# ---------------------------------------------------------------------- result and digest


def eight_agent_runs() -> list[WorkflowRun]:
    runs: list[WorkflowRun] = []
    for agent_index in range(8):
        for i in range(3):
            runs.append(
                run(
                    f"agent-{agent_index}",
                    f"t{i}",
                    T0 + timedelta(hours=i),
                    output_quality=0.5 + 0.06 * agent_index,
                    actual_cost=0.1 * i,
                )
            )
    return runs


def test_result_shape_and_digest_is_sha256_of_rfc8785() -> None:
    result = workflow_weights(eight_agent_runs(), window=100, cap=0.15)
    data = result.to_dict()
    assert {"window", "cap", "agents", "digest"} <= set(data)
    assert data["window"] == 100 and data["cap"] == 0.15
    assert [row["agent"] for row in data["agents"]] == [f"agent-{i}" for i in range(8)]
    assert set(data["agents"][0]) >= {"agent", "window_mean", "runs", "weight", "capped"}
    body = {key: value for key, value in data.items() if key != "digest"}
    assert data["digest"] == hashlib.sha256(rfc8785.dumps(body)).hexdigest()
    assert data["digest"] == result.digest()
    assert sum(row["weight"] for row in data["agents"]) == pytest.approx(1.0, abs=1e-12)


def test_digest_is_pinned() -> None:
    # A golden digest: if a change alters any bit of the result (or its JSON shape), every
    # validator's digest changes, and this test says so.
    result = workflow_weights(eight_agent_runs(), window=100, cap=0.15)
    assert result.digest() == GOLDEN_DIGEST


GOLDEN_DIGEST = "cdce86df905bc1e1a424760fc373353a48798e92ee0e6485547a64dada528571"


def test_results_do_not_depend_on_input_order() -> None:
    runs = eight_agent_runs()
    reference = workflow_weights(runs).to_dict()
    breakdown = score_runs(runs).to_dict()
    for seed in range(5):
        shuffled = list(runs)
        random.Random(seed).shuffle(shuffled)
        assert workflow_weights(shuffled).to_dict() == reference
        assert score_runs(shuffled).to_dict() == breakdown


def test_score_runs_marks_the_window() -> None:
    # three runs, window 2: the oldest is scored but not in the window; a duplicate of a
    # task (same everything) is marked once.
    runs = [run("a", f"t{i}", T0 + timedelta(minutes=i)) for i in range(3)]
    result = score_runs([*runs, runs[2]], window=2)
    assert [row["task_id"] for row in result.to_dict()["runs"]] == ["t0", "t1", "t2", "t2"]
    assert list(result.in_window) == [False, True, False, True]
    agents = result.to_dict()["agents"]
    assert agents == [{"agent": "a", "window_mean": 1.0, "runs": 2, "runs_total": 3}]
