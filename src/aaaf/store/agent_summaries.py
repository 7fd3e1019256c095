"""The per-agent summary behind the dashboard's overview (docs/scaling.md).

The overview of a fleet shows each agent's latest whole-axis composites with their intervals,
the change since the previous assessment, its badge's state, its trust score and whether a
re-assessment is due.  Computing that per request means reading every completed assessment;
instead one row per agent (:data:`aaaf.store.tables_summary.agent_summaries`) holds exactly those
inputs, and the write side (:mod:`aaaf.store.summary_writes`) rebuilds the rows of the agents a
write touched, in that write's transaction: when an assessment completes or is re-scored, when
its review state changes, and when a trust score is recorded or reviewed; a badge issued,
superseded or revoked writes only its own state into the row.  A row is what the slow computation reads, so the
overview built from it is the same (tests/web/test_fleet_summary.py checks).  The columns the
overview filters, sorts and counts by are worked out there too, so that it reads grouped counts
and one page of the fleet whatever its size; this module reads them.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, case, func, or_, select, text

from aaaf.scoring.defaults import AXES
from aaaf.store import tables as t
from aaaf.store.agent_trend import AgentTrendRepository
from aaaf.store.counted_tasks import counted_tasks
from aaaf.store.summary_writes import refresh_agent_summaries
from aaaf.store.tables_summary import agent_summaries as summaries


@dataclass(frozen=True)
class FleetAgent:
    """What the fleet table shows of an agent besides its summary."""

    id: uuid.UUID
    name: str
    status: str


@dataclass(frozen=True)
class SummaryAssessment:
    """The parts of an assessment the fleet row reads (its ``result`` reduced by
    :func:`aaaf.store.summary_writes.summary_result`)."""

    id: uuid.UUID
    agent_id: uuid.UUID
    type: str
    result: Mapping[str, Any]
    review_state: str
    anomalous: bool
    completed_at: datetime | None
    valid_until: datetime | None


@dataclass(frozen=True)
class SummaryBadge:
    """The current credential of an agent's latest assessment."""

    assessment_id: uuid.UUID
    revoked: bool
    valid_until: datetime

    def expired(self, at: datetime) -> bool:
        return at > self.valid_until


@dataclass(frozen=True)
class AgentSummary:
    """One agent's summary row."""

    agent_id: uuid.UUID
    latest: SummaryAssessment | None
    previous_result: Mapping[str, Any] | None
    badge: SummaryBadge | None
    due_completed_at: datetime | None
    due_valid_until: datetime | None
    trust_score: float | None
    trust_tier: str | None

    def history(self) -> list[Any]:
        """The latest and previous whole-axis results, newest first (the fleet row's input)."""
        if self.latest is None:
            return []
        previous = [] if self.previous_result is None else [_Previous(self.previous_result)]
        return [self.latest, *previous]


@dataclass(frozen=True)
class _Previous:
    result: Mapping[str, Any]


def _summary_from_row(row: Any) -> AgentSummary:
    latest = None
    if row.latest_id is not None:
        latest = SummaryAssessment(
            id=row.latest_id,
            agent_id=row.agent_id,
            type=row.latest_type,
            result=row.latest_result or {},
            review_state=row.latest_review_state,
            anomalous=bool(row.latest_anomalous),
            completed_at=row.latest_completed_at,
            valid_until=row.latest_valid_until,
        )
    badge = None
    if latest is not None and row.badge_revoked is not None:
        badge = SummaryBadge(latest.id, bool(row.badge_revoked), row.badge_valid_until)
    return AgentSummary(
        agent_id=row.agent_id,
        latest=latest,
        previous_result=row.previous_result,
        badge=badge,
        due_completed_at=row.due_completed_at,
        due_valid_until=row.due_valid_until,
        trust_score=row.trust_score,
        trust_tier=row.trust_tier,
    )


