"""A first end-to-end check of the AAAF scheme on a small hand-made log."""

from __future__ import annotations

import pytest

from aaaf.errors import AAAFError
from aaaf.scoring.aaaf import assess
from aaaf.scoring.defaults import AAAFConfig
from tests.scoring.factories import WINDOW_END, Events


def test_thirty_accepted_tasks_score_both_axes() -> None:
    ev = Events()
    events = [e for i in range(30) for e in ev.task(f"t{i:02d}", days_ago=1)]
    result = assess(events, AAAFConfig(), WINDOW_END)
    assert result.performance is not None and result.capability is not None
    # every task accepted → credit 1 each → task_completion_rate = 30/30 = 1.0
    assert result.performance.dimensions["task_completion_rate"].score == 1.0
    assert result.evidence_summary["window_tasks"] == 30


def test_nineteen_tasks_are_insufficient() -> None:
    ev = Events()
    events = [e for i in range(19) for e in ev.task(f"t{i:02d}", days_ago=1)]
    with pytest.raises(AAAFError) as caught:
        assess(events, AAAFConfig(), WINDOW_END)
    assert caught.value.code == "INSUFFICIENT_EVIDENCE"
    assert caught.value.message.startswith("Agent has 19 tasks in assessment window. Minimum required: 20.")
