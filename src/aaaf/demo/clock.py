"""The demo's clock: the day the demo runs, or ``AAAF_DEMO_NOW`` when set.

The demo's evidence is generated relative to this instant (same seed, same shape on any day),
so a fleet made today is in every command's window today; ``AAAF_DEMO_NOW`` pins it for
byte-identical comparisons between runs (scripts/demo_diff.sh).  Without it, the instant is
the start of the current UTC hour: every generated event lies in the past, and at most an
hour of the window's oldest evidence falls out of a command run later that hour.

``python -m aaaf.demo.clock`` prints it (scripts/demo.sh reads it there).
"""

from __future__ import annotations

import os
from datetime import UTC, datetime

ENVIRONMENT_VARIABLE = "AAAF_DEMO_NOW"


def demo_now(now: datetime | None = None) -> str:
    """RFC 3339 (``…Z``): ``AAAF_DEMO_NOW`` if set, else the start of ``now``'s UTC hour."""
    pinned = os.environ.get(ENVIRONMENT_VARIABLE, "").strip()
    if pinned:
        parsed = datetime.fromisoformat(pinned.replace("Z", "+00:00"))
        if parsed.tzinfo is None:
            raise SystemExit(
                f"{ENVIRONMENT_VARIABLE} must carry an offset (e.g. 2026-11-20T12:00:00Z), got {pinned!r}"
            )
        return parsed.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    current = (now or datetime.now(UTC)).astimezone(UTC)
    return current.replace(minute=0, second=0, microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


if __name__ == "__main__":
    print(demo_now())
