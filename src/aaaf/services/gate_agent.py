"""The agent gate (docs/ci.md "An agent"): find the baseline, put the agent through the
stress suite, assess ``stress_test_only`` on this run's evidence alone, compare the two
assessments task by task and record the outcome.

The comparison reads the baseline's own evidence back (the events of the stress runs it
merged, scored with the configuration recorded with it) so that both sides are resampled
over the tasks they both ran (:mod:`aaaf.scoring.assessment_difference`) and the tasks that
flipped can be named (:mod:`aaaf.scoring.task_flips`); each task's type comes from the
runs' stored results.  When the baseline's events are gone (retention), the gate falls back
to the two stored intervals (:func:`aaaf.services.gate.decide_agent`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Unpack

from aaaf.services.gate import AGENT_MARGIN, GATE_RESAMPLES, GateResult, decide_agent, with_extra
from aaaf.services.gate_checks import DIMENSION_TOLERANCE

if TYPE_CHECKING:
    from aaaf.scoring.assessment_difference import AssessmentDifference, Side
    from aaaf.scoring.records import EventRecord
    from aaaf.scoring.task_flips import FlipReport
    from aaaf.services.stress import StressOptions
    from aaaf.store.org_store import OrgStore
    from aaaf.store.records import Agent, Assessment
    from aaaf.store.repositories.stress_runs import StressRun
    from aaaf.stress.runner import AgentSpec


def _stress_runs(assessment: Assessment) -> list[str]:
    return [
        str(run) for run in ((assessment.result or {}).get("evidence_sources") or {}).get("stress_runs") or []
    ]


def _side(org: OrgStore, assessment: Assessment, events: Sequence[EventRecord]) -> Side:
    """An assessment's evidence as it was scored: the events its type scores, the
    configuration recorded with it, its window end, its stored dimension scores and, for
    stress evidence, each task's stress task id (the pairing key)."""
    from aaaf.scoring.assessment_difference import Side
    from aaaf.scoring.evidence_sources import evidence_for
    from aaaf.services.appeals import recorded_config
    from aaaf.services.assess import assessment_json
    from aaaf.services.provenance import agent_runs

    scored = evidence_for(events, assessment.type, harness_runs=agent_runs(org, assessment.agent_id).harness)
    keys: dict[str, str] = {}
    for event in scored:
        stress_task = event.data.get("stress_task_id")
        if event.task_id is not None and isinstance(stress_task, str):
            keys[event.task_id] = stress_task
    stored = assessment_json(assessment)
    assessed = {
        axis: {
            name: value.get("score") for name, value in (stored.get(axis) or {}).get("dimensions", {}).items()
        }
        for axis in ("performance", "capability")
        if stored.get(axis) is not None
    }
    config, _, _ = recorded_config(org, assessment)
    return Side(scored, config, assessment.window_end, assessed, keys)


def _task_types(org: OrgStore, run_ids: Sequence[str]) -> dict[str, str]:
    """stress task id → its task type, from the runs' stored results."""
    from aaaf.evals.importers.inspect_stress import evidence_task_id

    types: dict[str, str] = {}
    for run_id in run_ids:
        prefix = evidence_task_id(run_id, "")
        for row in org.stress_run_results(org.get_stress_run(run_id).id):
            details = row.get("details") or {}
            evidence_task, task_type = str(details.get("evidence_task_id", "")), details.get("task_type")
            if evidence_task.startswith(prefix) and task_type:
                types[evidence_task[len(prefix) :]] = str(task_type)
    return types


def compare_assessments(
    org: OrgStore,
    agent: Agent,
    baseline: Assessment,
    candidate: Assessment,
    candidate_events: Sequence[EventRecord],
    *,
    resamples: int = GATE_RESAMPLES,
    seed: int = 0,
) -> tuple[AssessmentDifference | None, FlipReport | None]:
    """(the :class:`~aaaf.scoring.assessment_difference.AssessmentDifference`, the
    :class:`~aaaf.scoring.task_flips.FlipReport` or None) of candidate − baseline; (None,
    None) when the baseline's evidence is no longer stored."""
    from aaaf.scoring.assessment_difference import assessment_difference
    from aaaf.scoring.task_flips import task_flips

    if baseline.evidence_pruned_at is not None:
        return None, None
    runs = _stress_runs(baseline)
    events = org.events(agent.id)
    if baseline.type == "stress_test_only":
        if not runs:
            return None, None
        wanted = set(runs)
        events = [e for e in events if e.data.get("stress_run_id") in wanted]
    if not events:
        return None, None
    baseline_side = _side(org, baseline, events)
    candidate_side = _side(org, candidate, candidate_events)
    difference = assessment_difference(baseline_side, candidate_side, resamples=resamples, seed=seed)
    if not difference.paired:
        return difference, None
    return difference, task_flips(difference.tasks, _task_types(org, [*runs, *_stress_runs(candidate)]))


