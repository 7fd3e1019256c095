"""Provenance of evidence in the pure core (docs/stress-tests.md "Provenance"): what each assessment
type scores and the figures an assessment records, computed by hand on a small agent.

The agent's six tasks, each a ``task_assigned`` and a ``task_completed`` inside the window:

* ``s1``, ``s2``: marked ``stress_test`` by run ``R``, a stored harness run of the agent;
* ``s3``: marked by ``R`` too, plus an unmarked ``tool_invoked`` the organization sent naming it;
* ``f``: marked ``stress_test`` by run ``X``, which is no stored run (forged);
* ``i``: ``reported_stress_test`` of run ``I``, an imported inspect log;
* ``p``: plain, unmarked.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from aaaf.errors import AAAFError
from aaaf.scoring import aaaf as aaaf_scheme
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.evidence_sources import (
    NOT_RECORDED,
    evidence_for,
    evidence_sources,
    is_stress_tested,
    provenance_lines,
    recorded_sources,
    require_stress_evidence,
)
from aaaf.scoring.records import EventRecord

END = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
HARNESS = frozenset({"R"})
IMPORTED = frozenset({"I"})
CONFIG = AAAFConfig().with_overrides(min_tasks_performance=1, min_tasks_capability=1, uncertainty_resamples=0)


def _task(task: str, hours: int, **marks: Any) -> list[EventRecord]:
    completed = END - timedelta(hours=hours)
    assigned = completed - timedelta(minutes=30)
    return [
        EventRecord(
            f"{task}-a",
            "agent",
            "task_assigned",
            assigned,
            {
                "task_id": task,
                "complexity_level": 2,
                "domain": "code",
                "assigned_at": assigned.isoformat(),
                **marks,
            },
            task,
        ),
        EventRecord(
            f"{task}-c",
            "agent",
            "task_completed",
            completed,
            {
                "task_id": task,
                "completion_status": "accepted",
                "time_to_complete_seconds": 1800.0,
                "revision_count": 0,
                "errors": [],
                **marks,
            },
            task,
        ),
    ]


def _events() -> list[EventRecord]:
    harness = {"evidence_source": "stress_test", "stress_run_id": "R"}
    tool = EventRecord(
        "s3-tool",
        "agent",
        "tool_invoked",
        END - timedelta(hours=3),
        {"task_id": "s3", "tool": "search", "success": True, "unnecessary": False, "error_recovered": False},
        "s3",
    )
    return [
        *_task("s1", 1, **harness),
        *_task("s2", 2, **harness),
        *_task("s3", 3, **harness),
        tool,
        *_task("f", 4, evidence_source="stress_test", stress_run_id="X"),
        *_task("i", 5, evidence_source="reported_stress_test", stress_run_id="I"),
        *_task("p", 6),
    ]


def test_only_a_stored_harness_run_makes_evidence_stress_tested() -> None:
    events = _events()
    tested = [e.id for e in events if is_stress_tested(e, HARNESS)]
    assert tested == ["s1-a", "s1-c", "s2-a", "s2-c", "s3-a", "s3-c"]
    assert [e.id for e in evidence_for(events, "stress_test_only", harness_runs=HARNESS)] == tested
    passive = [e.id for e in evidence_for(events, "passive_only", harness_runs=HARNESS)]
    assert passive == ["s3-tool", "f-a", "f-c", "i-a", "i-c", "p-a", "p-c"]  # forged and imported: reported
    assert len(evidence_for(events, "full", harness_runs=HARNESS)) == 13
    # without a stored run behind them, none is stress-tested
    assert evidence_for(events, "stress_test_only", harness_runs=frozenset()) == []
    assert len(evidence_for(events, "passive_only", harness_runs=frozenset())) == 13


def test_stress_test_only_without_a_harness_run_is_refused_naming_the_reported_claims() -> None:
    events = _events()
    require_stress_evidence(events, "stress_test_only", "agent", harness_runs=HARNESS)  # fine
    require_stress_evidence(events, "full", "agent", harness_runs=frozenset())  # not its concern
    with pytest.raises(AAAFError) as refused:
        require_stress_evidence(events, "stress_test_only", "agent", harness_runs=frozenset({"other"}))
    assert refused.value.code == "INSUFFICIENT_EVIDENCE"
    # s1-s3's 6 events, f's 2 and i's 2 claim a stress test; none is backed by a harness run
    assert refused.value.details["reported_stress_events"] == 10
    assert "10 event(s) from stress tests this installation did not run" in refused.value.message


def test_the_recorded_figures_per_axis() -> None:
    events = _events()
    result = aaaf_scheme.assess(events, CONFIG, END, assessment_type="full")
    sources = recorded_sources(
        events, END - timedelta(days=30), END, result=result, harness_runs=HARNESS, imported_runs=IMPORTED
    )
    assert sources["passive_events"] == 7 and sources["stress_test_events"] == 6
    assert sources["stress_runs"] == ["R"] and sources["reported_stress_runs"] == ["I"]
    assert sources["reported_stress_events"] == 4  # f's and i's; s3's tool event claims nothing
    # six tasks behind each axis; s1 and s2 stress-tested, s3 mixes an organization's event: reported
    for axis in ("performance", "capability"):
        assert sources[axis]["stress_tested_tasks"] == 2, axis
        assert sources[axis]["reported_tasks"] == 4, axis
    # Performance used every task's assigned and completed events: s1-s3's 6 are stress-tested
    assert sources["performance"]["stress_tested_events"] == 6
    assert sources["performance"]["reported_events"] == 6
    assert provenance_lines(sources) == [
        "Performance: 2 of 6 tasks stress-tested by this installation, 4 reported by the organization.",
        "Capability: 2 of 6 tasks stress-tested by this installation, 4 reported by the organization.",
        "Stress runs of this installation: R.",
        "Inspect logs the organization ran itself and imported (reported): I.",
    ]


def test_a_passive_agent_and_an_assessment_recorded_before_provenance() -> None:
    events = _task("p1", 1) + _task("p2", 2)
    result = aaaf_scheme.assess(events, CONFIG, END, assessment_type="full")
    sources = evidence_sources(events, harness_runs=frozenset(), result=result)
    assert sources["performance"] == {
        "stress_tested_tasks": 0,
        "reported_tasks": 2,
        "stress_tested_events": 0,
        "reported_events": 4,
    }
    assert provenance_lines(sources)[0] == (
        "Performance: 0 of 2 tasks stress-tested by this installation, 2 reported by the organization."
    )
    assert provenance_lines(sources)[2] == "No stress run of this installation is behind this assessment."
    old = {"passive_events": 0, "stress_test_events": 10, "stress_runs": ["R"]}  # no per-axis figures
    assert provenance_lines(old) == provenance_lines(None) == [NOT_RECORDED]
