"""Calibration check, badge validity and the re-assessment trigger (SCORING.md §2.4).

Pure functions: the shell passes in the previous assessment's composites, the clock
reading (``now``) and the count of completed tasks since the last assessment.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

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


def reassessment_due(
    *,
    now: datetime,
    valid_until: datetime | None,
    completed_tasks_since_last: int,
    config: AAAFConfig,
) -> tuple[bool, str]:
    """Whether a re-assessment is due, and why (SCORING.md §2.4).

    Due when there is no previous assessment (``valid_until`` None); when
    ``reassessment_task_threshold`` (50) new completed tasks have accumulated; or when
    validity is running out — from the moment ``badge.expiring`` fires (14 days before
    ``valid_until``), so the new badge can be ready before the old one lapses, and of
    course once it has expired.
    """
    if valid_until is None:
        return True, "no previous assessment"
    threshold = config.reassessment_task_threshold
    if completed_tasks_since_last >= threshold:
        return True, (
            f"{completed_tasks_since_last} new completed tasks since the last assessment "
            f"(threshold {threshold})"
        )
    if now >= valid_until:
        return True, f"badge validity ran out at {valid_until.isoformat()}"
    if now >= expiring_from(valid_until, config):
        return True, f"badge validity runs out at {valid_until.isoformat()}"
    return False, (
        f"{completed_tasks_since_last} of {threshold} new completed tasks; "
        f"valid until {valid_until.isoformat()}"
    )
