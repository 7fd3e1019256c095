"""Which evidence an assessment type scores, and where the scored evidence came from (document
004 §6.2 assessment types, §5.1 step 3; docs/stress-tests.md "Provenance").

Evidence has one of two provenances:

* **stress-tested by this installation**: events its own stress-test harness recorded from a
  stress run it executed and stored — marked ``evidence_source: "stress_test"`` with the run's
  ``stress_run_id``, *and* that id is one of the agent's stored harness runs (``harness_runs``,
  handed in by the service: this module reads no store);
* **reported by the organization**: everything else — the events it sent, the inspect logs of
  the stress tasks it ran itself and imported (``evidence_source: "reported_stress_test"``),
  and any event that claims ``"stress_test"`` without a harness run of this installation
  behind it.  Ingestion refuses such a claim today (:func:`aaaf.services.collect.collect`);
  a database written before that rule may still hold some.  They count as reported evidence,
  not ignored: the organization could have sent the same events unmarked, so counting them
  gives it nothing the marker was meant to gain, and dropping them would lose evidence that
  was accepted.  What they can no longer do is count as stress-tested.

``passive_only`` scores the reported evidence, ``stress_test_only`` the stress-tested evidence
alone, ``full`` and ``single_dimension`` both (document 004 §5.1 step 3: "stress tests
supplement passive evidence; both contribute to scores").  The scheme computes
``stress_test_only`` exactly as ``full`` on its evidence.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from datetime import datetime
from itertools import chain
from typing import Any

from aaaf.errors import AAAFError
from aaaf.scoring.records import EventRecord
from aaaf.scoring.results import AAAFResult

STRESS_SOURCE = "stress_test"
"""The mark of evidence this installation's harness recorded from one of its own stress runs."""
REPORTED_STRESS_SOURCE = "reported_stress_test"
"""The mark of stress tasks the organization ran itself and imported (``aaaf import-inspect``)."""
STRESS_CLAIMS = frozenset({STRESS_SOURCE, REPORTED_STRESS_SOURCE})


def claims_stress(event: EventRecord) -> bool:
    """Whether an event says it comes from a stress test (of this installation or not)."""
    return event.data.get("evidence_source") in STRESS_CLAIMS


def is_stress_tested(event: EventRecord, harness_runs: Set[str]) -> bool:
    """Whether an event is stress-tested by this installation: marked ``stress_test`` with the
    id of one of the agent's stored harness runs."""
    data = event.data
    return data.get("evidence_source") == STRESS_SOURCE and str(data.get("stress_run_id")) in harness_runs


def evidence_for(
    events: Sequence[EventRecord], assessment_type: str, *, harness_runs: Set[str]
) -> list[EventRecord]:
    """The events an assessment of ``assessment_type`` scores (module docstring)."""
    if assessment_type == "passive_only":
        if not harness_runs:
            return list(events)
        return [e for e in events if not is_stress_tested(e, harness_runs)]
    if assessment_type == "stress_test_only":
        if not harness_runs:
            return []
        return [e for e in events if is_stress_tested(e, harness_runs)]
    return list(events)


