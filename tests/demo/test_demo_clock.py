"""The demo is right on any day: its evidence is generated relative to the day it runs (same
seed, same shape — every timestamp moves with the clock), and AAAF_DEMO_NOW pins it."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from aaaf.demo.clock import demo_now
from aaaf.demo.fleet import generate_fleet, parse_now


def test_without_aaaf_demo_now_it_is_this_hour(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AAAF_DEMO_NOW", raising=False)
    at = datetime(2027, 3, 4, 15, 42, 7, tzinfo=UTC)
    assert demo_now(at) == "2027-03-04T15:00:00Z"
    assert demo_now() <= datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def test_aaaf_demo_now_pins_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AAAF_DEMO_NOW", "2026-11-20T12:00:00+01:00")
    assert demo_now(datetime(2030, 1, 1, tzinfo=UTC)) == "2026-11-20T11:00:00Z"


def _shifted(event: dict, by: timedelta) -> dict:
    text = json.dumps(event)
    for key in ("timestamp", "assigned_at"):
        for holder in (event, event.get("data", {})):
            if key in holder:
                moved = datetime.fromisoformat(holder[key].replace("Z", "+00:00")) + by
                text = text.replace(holder[key], moved.strftime("%Y-%m-%dT%H:%M:%SZ"))
    return json.loads(text)


def test_sixty_days_later_the_fleet_is_the_same_fleet_sixty_days_later() -> None:
    today = parse_now("2026-11-20T12:00:00Z")
    later = today + timedelta(days=60)
    first, second = generate_fleet(today), generate_fleet(later)
    assert first.enrollment == second.enrollment
    assert len(first.events) == len(second.events)
    for one, two in zip(first.events[:500], second.events[:500], strict=True):
        assert _shifted(one, timedelta(days=60)) == two


def test_the_demo_script_reads_its_clock_there() -> None:
    script = (Path(__file__).resolve().parents[2] / "scripts" / "demo.sh").read_text(encoding="utf-8")
    lines = script.splitlines()
    assert "NOW=$($PY -m aaaf.demo.clock)" in lines
    assert not [line for line in lines if line.startswith("NOW=2")]
