"""Stress runs: a run of the stress-test library against an agent, and its results
(SCORING.md §7 "Stress runs", issue 15).

A run records its organization, agent, adapter, what was run, the library and version,
when it started and finished; its ``stress_test_results`` reference it, with the task
definitions in ``stress_tests`` (the standard library's with ``organization_id`` null, an
organization's own tasks with its id — document 004 §7 ``stress_tests.organization_id``).
``assessment_id`` (on the run and its results) is null until an assessment merges the run.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Row, insert, select, update

from aaaf.store import tables as t
from aaaf.store.repositories.base import OrgScoped, as_uuid, not_found, now_utc
from aaaf.store.row_mapping import record_from_row


@dataclass(frozen=True)
class StressRun:
    id: uuid.UUID
    agent_id: uuid.UUID
    adapter: str
    agent_reference: str
    library: str
    library_version: str
    status: str
    started_at: datetime
    finished_at: datetime | None
    log_path: str | None
    summary: Mapping[str, Any]
    assessment_id: uuid.UUID | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "agent_id": str(self.agent_id),
            "adapter": self.adapter,
            "agent_reference": self.agent_reference,
            "library": self.library,
            "library_version": self.library_version,
            "status": self.status,
            "started_at": self.started_at.isoformat(),
            "finished_at": None if self.finished_at is None else self.finished_at.isoformat(),
            "log_path": self.log_path,
            "summary": dict(self.summary),
            "assessment_id": None if self.assessment_id is None else str(self.assessment_id),
        }


@dataclass(frozen=True)
class StressResultRow:
    """One graded task of a run, with the definition it ran (stored once per key)."""

    task_key: str
    own: bool
    """An organization's own task (else the standard library's)."""
    dimension: str
    complexity_level: int | None
    domain: str | None
    task_definition: Mapping[str, Any]
    outcome: str  # pass | partial | fail (document 004 §7.2)
    score: float | None
    details: Mapping[str, Any]
    executed_at: datetime


def _run_from_row(row: Row[Any]) -> StressRun:
    return record_from_row(StressRun, row)


class StressRunRepository(OrgScoped):
    """Stress runs of the organization's agents."""

    def create_stress_run(
        self,
        agent_id: uuid.UUID,
        *,
        adapter: str,
        agent_reference: str,
        library: str,
        library_version: str,
        started_at: datetime | None = None,
    ) -> StressRun:
        run_id = uuid.uuid4()
        with self._writing() as connection:
            connection.execute(
                insert(t.stress_runs).values(
                    id=run_id,
                    organization_id=self.organization_id,
                    agent_id=agent_id,
                    adapter=adapter,
                    agent_reference=agent_reference[:1000],
                    library=library,
                    library_version=library_version,
                    status="running",
                    started_at=started_at or now_utc(),
                    summary={},
                )
            )
        return self.get_stress_run(run_id)

    def get_stress_run(self, run_id: uuid.UUID | str) -> StressRun:
        wanted = as_uuid(run_id)
        with self._reading() as connection:
            row = connection.execute(
                select(t.stress_runs).where(
                    t.stress_runs.c.id == wanted, t.stress_runs.c.organization_id == self.organization_id
                )
            ).one_or_none()
        if row is None:
            raise not_found("Stress run", run_id)
        return _run_from_row(row)

    def stress_runs(self, agent_id: uuid.UUID | None = None) -> list[StressRun]:
        """The organization's runs (one agent's when given), oldest first."""
        query = select(t.stress_runs).where(t.stress_runs.c.organization_id == self.organization_id)
        if agent_id is not None:
            query = query.where(t.stress_runs.c.agent_id == agent_id)
        with self._reading() as connection:
            rows = connection.execute(query.order_by(t.stress_runs.c.started_at, t.stress_runs.c.id)).all()
        return [_run_from_row(row) for row in rows]

    def finish_stress_run(
        self,
        run_id: uuid.UUID,
        *,
        status: str,
        finished_at: datetime,
        log_path: str | None,
        summary: Mapping[str, Any],
        results: Sequence[StressResultRow],
    ) -> StressRun:
        """Store the run's results (and the definitions not stored yet) and close it."""
        run = self.get_stress_run(run_id)
        with self._writing() as connection:
            keys = sorted({r.task_key for r in results})
            known: dict[tuple[str, bool], uuid.UUID] = {}
            if keys:
                rows = connection.execute(
                    select(
                        t.stress_tests.c.id, t.stress_tests.c.task_key, t.stress_tests.c.organization_id
                    ).where(
                        t.stress_tests.c.task_key.in_(keys),
                        (t.stress_tests.c.organization_id == self.organization_id)
                        | t.stress_tests.c.organization_id.is_(None),
                    )
                ).all()
                known = {(row.task_key, row.organization_id is not None): row.id for row in rows}
            for result in results:
                key = (result.task_key, result.own)
                if key not in known:
                    known[key] = uuid.uuid4()
                    connection.execute(
                        insert(t.stress_tests).values(
                            id=known[key],
                            organization_id=self.organization_id if result.own else None,
                            dimension=result.dimension,
                            complexity_level=result.complexity_level,
                            domain=result.domain,
                            task_definition=dict(result.task_definition),
                            expected_outcome=None,
                            task_key=result.task_key,
                            created_at=now_utc(),
                        )
                    )
                connection.execute(
                    insert(t.stress_test_results).values(
                        id=uuid.uuid4(),
                        assessment_id=None,
                        run_id=run.id,
                        stress_test_id=known[key],
                        agent_id=run.agent_id,
                        outcome=result.outcome,
                        score=result.score,
                        details=dict(result.details),
                        executed_at=result.executed_at,
                    )
                )
            connection.execute(
                update(t.stress_runs)
                .where(t.stress_runs.c.id == run.id)
                .values(status=status, finished_at=finished_at, log_path=log_path, summary=dict(summary))
            )
        return self.get_stress_run(run_id)

    def stress_run_results(self, run_id: uuid.UUID) -> list[dict[str, Any]]:
        """A run's results in execution order: outcome, score, details, the task's key."""
        run = self.get_stress_run(run_id)
        results, tests = t.stress_test_results, t.stress_tests
        with self._reading() as connection:
            rows = connection.execute(
                select(results, tests.c.task_key)
                .join(tests, tests.c.id == results.c.stress_test_id)
                .where(results.c.run_id == run.id)
                .order_by(results.c.executed_at, results.c.id)
            ).all()
        return [
            {
                "task_key": row.task_key,
                "outcome": row.outcome,
                "score": row.score,
                "details": dict(row.details),
                "assessment_id": None if row.assessment_id is None else str(row.assessment_id),
            }
            for row in rows
        ]

    def merge_stress_runs(self, run_ids: Sequence[uuid.UUID], assessment_id: uuid.UUID) -> None:
        """Record that an assessment merged these runs' evidence (their results' too)."""
        if not run_ids:
            return
        with self._writing() as connection:
            connection.execute(
                update(t.stress_runs)
                .where(
                    t.stress_runs.c.id.in_(list(run_ids)),
                    t.stress_runs.c.organization_id == self.organization_id,
                    t.stress_runs.c.assessment_id.is_(None),
                )
                .values(assessment_id=assessment_id)
            )
            connection.execute(
                update(t.stress_test_results)
                .where(
                    t.stress_test_results.c.run_id.in_(list(run_ids)),
                    t.stress_test_results.c.assessment_id.is_(None),
                )
                .values(assessment_id=assessment_id)
            )
