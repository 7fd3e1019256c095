"""Which evidence an assessment type scores (document 004 §6.2 assessment types; issue 15).

Stress-test evidence is marked ``evidence_source: "stress_test"`` in its events' data (with
its ``stress_run_id``).  ``passive_only`` scores the collected events without it,
``stress_test_only`` scores it alone, ``full`` and ``single_dimension`` merge both (document
004 §5.1 step 3: "stress tests supplement passive evidence; both contribute to scores").
The scheme computes ``stress_test_only`` exactly as ``full`` on that evidence.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from aaaf.errors import AAAFError
from aaaf.scoring.records import EventRecord

STRESS_SOURCE = "stress_test"


def is_stress(event: EventRecord) -> bool:
    return event.data.get("evidence_source") == STRESS_SOURCE


def evidence_for(events: Sequence[EventRecord], assessment_type: str) -> list[EventRecord]:
    """The events an assessment of ``assessment_type`` scores."""
    if assessment_type == "passive_only":
        return [e for e in events if not is_stress(e)]
    if assessment_type == "stress_test_only":
        return [e for e in events if is_stress(e)]
    return list(events)


def require_stress_evidence(events: Sequence[EventRecord], assessment_type: str, agent_name: str) -> None:
    """A ``stress_test_only`` assessment of an agent without any stress-test evidence is refused
    at once with a §6.4 ``INSUFFICIENT_EVIDENCE`` saying how to get some (rather than the
    generic "0 tasks in assessment window")."""
    if assessment_type != "stress_test_only" or any(is_stress(e) for e in events):
        return
    raise AAAFError(
        "INSUFFICIENT_EVIDENCE",
        f"Agent {agent_name} has no stress-test evidence; a stress_test_only assessment scores it alone. "
        f"Run the stress tests first (aaaf stress-test {agent_name} ..., or "
        "POST /api/v1/assessments/{assessment_id}/stress-test), or assess passive evidence.",
        {"field": "type", "assessment_type": assessment_type, "stress_test_events": 0},
    )


def scheme_type(assessment_type: str) -> str:
    """The scheme's type for an assessment type (``stress_test_only`` is scored as ``full``)."""
    return "full" if assessment_type == "stress_test_only" else assessment_type


NO_JUDGE_NOTE = (
    "communication clarity and synthesis quality are model-graded and were null for {count} "
    "stress orchestration result(s): no judge was configured when their run graded them "
    "(synthesis quality then carries the code-graded first layer the event requires)"
)


def model_graded(stress: Sequence[EventRecord]) -> dict[str, Any] | None:
    """Issue 15 §1: how many stress ``orchestration_result``s a judge graded (the rest carry
    null model-graded sub-scores, said so in ``note``); None without such results."""
    results = [e for e in stress if e.type == "orchestration_result"]
    if not results:
        return None
    judges = sorted({str(e.data["model_graded_by"]) for e in results if e.data.get("model_graded_by")})
    unjudged = sum(1 for e in results if not e.data.get("model_graded_by"))
    return {
        "orchestration_results": len(results),
        "judged": len(results) - unjudged,
        "judges": judges,
        "note": NO_JUDGE_NOTE.format(count=unjudged) if unjudged else None,
    }


def evidence_sources(events: Sequence[EventRecord]) -> dict[str, Any]:
    """Where the scored evidence came from: event counts per source and the stress runs used,
    and (when stress orchestration results are among them) who graded their model-graded
    sub-scores."""
    stress = [e for e in events if is_stress(e)]
    runs = sorted({str(e.data.get("stress_run_id")) for e in stress if e.data.get("stress_run_id")})
    sources: dict[str, Any] = {
        "passive_events": len(events) - len(stress),
        "stress_test_events": len(stress),
        "stress_runs": runs,
    }
    graded = model_graded(stress)
    if graded is not None:
        sources["model_graded"] = graded
    return sources


def recorded_sources(
    events: Sequence[EventRecord], assessment_type: str, start: datetime, end: datetime
) -> dict[str, Any] | None:
    """What an assessment records as its ``evidence_sources`` — the sources of the scored
    events inside its window (SCORING.md §2.1, by their own time) — or None when it records
    none (no stress-test evidence in play): the one rule of ``assess NAME`` and ``assess --all``.

    ``events`` are those :func:`evidence_for` gave the assessment: a ``passive_only`` one has
    no stress evidence, so it records none without looking.
    """
    if assessment_type == "passive_only":
        return None
    sources = evidence_sources([e for e in events if start <= e.timestamp <= end])
    if sources["stress_test_events"] or assessment_type == "stress_test_only":
        return sources
    return None
