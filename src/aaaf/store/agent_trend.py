"""What the agent page lists and charts of every assessment of an agent, and the assessment
its "what changed" compares against — read without loading each stored result whole (the
page of an agent with a hundred assessments, docs/scaling.md).  The database picks out of each
result the composites, intervals and dimension scores the charts draw; the latest assessment
alone is read whole, by the caller."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, bindparam, cast, literal, select, type_coerce
from sqlalchemy.dialects.postgresql import JSONB

from aaaf.scoring.defaults import AXES
from aaaf.store import tables as t
from aaaf.store.repositories.base import OrgScoped

COMPOSITE_TYPES = ("full", "passive_only", "stress_test_only")
"""The assessment types that score whole axes."""


@dataclass(frozen=True)
class TrendAssessment:
    """An assessment as the agent page lists and charts it: its ``result`` reduced to what
    the charts and the list read (:func:`_trend_result`), None without one."""

    id: uuid.UUID
    agent_id: uuid.UUID
    type: str
    status: str
    review_state: str
    window_start: datetime
    window_end: datetime
    created_at: datetime
    completed_at: datetime | None
    result: Mapping[str, Any] | None


def _trend_paths() -> list[tuple[str, ...]]:
    """The paths inside a stored result the agent page reads of every assessment: per axis
    the composite, its interval and each dimension's score (the same in every stored
    version: :func:`aaaf.models.stored_result.upgraded` only adds top-level defaults)."""
    paths: list[tuple[str, ...]] = [("window_start",)]
    for axis, names in AXES.items():
        paths += [(axis, "composite_score"), (axis, "uncertainty", "ci")]
        paths += [(axis, "dimensions", name, "score") for name in names]
    return paths


_TREND_PATHS = _trend_paths()


_COLUMNS: tuple[str, ...] = ("id", "agent_id", "type", "status", "review_state", "window_start")
_COLUMNS += ("window_end", "created_at", "completed_at")


def _trend_query(dialect: str) -> Any:
    """The agent's (``trend_agent`` of ``trend_org``) assessments newest first: the columns
    of :data:`_COLUMNS`, then the values at :data:`_TREND_PATHS`, each as the JSON text of
    that part (parsed here).  PostgreSQL's ``json`` is text that every ``#>`` would parse
    again (a hundred results times every path): there each result is parsed once into
    ``jsonb`` (whose numbers keep every digit) in a subquery that OFFSET 0 keeps from being
    merged into the paths.  On SQLite (3.38+) ``->`` returns the part as written —
    ``json_extract`` would turn it into a number and back, and its JSON text keeps only 15
    digits."""
    a = t.assessments
    mine = (t.agents.c.organization_id == bindparam("trend_org"), a.c.agent_id == bindparam("trend_agent"))
    if dialect == "sqlite":
        picked = [
            type_coerce(a.c.result.op("->")(literal("$." + ".".join(f'"{key}"' for key in path))), JSON)
            for path in _TREND_PATHS
        ]
        return (
            select(*(a.c[name] for name in _COLUMNS), *picked)
            .join(t.agents, t.agents.c.id == a.c.agent_id)
            .where(*mine)
            .order_by(a.c.created_at.desc(), a.c.id.desc())
        )
    parsed = (
        select(*(a.c[name] for name in _COLUMNS), cast(a.c.result, JSONB).label("doc"))
        .join(t.agents, t.agents.c.id == a.c.agent_id)
        .where(*mine)
        .offset(0)
        .subquery("parsed")
    )
    return select(
        *(parsed.c[name] for name in _COLUMNS), *(parsed.c.doc[path] for path in _TREND_PATHS)
    ).order_by(parsed.c.created_at.desc(), parsed.c.id.desc())


_TREND_QUERY = {dialect: _trend_query(dialect) for dialect in ("sqlite", "postgresql")}
"""The query per dialect, built once rather than per request."""


def _trend_result(values: Sequence[Any]) -> dict[str, Any] | None:
    """The reduced result from the values at :data:`_TREND_PATHS` (None: the assessment has
    no stored result, whose ``window_start`` every version carries)."""
    if values[0] is None:
        return None
    out: dict[str, Any] = {"window_start": values[0]}  # never empty: it has a result
    for path, value in zip(_TREND_PATHS[1:], values[1:], strict=True):
        if value is None:
            continue
        node = out
        for key in path[:-1]:
            node = node.setdefault(key, {})
        node[path[-1]] = value
    return out


class AgentTrendRepository(OrgScoped):
    """The agent page's reads of an agent's assessments."""

    def agent_trend(self, agent_id: uuid.UUID) -> list[TrendAssessment]:
        """The agent's assessments newest first, each with only the parts of its result the
        agent page lists and charts, picked out by the database (not the whole document)."""
        with self._reading() as connection:
            rows = connection.execute(
                _TREND_QUERY[connection.dialect.name],
                {"trend_org": self.organization_id, "trend_agent": agent_id},
            ).all()
        return [
            TrendAssessment(
                id=row.id,
                agent_id=row.agent_id,
                type=row.type,
                status=row.status,
                review_state=row.review_state,
                window_start=row.window_start,
                window_end=row.window_end,
                created_at=row.created_at,
                completed_at=row.completed_at,
                result=_trend_result(row[9:]),
            )
            for row in rows
        ]

    def previous_composite_id(
        self, agent_id: uuid.UUID, before: uuid.UUID, completed_at: datetime
    ) -> uuid.UUID | None:
        """The agent's completed whole-axis assessment with a result completed at or before
        ``completed_at`` (latest by completion, then creation), other than ``before``: the
        one "what changed" compares against."""
        a = t.assessments
        query = (
            select(a.c.id)
            .join(t.agents, t.agents.c.id == a.c.agent_id)
            .where(
                t.agents.c.organization_id == self.organization_id,
                a.c.agent_id == agent_id,
                a.c.status == "completed",
                a.c.type.in_(COMPOSITE_TYPES),
                a.c.result.is_not(None),
                a.c.id != before,
                a.c.completed_at <= completed_at,
            )
            .order_by(*t.LATEST_COMPLETED_FIRST)
            .limit(1)
        )
        with self._reading() as connection:
            found: uuid.UUID | None = connection.execute(query).scalar_one_or_none()
        return found
