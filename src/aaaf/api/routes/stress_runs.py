"""Stress runs (SCORING.md §7 "Stress runs", issue 15): one run and its results."""

from __future__ import annotations

from fastapi import APIRouter

from aaaf.api.deps import Reader
from aaaf.models.stress_run import StressRunWithResults
from aaaf.services.stress import stress_run_with_results

router = APIRouter(prefix="/api/v1/stress-runs", tags=["stress tests"])


@router.get("/{run_id}", response_model=StressRunWithResults, operation_id="get_stress_run")
def get_stress_run(run_id: str, org: Reader) -> StressRunWithResults:
    """The run (status — ``queued``, ``running``, ``finished`` or ``failed`` with the reason in
    ``summary.error`` —, what was requested, library and version, created, started, finished,
    attempts, summary, the assessment that merged it) and its per-task results."""
    return stress_run_with_results(org, run_id)
