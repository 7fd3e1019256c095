"""Agents with stored assessments of chosen scores, for the benchmark tests (issue 20 §2)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from aaaf.scoring.defaults import AXES, COMPOSITE_DIMENSIONS
from aaaf.store import DimensionRow, OrgStore, Store

AXIS_OF = {dimension: axis for axis, dimensions in AXES.items() for dimension in dimensions}


def scored_agent(
    org: OrgStore,
    name: str,
    scores: Mapping[str, float],
    *,
    now: datetime,
    domains: Sequence[str] = ("code",),
    completed_days_ago: float = 1.0,
    valid_days: float = 90.0,
    review_state: str = "not_required",
    agent: Any = None,
) -> tuple[Any, Any]:
    """Enroll ``name`` (unless ``agent`` is given) and store a completed assessment with ``scores``
    (dimension names, and ``performance_composite`` / ``capability_composite``)."""
    if agent is None:
        agent = org.enroll_agent(name, claimed_domains=list(domains), tools=[])
    completed = now - timedelta(days=completed_days_ago)
    assessment = org.create_assessment(
        agent.id, type="passive_only", window_start=completed - timedelta(days=30), window_end=completed
    )
    rows = [
        DimensionRow(AXIS_OF[dimension], dimension, score, 10, 10, {})
        for dimension, score in scores.items()
        if dimension not in COMPOSITE_DIMENSIONS
    ]
    org.complete_assessment(
        assessment.id,
        result={},
        dimension_rows=rows,
        performance_composite=scores.get("performance_composite"),
        performance_tier=None,
        capability_composite=scores.get("capability_composite"),
        capability_tier=None,
        evidence_summary={},
        valid_until=completed + timedelta(days=valid_days),
        completed_at=completed,
        review_state=review_state,
    )
    return agent, assessment


def seeded_org(
    store: Store,
    name: str,
    accuracies: Sequence[float],
    *,
    now: datetime,
    opt_in: bool = True,
    domains: Sequence[str] = ("code",),
) -> OrgStore:
    """An organization (opted in unless told) with one agent per accuracy score."""
    organization = store.create_organization(name, config={"benchmark_opt_in": opt_in})
    org = store.scope(organization.id)
    for index, accuracy in enumerate(accuracies):
        scored_agent(org, f"{name}-agent-{index}", {"accuracy": accuracy}, now=now, domains=domains)
    return org
