"""Stress runs: a run of the stress-test library against an agent, and its results
(SCORING.md §7 "Stress runs", issue 15).

A run records its organization, agent, adapter, what was run, the library and version,
when it started and finished; its ``stress_test_results`` reference it, with the task
definitions in ``stress_tests`` (the standard library's with ``organization_id`` null, an
organization's own tasks with its id — document 004 §7 ``stress_tests.organization_id``).
``assessment_id`` (on the run and its results) is null until an assessment merges the run.

A run requested over HTTP is a job (0017; :mod:`aaaf.services.stress_jobs`): recorded
``queued`` with its ``request`` and the agent's sealed key, claimed ``running`` by a worker
when its organization has a free slot (:meth:`StressRunRepository.claim_stress_run`, atomic:
the organization's row is locked on PostgreSQL, SQLite writes one at a time), kept under a
lease its executor renews (``heartbeat_at``), and resumed from scratch — the evidence of the
interrupted attempt discarded — when the lease lapses.  The sealed key is wiped when the run
ends and is read only by :meth:`~StressRunRepository.stress_run_sealed_key`, never with the run.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Row, delete, func, insert, null, select, update

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
    started_at: datetime | None
    """When its (latest) attempt started; None while ``queued``."""
    finished_at: datetime | None
    log_path: str | None
    summary: Mapping[str, Any]
    assessment_id: uuid.UUID | None
    created_at: datetime
    request: Mapping[str, object] | None = None
    """What a queued run's job runs (agent_url, model, dimension, task_ids, parallel); None for
    a run the CLI ran itself.  Never the agent's key (sealed apart)."""
    attempts: int = 0
    heartbeat_at: datetime | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "id": str(self.id),
            "agent_id": str(self.agent_id),
            "adapter": self.adapter,
            "agent_reference": self.agent_reference,
            "library": self.library,
            "library_version": self.library_version,
            "status": self.status,
            "created_at": self.created_at.isoformat(),
            "started_at": None if self.started_at is None else self.started_at.isoformat(),
            "finished_at": None if self.finished_at is None else self.finished_at.isoformat(),
            "attempts": self.attempts,
            "request": None if self.request is None else dict(self.request),
            "log_path": self.log_path,
            "summary": dict(self.summary),
            "assessment_id": None if self.assessment_id is None else str(self.assessment_id),
        }


@dataclass(frozen=True)
class Claim:
    """What :meth:`StressRunRepository.claim_stress_run` did with a run.

    ``outcome``: ``claimed`` (queued → running), ``resumed`` (running, its lease lapsed: started
    over), ``waiting`` (queued, the organization has no free slot), ``busy`` (running under a
    live lease: someone else runs it), ``exhausted`` (its lease lapsed after ``max_attempts``
    starts: the caller fails it), ``done`` (finished or failed: nothing to do)."""

    outcome: str
    run: StressRun

    @property
    def runs_it(self) -> bool:
        return self.outcome in ("claimed", "resumed")


