"""No service and no API route reads the clock itself: the time comes from the caller's
service context (docs/architecture.md; :mod:`aaaf.services.context` is the one place the
system clock is read).  Durations (``time.perf_counter``, ``time.monotonic``) are not the
time of day and are allowed."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "aaaf"
SCANNED = [
    *sorted((SRC / "services").glob("*.py")),
    *sorted((SRC / "api" / "routes").glob("*.py")),
    SRC / "api" / "background.py",
]
ALLOWED = {SRC / "services" / "context.py"}  # system_clock: the clock every context starts from

# (receiver, attribute) of a call that reads the time of day
READS = {
    ("datetime", "now"),
    ("datetime", "utcnow"),
    ("datetime", "today"),
    ("date", "today"),
    ("time", "time"),
    ("time", "time_ns"),
}


def clock_reads(source: str) -> list[int]:
    """The line of each call in ``source`` that reads the time of day."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            receiver = node.func.value
            name = receiver.id if isinstance(receiver, ast.Name) else getattr(receiver, "attr", None)
            if (name, node.func.attr) in READS:
                lines.append(node.lineno)
    return lines


def test_the_scanner_finds_each_way_of_reading_the_clock() -> None:
    source = (
        "import datetime as dt, time\n"
        "from datetime import UTC, date, datetime\n"
        "a = datetime.now(UTC)\n"
        "b = dt.datetime.now(dt.UTC)\n"
        "c = date.today()\n"
        "d = time.time()\n"
        "e = time.perf_counter()\n"
        "f = clock()\n"
    )
    assert clock_reads(source) == [3, 4, 5, 6]


def test_no_service_or_route_reads_the_clock() -> None:
    assert len(SCANNED) > 40  # the services and routes are where this test looks
    found = {
        f"{path.relative_to(SRC)}:{line}"
        for path in SCANNED
        if path not in ALLOWED
        for line in clock_reads(path.read_text(encoding="utf-8"))
    }
    assert found == set(), f"read the time from the caller's clock instead: {sorted(found)}"
