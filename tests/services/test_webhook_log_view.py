"""The delivery log tells an attempt in flight from one cut off by a crash: the claim records
every attempt as interrupted until its outcome replaces it, and the log shows the last attempt
of a pending delivery whose sender's lease has not run out as in progress."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from aaaf.services.webhooks import shown_delivery
from aaaf.store.webhook_outbox import INTERRUPTED_ERROR

NOW = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)


def _delivery(status: str, lease_until: datetime, *, interrupted: bool = True) -> dict[str, object]:
    first = {
        "attempt": 1,
        "at": "2026-11-28T11:00:00Z",
        "status_code": 500,
        "duration_ms": 3.0,
        "error": None,
    }
    last = {
        "attempt": 2,
        "at": "2026-11-28T11:59:59Z",
        "status_code": None,
        "duration_ms": None,
        "error": INTERRUPTED_ERROR if interrupted else "ReadError: reset",
        "interrupted": interrupted,
    }
    return {
        "status": status,
        "next_attempt_at": lease_until.isoformat().replace("+00:00", "Z"),
        "attempts": [first, last],
    }


def test_an_attempt_within_its_lease_is_in_progress() -> None:
    shown = shown_delivery(_delivery("pending", NOW + timedelta(seconds=20)), NOW)
    last = shown["attempts"][-1]  # type: ignore[index]
    assert last["in_progress"] is True and last["interrupted"] is False and last["error"] is None
    assert shown["attempts"][0]["status_code"] == 500  # type: ignore[index]  # earlier attempts as they were


def test_an_attempt_whose_lease_ran_out_is_interrupted() -> None:
    shown = shown_delivery(_delivery("pending", NOW - timedelta(seconds=1)), NOW)
    last = shown["attempts"][-1]  # type: ignore[index]
    assert last["interrupted"] is True and last["error"] == INTERRUPTED_ERROR and "in_progress" not in last


def test_a_recorded_outcome_or_a_finished_delivery_is_shown_as_it_is() -> None:
    recorded = _delivery("pending", NOW + timedelta(seconds=20), interrupted=False)
    assert shown_delivery(recorded, NOW) == recorded
    failed = _delivery("failed", NOW + timedelta(seconds=20))
    assert shown_delivery(failed, NOW) == failed
