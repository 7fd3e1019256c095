"""Calibration check, validity and the re-assessment trigger (SCORING.md §2.4)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from aaaf.reports.wording import reassessment_text
from aaaf.scoring.calibration import (
    DueBecause,
    calibration_check,
    expiring_from,
    reassessment_due,
    valid_until,
)
from aaaf.scoring.defaults import AAAFConfig

CONFIG = AAAFConfig()
NOW = datetime(2026, 4, 16, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("previous", "current", "anomalous"),
    [
        (0.60, 0.75, False),  # moved by exactly 0.15 (0.15000000000000002 in floats): not more
        (0.60, 0.7501, True),
        (0.75, 0.60, False),
        (0.75, 0.5999, True),  # a drop counts as much as a rise
        (0.50, 0.50, False),
    ],
)
def test_calibration_threshold_is_strict(previous: float, current: float, anomalous: bool) -> None:
    result = calibration_check({"performance": previous}, {"performance": current}, 0.15)
    assert result.anomalous is anomalous
    assert result.deltas["performance"] == pytest.approx(current - previous)


def test_any_composite_moving_flags_the_assessment() -> None:
    result = calibration_check(
        {"performance": 0.70, "capability": 0.40}, {"performance": 0.71, "capability": 0.60}, 0.15
    )
    assert result.anomalous
    assert result.deltas == {"performance": pytest.approx(0.01), "capability": pytest.approx(0.20)}


def test_nothing_to_compare_is_not_anomalous() -> None:
    first = calibration_check(None, {"performance": 0.9, "capability": 0.1}, 0.15)
    assert not first.anomalous and first.deltas == {"performance": None, "capability": None}
    missing = calibration_check(
        {"performance": None, "capability": 0.5}, {"performance": 0.9, "capability": None}, 0.15
    )
    assert not missing.anomalous and missing.deltas == {"performance": None, "capability": None}


def test_threshold_is_configurable() -> None:
    assert calibration_check({"performance": 0.5}, {"performance": 0.56}, 0.05).anomalous
    assert not calibration_check({"performance": 0.5}, {"performance": 0.56}, 0.10).anomalous


def test_validity_and_expiring_notice() -> None:
    until = valid_until(NOW, CONFIG)
    assert until == NOW + timedelta(days=90)
    assert expiring_from(until, CONFIG) == until - timedelta(days=14)
    assert valid_until(NOW, CONFIG.with_overrides(validity_days=30)) == NOW + timedelta(days=30)


def test_reassessment_due_without_previous_assessment() -> None:
    decided = reassessment_due(now=NOW, valid_until=None, completed_tasks_since_last=0, config=CONFIG)
    assert decided.due and decided.because is DueBecause.NO_PREVIOUS
    assert reassessment_text(decided) == "no previous assessment"


def test_reassessment_due_after_fifty_new_completed_tasks() -> None:
    until = NOW + timedelta(days=60)
    decided = reassessment_due(now=NOW, valid_until=until, completed_tasks_since_last=50, config=CONFIG)
    due, reason = decided.due, reassessment_text(decided)
    assert due and reason == "50 new completed tasks since the last assessment (threshold 50)"
    decided = reassessment_due(now=NOW, valid_until=until, completed_tasks_since_last=49, config=CONFIG)
    due, reason = decided.due, reassessment_text(decided)
    assert not due and reason.startswith("49 of 50 new completed tasks")


def test_reassessment_due_when_validity_runs_out() -> None:
    until = NOW + timedelta(days=20)
    assert not reassessment_due(now=NOW, valid_until=until, completed_tasks_since_last=0, config=CONFIG).due
    # from the moment badge.expiring fires (14 days before valid_until)
    notice = until - timedelta(days=14)
    decided = reassessment_due(now=notice, valid_until=until, completed_tasks_since_last=0, config=CONFIG)
    due, reason = decided.due, reassessment_text(decided)
    assert due and reason.startswith("badge validity runs out at")
    just_before = notice - timedelta(seconds=1)
    assert not reassessment_due(
        now=just_before, valid_until=until, completed_tasks_since_last=0, config=CONFIG
    ).due
    decided = reassessment_due(now=until, valid_until=until, completed_tasks_since_last=0, config=CONFIG)
    due, reason = decided.due, reassessment_text(decided)
    assert due and reason.startswith("badge validity ran out at")