def require_stress_evidence(
    events: Sequence[EventRecord], assessment_type: str, agent_name: str, *, harness_runs: Set[str]
) -> None:
    """A ``stress_test_only`` assessment of an agent without stress-tested evidence is refused
    at once with a §6.4 ``INSUFFICIENT_EVIDENCE`` saying how to get some (rather than the
    generic "0 tasks in assessment window"), and how many of its events claim a stress test
    this installation did not run."""
    if assessment_type != "stress_test_only":
        return
    if harness_runs and any(is_stress_tested(e, harness_runs) for e in events):
        return
    reported = sum(1 for e in events if claims_stress(e))
    told = (
        f" Its {reported} event(s) from stress tests this installation did not run (logs the organization "
        "imported, or events marked as stress evidence without one of its stress runs) count as evidence "
        "reported by the organization, not as stress-tested."
        if reported
        else ""
    )
    raise AAAFError(
        "INSUFFICIENT_EVIDENCE",
        f"Agent {agent_name} has no stress-test evidence from this installation's stress runs; a "
        f"stress_test_only assessment scores it alone.{told} Run the stress tests first "
        f"(aaaf stress-test {agent_name} ..., or POST /api/v1/assessments/{{assessment_id}}/stress-test), "
        "or assess the reported evidence (full, passive_only).",
        {
            "field": "type",
            "assessment_type": assessment_type,
            "stress_test_events": 0,
            "reported_stress_events": reported,
        },
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


def _axis_provenance(
    used: set[str], tasks: set[str], stress_tasks: Set[str], stressed: Set[str]
) -> dict[str, int]:
    """One axis's tasks and events by provenance (see :func:`evidence_sources`)."""
    stressed_used = len(used & stressed) if stressed else 0
    stress_tested = len(tasks & stress_tasks) if stress_tasks else 0
    return {
        "stress_tested_tasks": stress_tested,
        "reported_tasks": len(tasks) - stress_tested,
        "stress_tested_events": stressed_used,
        "reported_events": len(used) - stressed_used,
    }


def _stress_tested_ids(events: Sequence[EventRecord], harness_runs: Set[str]) -> set[str]:
    """The ids of the stress-tested events (:func:`is_stress_tested`, inline: one pass)."""
    if not harness_runs:
        return set()
    return {
        e.id
        for e in events
        if (data := e.data).get("evidence_source") == STRESS_SOURCE
        and str(data.get("stress_run_id")) in harness_runs
    }


def evidence_sources(
    events: Sequence[EventRecord],
    *,
    harness_runs: Set[str],
    imported_runs: Set[str] = frozenset(),
    result: AAAFResult | None = None,
    window: tuple[datetime, datetime] | None = None,
) -> dict[str, Any]:
    """Where the scored ``events`` came from: event counts per provenance (``passive_events``
    are those reported by the organization), the harness runs used (``stress_runs``), the
    imported logs used (``reported_stress_runs``: those of ``imported_runs`` the events name),
    how many events claim a stress test this installation did not run, and who graded the
    stress-tested orchestration results' model-graded sub-scores.  The counts are of the
    events inside ``window`` (by their own time, SCORING.md §2.1) when one is given.

    Given the ``result`` scored from ``events``, each axis's tasks and events by provenance:
    its events are those its dimensions used (SCORING.md §0 traceability); its tasks the
    window's scored tasks, which every dimension is computed over, and any other task whose
    events it used.  A task is stress-tested when every one of its scored events is; a task
    that mixes both (an organization's event naming a stress task's id) counts as reported.
    """
    inside = events if window is None else [e for e in events if window[0] <= e.timestamp <= window[1]]
    stressed = _stress_tested_ids(events, harness_runs)
    stress = [e for e in inside if e.id in stressed] if stressed else []
    claimed = [e for e in inside if e.data.get("evidence_source") in STRESS_CLAIMS]  # claims_stress, inline
    named = {str(e.data.get("stress_run_id")) for e in claimed}
    sources: dict[str, Any] = {
        "passive_events": len(inside) - len(stress),
        "stress_test_events": len(stress),
        "stress_runs": sorted({str(e.data["stress_run_id"]) for e in stress}),
        "reported_stress_events": len(claimed) - len(stress),
        "reported_stress_runs": sorted(named & set(imported_runs)),
    }
    graded = model_graded(stress)
    if graded is not None:
        sources["model_graded"] = graded
    if result is None:
        return sources
    stress_tasks: set[str] = set()
    if stressed:
        reported_tasks = {e.task_id for e in events if e.task_id is not None and e.id not in stressed}
        stress_tasks = {e.task_id for e in events if e.task_id is not None and e.id in stressed}
        stress_tasks -= reported_tasks
    summary = result.evidence_summary
    scored_tasks = {str(task) for task in summary.get("task_ids") or ()}
    scored_tasks -= set((summary.get("appeal") or {}).get("excluded_tasks") or ())  # SCORING.md §2.4
    # the tasks of events outside the scored tasks (usually none): looked up only for those
    loose = {e.id: e.task_id for e in events if e.task_id is not None and e.task_id not in scored_tasks}
    for axis in ("performance", "capability"):
        scored = result.axis(axis)
        if scored is None:
            continue
        used = set(chain.from_iterable(dim.event_ids for dim in scored.dimensions.values()))
        tasks = scored_tasks | {loose[i] for i in used.intersection(loose)} if loose else scored_tasks
        sources[axis] = _axis_provenance(used, tasks, stress_tasks, stressed)
    return sources


def recorded_sources(
    events: Sequence[EventRecord],
    start: datetime,
    end: datetime,
    *,
    result: AAAFResult,
    harness_runs: Set[str],
    imported_runs: Set[str] = frozenset(),
) -> dict[str, Any]:
    """What an assessment records as its ``evidence_sources`` (:func:`evidence_sources` of the
    events the assessment scored, counted inside its window, and of its ``result``) — the one
    rule of ``assess NAME`` and ``assess --all``.  Every assessment records it, a
    ``passive_only`` one too (all of it reported by the organization), so that its badge and
    report can say so.

    ``events`` are those :func:`evidence_for` gave the assessment."""
    return evidence_sources(
        events, harness_runs=harness_runs, imported_runs=imported_runs, result=result, window=(start, end)
    )


AXIS_TITLES = {"performance": "Performance", "capability": "Capability"}
NOT_RECORDED = (
    "Where the evidence came from was not recorded: the assessment was made before this "
    "installation recorded the provenance of its evidence."
)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def provenance_lines(sources: Mapping[str, Any] | None) -> list[str]:
    """How much of the evidence behind each axis was stress-tested by this installation and how
    much was reported by the organization, and the stress runs behind it, in words — the one
    wording of reports, the badge credential, the verification page and ``aaaf verify``.

    ``sources`` is an assessment's recorded ``evidence_sources`` (or what a credential carries
    of it); one recorded before provenance (no per-axis figures) gets :data:`NOT_RECORDED`."""
    if not isinstance(sources, Mapping) or not any(isinstance(sources.get(a), Mapping) for a in AXIS_TITLES):
        return [NOT_RECORDED]
    lines = []
    for axis, title in AXIS_TITLES.items():
        part = sources.get(axis)
        if not isinstance(part, Mapping):
            continue
        stressed, reported = int(part["stress_tested_tasks"]), int(part["reported_tasks"])
        lines.append(
            f"{title}: {stressed} of {_count(stressed + reported, 'task')} stress-tested by this "
            f"installation, {reported} reported by the organization."
        )
    runs = list(sources.get("stress_runs") or [])
    if runs:
        lines.append(f"Stress runs of this installation: {', '.join(map(str, runs))}.")
    else:
        lines.append("No stress run of this installation is behind this assessment.")
    imported = list(sources.get("reported_stress_runs") or [])
    if imported:
        lines.append(
            f"Inspect logs the organization ran itself and imported (reported): {', '.join(map(str, imported))}."
        )
    return lines
