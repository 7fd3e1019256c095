"""Each task's contribution to a dimension (aaaf.scoring.explain), worked by hand.

Four tasks, complexity 2 (speed baseline 3 600 s), default config:

    task  status    credit  seconds  speed_i  age  w
    t1    accepted  1.0       600    1.0       0   1.0
    t2    partial   0.5      5400    0.5       0   1.0   (milestone_fraction 0.5; checklist 2/4)
    t3    rejected  0.0        —      —       10   0.8   (not completed: no speed)
    t4    accepted  1.0      7200    0.0      10   0.8

task_completion_rate = (1 + 0.5 + 0 + 0.8) / 3.6 = 2.3 / 3.6
    without t1: 1.3 / 2.6 = 0.5          change = 2.3/3.6 − 0.5
    without t2: 1.8 / 2.6                change = 2.3/3.6 − 1.8/2.6   (< 0: t2 lowered it)
    without t3: 2.3 / 2.8                change = 2.3/3.6 − 2.3/2.8   (< 0, the most)
    without t4: 1.5 / 2.8                change = 2.3/3.6 − 1.5/2.8
    pull(t3) = 0.8 (0 − 2.3/3.6) / 3.6;  change(t3) = pull(t3) · 3.6 / 2.8
speed = (1.0 + 0.5 + 0.8·0) / 2.8 = 1.5 / 2.8
    without t1: 0.5 / 1.8; without t2: 1.0 / 1.8; without t4: 1.5 / 2.0; t3 moves nothing
review_compliance = 0.5 (t2 alone has a checklist); without t2 there is no score.
accuracy = 1 for every subset (no revision, no error): no task moves it.
"""

from __future__ import annotations

import pytest

from aaaf.scoring import aaaf as engine
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.explain import explain_dimensions
from tests.scoring.factories import WINDOW_END, Events

CONFIG = AAAFConfig()


def four_tasks() -> list:
    ev = Events()
    return [
        *ev.task("t1", "accepted", seconds=600),
        *ev.task(
            "t2",
            "partial",
            seconds=5400,
            milestone_fraction=0.5,
            review_checklist={"memory_search_performed": True, "output_format_correct": True},
        ),
        *ev.task("t3", "rejected", days_ago=10, seconds=600),
        *ev.task("t4", "accepted", days_ago=10, seconds=7200),
    ]


def changes(explanation) -> dict[str, float | None]:
    return {c.task_id: c.change for c in explanation.contributions}


def test_task_completion_rate_leave_one_out_and_exact_pull() -> None:
    (tcr,) = explain_dimensions(four_tasks(), CONFIG, WINDOW_END, ["task_completion_rate"]).values()
    m = 2.3 / 3.6
    assert tcr.score == pytest.approx(m, abs=1e-12)
    assert tcr.tasks_examined == 4
    assert changes(tcr) == pytest.approx(
        {"t1": m - 0.5, "t2": m - 1.8 / 2.6, "t3": m - 2.3 / 2.8, "t4": m - 1.5 / 2.8}, abs=1e-12
    )
    # the tasks that lowered it, most lowering first
    assert [c.task_id for c in tcr.lowered()] == ["t3", "t2"]
    t3 = tcr.lowered()[0]
    assert (t3.value, t3.weight) == (0.0, 0.8)
    assert t3.pull == pytest.approx(0.8 * (0.0 - m) / 3.6, abs=1e-12)
    assert t3.change == pytest.approx(t3.pull * 3.6 / 2.8, abs=1e-12)
    # the pulls of a mean sum to zero
    assert sum(c.pull for c in tcr.contributions) == pytest.approx(0.0, abs=1e-12)
    assert tcr.to_dict(top=1)["lowered_by"] == [
        {
            "task_id": "t3",
            "without": t3.without,
            "change": t3.change,
            "value": 0.0,
            "weight": 0.8,
            "pull": t3.pull,
        }
    ]
    assert tcr.to_dict(top=1)["tasks_lowering"] == 2


def test_speed_skips_tasks_that_do_not_move_it() -> None:
    (speed,) = explain_dimensions(four_tasks(), CONFIG, WINDOW_END, ["speed"]).values()
    m = 1.5 / 2.8
    assert speed.score == pytest.approx(m, abs=1e-12)
    assert changes(speed) == pytest.approx(
        {"t1": m - 0.5 / 1.8, "t2": m - 1.0 / 1.8, "t4": m - 0.75}, abs=1e-12
    )
    assert [c.task_id for c in speed.lowered()] == ["t4", "t2"]


def test_a_task_without_which_there_is_no_score_is_listed_last_and_not_as_lowering() -> None:
    result = explain_dimensions(four_tasks(), CONFIG, WINDOW_END, ["review_compliance", "accuracy"])
    review, accuracy = result["review_compliance"], result["accuracy"]
    assert review.score == 0.5
    assert [(c.task_id, c.without, c.change) for c in review.contributions] == [("t2", None, None)]
    assert review.lowered() == []
    assert accuracy.score == 1.0 and accuracy.contributions == ()


def test_a_threshold_dimension_through_the_engine() -> None:
    """complexity_ceiling: four level-3 tasks, three accepted and one failed.  perf at L3 =
    (0.25·0.75 + 0.25·1 + 0.15·1) / 0.65 ≥ 0.60 → ceiling 3/5.  Without an accepted task only 2
    completed remain at L3 (< 3): ceiling 0, change +0.6.  Without the failed one perf is 1.0:
    ceiling still 0.6, no change.  Nothing lowered it."""
    ev = Events()
    events = [
        *ev.task("a", complexity=3),
        *ev.task("b", complexity=3),
        *ev.task("c", complexity=3),
        *ev.task("f", "failed", complexity=3),
    ]
    (ceiling,) = explain_dimensions(events, CONFIG, WINDOW_END, ["complexity_ceiling"]).values()
    assert ceiling.score == pytest.approx(0.6)
    assert changes(ceiling) == {"a": 0.6, "b": 0.6, "c": 0.6}
    assert ceiling.lowered() == []


def test_the_recomputed_scores_are_the_engines_and_exclusions_are_honoured() -> None:
    events = four_tasks()
    assessed = engine.assess(events, CONFIG, WINDOW_END, enforce_minimums=False)
    names = list(engine.DIMENSIONS)
    explained = explain_dimensions(events, CONFIG, WINDOW_END, names)
    for name in names:
        axis = assessed.axis(engine.AXIS_OF[name])
        assert axis is not None
        assert explained[name].score == axis.dimensions[name].score, name
    # an appeal left t3 out of task_completion_rate: recomputed without it, and t3 is no candidate
    (tcr,) = explain_dimensions(
        events, CONFIG, WINDOW_END, ["task_completion_rate"], {"task_completion_rate": frozenset({"t3"})}
    ).values()
    assert tcr.score == pytest.approx(2.3 / 2.8, abs=1e-12)
    assert tcr.tasks_examined == 3 and "t3" not in changes(tcr)
    assert tcr.excluded_tasks == ("t3",)


def test_unknown_dimension_is_refused() -> None:
    with pytest.raises(ValueError, match="charisma"):
        explain_dimensions(four_tasks(), CONFIG, WINDOW_END, ["charisma"])
