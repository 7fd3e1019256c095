"""Appeals re-score only the challenged dimensions (SCORING.md §2.4, document 004 §5.4)."""

from __future__ import annotations

import json

import pytest

from aaaf.errors import AAAFError
from aaaf.scoring.aaaf import assess, rescore_after_appeal
from aaaf.scoring.core import composite
from aaaf.scoring.defaults import CAPABILITY_TIERS, PERFORMANCE_TIERS, AAAFConfig
from aaaf.scoring.records import EventRecord
from aaaf.scoring.results import AAAFResult
from tests.scoring.factories import WINDOW_END, Events

CONFIG = AAAFConfig()


def appeal_events() -> list[EventRecord]:
    """30 accepted L2 tasks today in two domains; t000 and t001 revised for a minor reason."""
    ev = Events()
    events: list[EventRecord] = []
    for i in range(30):
        domain = "code" if i % 2 else "research"
        events += ev.task(f"t{i:03d}", domain=domain, complexity=2, seconds=1800 + 100 * i, autonomy=1)
    events += [ev.revised("t000", "minor"), ev.revised("t001", "minor")]
    events += [ev.tool("t002", "grep", success=i % 3 > 0) for i in range(12)]
    return events


def test_challenged_dimension_changes_as_hand_computed_and_the_rest_stay_bit_identical() -> None:
    events = appeal_events()
    previous = assess(events, CONFIG, WINDOW_END)
    assert previous.performance is not None and previous.capability is not None
    before = previous.performance.dimensions["accuracy"].score
    # 30 tasks, weight 1 each: revised share 2/30, werr per task (0.5 + 0.5)/30
    # 0.6·(28/30) + 0.4·(1 − 1/30) = 28.4 / 30
    assert before == pytest.approx(28.4 / 30)

    after = rescore_after_appeal(previous, events, CONFIG, WINDOW_END, ["accuracy"], frozenset({"t000"}))
    assert after.performance is not None and after.capability is not None
    # without t000: 29 tasks, 1 revised with werr 0.5 → 0.6·(28/29) + 0.4·(1 − 0.5/29) = 28.2 / 29
    assert after.performance.dimensions["accuracy"].score == pytest.approx(28.2 / 29)

    for axis_name in ("performance", "capability"):
        old_axis, new_axis = previous.axis(axis_name), after.axis(axis_name)
        assert old_axis is not None and new_axis is not None
        for name, old in old_axis.dimensions.items():
            if name == "accuracy":
                continue
            new = new_axis.dimensions[name]
            assert new is old
            assert (new.score is None) == (old.score is None)
            if old.score is not None and new.score is not None:
                assert new.score.hex() == old.score.hex()

    # the composite is recomputed from the mixed set of dimension scores
    mixed = {name: d.score for name, d in after.performance.dimensions.items()}
    expected = composite(mixed, CONFIG.performance_weights, PERFORMANCE_TIERS)
    assert after.performance.composite == expected
    assert after.performance.composite.score != previous.performance.composite.score
    assert after.capability.composite == composite(
        {name: d.score for name, d in previous.capability.dimensions.items()},
        CONFIG.capability_weights,
        CAPABILITY_TIERS,
    )
    assert after.evidence_summary["appeal"] == {
        "challenged": ["accuracy"],
        "excluded_tasks": ["t000"],
        "window_tasks_after_exclusion": 29,
    }


def test_rescore_from_the_stored_result_keeps_unchallenged_scores_bit_identical() -> None:
    events = appeal_events()
    original = assess(events, CONFIG, WINDOW_END)
    stored = json.loads(json.dumps(original.to_dict()))  # what the store keeps
    previous = AAAFResult.from_dict(stored)
    after = rescore_after_appeal(
        previous, events, CONFIG, WINDOW_END, ["tool_proficiency", "accuracy"], frozenset({"t002", "t000"})
    )
    assert after.performance is not None and after.capability is not None
    assert original.performance is not None and original.capability is not None
    # t002 carried every grep invocation: without it no tool reaches 10 invocations
    assert after.capability.dimensions["tool_proficiency"].score is None
    for axis_name in ("performance", "capability"):
        old_axis, new_axis = original.axis(axis_name), after.axis(axis_name)
        assert old_axis is not None and new_axis is not None
        for name, old in old_axis.dimensions.items():
            if name in ("tool_proficiency", "accuracy"):
                continue
            new_score = new_axis.dimensions[name].score
            assert (new_score is None) == (old.score is None)
            if old.score is not None and new_score is not None:
                assert new_score.hex() == old.score.hex()
            assert json.dumps(new_axis.dimensions[name].to_dict()) == json.dumps(old.to_dict())


def test_minimums_are_waived_when_re_scoring() -> None:
    events = appeal_events()
    previous = assess(events, CONFIG, WINDOW_END)
    excluded = frozenset(f"t{i:03d}" for i in range(15))  # 15 of 30 tasks left: below both minimums
    after = rescore_after_appeal(previous, events, CONFIG, WINDOW_END, ["task_completion_rate"], excluded)
    assert after.performance is not None
    assert after.performance.dimensions["task_completion_rate"].sample_size == 15


def test_appeal_of_a_single_dimension_assessment() -> None:
    events = appeal_events()
    previous = assess(events, CONFIG, WINDOW_END, assessment_type="single_dimension", dimension="accuracy")
    after = rescore_after_appeal(
        previous, events, CONFIG, WINDOW_END, ["accuracy"], frozenset({"t000", "t001"})
    )
    assert after.performance is not None and after.capability is None
    assert after.performance.dimensions["accuracy"].score == 1.0
    assert after.performance.composite.score is None
    with pytest.raises(AAAFError) as caught:
        rescore_after_appeal(previous, events, CONFIG, WINDOW_END, ["speed"], frozenset({"t000"}))
    assert caught.value.code == "APPEAL_NOT_ALLOWED"


@pytest.mark.parametrize("challenged", [[], ["charisma"]])
def test_appeal_must_name_assessed_dimensions(challenged: list[str]) -> None:
    events = appeal_events()
    previous = assess(events, CONFIG, WINDOW_END)
    with pytest.raises(AAAFError) as caught:
        rescore_after_appeal(previous, events, CONFIG, WINDOW_END, challenged, frozenset({"t000"}))
    assert caught.value.code == "APPEAL_NOT_ALLOWED"
    assert caught.value.http_status == 422
