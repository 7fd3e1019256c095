"""The per-agent summary behind the dashboard's overview (docs/scaling.md).

The overview of a fleet shows each agent's latest whole-axis composites with their intervals,
the change since the previous assessment, its badge's state, its trust score and whether a
re-assessment is due.  Computing that per request means reading every completed assessment;
instead one row per agent (:data:`aaaf.store.tables_summary.agent_summaries`) holds exactly those
inputs, and :func:`refresh_agent_summaries` — the one write-side function — rebuilds the rows
of the agents a write touched, in that write's transaction: when an assessment completes or is
re-scored, when its review state changes, when a badge is issued, superseded or revoked, and
when a trust score is recorded or reviewed.  A row is what the slow computation reads, so the
overview built from it is the same (tests/web/test_fleet_summary.py checks).  The columns the
overview filters, sorts and counts by are worked out here too, so that it reads grouped counts
and one page of the fleet whatever its size.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, and_, case, delete, func, insert, or_, select, text

from aaaf.scoring.defaults import AXES
from aaaf.scoring.fleet_standing import axis_standing, largest_change
from aaaf.scoring.trust import SCHEME as TRUST_SCHEME
from aaaf.store import tables as t
from aaaf.store.agent_trend import COMPOSITE_TYPES, AgentTrendRepository
from aaaf.store.counted_tasks import counted_tasks
from aaaf.store.tables_summary import agent_summaries as summaries

_CHUNK = 500


@dataclass(frozen=True)
class FleetAgent:
    """What the fleet table shows of an agent besides its summary."""

    id: uuid.UUID
    name: str
    status: str


@dataclass(frozen=True)
class SummaryAssessment:
    """The parts of an assessment the fleet row reads (its ``result`` reduced by
    :func:`summary_result`)."""

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


def summary_result(result: Mapping[str, Any] | None) -> dict[str, Any]:
    """What the fleet row reads of an assessment's result: per axis the composite, tier and
    interval with the tier probabilities; the borderline threshold in force; the audit's
    verdict on self-reports."""
    result = result or {}
    out: dict[str, Any] = {}
    for axis in AXES:
        data = result.get(axis)
        if isinstance(data, Mapping):
            uncertainty = data.get("uncertainty")
            kept: dict[str, Any] = {"composite_score": data.get("composite_score"), "tier": data.get("tier")}
            if isinstance(uncertainty, Mapping):
                kept["uncertainty"] = {
                    "ci": uncertainty.get("ci"),
                    "tier_probabilities": uncertainty.get("tier_probabilities") or {},
                }
            out[axis] = kept
    config = result.get("config")
    if isinstance(config, Mapping) and "borderline_probability" in config:
        out["config"] = {"borderline_probability": config["borderline_probability"]}
    audit = result.get("audit")
    if isinstance(audit, Mapping):
        out["audit"] = {key: audit.get(key) for key in ("self_report_unreliable", "honesty")}
    return out


def _ranked(query: Any, partition: Any, *order: Any) -> Any:
    """``query`` with each row's rank within its ``partition`` by ``order`` (1 = first)."""
    return query.add_columns(func.row_number().over(partition_by=partition, order_by=order).label("rank"))


def refresh_agent_summaries(
    connection: Connection,
    organization_id: uuid.UUID,
    agent_ids: Iterable[uuid.UUID],
    *,
    inserted: Iterable[Any] = (),
) -> None:
    """Rebuild the summary rows of ``agent_ids`` (of ``organization_id``) from their
    assessments, badges and trust history, in ``connection``'s transaction.

    ``inserted``: assessments this transaction has just inserted, as written (records with
    ``id``, ``agent_id``, ``status``, ``type``, ``result``, ``review_state``, ``anomalous``,
    ``created_at``, ``completed_at`` and ``valid_until`` as stored): they are ranked from
    memory instead of being read back and their results decoded again (about 6 % of a
    thousand-agent ``assess --all``'s write); the rows are the same (tests/services)."""
    wanted = list(dict.fromkeys(agent_ids))
    fresh: dict[uuid.UUID, list[Any]] = {}
    for record in inserted:  # those the composite query below would rank
        if record.status == "completed" and record.type in COMPOSITE_TYPES:
            fresh.setdefault(record.agent_id, []).append(record)
    for start in range(0, len(wanted), _CHUNK):
        _refresh(connection, organization_id, wanted[start : start + _CHUNK], fresh)


def _newest_first(row: Any) -> tuple[datetime, int]:
    """The composite query's order (``created_at``, then ``id``, both descending) as a key
    of ``sorted(..., reverse=True)``: UUIDs compare as SQLite's hex text and PostgreSQL's
    bytes do."""
    return row.created_at, row.id.int


