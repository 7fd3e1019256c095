"""Which stored assessment an agent gate compares with, and the record that decides it
(docs/ci.md "Baselines"; migration 0017).

A gate that takes "the latest assessment" as its baseline can be re-run green: the failed
candidate becomes the next run's baseline and the same regression then looks like noise.
So every agent gate records its candidate as *passed* or *failed*
(:func:`record_gate`), and the default baseline is the assessment of the most recent
baseline-making record that is still valid: a gate the candidate passed, or an explicit
promotion (``aaaf gate promote ID``, ``aaaf gate --promote``).  A failed candidate stays
on the record as failed and is never a baseline unless promoted.  A baseline named with
``--baseline-assessment`` is used as named.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from aaaf.errors import AAAFError

if TYPE_CHECKING:
    from aaaf.store.org_store import OrgStore
    from aaaf.store.records import Agent, Assessment
    from aaaf.store.repositories.stress_runs import StressRun


def _valid(record: Assessment, now: datetime) -> bool:
    """Completed, both axes scored (not ``single_dimension``), not rejected by a reviewer,
    not expired (SCORING.md §2.4)."""
    if record.status != "completed" or record.type == "single_dimension" or record.review_state == "rejected":
        return False
    return record.valid_until is None or record.valid_until >= now


def find_baseline(
    org: OrgStore, agent: Agent, *, now: datetime, assessment_id: str | None = None
) -> Assessment | None:
    """The agent's baseline: the one named, else the assessment of its most recent passed
    gate or promotion that is still valid (:func:`_valid`), else None."""
    if assessment_id is not None:
        chosen = org.get_assessment(assessment_id)
        if str(chosen.agent_id) != str(agent.id):
            raise AAAFError(
                "INVALID_REQUEST",
                f"--baseline-assessment {assessment_id} is an assessment of another agent",
                {"field": "baseline_assessment", "agent": agent.name},
            )
        if chosen.status != "completed":
            raise AAAFError(
                "INVALID_REQUEST",
                f"--baseline-assessment {assessment_id} is {chosen.status}, not completed",
                {"field": "baseline_assessment"},
            )
        return chosen
    seen: set[str] = set()
    for decision in reversed(org.gate_decisions(agent.id)):
        key = str(decision.assessment_id)
        if not decision.makes_baseline or key in seen:
            continue
        seen.add(key)
        record = org.get_assessment(decision.assessment_id)
        if _valid(record, now):
            return record
    return None


def record_gate(
    org: OrgStore,
    agent: Agent,
    candidate: Assessment,
    *,
    baseline: Assessment | None,
    verdict: str,
    passed: bool,
    fail_on: Sequence[str],
    stress_run: StressRun | None = None,
    promote: bool = False,
) -> None:
    """Record an agent gate's outcome for its candidate (and, with ``promote``, promote it
    to baseline whatever the outcome)."""
    org.record_gate_decision(
        agent.id,
        candidate.id,
        kind="gate",
        baseline_assessment_id=None if baseline is None else baseline.id,
        verdict=verdict,
        passed=passed,
        fail_on=",".join(fail_on) or "none",
        stress_run_id=None if stress_run is None else stress_run.id,
    )
    if promote:
        org.record_gate_decision(agent.id, candidate.id, kind="promotion")


def promote(org: OrgStore, assessment_id: str) -> Assessment:
    """Make a completed assessment its agent's baseline (``aaaf gate promote ID``): the next
    agent gate without ``--baseline-assessment`` compares with it.  Returns the assessment."""
    record = org.get_assessment(assessment_id)
    if record.status != "completed":
        raise AAAFError(
            "INVALID_REQUEST",
            f"assessment {assessment_id} is {record.status}: only a completed assessment can be a baseline",
            {"field": "assessment_id", "status": record.status},
        )
    if record.type == "single_dimension":
        raise AAAFError(
            "INVALID_REQUEST",
            f"assessment {assessment_id} scores a single dimension: a baseline needs both axes",
            {"field": "assessment_id", "type": record.type},
        )
    org.record_gate_decision(record.agent_id, record.id, kind="promotion")
    return record
