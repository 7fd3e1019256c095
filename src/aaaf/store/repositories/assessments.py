"""Assessments and their dimension scores (document 004 §7.2; SCORING.md §2.4).

Part of the organization's repositories (:class:`aaaf.store.org_store.OrgStore`); it extends
:class:`EventRepository` so that its methods may use every earlier concept's.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, NamedTuple

from sqlalchemy import Connection, Row, Select, insert, literal, select, update
from sqlalchemy.exc import IntegrityError

from aaaf.errors import AAAFError
from aaaf.models.stored_result import stored_result_dict, upgraded
from aaaf.scoring.defaults import AXES as AXIS_DIMENSIONS
from aaaf.scoring.trace import DimensionEvidence
from aaaf.store import tables as t
from aaaf.store.evidence import evidence_values, read_evidence, write_evidence
from aaaf.store.records import (
    Appeal,
    Assessment,
    AssessmentEvidence,
    DimensionScore,
)
from aaaf.store.repositories.base import as_uuid, check_one_of, not_found
from aaaf.store.repositories.events import EventRepository
from aaaf.store.row_mapping import record_from_row
from aaaf.store.summary_writes import refresh_agent_summaries

if TYPE_CHECKING:  # a type only: the scheme specs (pydantic) load when an assessment is written
    from aaaf.scoring.spec import SchemeSpec

# an assessment waiting for a worker or being scored: at most one per agent (migration 0010)
RUNNING_STATUSES = ("pending", "in_progress")

# an appeal still waiting for its decision (SCORING.md §7: at most one per assessment)
OPEN_APPEAL_STATUSES = ("filed", "under_review")


class DimensionRow(NamedTuple):
    """One dimension result to store (SCORING.md §0): ``score`` None is stored as NULL."""

    axis: str
    dimension: str
    score: float | None
    sample_size: int
    evidence_count: int
    details: Mapping[str, object]
    reason: str | None = None


def _dimension_order(axis: str, dimension: str) -> tuple[int, int, str]:
    """Performance before capability, each in its document order (SCORING.md §2.2, §2.3)."""
    axis_rank = t.AXES.index(axis) if axis in t.AXES else len(t.AXES)
    names = AXIS_DIMENSIONS.get(axis, ())
    dimension_rank = names.index(dimension) if dimension in names else len(names)
    return axis_rank, dimension_rank, dimension


def _dimension_from_row(row: Row[Any]) -> DimensionScore:
    return record_from_row(DimensionScore, row)


def appeal_from_row(row: Row[Any]) -> Appeal:
    return record_from_row(Appeal, row, counter_evidence=tuple(dict(item) for item in row.counter_evidence))


def assessment_from_row(
    row: Row[Any], dimensions: Sequence[DimensionScore] = (), appeals: Sequence[Appeal] = ()
) -> Assessment:
    return Assessment(
        id=row.id,
        agent_id=row.agent_id,
        agent_name=row.agent_name,
        organization_id=row.organization_id,
        type=row.type,
        status=row.status,
        dimension=row.dimension,
        window_start=row.window_start,
        window_end=row.window_end,
        performance_composite=row.performance_composite,
        performance_tier=row.performance_tier,
        capability_composite=row.capability_composite,
        capability_tier=row.capability_tier,
        evidence_summary=row.evidence_summary,
        result=None if row.result is None else upgraded(row.result),  # any stored version, as the current
        error=row.error,
        anomalous=bool(row.anomalous),
        review_state=row.review_state,
        valid_until=row.valid_until,
        created_at=row.created_at,
        completed_at=row.completed_at,
        dimensions=tuple(sorted(dimensions, key=lambda d: _dimension_order(d.axis, d.dimension))),
        appeals=tuple(appeals),
        reviewed_by=row.reviewed_by,
        reviewed_at=row.reviewed_at,
        evidence_pruned_at=row.evidence_pruned_at,
    )


def _chunks(ids: Sequence[uuid.UUID], size: int = 500) -> list[Sequence[uuid.UUID]]:
    """``ids`` in runs of ``size``: an ``IN`` list each, within SQLite's bound parameters."""
    return [ids[start : start + size] for start in range(0, len(ids), size)]


def dimension_row_values(assessment_id: uuid.UUID, row: DimensionRow | tuple[Any, ...]) -> dict[str, Any]:
    dim = row if isinstance(row, DimensionRow) else DimensionRow(*row)
    check_one_of("axis", dim.axis, t.AXES)
    return {
        "assessment_id": assessment_id,
        "axis": dim.axis,
        "dimension": dim.dimension,
        "score": None if dim.score is None else float(dim.score),
        "sample_size": int(dim.sample_size),
        "evidence_count": int(dim.evidence_count),
        "details": dict(dim.details),
        "reason": dim.reason,
    }