def run_agent_gate(
    org: OrgStore,
    agent_name: str,
    agent_spec: AgentSpec,
    *,
    fail_on: Sequence[str],
    clock: Callable[[], datetime],
    baseline_assessment: str | None = None,
    margin: float = AGENT_MARGIN,
    resamples: int = GATE_RESAMPLES,
    seed: int = 0,
    promote: bool = False,
    dimension_tolerance: float | None = None,
    library_dirs: Sequence[str] = (),
    **stress_options: Unpack[StressOptions],
) -> tuple[GateResult, StressRun, Assessment]:
    """Find the baseline, run the stress suite (:func:`aaaf.services.stress.run_stress_test`)
    and gate its run (:func:`gate_stress_run`); (result, stress run, candidate assessment)."""
    from aaaf.errors import AAAFError
    from aaaf.services.gate_baselines import find_baseline
    from aaaf.services.stress import run_stress_test

    try:
        agent = org.get_agent(agent_name)
    except AAAFError as error:
        if error.code != "NOT_FOUND" or baseline_assessment is not None:
            raise
        agent = None
    baseline = None
    if agent is not None:
        baseline = find_baseline(org, agent, now=clock(), assessment_id=baseline_assessment)
    run, _ = run_stress_test(
        org, agent_name, agent_spec, library_dirs=library_dirs, clock=clock, **stress_options
    )
    result, candidate = gate_stress_run(
        org, org.get_agent(agent_name), run, baseline, fail_on=fail_on, now=clock(), margin=margin,
        resamples=resamples, seed=seed, promote=promote, dimension_tolerance=dimension_tolerance,
    )  # fmt: skip
    return result, run, candidate


def gate_stress_run(
    org: OrgStore,
    agent: Agent,
    run: StressRun,
    baseline: Assessment | None,
    *,
    fail_on: Sequence[str],
    now: datetime,
    margin: float = AGENT_MARGIN,
    resamples: int = GATE_RESAMPLES,
    seed: int = 0,
    promote: bool = False,
    dimension_tolerance: float | None = None,
) -> tuple[GateResult, Assessment]:
    """Assess a finished stress run ``stress_test_only`` on its evidence alone (earlier runs'
    stress evidence in the window stays out: it is the baseline's), compare it with
    ``baseline`` and record the outcome (:func:`aaaf.services.gate_baselines.record_gate`);
    (result, candidate assessment)."""
    from aaaf.services.assess import assess_with_events, assessment_json
    from aaaf.services.gate_baselines import record_gate

    events = [e for e in org.events(agent.id) if e.data.get("stress_run_id") == str(run.id)]
    candidate = assess_with_events(org, agent, events, now=now, assessment_type="stress_test_only")
    difference = flips = None
    if baseline is not None:
        difference, flips = compare_assessments(
            org, agent, baseline, candidate, events, resamples=resamples, seed=seed
        )
    result = decide_agent(
        assessment_json(baseline) if baseline is not None else None,
        assessment_json(candidate),
        fail_on,
        difference=difference,
        flips=flips,
        margin=margin,
        dimension_tolerance=DIMENSION_TOLERANCE if dimension_tolerance is None else dimension_tolerance,
    )
    record_gate(
        org, agent, candidate, baseline=baseline, verdict=result.verdict.value, passed=result.passed,
        fail_on=fail_on, stress_run=run, promote=promote,
    )  # fmt: skip
    extra = {
        "agent": agent.name,
        "stress_run": str(run.id),
        "stress_summary": run.summary,
        "baseline_type": baseline.type if baseline is not None else None,
        "margin": margin,
        "promoted": promote,
    }
    return with_extra(result, extra), candidate
