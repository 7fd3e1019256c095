"""Retention (SCORING.md §6 "Retention", document 004 §7.3): ``aaaf db prune`` and the daily
periodic job delete events and stress-test results past each organization's retention
(``event_retention_days``, 180; ``stress_result_retention_days``, 365); assessments, scores,
appeals, audit findings and badges are kept, and an assessment that lost evidence records
when (``evidence_pruned_at``, shown by ``explain``).  Idempotent for a given ``now``.

On PostgreSQL events are partitioned by month (:mod:`aaaf.store.event_partitions`):
:func:`prune_all` drops whole the months that are past every organization's retention
(before the month of the oldest cut-off) instead of deleting their rows one by one, and
deletes rows only for the rest; the counts and the assessments marked are the same.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from aaaf.store.event_partitions import month_start

if TYPE_CHECKING:
    from aaaf.store.org_store import OrgStore
    from aaaf.store.repositories.retention import PruneCounts
    from aaaf.store.store import Store


def prune_organization(
    org: OrgStore, *, now: datetime, dry_run: bool = False, rows_from: datetime | None = None
) -> PruneCounts:
    """Prune one organization with its own retention settings; returns the counts.  Events
    before ``rows_from`` are counted but left for :func:`prune_all` to drop by partition."""
    config = org.config()
    return org.prune_evidence(
        now=now,
        event_days=config.event_retention_days,
        stress_result_days=config.stress_result_retention_days,
        dry_run=dry_run,
        rows_from=rows_from,
    )


def prune_all(store: Store, *, now: datetime, dry_run: bool = False) -> dict[str, PruneCounts]:
    """Prune every organization; ``{organization name: counts}``."""
    scopes = [(organization.name, store.scope(organization.id)) for organization in store.organizations()]
    boundary = None
    if store.dialect == "postgresql" and scopes:
        oldest_cutoff = min(now - timedelta(days=org.config().event_retention_days) for _, org in scopes)
        boundary = month_start(oldest_cutoff)  # the months before it are past every retention
    out: dict[str, PruneCounts] = {}
    for name, org in scopes:
        out[name] = prune_organization(org, now=now, dry_run=dry_run, rows_from=boundary)
    if boundary is not None and not dry_run:
        store.drop_event_partitions_before(boundary)
    return out