def _fleet_pair(row: Any) -> tuple[FleetAgent, AgentSummary | None]:
    agent = FleetAgent(row.fleet_agent_id, row.name, row.status)
    return agent, None if row.agent_id is None else _summary_from_row(row)


FLAGS = ("held", "revoked", "expired", "borderline", "lacks_evidence")
"""The fleet's flags (what each means: :data:`aaaf.api.web.fleet.FLAGS`)."""
_SUMMARY_FLAGS = FLAGS[:4]
"""The flags a summary row carries (lacking evidence is also having none)."""

SORTS = ("name", "performance", "capability", "change", "assessed")
"""The fleet's orders: by name, by either composite (highest first), by change (largest fall
first), by when last assessed (latest first); agents without one come last."""


def _flagged(flag: str, now: datetime) -> Any:
    """An agent (agents outer-joined to summaries) carries ``flag`` at ``now``."""
    s = summaries
    if flag == "expired":
        return s.c.expires_at < now
    if flag == "lacks_evidence":
        return s.c.latest_id.is_(None)
    return s.c[flag].is_(True)


def _shown_tiers() -> Any:
    """The agent's tiers are shown: it has a latest assessment, neither held nor revoked."""
    s = summaries
    return and_(s.c.latest_id.is_not(None), s.c.held.is_not(True), s.c.revoked.is_not(True))


def _order(sort: str | None) -> list[Any]:
    s = summaries
    if sort in ("performance", "capability"):
        return [func.coalesce(s.c[f"{sort}_score"], -1.0).desc()]
    if sort == "change":
        return [s.c.change.is_(None), s.c.change]
    if sort == "assessed":
        return [s.c.latest_completed_at.is_(None), s.c.latest_completed_at.desc()]
    return []


@dataclass(frozen=True)
class FleetCounts:
    """The whole fleet in numbers: agents, agents per flag, agents per tier of each axis."""

    total: int
    flags: dict[str, int]
    tiers: dict[str, dict[str, int]]


@dataclass(frozen=True)
class FleetPage:
    """One page of the fleet table, with how many agents matched and the pages there are."""

    rows: list[tuple[FleetAgent, AgentSummary | None]]
    matched: int
    page: int
    pages: int


