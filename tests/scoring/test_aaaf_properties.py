"""Invariants of the AAAF scheme, checked with hypothesis (SCORING.md §0, §2)."""

from __future__ import annotations

import math
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aaaf.scoring.aaaf import assess, axis_result, performance_dimensions
from aaaf.scoring.core import DimensionResult, renormalised_weights
from aaaf.scoring.defaults import AXES, AAAFConfig
from aaaf.scoring.records import EventRecord
from tests.scoring.factories import WINDOW_END, Events

CONFIG = AAAFConfig()
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

score_or_null = st.one_of(st.none(), st.floats(min_value=0.0, max_value=1.0))


@st.composite
def axis_scores(draw: st.DrawFn) -> tuple[str, dict[str, float | None]]:
    axis = draw(st.sampled_from(sorted(AXES)))
    return axis, {name: draw(score_or_null) for name in AXES[axis]}


@given(axis_scores())
def test_covered_weights_renormalise_to_one(case: tuple[str, dict[str, float | None]]) -> None:
    axis, scores = case
    used = renormalised_weights(scores, CONFIG.weights(axis))
    covered = {name for name, value in scores.items() if value is not None}
    assert set(used) == covered
    if covered:
        assert math.isclose(math.fsum(used.values()), 1.0, abs_tol=1e-12)


@given(axis_scores())
def test_composite_lies_between_lowest_and_highest_covered_dimension(
    case: tuple[str, dict[str, float | None]],
) -> None:
    axis, scores = case
    dims = {name: DimensionResult(name, value, 1, 1) for name, value in scores.items()}
    result = axis_result(axis, dims, CONFIG).composite
    covered = [v for v in scores.values() if v is not None]
    assert result.covered == len(covered) and result.total == len(scores)
    if not covered:
        assert result.score is None and result.tier is None
    else:
        assert result.score is not None
        assert min(covered) - 1e-12 <= result.score <= max(covered) + 1e-12


task_spec = st.fixed_dictionaries(
    {
        "status": st.sampled_from(["accepted", "accepted", "partial", "rejected", "failed", None]),
        "days_ago": st.floats(min_value=0.0, max_value=32.0),
        "domain": st.sampled_from(["code", "research", "security", None]),
        "complexity": st.one_of(st.none(), st.integers(1, 5)),
        "autonomy": st.one_of(st.none(), st.integers(0, 3)),
        "fraction": st.floats(min_value=0.0, max_value=1.0),
        "revision_count": st.integers(0, 2),
        "errors": st.lists(st.sampled_from(["critical", "major", "minor", None]), max_size=3),
        "revisions": st.lists(st.sampled_from(["critical", "major", "minor"]), max_size=2),
        "seconds": st.floats(min_value=0.0, max_value=200_000.0),
        "tools": st.lists(
            st.tuples(st.sampled_from(["grep", "bash"]), st.booleans(), st.booleans()), max_size=12
        ),
        "decisions": st.lists(
            st.tuples(st.sampled_from(["self", "delegate"]), st.sampled_from(["self", "delegate"])),
            max_size=2,
        ),
        "checklist": st.one_of(
            st.none(),
            st.dictionaries(st.sampled_from(["memory_written", "output_format_correct"]), st.booleans()),
        ),
    }
)


def build_events(specs: list[dict[str, Any]]) -> list[EventRecord]:
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
            errors = [{} if severity is None else {"severity": severity} for severity in spec["errors"]]
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
        events += [ev.revised(task_id, code, days_ago=days) for code in spec["revisions"]]
        events += [
            ev.tool(task_id, tool, success=ok, recovered=rec, days_ago=days)
            for tool, ok, rec in spec["tools"]
        ]
        events += [
            ev.decision(task_id, d, g, delegate_to="x" if d == "delegate" else None)
            for d, g in spec["decisions"]
        ]
    return events


@SETTINGS
@given(st.lists(task_spec, min_size=1, max_size=25), st.randoms(use_true_random=False))
def test_results_do_not_depend_on_event_order(specs: list[dict[str, Any]], rng: random.Random) -> None:
    events = build_events(specs)
    shuffled = events[:]
    rng.shuffle(shuffled)
    first = assess(events, CONFIG, WINDOW_END, enforce_minimums=False)
    second = assess(shuffled, CONFIG, WINDOW_END, enforce_minimums=False)
    assert first.to_dict() == second.to_dict()
    assert first.event_ids == second.event_ids


@SETTINGS
@given(st.lists(task_spec, min_size=1, max_size=25), st.data())
def test_adding_a_revision_or_an_error_never_raises_accuracy(
    specs: list[dict[str, Any]], data: st.DataObject
) -> None:
    events = build_events(specs)
    before = performance_dimensions(events, CONFIG, WINDOW_END)["accuracy"].score
    index = data.draw(st.integers(0, len(specs) - 1))
    severity = data.draw(st.sampled_from(["critical", "major", "minor", None]))
    if data.draw(st.booleans()):
        # a task_revised event for one task
        ev = Events()
        ev._counter = 10_000  # ids distinct from build_events'
        changed = [*events, ev.revised(f"t{index:03d}", severity)]
    else:
        # one more error on one task's completion
        specs = [dict(spec) for spec in specs]
        specs[index]["errors"] = [*specs[index]["errors"], severity]
        changed = build_events(specs)
    after = performance_dimensions(changed, CONFIG, WINDOW_END)["accuracy"].score
    if before is None:
        assert after is None
    else:
        assert after is not None and after <= before


@SETTINGS
@given(st.lists(task_spec, min_size=1, max_size=25))
def test_every_score_is_in_the_unit_interval_or_null(specs: list[dict[str, Any]]) -> None:
    result = assess(build_events(specs), CONFIG, WINDOW_END, enforce_minimums=False)
    for axis in (result.performance, result.capability):
        assert axis is not None
        for dim in axis.dimensions.values():
            assert dim.score is None or 0.0 <= dim.score <= 1.0, dim
            assert dim.evidence_count == len(dim.event_ids)
            if dim.score is None:
                assert dim.reason
        if axis.composite.score is not None:
            assert 0.0 <= axis.composite.score <= 1.0