@dataclass(frozen=True)
class StressResultRow:
    """One graded task of a run, with the definition it ran (stored once per key)."""

    task_key: str
    own: bool
    """An organization's own task (else the standard library's)."""
    dimension: str
    complexity_level: int | None
    domain: str | None
    task_definition: Mapping[str, object]
    outcome: str  # pass | partial | fail (document 004 §7.2)
    score: float | None
    details: Mapping[str, object]
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
        queued: bool = False,
        request: Mapping[str, object] | None = None,
        agent_api_key_sealed: str | None = None,
    ) -> StressRun:
        """Record a run: ``running`` from ``started_at`` (the CLI runs it at once), or
        ``queued`` with the ``request`` its job runs and the agent's sealed key."""
        run_id = uuid.uuid4()
        created = started_at or now_utc()
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
                    status="queued" if queued else "running",
                    created_at=created,
                    started_at=None if queued else created,
                    summary={},
                    # SQL NULL, not JSON null, for a run without one (the sweep asks IS NOT NULL)
                    request=null() if request is None else dict(request),
                    agent_api_key_sealed=agent_api_key_sealed,
                )
            )
            row = connection.execute(select(t.stress_runs).where(t.stress_runs.c.id == run_id)).one()
        return _run_from_row(row)

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
            rows = connection.execute(query.order_by(t.stress_runs.c.created_at, t.stress_runs.c.id)).all()
        return [_run_from_row(row) for row in rows]

    def stress_run_sealed_key(self, run_id: uuid.UUID) -> str | None:
        """The agent's key of a run as stored (sealed; None when it has none, or once the run
        ended): read by the run's job alone, never with the run."""
        with self._reading() as connection:
            return connection.execute(
                select(t.stress_runs.c.agent_api_key_sealed).where(
                    t.stress_runs.c.id == run_id, t.stress_runs.c.organization_id == self.organization_id
                )
            ).scalar_one_or_none()

    def queued_stress_runs(self, limit: int) -> list[StressRun]:
        """The organization's oldest ``queued`` runs (at most ``limit``): the next to start."""
        query = (
            select(t.stress_runs)
            .where(
                t.stress_runs.c.organization_id == self.organization_id, t.stress_runs.c.status == "queued"
            )
            .order_by(t.stress_runs.c.created_at, t.stress_runs.c.id)
            .limit(limit)
        )
        with self._reading() as connection:
            return [_run_from_row(row) for row in connection.execute(query).all()]

    def claim_stress_run(
        self,
        run_id: uuid.UUID,
        *,
        now: datetime,
        running_limit: int,
        lease_lapsed_before: datetime,
        max_attempts: int,
    ) -> Claim:
        """Take a run for its job, in one write transaction (the :class:`Claim`'s outcomes).

        A ``queued`` run starts only while fewer than ``running_limit`` runs of the organization
        are ``running``: the organization's row is locked first (``SELECT … FOR UPDATE`` on
        PostgreSQL; SQLite's write transactions are one at a time), so two workers never both
        take the last slot.  A ``running`` run whose lease was last renewed before
        ``lease_lapsed_before`` lost its executor: it starts over (``resumed``), unless it has
        already been started ``max_attempts`` times (``exhausted``)."""
        runs = t.stress_runs
        with self._writing() as connection:
            connection.execute(
                select(t.organizations.c.id)
                .where(t.organizations.c.id == self.organization_id)
                .with_for_update()
            )
            row = connection.execute(
                select(runs).where(runs.c.id == run_id, runs.c.organization_id == self.organization_id)
            ).one_or_none()
            if row is None:
                raise not_found("Stress run", run_id)
            run = _run_from_row(row)
            if run.status in ("finished", "failed"):
                return Claim("done", run)
            if run.status == "running":
                lease = run.heartbeat_at or run.started_at
                if lease is not None and lease >= lease_lapsed_before:
                    return Claim("busy", run)
                if run.attempts >= max_attempts:
                    return Claim("exhausted", run)
                outcome = "resumed"
            else:
                running = connection.execute(
                    select(func.count())
                    .select_from(runs)
                    .where(runs.c.organization_id == self.organization_id, runs.c.status == "running")
                ).scalar_one()
                if running >= running_limit:
                    return Claim("waiting", run)
                outcome = "claimed"
            connection.execute(
                update(runs)
                .where(runs.c.id == run.id)
                .values(status="running", started_at=now, heartbeat_at=now, attempts=runs.c.attempts + 1)
            )
            row = connection.execute(select(runs).where(runs.c.id == run.id)).one()
        return Claim(outcome, _run_from_row(row))

    def renew_stress_run_lease(self, run_id: uuid.UUID, now: datetime) -> bool:
        """Renew a running run's lease; False when it is no longer running."""
        runs = t.stress_runs
        with self._writing() as connection:
            result = connection.execute(
                update(runs)
                .where(
                    runs.c.id == run_id,
                    runs.c.organization_id == self.organization_id,
                    runs.c.status == "running",
                )
                .values(heartbeat_at=now)
            )
        return bool(result.rowcount)

    def discard_stress_run_evidence(self, run_id: uuid.UUID, task_id_prefix: str) -> int:
        """Delete what an interrupted attempt of a run stored — the events of its agent whose
        ``task_id`` starts with ``task_id_prefix`` (the run's evidence tasks) and its results —
        so that the attempt that starts over stores them once; how many events went."""
        run = self.get_stress_run(run_id)
        with self._writing() as connection:
            removed = connection.execute(
                delete(t.events).where(
                    t.events.c.agent_id == run.agent_id,
                    t.events.c.task_id.startswith(task_id_prefix, autoescape=True),
                )
            )
            connection.execute(delete(t.stress_test_results).where(t.stress_test_results.c.run_id == run.id))
        return int(removed.rowcount)

    def finish_stress_run(
        self,
        run_id: uuid.UUID,
        *,
        status: str,
        finished_at: datetime,
        log_path: str | None,
        summary: Mapping[str, object],
        results: Sequence[StressResultRow],
    ) -> StressRun:
        """Store the run's results (and the definitions not stored yet) and close it, wiping
        its sealed key.  A run already closed is left as it is (its job ran twice)."""
        run = self.get_stress_run(run_id)
        with self._writing() as connection:
            current = connection.execute(
                select(t.stress_runs.c.status).where(t.stress_runs.c.id == run.id).with_for_update()
            ).scalar_one()
            if current in ("finished", "failed"):
                row = connection.execute(select(t.stress_runs).where(t.stress_runs.c.id == run.id)).one()
                return _run_from_row(row)
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
                .values(
                    status=status,
                    finished_at=finished_at,
                    log_path=log_path,
                    summary=dict(summary),
                    agent_api_key_sealed=None,
                )
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

    def results_of_stress_runs(self, run_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, list[dict[str, Any]]]:
        """The results of each of these runs of the organization (as :meth:`stress_run_results`
        gives one run's), in one query whatever their number (the agent page lists them all);
        a run without results, or not this organization's, has an empty list."""
        results, tests, runs = t.stress_test_results, t.stress_tests, t.stress_runs
        out: dict[uuid.UUID, list[dict[str, Any]]] = {run_id: [] for run_id in run_ids}
        if not out:
            return out
        with self._reading() as connection:
            rows = connection.execute(
                select(results, tests.c.task_key)
                .join(tests, tests.c.id == results.c.stress_test_id)
                .join(runs, runs.c.id == results.c.run_id)
                .where(runs.c.organization_id == self.organization_id, results.c.run_id.in_(list(out)))
                .order_by(results.c.executed_at, results.c.id)
            ).all()
        for row in rows:
            out[row.run_id].append(
                {
                    "task_key": row.task_key,
                    "outcome": row.outcome,
                    "score": row.score,
                    "details": dict(row.details),
                    "assessment_id": None if row.assessment_id is None else str(row.assessment_id),
                }
            )
        return out

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