class AssessmentRepository(EventRepository):
    """Assessments and their dimension scores (document 004 §7.2; SCORING.md §2.4)."""

    def _assessment_query(self) -> Select[Any]:
        return (
            select(
                t.assessments,
                t.agents.c.name.label("agent_name"),
                t.agents.c.organization_id.label("organization_id"),
            )
            .join(t.agents, t.agents.c.id == t.assessments.c.agent_id)
            .where(t.agents.c.organization_id == self.organization_id)
        )

    def _assessment_row(self, connection: Connection, assessment_id: uuid.UUID | str) -> Row[Any]:
        wanted = as_uuid(assessment_id)
        row = None
        if wanted is not None:
            row = connection.execute(
                self._assessment_query().where(t.assessments.c.id == wanted)
            ).one_or_none()
        if row is None:
            raise not_found("Assessment", assessment_id)
        return row

    def _load_assessment(self, connection: Connection, assessment_id: uuid.UUID | str) -> Assessment:
        row = self._assessment_row(connection, assessment_id)
        dimensions = [
            _dimension_from_row(dim)
            for dim in connection.execute(
                select(t.dimension_scores).where(t.dimension_scores.c.assessment_id == row.id)
            )
        ]
        appeals = [
            appeal_from_row(appeal)
            for appeal in connection.execute(
                select(t.appeals)
                .where(t.appeals.c.assessment_id == row.id)
                .order_by(t.appeals.c.filed_at, t.appeals.c.id)
            )
        ]
        return assessment_from_row(row, dimensions, appeals)

    def create_assessment(
        self,
        agent_id: uuid.UUID | str,
        *,
        type: str,
        window_start: datetime,
        window_end: datetime,
        dimension: str | None = None,
        created_at: datetime | None = None,
        status: str = "in_progress",
    ) -> Assessment:
        """Start an assessment of the agent ``agent_id`` (its id or name): :meth:`create_assessments`
        of one agent."""
        with self._reading() as connection:
            agent = self._require_agent(connection, agent_id)
        (record,) = self.create_assessments(
            [agent.id],
            type=type,
            window_start=window_start,
            window_end=window_end,
            dimension=dimension,
            created_at=created_at,
            status=status,
        )
        return record

    def create_assessments(
        self,
        agent_ids: Sequence[uuid.UUID],
        *,
        type: str,
        window_start: datetime,
        window_end: datetime,
        dimension: str | None = None,
        created_at: datetime | None = None,
        status: str = "in_progress",
    ) -> list[Assessment]:
        """Start an assessment of each of the agents ``agent_ids``, all of them or none (one
        read of the agents, one of the assessments they have running, one insert, one read of
        the records): ``in_progress`` (scored at once, the CLI) or ``pending`` (a trigger a
        worker takes up, issue 14).

        ``NOT_FOUND`` for an agent not the organization's; ``ASSESSMENT_IN_PROGRESS`` (document
        004 §6.4) if an agent already has one pending or running — enforced by the partial
        unique index ``uq_assessments_one_running``, so two concurrent starts cannot both
        succeed.  A ``single_dimension`` assessment names its dimension.
        """
        check_one_of("type", type, t.ASSESSMENT_TYPES)
        check_one_of("status", status, RUNNING_STATUSES)
        if type == "single_dimension" and not dimension:
            raise AAAFError(
                "INVALID_REQUEST",
                "A single_dimension assessment must name its dimension.",
                {"field": "dimension"},
            )
        stamp = created_at or self._clock()
        ids = [uuid.uuid4() for _ in agent_ids]
        rows = [
            {
                "id": assessment_id,
                "agent_id": agent_id,
                "type": type,
                "status": status,
                "dimension": dimension,
                "window_start": window_start,
                "window_end": window_end,
                "anomalous": False,
                "review_state": "not_required",
                "created_at": stamp,
            }
            for assessment_id, agent_id in zip(ids, agent_ids, strict=True)
        ]
        if not rows:
            return []
        a = t.assessments
        try:
            with self._writing() as connection:
                names: dict[uuid.UUID, str] = {}
                running: dict[uuid.UUID, uuid.UUID] = {}
                for chunk in _chunks(list(dict.fromkeys(agent_ids))):
                    names.update(
                        (row.id, row.name)
                        for row in connection.execute(
                            select(t.agents.c.id, t.agents.c.name).where(
                                t.agents.c.organization_id == self.organization_id, t.agents.c.id.in_(chunk)
                            )
                        )
                    )
                    running.update(
                        (row.agent_id, row.id)
                        for row in connection.execute(
                            select(a.c.agent_id, a.c.id).where(
                                a.c.agent_id.in_(chunk), a.c.status.in_(RUNNING_STATUSES)
                            )
                        )
                    )
                started: set[uuid.UUID] = set()
                for agent_id in agent_ids:
                    if agent_id not in names:
                        raise not_found("Agent", agent_id)
                    if agent_id in running or agent_id in started:  # already, or twice in the list
                        raise self._in_progress(names[agent_id], running.get(agent_id))
                    started.add(agent_id)
                connection.execute(insert(a), rows)
                found = {
                    row.id: row
                    for chunk in _chunks(ids)
                    for row in connection.execute(self._assessment_query().where(a.c.id.in_(chunk)))
                }
        except IntegrityError as error:  # a concurrent start won the race
            raise self._in_progress(self._raced(agent_ids), None) from error
        return [assessment_from_row(found[assessment_id]) for assessment_id in ids]

    def _raced(self, agent_ids: Sequence[uuid.UUID]) -> str:
        """The agent (its id) among ``agent_ids`` a concurrent start took first."""
        a = t.assessments
        with self._reading() as connection:
            for chunk in _chunks(agent_ids):
                raced = connection.execute(
                    select(a.c.agent_id)
                    .where(a.c.agent_id.in_(chunk), a.c.status.in_(RUNNING_STATUSES))
                    .limit(1)
                ).scalar_one_or_none()
                if raced is not None:
                    return str(raced)
        return str(agent_ids[0])

    @staticmethod
    def _in_progress(agent: str, running: uuid.UUID | None) -> AAAFError:
        details: dict[str, object] = {"agent": agent}
        if running is not None:
            details["assessment_id"] = str(running)
        return AAAFError(
            "ASSESSMENT_IN_PROGRESS", f"An assessment is already running for agent {agent}.", details
        )

    def _require_status(self, row: Row[Any], allowed: Sequence[str], action: str) -> None:
        if row.status not in allowed:
            raise AAAFError(
                "CONFLICT",
                f"Cannot {action} assessment {row.id}: it is {row.status}.",
                {"assessment_id": str(row.id), "status": row.status},
            )

    def complete_assessment(
        self,
        assessment_id: uuid.UUID,
        *,
        result: Mapping[str, object],
        dimension_rows: Sequence[DimensionRow | tuple[Any, ...]],
        performance_composite: float | None,
        performance_tier: str | None,
        capability_composite: float | None,
        capability_tier: str | None,
        evidence_summary: Mapping[str, object],
        valid_until: datetime | None,
        completed_at: datetime,
        anomalous: bool = False,
        review_state: str = "not_required",
        spec: SchemeSpec | None = None,
        trace: DimensionEvidence | None = None,
    ) -> Assessment:
        """Record a finished assessment and its dimension rows in one transaction.

        Only an ``in_progress`` (or ``pending``) assessment can complete (else ``CONFLICT``).
        ``spec`` and ``trace`` (the scheme spec and the event ids each dimension used) are
        stored in ``assessment_evidence`` in the same transaction.
        """
        check_one_of("review_state", review_state, t.REVIEW_STATES)
        with self._writing() as connection:
            row = self._assessment_row(connection, assessment_id)
            self._require_status(row, RUNNING_STATUSES, "complete")
            # the status is checked again by the UPDATE itself: of two workers finishing the same
            # assessment (a stalled job retried), only the first one writes (issue 14)
            finished = connection.execute(
                update(t.assessments)
                .where(t.assessments.c.id == row.id, t.assessments.c.status.in_(RUNNING_STATUSES))
                .values(
                    status="completed",
                    result=stored_result_dict(result),
                    performance_composite=performance_composite,
                    performance_tier=performance_tier,
                    capability_composite=capability_composite,
                    capability_tier=capability_tier,
                    evidence_summary=dict(evidence_summary),
                    valid_until=valid_until,
                    completed_at=completed_at,
                    anomalous=anomalous,
                    review_state=review_state,
                )
            )
            if finished.rowcount != 1:
                self._require_status(self._assessment_row(connection, row.id), (), "complete")
            rows = [
                {"id": uuid.uuid4(), **dimension_row_values(row.id, dim), "created_at": completed_at}
                for dim in dimension_rows
            ]
            if rows:
                connection.execute(insert(t.dimension_scores), rows)
            if spec is not None:
                write_evidence(connection, evidence_values(row.id, spec, trace))
            refresh_agent_summaries(connection, self.organization_id, [row.agent_id])
            return self._load_assessment(connection, row.id)

    def fail_assessment(
        self,
        assessment_id: uuid.UUID,
        error: Mapping[str, object],
        completed_at: datetime,
        spec: SchemeSpec | None = None,
    ) -> Assessment:
        """Record why an assessment could not complete (e.g. ``INSUFFICIENT_EVIDENCE``)."""
        with self._writing() as connection:
            row = self._assessment_row(connection, assessment_id)
            self._require_status(row, RUNNING_STATUSES, "fail")
            failed = connection.execute(
                update(t.assessments)
                .where(t.assessments.c.id == row.id, t.assessments.c.status.in_(RUNNING_STATUSES))
                .values(status="failed", error=dict(error), completed_at=completed_at)
            )
            if failed.rowcount != 1:
                self._require_status(self._assessment_row(connection, row.id), (), "fail")
            if spec is not None:
                write_evidence(connection, evidence_values(row.id, spec, None))
            return self._load_assessment(connection, row.id)

    def claim_assessment(self, assessment_id: uuid.UUID | str) -> Assessment:
        """A worker takes up a triggered assessment: ``pending`` becomes ``in_progress`` (one
        already ``in_progress`` — a retried job — stays so); any other state is returned as it
        is, for the caller to see there is nothing left to do (issue 14)."""
        with self._writing() as connection:
            row = self._assessment_row(connection, assessment_id)
            connection.execute(
                update(t.assessments)
                .where(t.assessments.c.id == row.id, t.assessments.c.status == "pending")
                .values(status="in_progress")
            )
            return self._load_assessment(connection, row.id)

    def get_assessment(self, assessment_id: uuid.UUID | str) -> Assessment:
        """The assessment with its dimensions and appeals, or ``NOT_FOUND``."""
        with self._reading() as connection:
            return self._load_assessment(connection, assessment_id)

    def assessment_evidence(self, assessment_id: uuid.UUID | str) -> AssessmentEvidence | None:
        """The recorded spec and event ids of an assessment (``NOT_FOUND`` if it is not this
        organization's); None for an assessment stored before they were recorded (0004)."""
        with self._reading() as connection:
            row = self._assessment_row(connection, assessment_id)
            return read_evidence(connection, row.id)

    def assessments(
        self, agent_id: uuid.UUID | None = None, status: str | None = None, review_state: str | None = None
    ) -> list[Assessment]:
        """Assessments newest first (without dimensions/appeals; use get_assessment)."""
        a = t.assessments
        with self._reading() as connection:
            if agent_id is None and review_state is not None:
                query = self._assessments_in_review_state(review_state, status)
            else:
                query = self._assessment_query()
                if agent_id is not None:
                    agent = self._require_agent(connection, agent_id)
                    query = query.where(a.c.agent_id == agent.id)
                if status is not None:
                    query = query.where(a.c.status == status)
                if review_state is not None:
                    query = query.where(a.c.review_state == review_state)
                query = query.order_by(a.c.created_at.desc(), a.c.id.desc())
            rows = connection.execute(query).all()
        return [assessment_from_row(row) for row in rows]

    def _assessments_in_review_state(self, review_state: str, status: str | None) -> Select[Any]:
        """The organization's assessments in ``review_state`` (and ``status``) newest first, read from the
        few rows in that state: the state is written into the statement (a bound value does not
        match the partial index ``idx_assessments_held``) and picked out in a subquery that
        OFFSET 0 keeps from being merged into the join — otherwise both databases walk every
        agent of the organization first (a 10 000-agent fleet: 120-250 ms on SQLite, against
        well under 1 ms)."""
        a = t.assessments
        picked = select(a).where(a.c.review_state == literal(review_state, literal_execute=True))
        if status is not None:
            picked = picked.where(a.c.status == status)
        held = picked.offset(0).subquery("picked")
        return (
            select(
                held,
                t.agents.c.name.label("agent_name"),
                t.agents.c.organization_id.label("organization_id"),
            )
            .join(t.agents, t.agents.c.id == held.c.agent_id)
            .where(t.agents.c.organization_id == self.organization_id)
            .order_by(held.c.created_at.desc(), held.c.id.desc())
        )

    def latest_completed_assessment(self, agent_id: uuid.UUID) -> Assessment | None:
        """The agent's most recently completed assessment, with its dimensions (calibration, §2.4);
        of several completed in the same instant, the one :data:`~aaaf.store.tables.LATEST_COMPLETED_FIRST`
        puts first."""
        with self._reading() as connection:
            agent = self._require_agent(connection, agent_id)
            latest = connection.execute(
                self._assessment_query()
                .where(t.assessments.c.agent_id == agent.id, t.assessments.c.status == "completed")
                .order_by(*t.LATEST_COMPLETED_FIRST)
                .limit(1)
            ).one_or_none()
            return None if latest is None else self._load_assessment(connection, latest.id)

    def latest_completed_id(self, agent_id: uuid.UUID) -> uuid.UUID | None:
        """The id of the agent's current assessment (:meth:`latest_completed_assessment`'s, in the
        same order), or None: one statement, nothing loaded — for a caller that holds an
        assessment of this organization and asks only whether it is the current one."""
        with self._reading() as connection:
            found: uuid.UUID | None = connection.execute(
                select(t.assessments.c.id)
                .where(t.assessments.c.agent_id == agent_id, t.assessments.c.status == "completed")
                .order_by(*t.LATEST_COMPLETED_FIRST)
                .limit(1)
            ).scalar_one_or_none()
            return found

    def set_review_state(
        self,
        assessment_id: uuid.UUID,
        state: str,
        *,
        reviewer: str | None = None,
        at: datetime | None = None,
    ) -> Assessment:
        """not_required | pending_review | approved | rejected (SCORING.md §2.4, §6).

        ``reviewer`` and ``at`` record who decided a held assessment and when
        (``reviewed_by``, ``reviewed_at``); they are left as they were when not given.
        """
        check_one_of("review_state", state, t.REVIEW_STATES)
        values: dict[str, object] = {"review_state": state}
        if reviewer is not None:
            values["reviewed_by"] = reviewer
        if at is not None:
            values["reviewed_at"] = at
        with self._writing() as connection:
            row = self._assessment_row(connection, assessment_id)
            connection.execute(update(t.assessments).where(t.assessments.c.id == row.id).values(**values))
            refresh_agent_summaries(connection, self.organization_id, [row.agent_id])
            return self._load_assessment(connection, row.id)

    def replace_dimension_scores(
        self,
        assessment_id: uuid.UUID,
        rows: Sequence[DimensionRow | tuple[Any, ...]],
        *,
        performance_composite: float | None,
        performance_tier: str | None,
        capability_composite: float | None,
        capability_tier: str | None,
        result: Mapping[str, object],
        spec: SchemeSpec | None = None,
        trace: DimensionEvidence | None = None,
    ) -> Assessment:
        """Rewrite the given dimensions, composites, tiers and result in one transaction.

        For an accepted appeal (SCORING.md §2.4): only the rows named in ``rows`` change
        (matched by axis and dimension, inserted if absent); every other dimension row
        is left untouched, byte for byte.  Only a completed assessment can be re-scored.
        """
        with self._writing() as connection:
            row = self._assessment_row(connection, assessment_id)
            self._require_status(row, ("completed",), "re-score")
            scores = t.dimension_scores
            for dim in rows:
                values = dimension_row_values(row.id, dim)
                changed = connection.execute(
                    update(scores)
                    .where(
                        scores.c.assessment_id == row.id,
                        scores.c.axis == values["axis"],
                        scores.c.dimension == values["dimension"],
                    )
                    .values(
                        score=values["score"],
                        sample_size=values["sample_size"],
                        evidence_count=values["evidence_count"],
                        details=values["details"],
                        reason=values["reason"],
                    )
                )
                if changed.rowcount == 0:
                    connection.execute(
                        insert(scores).values(id=uuid.uuid4(), created_at=self._clock(), **values)
                    )
            connection.execute(
                update(t.assessments)
                .where(t.assessments.c.id == row.id)
                .values(
                    performance_composite=performance_composite,
                    performance_tier=performance_tier,
                    capability_composite=capability_composite,
                    capability_tier=capability_tier,
                    result=stored_result_dict(result),
                )
            )
            if spec is not None:
                write_evidence(connection, evidence_values(row.id, spec, trace))
            refresh_agent_summaries(connection, self.organization_id, [row.agent_id])
            return self._load_assessment(connection, row.id)
