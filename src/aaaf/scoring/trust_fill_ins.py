"""Operational fill-ins for trust dimensions no ``eval_result`` covers (SCORING.md §3 'Evidence').

Part of the trust scheme (:mod:`aaaf.scoring.trust`): accuracy, reliability and latency
from the AAAF §2.2 values, costEfficiency from ``cost_usd`` / ``budget_usd``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.records import EventRecord
from aaaf.scoring.results import iso
from aaaf.scoring.trust_config import OPERATIONAL_SOURCES
from aaaf.scoring.trust_observations import as_finite, require_aware

# ----------------------------------------------------------------------------- fill-ins


@dataclass(frozen=True)
class FillIn:
    """An operational fill-in for a trust dimension, on 0-100 (SCORING.md §3 'Evidence').

    ``score`` is None when the AAAF quantity is null over the window (e.g. consistency
    with no (domain, level) group of ≥ 5 completed tasks); ``reason`` then says why.
    """

    source: str
    score: float | None
    sample_size: int = 0
    evidence_count: int = 0
    details: Mapping[str, Any] = field(default_factory=dict)
    reason: str | None = None
    event_ids: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "source": self.source,
            "score": self.score,
            "sample_size": self.sample_size,
            "evidence_count": self.evidence_count,
            "details": dict(self.details),
        }
        if self.score is None:
            out["reason"] = self.reason or "no valid operational evidence"
        return out


def cost_efficiency(events: Sequence[EventRecord], *, at: datetime, window_days: int = 30) -> FillIn:
    """100 × plain mean over window tasks with budget_usd > 0 of max(0, 1 − cost_usd / budget_usd).

    SCORING.md §3: the window is the AAAF window [at − 30 days, at] (§2.1: a task belongs
    to it by the timestamp of its counting ``task_completed`` — the latest one); ``cost_usd``
    and ``budget_usd`` are optional numbers of that ``task_completed``'s data.  A plain mean,
    not recency-weighted: the contract says so for this one quantity.
    """
    from aaaf.scoring.fold import fold_tasks  # the §1 task rules live there

    require_aware(at)
    window_start = at - timedelta(days=window_days)
    by_id = {event.id: event for event in events if event.type == "task_completed"}
    ratios: list[float] = []
    used_event_ids: list[str] = []
    for _, task in sorted(fold_tasks(events).items()):
        if task.completion_event_id is None or task.completed_at is None:
            continue
        if not window_start <= task.completed_at <= at:
            continue
        completion = by_id.get(task.completion_event_id)
        if completion is None:
            continue
        cost = as_finite(completion.data.get("cost_usd"))
        budget = as_finite(completion.data.get("budget_usd"))
        if cost is None or budget is None or budget <= 0.0:
            continue
        ratios.append(max(0.0, 1.0 - cost / budget))
        used_event_ids.append(completion.id)
    details: dict[str, Any] = {
        "window_start": iso(window_start),
        "window_end": iso(at),
        "tasks_with_budget": len(ratios),
    }
    if not ratios:
        return FillIn(
            source="cost_efficiency",
            score=None,
            details=details,
            reason="no window task with both cost_usd and budget_usd > 0",
        )
    mean = math.fsum(ratios) / len(ratios)
    details["mean_efficiency"] = mean
    event_ids = tuple(sorted(used_event_ids))
    return FillIn(
        source="cost_efficiency",
        score=100.0 * mean,
        sample_size=len(ratios),
        evidence_count=len(event_ids),
        details=details,
        event_ids=event_ids,
    )


def operational_fill_ins(
    events: Sequence[EventRecord], *, at: datetime, aaaf_config: AAAFConfig | None = None
) -> dict[str, FillIn]:
    """The four operational fill-ins at ``at`` (SCORING.md §3), each on 0-100 or null.

    accuracy, reliability and latency are the §2.2 values (recency-weighted, minimums
    waived) of :func:`aaaf.scoring.aaaf.performance_dimensions` over the window ending at
    ``at`` — accuracy, consistency and speed × 100; costEfficiency is :func:`cost_efficiency`.
    """
    from aaaf.scoring.aaaf import performance_dimensions

    aaaf_config = aaaf_config or AAAFConfig()
    require_aware(at)
    operational = [event for event in events if event.type not in ("eval_result", "workflow_run")]
    performance = performance_dimensions(operational, aaaf_config, at)
    out: dict[str, FillIn] = {}
    for dimension, source in OPERATIONAL_SOURCES.items():
        if source == "cost_efficiency":
            out[dimension] = cost_efficiency(operational, at=at, window_days=aaaf_config.window_days)
            continue
        result = performance.get(source)
        if result is None:
            out[dimension] = FillIn(source=source, score=None, reason=f"AAAF {source} not computed")
            continue
        out[dimension] = FillIn(
            source=source,
            score=None if result.score is None else 100.0 * result.score,
            sample_size=result.sample_size,
            evidence_count=result.evidence_count,
            details=dict(result.details),
            reason=None if result.score is not None else (result.reason or f"AAAF {source} is null"),
            event_ids=tuple(result.event_ids),
        )
    return out
