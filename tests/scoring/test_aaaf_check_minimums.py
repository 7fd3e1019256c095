"""``check_minimums``: the trigger's early 422 says exactly what ``assess`` would (SCORING.md §2.1, §7)."""

from __future__ import annotations

import pytest

from aaaf.errors import AAAFError
from aaaf.scoring.aaaf import assess, check_minimums
from aaaf.scoring.defaults import AAAFConfig
from tests.scoring.factories import WINDOW_END
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
