"""What an assessment stores of an AAAF result: its dimension rows and composites (SCORING.md §0, §6)."""

from __future__ import annotations

import logging
from typing import TypedDict

from aaaf.scoring.results import AAAFResult

log = logging.getLogger(__name__)


def dimension_rows(
    result: AAAFResult,
) -> list[tuple[str, str, float | None, int, int, dict[str, object], str | None]]:
    rows = []
    for axis_name in ("performance", "capability"):
        axis = result.axis(axis_name)
        if axis is None:
            continue
        for name, dim in axis.dimensions.items():
            reason = None if dim.score is not None else (dim.reason or "no valid evidence")
            rows.append(
                (axis_name, name, dim.score, dim.sample_size, dim.evidence_count, dict(dim.details), reason)
            )
    return rows


class Composites(TypedDict):
    """An assessment's composite columns (the keywords its store methods take)."""

    performance_composite: float | None
    performance_tier: str | None
    capability_composite: float | None
    capability_tier: str | None


def composites(result: AAAFResult) -> Composites:
    perf, cap = result.performance, result.capability
    return {
        "performance_composite": perf.composite.score if perf else None,
        "performance_tier": perf.composite.tier if perf else None,
        "capability_composite": cap.composite.score if cap else None,
        "capability_tier": cap.composite.tier if cap else None,
    }
