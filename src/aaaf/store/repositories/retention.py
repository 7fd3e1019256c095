"""Retention of an organization's evidence (SCORING.md §6 "Retention", document 004 §7.3).

Events older than the organization's ``event_retention_days`` (180 by default) and stress-test
results older than ``stress_result_retention_days`` (365) are deleted; assessments, dimension
scores, appeals, audit findings and badges are kept.  An assessment whose window reaches back
before the events cut-off had its evidence (some of it) deleted: it keeps its scores, spec and
event ids (``assessment_evidence``) and records the date in ``evidence_pruned_at`` (the first
prune that touched it; a later prune leaves the date alone), so ``explain`` can say so.

Idempotent by construction: the cut-offs are computed from the ``now`` handed in, and a
second run with the same ``now`` finds nothing left to delete or mark.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, Table, delete, func, select, update

from aaaf.store import tables as t
from aaaf.store.repositories.base import OrgScoped


@dataclass(frozen=True)
class PruneCounts:
    """What one prune deleted (or, in a dry run, would delete) and marked."""

    events_before: datetime
    stress_results_before: datetime
    events: int
    stress_results: int
    assessments_marked: int

    def to_dict(self) -> dict[str, object]:
        return {
            "events_before": self.events_before.isoformat(),
            "stress_results_before": self.stress_results_before.isoformat(),
            "events": self.events,
            "stress_results": self.stress_results,
            "assessments_marked": self.assessments_marked,
        }


class RetentionRepository(OrgScoped):
    """Deleting what retention lets go of (module docstring)."""

    def prune_evidence(
        self,
        *,
        now: datetime,
        event_days: int,
        stress_result_days: int,
        dry_run: bool = False,
        rows_from: datetime | None = None,
    ) -> PruneCounts:
        """Delete (or, ``dry_run``, count) events before ``now - event_days`` and stress-test
        results before ``now - stress_result_days``, marking the assessments that lose
        evidence — all in one transaction.  With ``rows_from`` the events before it are
        counted and marked for but left to the caller, who drops their whole partitions
        (:func:`aaaf.store.event_partitions.drop_partitions_before`)."""
        events_before = now - timedelta(days=event_days)
        results_before = now - timedelta(days=stress_result_days)
        agent_ids = select(t.agents.c.id).where(t.agents.c.organization_id == self.organization_id)
        old_events = (t.events.c.agent_id.in_(agent_ids), t.events.c.timestamp < events_before)
        old_results = (
            t.stress_test_results.c.agent_id.in_(agent_ids),
            t.stress_test_results.c.executed_at < results_before,
        )
        # an assessment loses evidence when its window starts before the cut-off and events
        # of its agent that old exist (so a second run, with them gone, marks nothing)
        losing = (
            t.assessments.c.agent_id.in_(agent_ids),
            t.assessments.c.window_start < events_before,
            t.assessments.c.evidence_pruned_at.is_(None),
            select(t.events.c.id)
            .where(t.events.c.agent_id == t.assessments.c.agent_id, t.events.c.timestamp < events_before)
            .exists(),
        )
        with self._writing() as connection:

            def count(table: Table, where: tuple[ColumnElement[bool], ...]) -> int:
                return int(
                    connection.execute(select(func.count()).select_from(table).where(*where)).scalar_one()
                )

            events = count(t.events, old_events)
            results = count(t.stress_test_results, old_results)
            marked = count(t.assessments, losing)
            if not dry_run:
                connection.execute(update(t.assessments).where(*losing).values(evidence_pruned_at=now))
                deleted = (
                    old_events if rows_from is None else (*old_events, t.events.c.timestamp >= rows_from)
                )
                connection.execute(delete(t.events).where(*deleted))
                connection.execute(delete(t.stress_test_results).where(*old_results))
        return PruneCounts(events_before, results_before, int(events), int(results), int(marked))
