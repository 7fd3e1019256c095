"""The fold's per-tool sums (aaaf.scoring.fold_values.invocation_counts): one ToolUsage per tool,
in tool-name order whatever the order of the events, each with its event ids sorted — checked
against a plain recount of the same events."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from aaaf.scoring.fold_records import ToolUsage
from aaaf.scoring.fold_values import invocation_counts
from aaaf.scoring.records import EventRecord

AT = datetime(2026, 11, 20, tzinfo=UTC)


def _recount(events: list[EventRecord]) -> tuple[ToolUsage, ...]:
    usages = []
    for tool in sorted({e.data["tool"] for e in events if isinstance(e.data.get("tool"), str)}):
        mine = [e for e in events if e.data.get("tool") == tool]
        successes = sum(1 for e in mine if e.data.get("success") is True)
        recovered = sum(
            1 for e in mine if e.data.get("success") is not True and e.data.get("error_recovered") is True
        )
        unnecessary = sum(1 for e in mine if e.data.get("unnecessary") is True)
        ids = tuple(sorted(e.id for e in mine))
        usages.append(
            ToolUsage(tool, len(mine), successes, len(mine) - successes, recovered, unnecessary, ids)
        )
    return tuple(usages)


def test_usages_come_in_tool_order_with_sorted_ids_whatever_the_event_order() -> None:
    rng = random.Random(7)
    for _ in range(200):
        events = [
            EventRecord(
                f"{rng.randrange(16**8):08x}-id",
                "a",
                "tool_invoked",
                AT,
                {
                    "tool": rng.choice(("zsh", "bash", "grep", "awk", 3)),
                    "success": rng.choice((True, False, None)),
                    "error_recovered": rng.random() < 0.5,
                    "unnecessary": rng.random() < 0.2,
                },
            )
            for _ in range(rng.randint(1, 8))
        ]
        assert invocation_counts(events) == _recount(events)
        assert invocation_counts(list(reversed(events))) == _recount(events)
