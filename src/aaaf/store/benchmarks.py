"""What the anonymised cross-organization benchmark reads and writes (issue 20 §2).

Not scoped to one organization, on purpose and only here: :func:`benchmark_inputs` reads the
latest valid assessment of every agent of every *opted-in* organization (``benchmark_opt_in``
in its configuration; off by default) and hands back scores keyed by opaque positions —
the organization id is kept only to count distinct organizations per cell and never leaves
the service that aggregates (:mod:`aaaf.services.benchmarks`).  ``benchmark_cells`` has no
organization or agent column; :func:`replace_cells` swaps the whole published set in one
transaction.

"Latest valid" (SCORING.md §2.4 validity): the most recently completed ``full``,
``passive_only`` or ``stress_test_only`` assessment whose ``valid_until`` is after ``now``
and whose review state lets a badge stand (``not_required`` or ``approved``), of an agent
that is not archived, of an active organization.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Engine, delete, insert, select

from aaaf.store import tables as t
from aaaf.store.engine import read_connection, reading_on, write_transaction
from aaaf.store.tables_shared import benchmark_cells

BENCHMARKED_TYPES = ("full", "passive_only", "stress_test_only")
STANDING_REVIEW_STATES = ("not_required", "approved")


@dataclass(frozen=True)
class AgentScores:
    """One opted-in agent's latest valid scores: ``{dimension: score}`` (composites included)."""

    organization_id: uuid.UUID
    domains: tuple[str, ...]
    scores: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class StoredCell:
    domain: str
    axis: str
    dimension: str
    deciles: list[float]
    n_orgs: int
    n_agents: int
    computed_at: datetime


def _opted_in(extra: Any) -> bool:
    return isinstance(extra, dict) and extra.get("benchmark_opt_in") is True


def opted_in_organizations(engine: Engine) -> list[uuid.UUID]:
    """Active organizations whose configuration has ``benchmark_opt_in`` true."""
    with read_connection(engine) as connection:
        rows = connection.execute(
            select(t.organizations.c.id, t.org_configs.c.extra)
            .join(t.org_configs, t.org_configs.c.organization_id == t.organizations.c.id)
            .where(t.organizations.c.status == "active")
        ).all()
    return sorted((row.id for row in rows if _opted_in(row.extra)), key=str)


def latest_valid_assessment_ids(
    connection: Any, agent_ids: Sequence[uuid.UUID], now: datetime
) -> dict[uuid.UUID, uuid.UUID]:
    """``{agent id: its latest valid assessment id}`` for those of ``agent_ids`` that have one."""
    if not agent_ids:
        return {}
    a = t.assessments
    rows = connection.execute(
        select(a.c.id, a.c.agent_id)
        .where(
            a.c.agent_id.in_(list(agent_ids)),
            a.c.status == "completed",
            a.c.type.in_(BENCHMARKED_TYPES),
            a.c.review_state.in_(STANDING_REVIEW_STATES),
            a.c.valid_until > now,
            a.c.completed_at <= now,
        )
        .order_by(a.c.agent_id, *t.LATEST_COMPLETED_FIRST)
    ).all()
    latest: dict[uuid.UUID, uuid.UUID] = {}
    for row in rows:
        latest.setdefault(row.agent_id, row.id)
    return latest


def assessment_scores(
    connection: Any, assessment_ids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, dict[str, float]]:
    """``{assessment id: {dimension: score}}``: non-null dimension scores and the composites."""
    out: dict[uuid.UUID, dict[str, float]] = {key: {} for key in assessment_ids}
    if not assessment_ids:
        return out
    ids = list(assessment_ids)
    for chunk_start in range(0, len(ids), 500):
        chunk = ids[chunk_start : chunk_start + 500]
        a = t.assessments
        for row in connection.execute(
            select(a.c.id, a.c.performance_composite, a.c.capability_composite).where(a.c.id.in_(chunk))
        ).all():
            if row.performance_composite is not None:
                out[row.id]["performance_composite"] = float(row.performance_composite)
            if row.capability_composite is not None:
                out[row.id]["capability_composite"] = float(row.capability_composite)
        d = t.dimension_scores
        for row in connection.execute(
            select(d.c.assessment_id, d.c.dimension, d.c.score).where(
                d.c.assessment_id.in_(chunk), d.c.score.is_not(None)
            )
        ).all():
            out[row.assessment_id][row.dimension] = float(row.score)
    return out


def benchmark_inputs(engine: Engine, now: datetime) -> list[AgentScores]:
    """Every opted-in agent's latest valid scores at ``now``."""
    organizations = opted_in_organizations(engine)
    if not organizations:
        return []
    with read_connection(engine) as connection:
        agents = connection.execute(
            select(t.agents.c.id, t.agents.c.organization_id, t.agents.c.claimed_domains).where(
                t.agents.c.organization_id.in_(organizations), t.agents.c.status != "archived"
            )
        ).all()
        latest = latest_valid_assessment_ids(connection, [row.id for row in agents], now)
        scores = assessment_scores(connection, list(latest.values()))
    out: list[AgentScores] = []
    for row in agents:
        assessment_id = latest.get(row.id)
        if assessment_id is None or not scores[assessment_id]:
            continue
        domains = tuple(sorted({str(domain) for domain in (row.claimed_domains or [])}))
        out.append(AgentScores(row.organization_id, domains, scores[assessment_id]))
    return out


def replace_cells(engine: Engine, cells: Sequence[StoredCell]) -> None:
    """Publish ``cells`` in place of every cell published before (one transaction)."""
    with write_transaction(engine) as connection:
        connection.execute(delete(benchmark_cells))
        if cells:
            connection.execute(
                insert(benchmark_cells),
                [
                    {
                        "id": uuid.uuid4(),
                        "domain": cell.domain,
                        "axis": cell.axis,
                        "dimension": cell.dimension,
                        "deciles": list(cell.deciles),
                        "n_orgs": cell.n_orgs,
                        "n_agents": cell.n_agents,
                        "computed_at": cell.computed_at,
                    }
                    for cell in cells
                ],
            )


def read_cells(engine: Engine | Connection, *, domains: Sequence[str] | None = None) -> list[StoredCell]:
    """The published cells (of ``domains`` when given), by domain and dimension (on the
    connection given, or one of its own)."""
    c = benchmark_cells
    query = select(c).order_by(c.c.domain, c.c.axis, c.c.dimension)
    if domains is not None:
        query = query.where(c.c.domain.in_(list(domains)))
    with reading_on(engine) as connection:
        rows = connection.execute(query).all()
    return [
        StoredCell(
            row.domain,
            row.axis,
            row.dimension,
            [float(v) for v in row.deciles],
            row.n_orgs,
            row.n_agents,
            row.computed_at,
        )
        for row in rows
    ]


def agent_latest_scores(
    engine: Engine | Connection, organization_id: uuid.UUID, agent_id: uuid.UUID, now: datetime
) -> tuple[uuid.UUID | None, dict[str, float]]:
    """One agent's (of ``organization_id``) latest valid assessment id and its scores (on the
    connection given, or one of its own)."""
    with reading_on(engine) as connection:
        owned = connection.execute(
            select(t.agents.c.id).where(
                t.agents.c.id == agent_id, t.agents.c.organization_id == organization_id
            )
        ).one_or_none()
        if owned is None:
            return None, {}
        latest = latest_valid_assessment_ids(connection, [agent_id], now).get(agent_id)
        if latest is None:
            return None, {}
        return latest, assessment_scores(connection, [latest])[latest]
