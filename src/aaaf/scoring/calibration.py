"""Calibration check, badge validity and the re-assessment trigger (SCORING.md §2.4).

Pure functions: the shell passes in the previous assessment's composites, the clock
reading (``now``) and the count of completed tasks since the last assessment.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum

from aaaf.scoring.defaults import AAAFConfig

MOVEMENT_TOLERANCE = 1e-9
"""Float slack when comparing a movement with the threshold.

0.75 − 0.60 evaluates to 0.15000000000000002; that composite moved by exactly 0.15, which
is not *more than* 0.15 (SCORING.md §2.4).  Scores are not meaningful to 1e-9, so a
difference within 1e-9 of the threshold counts as equal to it.
"""


@dataclass(frozen=True)
class CalibrationResult:
    """Whether an assessment is anomalous, and how far each composite moved.

    ``deltas[name]`` is ``current − previous`` (signed), or None when either value is
    missing (no previous assessment, or a composite without covered dimensions).
    """

    anomalous: bool
    deltas: dict[str, float | None] = field(default_factory=dict)
    threshold: float = 0.15


def calibration_check(
    previous: Mapping[str, float | None] | None,
    current: Mapping[str, float | None],
    threshold: float,
) -> CalibrationResult:
    """Flag an assessment whose composite moved by more than ``threshold`` (SCORING.md §2.4).

    Compared with the agent's previous completed assessment; with none there is nothing
    to compare and the assessment is not anomalous.
    """
    deltas: dict[str, float | None] = {}
    anomalous = False
    for name, value in current.items():
        before = previous.get(name) if previous is not None else None
        if value is None or before is None:
            deltas[name] = None
            continue
        delta = value - before
        deltas[name] = delta
        if abs(delta) > threshold + MOVEMENT_TOLERANCE:
            anomalous = True
    return CalibrationResult(anomalous, deltas, threshold)


def valid_until(completed_at: datetime, config: AAAFConfig) -> datetime:
    """A badge is valid for ``validity_days`` (90) after the assessment completed (§2.4)."""
    return completed_at + timedelta(days=config.validity_days)


def expiring_from(valid_until_at: datetime, config: AAAFConfig) -> datetime:
    """When ``badge.expiring`` fires: ``expiring_notice_days`` (14) before ``valid_until``."""
    return valid_until_at - timedelta(days=config.expiring_notice_days)


class DueBecause(StrEnum):
    """Why a re-assessment is or is not due (SCORING.md §2.4)."""

    NO_PREVIOUS = "no_previous"
    TASKS = "tasks"
    EXPIRED = "expired"
    EXPIRING = "expiring"
    NOT_DUE = "not_due"


@dataclass(frozen=True)
class ReassessmentDue:
    """Whether a re-assessment is due and the numbers behind it; worded by
    :func:`aaaf.reports.wording.reassessment_text`."""

    due: bool
    because: DueBecause
    completed_tasks_since_last: int = 0
    threshold: int = 0
    valid_until: datetime | None = None


def reassessment_due(
    *,
    now: datetime,
    valid_until: datetime | None,
    completed_tasks_since_last: int,
    config: AAAFConfig,
) -> ReassessmentDue:
    """Whether a re-assessment is due, and why (SCORING.md §2.4).

    Due when there is no previous assessment (``valid_until`` None); when
    ``reassessment_task_threshold`` (50) new completed tasks have accumulated; or when
    validity is running out — from the moment ``badge.expiring`` fires (14 days before
    ``valid_until``), so the new badge can be ready before the old one lapses, and of
    course once it has expired.
    """
    if valid_until is None:
        return ReassessmentDue(True, DueBecause.NO_PREVIOUS)
    threshold = config.reassessment_task_threshold
    if completed_tasks_since_last >= threshold:
        because = DueBecause.TASKS
    elif now >= valid_until:
        because = DueBecause.EXPIRED
    elif now >= expiring_from(valid_until, config):
        because = DueBecause.EXPIRING
    else:
        because = DueBecause.NOT_DUE
    return ReassessmentDue(
        because is not DueBecause.NOT_DUE, because, completed_tasks_since_last, threshold, valid_until
    )
