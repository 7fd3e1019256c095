"""Small builders for the store tests: an event shaped like the evidence package's
``ValidEvent`` (the store accepts any object with these attributes) and fixed instants."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from aaaf.store import Agent, Assessment, DimensionRow, OrgStore, Store

T0 = datetime(2026, 4, 16, 12, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Event:
    type: str
    timestamp: datetime
    data: Mapping[str, Any] = field(default_factory=dict)
    task_id: str | None = None
    key: str | None = None
    agent: str = "ignored-by-the-store"


def completed(task_id: str, at: datetime, *, key: str | None = None, **data: Any) -> Event:
    payload = {
        "task_id": task_id,
        "completion_status": "accepted",
        "time_to_complete_seconds": 600,
        "revision_count": 0,
        "errors": [],
        **data,
    }
    return Event("task_completed", at, payload, task_id, key)


def org_of(store: Store, name: str = "org") -> OrgStore:
    return store.scope(store.create_organization(name).id)


def minutes(count: float) -> timedelta:
    return timedelta(minutes=count)


PERFORMANCE_ROWS = [
    DimensionRow("performance", "task_completion_rate", 0.1 + 0.2, 47, 47, {"weighted_credit": 14.1}),
    DimensionRow("performance", "accuracy", 2 / 3, 47, 52, {"from_revisions": 0.7, "from_errors": 0.6}),
    DimensionRow("performance", "speed", 0.7234567890123456, 47, 47, {}),
    DimensionRow(
        "performance", "consistency", None, 0, 47, {}, "no (domain, level) group with ≥ 5 completed tasks"
    ),
    DimensionRow("performance", "review_compliance", 1e-17, 3, 3, {"items": 4}),
]


def completed_assessment(
    org: OrgStore,
    agent: Agent,
    *,
    type: str = "passive_only",
    window_end: datetime = T0,
    completed_at: datetime = T0,
    valid_until: datetime = T0 + timedelta(days=90),
    review_state: str = "not_required",
    created_at: datetime | None = None,
) -> Assessment:
    """A completed assessment of ``agent`` with the fixed scores of :data:`PERFORMANCE_ROWS`
    (composites 0.5 Competent and 0.3 Functional)."""
    extra: dict[str, Any] = {} if created_at is None else {"created_at": created_at}
    running = org.create_assessment(
        agent.id, type=type, window_start=T0 - minutes(60), window_end=window_end, **extra
    )
    return org.complete_assessment(
        running.id,
        result={"type": type},
        dimension_rows=PERFORMANCE_ROWS,
        performance_composite=0.5,
        performance_tier="Competent",
        capability_composite=0.3,
        capability_tier="Functional",
        evidence_summary={},
        valid_until=valid_until,
        completed_at=completed_at,
        review_state=review_state,
    )


def finished_stress_run(org: OrgStore, agent_id: Any, *, now: datetime, tasks: int) -> Any:
    """A finished stress run of ``tasks`` speed results (pass, partial, fail in turn), the
    first executed last: stored newest first, a run's own read gives them oldest first."""
    from aaaf.store.repositories.stress_runs import StressResultRow

    run = org.create_stress_run(
        agent_id, adapter="subprocess", agent_reference="ref", library="standard", library_version="1"
    )
    rows = [
        StressResultRow(
            task_key=f"speed-{index}",
            own=True,
            dimension="speed",
            complexity_level=None,
            domain=None,
            task_definition={},
            outcome=("pass", "partial", "fail")[index % 3],
            score=index / 10,
            details={"index": index},
            executed_at=now - timedelta(seconds=index),
        )
        for index in range(tasks)
    ]
    return org.finish_stress_run(
        run.id, status="finished", finished_at=now, log_path=None, summary={}, results=rows
    )
