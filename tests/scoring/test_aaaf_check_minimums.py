"""``check_minimums``: the trigger's early 422 says exactly what ``assess`` would (SCORING.md §2.1, §7),
from the events that place tasks alone."""

from __future__ import annotations

from datetime import timedelta

import pytest

from aaaf.errors import AAAFError
from aaaf.scoring.aaaf import assess, check_minimums
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.fold import PLACING_EVENT_TYPES
from aaaf.scoring.records import EventRecord
from tests.scoring.factories import WINDOW_END, Events
from tests.scoring.test_aaaf_window import accepted_tasks

# performance needs 2 tasks, capability 3: the axes' minimums differ, so each is seen
CONFIG = AAAFConfig().with_overrides(min_tasks_performance=2, min_tasks_capability=3)


@pytest.mark.parametrize(
    ("tasks", "kind", "dimension", "refused_axis"),
    [
        (1, "full", None, "performance"),  # below both: the performance axis is named
        (2, "full", None, "capability"),  # 2 ≥ 2 but 2 < 3
        (3, "full", None, None),
        (2, "passive_only", None, "capability"),
        (2, "single_dimension", "speed", None),  # a performance dimension needs only 2
        (2, "single_dimension", "domain_breadth", "capability"),
        (3, "single_dimension", "domain_breadth", None),
    ],
)
def test_check_minimums_refuses_exactly_when_assess_would(
    tasks: int, kind: str, dimension: str | None, refused_axis: str | None
) -> None:
    events = accepted_tasks(tasks)
    if refused_axis is None:
        check_minimums(events, CONFIG, WINDOW_END, assessment_type=kind, dimension=dimension)
        assess(events, CONFIG, WINDOW_END, assessment_type=kind, dimension=dimension)
        return
    with pytest.raises(AAAFError) as early:
        check_minimums(events, CONFIG, WINDOW_END, assessment_type=kind, dimension=dimension)
    with pytest.raises(AAAFError) as late:
        assess(events, CONFIG, WINDOW_END, assessment_type=kind, dimension=dimension)
    assert early.value.code == "INSUFFICIENT_EVIDENCE"
    assert early.value.details["axis"] == refused_axis
    assert early.value.to_dict() == late.value.to_dict()


def _edge_fleet(ev: Events, placed_inside: int) -> list[EventRecord]:
    """``placed_inside`` tasks the window holds, beside every kind of task and evidence that
    must not count: placed outside by a later completion or an old ``assigned_at``, tasks with
    evidence but neither assignment nor completion, a completion re-sent, unattached evidence."""
    events = accepted_tasks(placed_inside, ev, days_ago=2)
    events += [
        ev.assigned("late", days_ago=5),  # assigned inside, completed after the window's end
        ev.completed("late", timestamp=WINDOW_END + timedelta(days=1)),
        ev.assigned("old", days_ago=1, assigned_days_ago=45),  # sent now, assigned long ago
        ev.assigned("open", days_ago=1),  # assigned inside, not completed: placed by its assignment
        ev.tool("tools-only", "grep", days_ago=1),  # a task id without assignment or completion
        ev.revised("revised-only", days_ago=1),
        ev.decision("decided-only", "self", "self", days_ago=1),
        ev.tool(None, "ls", days_ago=1),  # unattached
        *ev.task("twice", days_ago=60),  # completed outside, then again inside: the latest counts
        ev.completed("twice", days_ago=1),
        *ev.task("gone", days_ago=3),  # completed inside, then again outside: the latest counts
        ev.completed("gone", timestamp=WINDOW_END + timedelta(hours=1)),
    ]
    return events


@pytest.mark.parametrize("placed_inside", [0, 1, 2])
@pytest.mark.parametrize(
    ("kind", "dimension"),
    [
        ("full", None),
        ("passive_only", None),
        ("single_dimension", "speed"),
        ("single_dimension", "domain_breadth"),
    ],
)
def test_the_placing_events_alone_give_the_same_answer(
    placed_inside: int, kind: str, dimension: str | None
) -> None:
    # a trigger reads only PLACING_EVENT_TYPES for its check (services.assessment_jobs)
    events = _edge_fleet(Events(), placed_inside)
    placing = [e for e in events if e.type in PLACING_EVENT_TYPES]
    assert len(placing) < len(events)

    def outcome(given: list[EventRecord]) -> dict[str, object] | None:
        try:
            check_minimums(given, CONFIG, WINDOW_END, assessment_type=kind, dimension=dimension)
        except AAAFError as refused:
            return refused.to_dict()
        return None

    expected = outcome(events)
    assert outcome(placing) == expected
    # "twice" and "open" are in, "gone", "late" and "old" out: placed_inside + 2 in the window
    refused = expected is not None
    needed = 2 if dimension == "speed" else 3
    assert refused == (placed_inside + 2 < needed)
    if refused:
        assert expected["error"]["details"]["current_count"] == placed_inside + 2  # type: ignore[index]