def _refresh(
    connection: Connection,
    organization_id: uuid.UUID,
    agent_ids: list[uuid.UUID],
    fresh: Mapping[uuid.UUID, list[Any]],
) -> None:
    a = t.assessments
    inserted = [record for agent_id in agent_ids for record in fresh.get(agent_id, ())]
    kept = [a.c.id.not_in([record.id for record in inserted])] if inserted else []
    composite = _ranked(
        select(a.c.id, a.c.agent_id, a.c.type, a.c.result, a.c.review_state, a.c.anomalous)
        .add_columns(a.c.completed_at, a.c.valid_until, a.c.created_at)
        .where(
            a.c.agent_id.in_(agent_ids),
            a.c.status == "completed",
            a.c.type.in_(COMPOSITE_TYPES),
            a.c.result.is_not(None),
            *kept,
        ),
        a.c.agent_id,
        a.c.created_at.desc(),
        a.c.id.desc(),
    ).subquery()
    ranked: dict[uuid.UUID, list[Any]] = {}
    for row in connection.execute(
        select(composite).where(composite.c.rank <= 3).order_by(composite.c.agent_id, composite.c.rank)
    ):
        ranked.setdefault(row.agent_id, []).append(row)
    for record in inserted:  # the stored ones' first three with these, as the query ranks them all
        ranked.setdefault(record.agent_id, []).append(record)
    runs: dict[uuid.UUID, list[Any]] = {}
    for agent_id, rows in ranked.items():
        if agent_id in fresh:
            rows = sorted(rows, key=_newest_first, reverse=True)[:3]
        # as the fleet reads them: a completed whole-axis assessment with a result
        kept_rows = [row for row in rows if row.result]
        if kept_rows:
            runs[agent_id] = kept_rows
    last = _ranked(
        select(a.c.agent_id, a.c.completed_at, a.c.valid_until).where(
            a.c.agent_id.in_(agent_ids), a.c.status == "completed"
        ),
        a.c.agent_id,
        *t.LATEST_COMPLETED_FIRST,
    ).subquery()
    due = {row.agent_id: row for row in connection.execute(select(last).where(last.c.rank == 1))}
    latest_ids = [rows[0].id for rows in runs.values()]
    badges = {
        row.assessment_id: row
        for row in connection.execute(
            select(t.badges.c.assessment_id, t.badges.c.revoked, t.badges.c.valid_until).where(
                t.badges.c.assessment_id.in_(latest_ids), t.badges.c.superseded_at.is_(None)
            )
        )
    }
    h = t.score_history
    scores = _ranked(
        select(h.c.agent_id, h.c.score, h.c.tier).where(
            h.c.agent_id.in_(agent_ids), h.c.scheme == TRUST_SCHEME, h.c.committed.is_(True)
        ),
        h.c.agent_id,
        h.c.computed_at.desc(),
        h.c.at.desc(),
        h.c.id.desc(),
    ).subquery()
    trust = {row.agent_id: row for row in connection.execute(select(scores).where(scores.c.rank == 1))}
    values = []
    for agent_id in agent_ids:
        rows = runs.get(agent_id) or []
        if not rows and agent_id not in due and agent_id not in trust:
            continue
        latest = rows[0] if rows else None
        badge = badges.get(latest.id) if latest is not None else None
        values.append(
            {
                **_standing(latest, rows[1] if len(rows) > 1 else None, badge),
                "agent_id": agent_id,
                "organization_id": organization_id,
                "latest_id": None if latest is None else latest.id,
                "latest_type": None if latest is None else latest.type,
                "latest_completed_at": None if latest is None else latest.completed_at,
                "latest_valid_until": None if latest is None else latest.valid_until,
                "latest_review_state": None if latest is None else latest.review_state,
                "latest_anomalous": None if latest is None else latest.anomalous,
                "latest_result": None if latest is None else summary_result(latest.result),
                "previous_result": summary_result(rows[1].result) if len(rows) > 1 else None,
                "badge_revoked": None if badge is None else badge.revoked,
                "badge_valid_until": None if badge is None else badge.valid_until,
                "due_completed_at": due[agent_id].completed_at if agent_id in due else None,
                "due_valid_until": due[agent_id].valid_until if agent_id in due else None,
                "trust_score": trust[agent_id].score if agent_id in trust else None,
                "trust_tier": trust[agent_id].tier if agent_id in trust else None,
            }
        )
    connection.execute(delete(summaries).where(summaries.c.agent_id.in_(agent_ids)))
    if values:
        connection.execute(insert(summaries), values)


def _standing(latest: Any, previous: Any, badge: Any) -> dict[str, Any]:
    """The columns the overview filters, sorts and counts by (none without a latest assessment)."""
    if latest is None:
        return dict.fromkeys(_STANDING_COLUMNS)
    cells = {
        axis: axis_standing(latest.result, None if previous is None else previous.result, axis)
        for axis in AXES
    }
    held = latest.review_state == "pending_review"
    revoked = badge is not None and bool(badge.revoked)
    return {
        "performance_score": cells["performance"].score,
        "performance_tier": cells["performance"].tier,
        "capability_score": cells["capability"].score,
        "capability_tier": cells["capability"].tier,
        "held": held,
        "revoked": revoked,
        "borderline": any(cell.borderline for cell in cells.values()),
        "expires_at": None
        if held or revoked
        else (latest.valid_until if badge is None else badge.valid_until),
        "change": largest_change(cell.delta for cell in cells.values()),
    }


_STANDING_COLUMNS = (
    "performance_score",
    "performance_tier",
    "capability_score",
    "capability_tier",
    "held",
    "revoked",
    "borderline",
    "expires_at",
    "change",
)


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
            )

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
            rows = [*connection.execute(assessed), *connection.execute(fresh)]
        return {row[0]: int(row[1]) for row in rows if row[1]}

    def refresh_summaries(self, agent_ids: Sequence[uuid.UUID]) -> None:
        """Rebuild the given agents' summaries (the migration's backfill does all of them)."""
        with self._writing() as connection:
            refresh_agent_summaries(connection, self.organization_id, agent_ids)
