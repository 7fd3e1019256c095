"""The AAAF bootstrap of SCORING.md §2.5: the vectorised core against a slow reference that
re-runs the whole engine on each resample's event log, hand-worked small cases, and
properties."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from aaaf.scoring import aaaf as engine
from aaaf.scoring import resample_arrays
from aaaf.scoring import uncertainty as unc
from aaaf.scoring.core import composite
from aaaf.scoring.defaults import AXES, AAAFConfig
from aaaf.scoring.fold import fold_evidence
from aaaf.scoring.records import EventRecord
from tests.scoring.factories import WINDOW_END, Events

CONFIG = AAAFConfig()


# --------------------------------------------------------------------------- the slow reference


def resampled_log(events: list[EventRecord], window_tasks: list[str], row: np.ndarray) -> list[EventRecord]:
    """One resample's event log: every event naming a window task is copied once per draw of
    that task, the copy's task named ``<task_id>#<draw position>`` (fixed-width ids, so the
    copies sort right after the original id, in draw position) and its event id made
    distinct; events naming no window task stay once, as observed."""
    by_task: dict[str, list[EventRecord]] = {}
    others: list[EventRecord] = []
    units = set(window_tasks)
    for event in events:
        if event.task_id is not None and event.task_id in units:
            by_task.setdefault(event.task_id, []).append(event)
        else:
            others.append(event)
    out = list(others)
    for position, index in enumerate(row.tolist()):
        task_id = window_tasks[index]
        copy_id = f"{task_id}#{position:04d}"
        for event in by_task[task_id]:
            data = dict(event.data)
            data["task_id"] = copy_id
            out.append(event._replace(id=f"{event.id}#{position}", data=data, task_id=copy_id))
    return out


def reference_composites(
    events: list[EventRecord], config: AAAFConfig, resamples: int, seed: int = 0
) -> dict[str, list[float | None]]:
    """Each axis's composite in every resample, by the full engine (fold included) on the
    resampled log, with the "same construct" rule applied to its dimension scores."""
    observed = engine.assess(events, config, WINDOW_END, enforce_minimums=False)
    window_tasks = list(observed.evidence_summary["task_ids"])
    n = len(window_tasks)
    draws = np.random.default_rng(seed).integers(0, n, size=(resamples, n))
    out: dict[str, list[float | None]] = {"performance": [], "capability": []}
    for row in draws:
        result = engine.assess(
            resampled_log(events, window_tasks, row), config, WINDOW_END, enforce_minimums=False
        )
        assert result.evidence_summary["window_tasks"] == n
        for axis in ("performance", "capability"):
            assessed = observed.axis(axis)
            got = result.axis(axis)
            assert assessed is not None and got is not None
            scores = {
                name: None if assessed.dimensions[name].score is None else got.dimensions[name].score
                for name in AXES[axis]
            }
            out[axis].append(composite(scores, config.weights(axis)).score)
    return out


def vectorised_composites(events: list[EventRecord], config: AAAFConfig) -> dict[str, np.ndarray]:
    observed = engine.assess(events, config, WINDOW_END, enforce_minimums=False)
    window = engine.window_evidence(fold_evidence(events), config, WINDOW_END)
    assessed = {
        axis: {name: dim.score for name, dim in observed.axis(axis).dimensions.items()}  # type: ignore[union-attr]
        for axis in ("performance", "capability")
    }
    return unc.resampled_composites(window, config, assessed)


def assert_agree(reference: list[float | None], vectorised: np.ndarray) -> None:
    assert len(reference) == len(vectorised)
    for b, (want, got) in enumerate(zip(reference, vectorised.tolist(), strict=True)):
        if want is None:
            assert math.isnan(got), (b, want, got)
        else:
            assert abs(want - got) <= 1e-9, (b, want, got)


# --------------------------------------------------------------------------- random fleets


task_spec = st.fixed_dictionaries(
    {
        "status": st.sampled_from(
            ["accepted", "accepted", "accepted", "partial", "rejected", "failed", None]
        ),
        "days_ago": st.floats(min_value=0.0, max_value=29.0),
        "domain": st.sampled_from(["code", "code", "research", "security", None]),
        "complexity": st.one_of(st.none(), st.integers(1, 4)),
        "autonomy": st.one_of(st.none(), st.integers(0, 3)),
        "fraction": st.floats(min_value=0.0, max_value=1.0),
        "revision_count": st.integers(0, 1),
        "errors": st.lists(st.sampled_from(["critical", "major", "minor", None]), max_size=2),
        "seconds": st.sampled_from([300.0, 3000.0, 20000.0, 60000.0]),
        "tools": st.lists(
            st.tuples(st.sampled_from(["grep", "bash"]), st.booleans(), st.booleans()), max_size=6
        ),
        "decisions": st.lists(
            st.tuples(
                st.sampled_from(["self", "delegate"]), st.sampled_from(["self", "delegate"]), st.booleans()
            ),
            max_size=2,
        ),
        "outcome": st.one_of(st.none(), st.sampled_from(["success", "partial", "failure"])),
        "orchestration": st.one_of(st.none(), st.floats(min_value=0.0, max_value=1.0)),
        "checklist": st.one_of(
            st.none(),
            st.dictionaries(st.sampled_from(["memory_written", "output_format_correct"]), st.booleans()),
        ),
    }
)


def fleet_events(specs: list[dict[str, Any]], loose: int) -> list[EventRecord]:
    ev = Events()
    events: list[EventRecord] = []
    for i, spec in enumerate(specs):
        task_id = f"t{i:03d}"
        days = spec["days_ago"]
        events.append(
            ev.assigned(
                task_id,
                domain=spec["domain"],
                complexity=spec["complexity"],
                autonomy=spec["autonomy"],
                days_ago=days,
            )
        )
        if spec["status"] is not None:
            extra: dict[str, Any] = {"milestone_fraction": spec["fraction"]}
            if spec["checklist"] is not None:
                extra["review_checklist"] = spec["checklist"]
            errors = [{} if s is None else {"severity": s} for s in spec["errors"]]
            events.append(
                ev.completed(
                    task_id,
                    spec["status"],
                    days_ago=days,
                    seconds=spec["seconds"],
                    revision_count=spec["revision_count"],
                    errors=errors,
                    **extra,
                )
            )
        events += [
            ev.tool(task_id, tool, success=ok, recovered=rec, days_ago=days)
            for tool, ok, rec in spec["tools"]
        ]
        events += [
            ev.decision(
                task_id,
                d,
                g,
                delegate_to="x" if d == "delegate" else None,
                optimal_delegate=("x" if right else "y") if d == "delegate" else None,
                days_ago=days,
            )
            for d, g, right in spec["decisions"]
        ]
        if spec["outcome"] is not None:
            events.append(ev.outcome(task_id, spec["outcome"], revision_needed=i % 3 == 0, days_ago=days))
        if spec["orchestration"] is not None:
            events.append(
                ev.orchestration(
                    task_id,
                    failures_injected=2,
                    failures_recovered=i % 3,
                    synthesis=spec["orchestration"],
                    days_ago=days,
                )
            )
    for j in range(loose):  # evidence naming no task: stays once in every resample
        events.append(ev.tool(None, "grep", success=j % 2 == 0, days_ago=j))
        events.append(ev.decision(None, "self", "delegate" if j % 3 else "self", days_ago=j))
        events.append(ev.orchestration(None, workflow=0.5, days_ago=j))
    # a task outside the window: its evidence is not a unit and is never copied
    events += ev.task("zz-old", days_ago=40)
    return events


SMALL = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SMALL
@given(st.lists(task_spec, min_size=1, max_size=12), st.integers(0, 3))
def test_vectorised_equals_the_engine_on_each_resample_small_fleets(
    specs: list[dict[str, Any]], loose: int
) -> None:
    events = fleet_events(specs, loose)
    config = CONFIG.with_overrides(uncertainty_resamples=25)
    reference = reference_composites(events, config, 25)
    vectorised = vectorised_composites(events, config)
    for axis in ("performance", "capability"):
        assert_agree(reference[axis], vectorised[axis])


MEDIUM = settings(
    max_examples=8,
    deadline=None,
    phases=[
        Phase.explicit,
        Phase.reuse,
        Phase.generate,
    ],  # a failing fleet is shown unshrunk (shrinking costs minutes)
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@MEDIUM
@given(st.lists(task_spec, min_size=35, max_size=60), st.integers(0, 2))
def test_vectorised_equals_the_engine_on_each_resample_medium_fleets(
    specs: list[dict[str, Any]], loose: int
) -> None:
    # ≥ 15 completed tasks of one domain happen here: learning_rate's blocks of copies
    events = fleet_events(specs, loose)
    config = CONFIG.with_overrides(uncertainty_resamples=12, consistency_min_group=3)
    reference = reference_composites(events, config, 12)
    vectorised = vectorised_composites(events, config)
    for axis in ("performance", "capability"):
        assert_agree(reference[axis], vectorised[axis])


@pytest.mark.parametrize("min_group", [5, 3, 6])
def test_learning_rate_blocks_of_copies_agree_with_the_engine(min_group: int) -> None:
    # 18 completed code tasks of rising quality: most resamples have ≥ 15 code copies; a
    # block of five copies has a consistency group with groups of five (the default), of
    # three (a copy's group found among the block's), or never (six)
    ev = Events()
    events: list[EventRecord] = []
    for i in range(18):
        status = "accepted" if i % 3 else "rejected"
        events += ev.task(
            f"t{i:03d}", status, domain="code", complexity=2, days_ago=20 - i, errors=[{}] * (i < 6)
        )
    config = CONFIG.with_overrides(uncertainty_resamples=40, consistency_min_group=min_group)
    reference = reference_composites(events, config, 40)
    vectorised = vectorised_composites(events, config)
    for axis in ("performance", "capability"):
        assert_agree(reference[axis], vectorised[axis])


# --------------------------------------------------------------------------- hand-worked


def four_task_agent() -> list[EventRecord]:
    """Three accepted level-3 code tasks and one rejected, all of age 0 (weight 1), each
    accepted task done in 600 s (speed 1: the L3 baseline is 14 400 s), no errors."""
    ev = Events()
    events: list[EventRecord] = []
    for name in ("a", "b", "c"):
        events += ev.task(name, "accepted", domain="code", complexity=3)
    events += ev.task("d", "rejected", domain="code", complexity=3)
    return events


def hand_performance(k: int) -> float:
    """k = copies of accepted tasks among 4.  TCR = k/4; accuracy = 1 and speed = 1 when
    k ≥ 1 (null when k = 0); consistency and review null.  Weights .25/.25/.15 renormalised."""
    if k == 0:
        return 0.0  # TCR alone, 0
    return (0.25 * k / 4 + 0.25 * 1.0 + 0.15 * 1.0) / 0.65


def hand_capability(k: int) -> float | None:
    """domain_breadth and complexity_ceiling are the scored dimensions (autonomy, tools,
    learning, delegation, orchestration are null in the assessment).  With k ≥ 3 copies of
    accepted tasks the code domain qualifies (perf ≥ 0.40) and so does level 3 (perf ≥
    0.60): breadth 1/12, ceiling 3/5.  With 1 ≤ k ≤ 2 neither has ≥ 3 completed copies:
    breadth 0, ceiling 0.  k = 0: no completed task, both null, the resample is insufficient."""
    if k == 0:
        return None
    if k >= 3:
        return (0.15 * (1 / 12) + 0.20 * 0.6) / 0.35
    return 0.0


def test_hand_worked_four_tasks() -> None:
    events = four_task_agent()
    result = engine.assess(events, CONFIG, WINDOW_END, enforce_minimums=False)
    assert result.performance is not None and result.capability is not None
    assert result.performance.composite.score == pytest.approx(hand_performance(3), abs=1e-12)  # 0.9038 Elite
    assert result.performance.composite.tier == "Elite"
    assert result.capability.composite.score == pytest.approx(hand_capability(3), abs=1e-12)  # 0.3786
    assert result.capability.composite.tier == "Functional"

    # the draws, and k (copies of a, b or c: task indices 0, 1, 2 in task_id order) per resample
    draws = np.random.default_rng(0).integers(0, 4, size=(1000, 4))
    ks = (draws < 3).sum(axis=1).tolist()
    perf = np.array([hand_performance(k) for k in ks])
    cap_values = [hand_capability(k) for k in ks]
    cap = np.array([np.nan if v is None else v for v in cap_values])

    window = engine.window_evidence(fold_evidence(events), CONFIG, WINDOW_END)
    assessed = {
        axis: {name: dim.score for name, dim in result.axis(axis).dimensions.items()}  # type: ignore[union-attr]
        for axis in ("performance", "capability")
    }
    got = unc.assessment_uncertainty(window, CONFIG, assessed)
    k_counts = Counter(ks)
    # performance: k = 4 → 1.0 Elite; k = 3 → 0.9038 Elite; k = 2 → 0.8077 Expert;
    # k = 1 → 0.7115 Proficient; k = 0 → 0 Novice
    # the bootstrap's composites are the engine's (math.fsum of renormalised weight × score),
    # which the hand arithmetic below meets to the last digit or two: the interval to 1e-12
    assert got["performance"] == {
        "ci": pytest.approx(list(np.percentile(perf, [2.5, 97.5], method="linear")), abs=1e-12),
        "tier_probabilities": {
            "Novice": k_counts[0] / 1000,
            "Competent": 0.0,
            "Proficient": k_counts[1] / 1000,
            "Expert": k_counts[2] / 1000,
            "Elite": (k_counts[3] + k_counts[4]) / 1000,
        },
        "resamples": 1000,
        "insufficient": 0,
    }
    # capability: k ≥ 3 → 0.3786 Functional; 1 ≤ k ≤ 2 → 0 Narrow; k = 0 → insufficient
    sufficient = cap[~np.isnan(cap)]
    assert got["capability"] == {
        "ci": pytest.approx(list(np.percentile(sufficient, [2.5, 97.5], method="linear")), abs=1e-12),
        "tier_probabilities": {
            "Narrow": (k_counts[1] + k_counts[2]) / 1000,
            "Functional": (k_counts[3] + k_counts[4]) / 1000,
            "Versatile": 0.0,
            "Specialist": 0.0,
            "Full-Stack": 0.0,
            "INSUFFICIENT_EVIDENCE": k_counts[0] / 1000,
        },
        "resamples": 1000,
        "insufficient": k_counts[0],
    }
    # P(k ≥ 3) = 4·(3/4)³·(1/4) + (3/4)⁴ = 189/256 ≈ 0.738: the awarded tiers are borderline,
    # and the threshold measures pull the capability interval below its point estimate
    assert abs(got["performance"]["tier_probabilities"]["Elite"] - 189 / 256) < 0.05
    assert unc.is_borderline(got["capability"], "Functional", 0.8)
    assert got["capability"]["ci"][0] < result.capability.composite.score


def test_hand_worked_three_tasks_every_multiset() -> None:
    """t1 accepted, t2 rejected, t3 accepted with one major error; no complexity, no checklist.
    With counts (a, b, c): TCR = (a + c)/3 and, when a + c > 0, accuracy = 0.6 + 0.4·a/(a + c)
    (no revisions; errors per completed task c/(a + c)); composite = their mean, and TCR
    alone (= 0) when a + c = 0.  The ten multisets of three draws:"""
    table = {
        (3, 0, 0): 1.0,  # Elite
        (0, 3, 0): 0.0,  # Novice
        (0, 0, 3): 0.8,  # Expert
        (2, 1, 0): (2 / 3 + 1.0) / 2,  # 0.8333 Expert
        (2, 0, 1): (1.0 + 0.6 + 0.4 * 2 / 3) / 2,  # 0.9333 Elite
        (1, 2, 0): (1 / 3 + 1.0) / 2,  # 0.6667 Proficient
        (0, 2, 1): (1 / 3 + 0.6) / 2,  # 0.4667 Competent
        (1, 0, 2): (1.0 + 0.6 + 0.4 / 3) / 2,  # 0.8667 Expert
        (0, 1, 2): (2 / 3 + 0.6) / 2,  # 0.6333 Proficient
        (1, 1, 1): (2 / 3 + 0.8) / 2,  # 0.7333 Proficient (the assessment)
    }
    ev = Events()
    events = [
        *ev.task("t1", "accepted", complexity=None),
        *ev.task("t2", "rejected", complexity=None),
        *ev.task("t3", "accepted", complexity=None, errors=[{"severity": "major"}]),
    ]
    config = CONFIG.with_overrides(uncertainty_resamples=200, uncertainty_seed=7)
    draws = np.random.default_rng(7).integers(0, 3, size=(200, 3))
    expected = [table[tuple(int((row == i).sum()) for i in range(3))] for row in draws]  # type: ignore[index]
    got = vectorised_composites(events, config)["performance"]
    assert np.allclose(got, expected, rtol=0, atol=1e-12)


# --------------------------------------------------------------------------- properties


@settings(max_examples=20, deadline=None)
@given(task_spec, st.integers(1, 8))
def test_identical_tasks_give_a_degenerate_interval_holding_the_composite(
    spec: dict[str, Any], n: int
) -> None:
    ev = Events()
    events: list[EventRecord] = []
    for i in range(n):
        events += ev.task(
            f"t{i:03d}",
            spec["status"] or "accepted",
            domain=spec["domain"],
            complexity=spec["complexity"],
            errors=[{}] * len(spec["errors"]),
        )
    result = engine.assess(events, CONFIG, WINDOW_END, enforce_minimums=False)
    window = engine.window_evidence(fold_evidence(events), CONFIG, WINDOW_END)
    for axis in ("performance", "capability"):
        observed = result.axis(axis)
        assert observed is not None
        got = unc.assessment_uncertainty(
            window, CONFIG, {axis: {name: d.score for name, d in observed.dimensions.items()}}
        )[axis]
        if observed.composite.score is None:
            assert got["ci"] is None and got["insufficient"] == 1000
            continue
        lo, hi = got["ci"]
        assert lo - 1e-9 <= observed.composite.score <= hi + 1e-9
        assert hi - lo <= 1e-9
        assert got["tier_probabilities"][observed.composite.tier] > 0.99


@settings(max_examples=30, deadline=None)
@given(st.lists(st.one_of(st.none(), st.floats(0.0, 1.0)), min_size=1, max_size=50))
def test_tier_probabilities_sum_to_one(values: list[float | None]) -> None:
    array = np.array([np.nan if v is None else v for v in values])
    for tiers in unc.TIERS_OF_AXIS.values():
        report = unc.interval_report(array, tiers)
        assert math.isclose(math.fsum(report["tier_probabilities"].values()), 1.0, abs_tol=1e-12)
        assert (unc.INSUFFICIENT in report["tier_probabilities"]) == (report["insufficient"] > 0)
        assert list(report["tier_probabilities"])[: len(tiers)] == [t.name for t in tiers]


def test_the_same_seed_gives_identical_results_in_another_process() -> None:
    code = (
        "import json, numpy as np\n"
        "from aaaf.scoring import uncertainty as u\n"
        "from tests.scoring.test_uncertainty import CONFIG, four_task_agent, _report\n"
        "print(json.dumps(_report(four_task_agent(), CONFIG)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert json.loads(done.stdout) == json.loads(json.dumps(_report(four_task_agent(), CONFIG)))
    indices = subprocess.run(
        [
            sys.executable,
            "-c",
            "import numpy as np; print(np.random.default_rng(0).integers(0, 7, size=(1000, 7)).tobytes().hex())",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert indices.stdout.strip() == unc.draw_indices(7, 1000, 0).tobytes().hex()


def _report(events: list[EventRecord], config: AAAFConfig) -> dict[str, Any]:
    result = engine.assess(events, config, WINDOW_END, enforce_minimums=False)
    window = engine.window_evidence(fold_evidence(events), config, WINDOW_END)
    assessed = {
        axis: {name: d.score for name, d in result.axis(axis).dimensions.items()}  # type: ignore[union-attr]
        for axis in ("performance", "capability")
    }
    return unc.assessment_uncertainty(window, config, assessed)


def test_constants_are_the_engines() -> None:
    """The bootstrap's row formulas read the engine's own constants (imported, not copied);
    these two are still copies."""
    assert dict(engine.OUTCOME_VALUES) == resample_arrays._OUTCOME_VALUES
    assert engine.TOOL_WEIGHTS == (0.5, 0.3, 0.2)


@pytest.mark.parametrize("baseline", [0.0, 0.5])
def test_performance_rows_are_the_weighted_means_bit_for_bit(baseline: float) -> None:
    """Each ratio is the sums' quotient where the denominator is > 0 and np.nan's own NaN where
    it is 0, accuracy too (its null carried through, not set again): the floats of
    :func:`aaaf.scoring.resample_arrays.divide`."""
    import dataclasses

    from aaaf.scoring.aaaf_performance import PerformanceRows
    from aaaf.scoring.aaaf_tasks import ACCURACY_ERROR_WEIGHT, ACCURACY_REVISION_WEIGHT, TERMS
    from aaaf.scoring.resample_partitions import scores_of

    rng = np.random.default_rng(3)
    sums = np.asfortranarray(rng.uniform(0.0, 4.0, size=(200, len(TERMS))))
    sums[rng.uniform(size=sums.shape) < 0.2] = 0.0  # empty denominators, some rows
    consistency = rng.uniform(size=200)
    config = dataclasses.replace(CONFIG, baseline_errors_per_task=baseline)
    got = scores_of(sums, consistency, config)
    at = {name: j for j, name in enumerate(TERMS)}

    def ratio(numerator: str, denominator: str) -> np.ndarray:
        return resample_arrays.divide(sums[:, at[numerator]], sums[:, at[denominator]])

    revised, errors = (
        ratio("revised_weight", "completed_weight"),
        ratio("weighted_errors", "completed_weight"),
    )
    load = np.where(errors > 0.0, 1.0, 0.0) if baseline <= 0.0 else np.minimum(1.0, errors / baseline)
    accuracy = ACCURACY_REVISION_WEIGHT * (1.0 - revised) + ACCURACY_ERROR_WEIGHT * (1.0 - load)
    want = {
        "task_completion_rate": ratio("weighted_credit", "weight"),
        "accuracy": np.where(np.isnan(revised), np.nan, accuracy),
        "speed": ratio("weighted_speed", "speed_weight"),
        "consistency": consistency,
        "review_compliance": ratio("weighted_review", "review_weight"),
    }
    assert np.isnan(want["accuracy"]).any() and not np.isnan(want["accuracy"]).all()
    assert {name: got[name].tobytes() for name in want} == {name: want[name].tobytes() for name in want}
    rows = PerformanceRows(sums, consistency, config)
    assert rows.positive("weight").tobytes() == np.where(sums[:, 0] > 0.0, sums[:, 0], np.nan).tobytes()
