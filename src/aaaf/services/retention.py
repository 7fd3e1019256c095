"""Retention (SCORING.md §6 "Retention", document 004 §7.3): ``aaaf db prune`` and the daily
periodic job delete events and stress-test results past each organization's retention
(``event_retention_days``, 180; ``stress_result_retention_days``, 365); assessments, scores,
appeals, audit findings and badges are kept, and an assessment that lost evidence records
when (``evidence_pruned_at``, shown by ``explain``).  Idempotent for a given ``now``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any


def prune_organization(org: Any, *, now: datetime, dry_run: bool = False) -> Any:
    """Prune one organization with its own retention settings; returns the counts."""
    config = org.config()
    return org.prune_evidence(
        now=now,
        event_days=config.event_retention_days,
        stress_result_days=config.stress_result_retention_days,
        dry_run=dry_run,
    )


def prune_all(store: Any, *, now: datetime, dry_run: bool = False) -> dict[str, Any]:
    """Prune every organization; ``{organization name: counts}``."""
    out: dict[str, Any] = {}
    for organization in store.organizations():
        out[organization.name] = prune_organization(store.scope(organization.id), now=now, dry_run=dry_run)
    return out