class AgentSummaryRepository(AgentTrendRepository):
    """Reading the organization's summaries (the overview's one query) and the completed
    tasks each agent has gathered since (the re-assessment trigger)."""

    def agent_summaries(self) -> dict[uuid.UUID, AgentSummary]:
        """Agent id → its summary; agents without a completed assessment or trust score are absent."""
        with self._reading() as connection:
            rows = connection.execute(
                select(summaries).where(summaries.c.organization_id == self.organization_id)
            ).all()
        return {row.agent_id: _summary_from_row(row) for row in rows}

    def fleet_counts(self, *, now: datetime) -> FleetCounts:
        """The agents, how many carry each flag at ``now`` and, per axis, how many hold each
        tier (held and revoked agents not counted): the agents counted, and one grouped pass
        over the summaries alone whatever the fleet's size (joining every agent to its summary
        cost a probe per agent: 40 ms and more for 10 000 agents)."""
        s, a = summaries, t.agents
        shown = case((_shown_tiers(), True), else_=False)
        flagged = [func.count(case((_flagged(flag, now), 1))).label(flag) for flag in _SUMMARY_FLAGS]
        grouped = (
            select(
                s.c.performance_tier,
                s.c.capability_tier,
                shown.label("shown"),
                func.count(s.c.latest_id).label("assessed"),
                *flagged,
            )
            .where(s.c.organization_id == self.organization_id)
            .group_by(s.c.performance_tier, s.c.capability_tier, shown)
        )
        with self._reading() as connection:
            total = int(
                connection.execute(
                    select(func.count()).select_from(a).where(a.c.organization_id == self.organization_id)
                ).scalar_one()
            )
            rows = connection.execute(grouped).all()
        flags = dict.fromkeys(FLAGS, 0)
        tiers: dict[str, dict[str, int]] = {axis: {} for axis in AXES}
        assessed = 0
        for row in rows:  # a handful of groups: tier pairs, shown or not
            assessed += int(row.assessed)
            for flag in _SUMMARY_FLAGS:
                flags[flag] += int(row._mapping[flag])
            if row.shown:
                for axis in AXES:
                    tier = row._mapping[f"{axis}_tier"]
                    if tier is not None:
                        tiers[axis][tier] = tiers[axis].get(tier, 0) + int(row.assessed)
        # an agent lacks evidence without a summary or with one naming no assessment
        flags["lacks_evidence"] = total - assessed
        return FleetCounts(total, flags, tiers)

    def fleet_page(
        self, *, now: datetime, flag: str | None, tier: str | None, sort: str | None, page: int, size: int
    ) -> FleetPage:
        """Page ``page`` (from 1, kept within the pages there are) of ``size`` agents with their
        summaries: those carrying ``flag`` at ``now`` and/or shown with ``tier`` on either axis,
        sorted by ``sort`` (:data:`SORTS`; by name otherwise, and within ties) — filtered,
        counted, sorted and cut in SQL.  A filter on what the summaries hold is read from the
        summaries (joined to the agents they match); the whole fleet, or the agents lacking
        evidence, from the agents, joined to the summaries of the page shown when it is by
        name — a join of every agent is left to the sorts that need it."""
        s, a = summaries, t.agents
        mine = s.c.organization_id == self.organization_id
        name_of = a.c.name
        from_summaries = tier or (flag in FLAGS and flag != "lacks_evidence")
        if from_summaries:
            where = [mine]
            if flag in FLAGS:
                where.append(_flagged(flag, now))
            if tier:
                where.append(
                    and_(_shown_tiers(), or_(s.c.performance_tier == tier, s.c.capability_tier == tier))
                )
            counted = select(func.count()).select_from(s).where(*where)
            joined = s.join(a, a.c.id == s.c.agent_id)
        else:
            where = [a.c.organization_id == self.organization_id]
            if flag == "lacks_evidence":  # read as a hashed subquery, not a probe per agent
                where.append(a.c.id.not_in(select(s.c.agent_id).where(mine, s.c.latest_id.is_not(None))))
            counted = select(func.count()).select_from(a).where(*where)
            joined = a.outerjoin(s, s.c.agent_id == a.c.id)
        with self._reading() as connection:
            matched = int(connection.execute(counted).scalar_one())
            pages = max(1, -(-matched // size))
            page = min(max(1, page), pages)
            postgresql = connection.dialect.name == "postgresql"
            if not from_summaries and sort not in SORTS[1:]:
                # by name: the page's agents first, then only their summaries
                shown = (
                    select(a.c.id, a.c.name, a.c.status)
                    .where(*where)
                    .order_by(a.c.name.collate("C") if postgresql else a.c.name, a.c.id)
                    .offset((page - 1) * size)
                    .limit(size)
                    .subquery("shown")
                )
                name = shown.c.name.collate("C") if postgresql else shown.c.name
                query = (
                    select(shown.c.id.label("fleet_agent_id"), shown.c.name, shown.c.status, s)
                    .select_from(shown.outerjoin(s, s.c.agent_id == shown.c.id))
                    .order_by(name, shown.c.id)
                )
            else:
                name = name_of.collate("C") if postgresql else name_of
                query = (
                    select(a.c.id.label("fleet_agent_id"), a.c.name, a.c.status, s)
                    .select_from(joined)
                    .where(*where)
                    .order_by(*_order(sort), name, a.c.id)
                    .offset((page - 1) * size)
                    .limit(size)
                )
            rows = connection.execute(query).all()
        return FleetPage([_fleet_pair(row) for row in rows], matched, page, pages)

    def due_candidates(
        self, *, valid_until_before: datetime, agent_ids: Collection[uuid.UUID]
    ) -> list[tuple[FleetAgent, AgentSummary | None]]:
        """The agents by name that may be due for re-assessment: never assessed, or whose
        latest assessment has no validity or one ending by ``valid_until_before``, or among
        ``agent_ids`` (those with enough completed tasks since) — the rest are not due.  The
        agents are chosen by hashed subqueries on the summaries, then only they are joined to
        their summaries (not every agent, a probe each)."""
        s, a = summaries, t.agents
        mine = s.c.organization_id == self.organization_id
        expiring = select(s.c.agent_id).where(
            mine,
            or_(
                s.c.due_completed_at.is_(None),
                s.c.due_valid_until.is_(None),
                s.c.due_valid_until <= valid_until_before,
            ),
        )
        maybe = or_(
            a.c.id.in_(expiring),
            a.c.id.not_in(select(s.c.agent_id).where(mine)),  # no summary: never assessed
            a.c.id.in_(list(agent_ids)),
        )
        chosen = (
            select(a.c.id, a.c.name, a.c.status)
            .where(a.c.organization_id == self.organization_id, maybe)
            .offset(0)  # chosen first, then joined
            .subquery("chosen")
        )
        query = select(chosen.c.id.label("fleet_agent_id"), chosen.c.name, chosen.c.status, s).select_from(
            chosen.outerjoin(s, s.c.agent_id == chosen.c.id)
        )
        with self._reading() as connection:
            pairs = [_fleet_pair(row) for row in connection.execute(query)]
        pairs.sort(key=lambda pair: pair[0].name)  # by code point on both databases
        return pairs

    def completed_tasks_since_assessed(self, *, fresh_since: datetime) -> dict[uuid.UUID, int]:
        """Per agent, the distinct tasks completed (accepted or partial) after its latest
        completed assessment — or, for an agent never assessed, after ``fresh_since`` — in one
        query each (agents with none are absent).  Each agent's count is a range of the
        partial index of counted tasks (migration 0026) from that moment on, read for that
        agent alone (a correlated count: on PostgreSQL the monthly partitions before the
        moment are pruned as each agent is counted), not every counted task of the
        organization joined to the moments."""
        e, s, a = t.events, summaries, t.agents
        # the partial index's own predicate: only its entries are read
        counted = text(counted_tasks(self.engine.dialect.name, "events."))

        def tasks_after(agent_id: Any, moment: Any) -> Any:
            return (
                select(func.count(e.c.task_id.distinct()))
                .where(e.c.agent_id == agent_id, e.c.timestamp > moment, counted)
                .scalar_subquery()
                .label("tasks")
            )

        def with_tasks(agents: Any) -> Any:
            """Only the agents with a task counted: most have none, and a row each of those
            cost more than the count (10 000 agents: 10 000 rows, about half of the overview's
            CPU, and its garbage collections).  Counted once (``OFFSET 0``: not flattened)."""
            counts = agents.offset(0).subquery()
            return select(counts).where(counts.c.tasks > 0)

        assessed = select(s.c.agent_id, tasks_after(s.c.agent_id, s.c.due_completed_at)).where(
            s.c.organization_id == self.organization_id, s.c.due_completed_at.is_not(None)
        )
        # the never-assessed agents (those without a summary naming a completed assessment:
        # a hashed subquery, not a probe per agent), then only their events
        never = a.c.id.not_in(
            select(s.c.agent_id).where(
                s.c.organization_id == self.organization_id, s.c.due_completed_at.is_not(None)
            )
        )
        fresh = select(a.c.id, tasks_after(a.c.id, fresh_since)).where(
            a.c.organization_id == self.organization_id, never
        )
        with self._reading() as connection:
            rows = [*connection.execute(with_tasks(assessed)), *connection.execute(with_tasks(fresh))]
        return {row[0]: int(row[1]) for row in rows}

    def refresh_summaries(self, agent_ids: Sequence[uuid.UUID]) -> None:
        """Rebuild the given agents' summaries (the migration's backfill does all of them)."""
        with self._writing() as connection:
            refresh_agent_summaries(connection, self.organization_id, agent_ids)
