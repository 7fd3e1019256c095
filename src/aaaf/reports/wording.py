"""Sentences for decisions the pure core makes with codes (issue 10 §3).

The core returns what it decided and the numbers behind it; the shell words them here.
Verdicts and badges are worded in :mod:`aaaf.reports.verdict_text`, the trust tier in
:mod:`aaaf.reports.trust_text`.
"""

from __future__ import annotations

from aaaf.scoring.calibration import DueBecause, ReassessmentDue


def reassessment_text(due: ReassessmentDue) -> str:
    """Why a re-assessment is or is not due (SCORING.md §2.4)."""
    if due.because is DueBecause.NO_PREVIOUS or due.valid_until is None:
        return "no previous assessment"
    until = due.valid_until.isoformat()
    if due.because is DueBecause.TASKS:
        return (
            f"{due.completed_tasks_since_last} new completed tasks since the last assessment "
            f"(threshold {due.threshold})"
        )
    if due.because is DueBecause.EXPIRED:
        return f"badge validity ran out at {until}"
    if due.because is DueBecause.EXPIRING:
        return f"badge validity runs out at {until}"
    return f"{due.completed_tasks_since_last} of {due.threshold} new completed tasks; valid until {until}"
