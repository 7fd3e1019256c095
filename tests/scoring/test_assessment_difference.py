"""The gate's difference of two assessments (aaaf.scoring.assessment_difference): its observed
value is the difference of the assessments' own scores, a pairing by stress task id
resamples both sides' tasks together, and what cannot be paired is left out and named."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from aaaf.scoring import aaaf as aaaf_scheme
from aaaf.scoring.assessment_difference import Side, assessment_difference
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.records import EventRecord
from aaaf.scoring.task_flips import task_flips
from tests.scoring.factories import WINDOW_END, Events

CONFIG = AAAFConfig().with_overrides(min_tasks_performance=5, min_tasks_capability=5)
DOMAINS = ("code", "research", "analysis", "legal")


def _run(
    prefix: str, statuses: list[str], tasks: list[str] | None = None
) -> tuple[list[EventRecord], dict[str, str]]:
    """One stress run's evidence: task k in domain k % 4 at level k % 3 + 1, with its status."""
    ev = Events()
    events: list[EventRecord] = []
    keys: dict[str, str] = {}
    for k, status in enumerate(statuses):
        key = (tasks or [f"task-{i:02d}" for i in range(len(statuses))])[k]
        task = f"stress-{prefix}-{key}"
        keys[task] = key
        mark: dict[str, Any] = {"stress_task_id": key, "evidence_source": "stress_test"}
        events.append(ev.assigned(task, domain=DOMAINS[k % 4], complexity=k % 3 + 1, autonomy=k % 2, **mark))
        extra: dict[str, Any] = (
            {"milestones": [{"name": "m", "passed": status != "rejected"}]} if status == "partial" else {}
        )
        events.append(ev.completed(task, status, seconds=300.0 + 10 * k, **extra, **mark))
        events.append(ev.tool(task, "bash", success=status != "rejected"))
    return events, keys


def _side(events: list[EventRecord], keys: dict[str, str] | None) -> tuple[Side, Any]:
    result = aaaf_scheme.assess(events, CONFIG, WINDOW_END, uncertainty=False)
    assessed = {
        axis.axis: {name: dim.score for name, dim in axis.dimensions.items()}
        for axis in (result.performance, result.capability)
        if axis is not None
    }
    return Side(events, CONFIG, WINDOW_END, assessed, keys), result


def _statuses(n: int, rng: np.random.Generator, wrong: float) -> list[str]:
    return ["rejected" if rng.random() < wrong else "accepted" for _ in range(n)]


def test_the_observed_difference_is_the_assessments_own_and_pairs_by_stress_task() -> None:
    rng = np.random.default_rng(0)
    base_events, base_keys = _run("A", _statuses(40, rng, 0.15))
    cand_events, cand_keys = _run("B", _statuses(40, rng, 0.3))
    baseline, base_result = _side(base_events, base_keys)
    candidate, cand_result = _side(cand_events, cand_keys)
    difference = assessment_difference(baseline, candidate, resamples=300, seed=0)
    assert difference.paired and difference.n_paired == 40 and difference.resamples == 300
    for axis in ("performance", "capability"):
        b, c = base_result.axis(axis), cand_result.axis(axis)
        assert math.isclose(
            difference.observed[axis] or 0.0, c.composite.score - b.composite.score, abs_tol=1e-9
        )
        assert difference.resampled[axis].shape == (300,)
        for name, dim in c.dimensions.items():
            before = b.dimensions[name].score
            if dim.score is None or before is None:
                assert difference.observed[f"{axis}.{name}"] is None
            else:
                assert math.isclose(
                    difference.observed[f"{axis}.{name}"] or 0.0, dim.score - before, abs_tol=1e-9
                )
    statuses = {t.key: (t.baseline_status, t.candidate_status) for t in difference.tasks}
    assert len(statuses) == 40 and all(
        s in ("accepted", "rejected") for pair in statuses.values() for s in pair
    )


def test_identical_runs_differ_by_exactly_zero_in_every_paired_resample() -> None:
    statuses = _statuses(30, np.random.default_rng(1), 0.2)
    baseline, _ = _side(*_run("A", statuses))
    candidate, _ = _side(*_run("B", statuses))
    paired = assessment_difference(baseline, candidate, resamples=200, seed=3)
    assert paired.paired
    for name, values in paired.resampled.items():
        defined = values[~np.isnan(values)]
        assert np.all(np.abs(defined) < 1e-12), name
    assert not task_flips(paired.tasks).flips
    # without the pairing the same two runs are resampled independently: the noise is back
    independent = assessment_difference(
        Side(baseline.events, CONFIG, WINDOW_END, baseline.assessed, None), candidate, resamples=200, seed=3
    )
    assert not independent.paired and independent.n_paired == 0
    assert float(np.nanstd(independent.resampled["performance"])) > 0.005


def test_tasks_of_one_side_only_are_left_out_and_named() -> None:
    names = [f"task-{i:02d}" for i in range(12)]
    baseline, _ = _side(*_run("A", ["accepted"] * 12, names))
    candidate, _ = _side(*_run("B", ["accepted"] * 10 + ["rejected"] * 2, [*names[:10], "new-1", "new-2"]))
    difference = assessment_difference(baseline, candidate, resamples=100, seed=0)
    assert difference.paired and difference.n_paired == 10
    assert difference.baseline_only == ("task-10", "task-11")
    assert difference.candidate_only == ("new-1", "new-2")
    # on the ten shared tasks both sides accepted everything: nothing moved
    assert difference.observed["performance"] == pytest.approx(0.0, abs=1e-12)
    # a task run twice on one side cannot be paired
    twice = Side(
        candidate.events, CONFIG, WINDOW_END, candidate.assessed, dict.fromkeys(candidate.keys or {}, "same")
    )
    assert not assessment_difference(baseline, twice, resamples=50, seed=0).paired


def test_flips_are_grouped_and_tested() -> None:
    base = ["accepted"] * 20
    cand = ["rejected" if k % 4 == 0 else "accepted" for k in range(20)]  # every code task lost
    cand[1] = "accepted"
    baseline, _ = _side(*_run("A", base))
    candidate, _ = _side(*_run("B", cand))
    flips = task_flips(
        assessment_difference(baseline, candidate, resamples=50, seed=0).tasks, {"task-00": "probe"}
    )
    assert [f.key for f in flips.lost] == ["task-00", "task-04", "task-08", "task-12", "task-16"]
    assert flips.groups[0].domain == "code" and flips.groups[0].task_type is None
    assert {(g.domain, g.task_type) for g in flips.groups} == {("code", "probe"), ("code", None)}
    code = next(d for d in flips.domains if d.domain == "code")
    assert (code.test.lost, code.test.gained, code.paired) == (5, 0, 5)
    assert flips.test.p_value == pytest.approx(2 * 0.5**5)
    assert flips.accepted_baseline == 20 and flips.accepted_candidate == 15
