"""The write side of the per-agent summaries (:mod:`aaaf.store.agent_summaries`, docs/scaling.md):
each row rebuilt from its agent's assessments, credentials and trust history in the
transaction of the write that touched them, and a credential's state alone written when only
a credential changed."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, case, delete, func, insert, select, update

from aaaf.scoring.defaults import AXES
from aaaf.scoring.fleet_standing import axis_standing, largest_change
from aaaf.scoring.trust import SCHEME as TRUST_SCHEME
from aaaf.store import tables as t
from aaaf.store.agent_trend import COMPOSITE_TYPES
from aaaf.store.tables_summary import agent_summaries as summaries

_CHUNK = 500  # agents per rebuild (SQLite's bound-parameter limit stays far away)


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

    ``inserted``: assessments this transaction has just written — inserted, or triggered ones
    finished (:mod:`aaaf.store.claimed_assessments`) (records with
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


def refresh_badge_standing(connection: Connection, assessment_ids: Iterable[uuid.UUID]) -> None:
    """After a credential of one of ``assessment_ids`` was issued, superseded or revoked: the
    summaries whose latest assessment that is take its current credential's state (its
    ``badge_*`` columns, ``revoked`` and ``expires_at``) in one UPDATE — what
    :func:`refresh_agent_summaries` would write, since a credential changes nothing else of a
    summary, and nothing of an agent whose latest assessment it is not for (tests/store)."""
    wanted = list(dict.fromkeys(assessment_ids))
    if not wanted:
        return
    b = t.badges.c

    def current(column: Any) -> Any:
        return (
            select(column)
            .where(b.assessment_id == summaries.c.latest_id, b.superseded_at.is_(None))
            .correlate(summaries)
            .scalar_subquery()
        )

    has_badge = (
        select(b.id).where(b.assessment_id == summaries.c.latest_id, b.superseded_at.is_(None)).exists()
    )
    revoked = func.coalesce(current(b.revoked), False)
    connection.execute(
        update(summaries)
        .where(summaries.c.latest_id.in_(wanted))
        .values(
            badge_revoked=current(b.revoked),
            badge_valid_until=current(b.valid_until),
            revoked=revoked,
            expires_at=case(
                (summaries.c.latest_review_state == "pending_review", None),
                (revoked, None),
                (has_badge, current(b.valid_until)),
                else_=summaries.c.latest_valid_until,
            ),
        )
    )


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
