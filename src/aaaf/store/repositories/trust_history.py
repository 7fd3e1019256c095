"""The trust scheme's score history and adaptive weight override (SCORING.md §3).

Part of the organization's repositories (:class:`aaaf.store.org_store.OrgStore`); it extends
:class:`BadgeRepository` so that its methods may use every earlier concept's.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Row, Select, insert, select, update

from aaaf.errors import AAAFError
from aaaf.store import tables as t
from aaaf.store.records import (
    ScoreHistoryEntry,
    TrustOverride,
)
from aaaf.store.repositories.badges import BadgeRepository
from aaaf.store.repositories.base import as_uuid, not_found
from aaaf.store.row_mapping import record_from_row
from aaaf.store.summary_writes import refresh_agent_summaries


def _history_from_row(row: Row[Any]) -> ScoreHistoryEntry:
    return record_from_row(ScoreHistoryEntry, row)


def _override_from_row(row: Row[Any]) -> TrustOverride:
    return record_from_row(TrustOverride, row)


class TrustHistoryRepository(BadgeRepository):
    """The trust scheme's score history and adaptive weight override (SCORING.md §3)."""

    def append_score_history(
        self,
        agent_id: uuid.UUID,
        *,
        scheme: str,
        score: float | None,
        tier: str | None,
        details: Mapping[str, object],
        was_anomalous: bool,
        committed: bool,
        computed_at: datetime,
        at: datetime,
    ) -> ScoreHistoryEntry:
        """Append one computed score (SCORING.md §3 'History')."""
        entry_id = uuid.uuid4()
        with self._writing() as connection:
            agent = self._require_agent(connection, agent_id)
            connection.execute(
                insert(t.score_history).values(
                    id=entry_id,
                    organization_id=self.organization_id,
                    agent_id=agent.id,
                    scheme=scheme,
                    score=None if score is None else float(score),
                    tier=tier,
                    details=dict(details),
                    was_anomalous=was_anomalous,
                    committed=committed,
                    computed_at=computed_at,
                    at=at,
                )
            )
            refresh_agent_summaries(connection, self.organization_id, [agent.id])
            return self._history_entry(connection, entry_id)

    def _history_entry(self, connection: Connection, history_id: uuid.UUID | str) -> ScoreHistoryEntry:
        wanted = as_uuid(history_id)
        row = None
        if wanted is not None:
            row = connection.execute(
                select(t.score_history).where(
                    t.score_history.c.id == wanted, t.score_history.c.organization_id == self.organization_id
                )
            ).one_or_none()
        if row is None:
            raise not_found("Score history entry", history_id)
        return _history_from_row(row)

    def _history_query(self, agent_id: uuid.UUID, scheme: str) -> Select[Any]:
        history = t.score_history
        return select(history).where(
            history.c.organization_id == self.organization_id,
            history.c.agent_id == agent_id,
            history.c.scheme == scheme,
        )

    def score_history(self, agent_id: uuid.UUID, scheme: str) -> list[ScoreHistoryEntry]:
        """Oldest first (by computation time)."""
        history = t.score_history
        with self._reading() as connection:
            agent = self._require_agent(connection, agent_id)
            rows = connection.execute(
                self._history_query(agent.id, scheme).order_by(
                    history.c.computed_at, history.c.at, history.c.id
                )
            ).all()
        return [_history_from_row(row) for row in rows]

    def last_committed_score(self, agent_id: uuid.UUID, scheme: str) -> ScoreHistoryEntry | None:
        """The canonical score: the latest committed entry (SCORING.md §3)."""
        history = t.score_history
        with self._reading() as connection:
            agent = self._require_agent(connection, agent_id)
            row = connection.execute(
                self._history_query(agent.id, scheme)
                .where(history.c.committed.is_(True))
                .order_by(history.c.computed_at.desc(), history.c.at.desc(), history.c.id.desc())
                .limit(1)
            ).one_or_none()
        return None if row is None else _history_from_row(row)

    def last_committed_scores(
        self, agent_ids: Sequence[uuid.UUID], scheme: str
    ) -> dict[uuid.UUID, ScoreHistoryEntry]:
        """:meth:`last_committed_score` of several agents of this organization in one query
        (agents without a committed score are absent; the dashboard's fleet table)."""
        history = t.score_history
        wanted = list(dict.fromkeys(agent_ids))
        if not wanted:
            return {}
        with self._reading() as connection:
            rows = connection.execute(
                select(history)
                .where(
                    history.c.organization_id == self.organization_id,
                    history.c.agent_id.in_(wanted),
                    history.c.scheme == scheme,
                    history.c.committed.is_(True),
                )
                .order_by(history.c.computed_at, history.c.at, history.c.id)
            ).all()
        return {entry.agent_id: entry for entry in map(_history_from_row, rows)}  # the last wins

    def review_score(
        self, history_id: uuid.UUID, *, approve: bool, reviewer: str, at: datetime
    ) -> ScoreHistoryEntry:
        """Approve (commit) or reject an anomalous, unreviewed score; anything else is ``CONFLICT``."""
        with self._writing() as connection:
            entry = self._history_entry(connection, history_id)
            if not entry.was_anomalous or entry.review_decision is not None:
                raise AAAFError(
                    "CONFLICT",
                    f"Score {entry.id} is not awaiting review.",
                    {"history_id": str(entry.id), "review_decision": entry.review_decision},
                )
            connection.execute(
                update(t.score_history)
                .where(t.score_history.c.id == entry.id)
                .values(
                    committed=approve,
                    reviewed_by=reviewer,
                    reviewed_at=at,
                    review_decision="approved" if approve else "rejected",
                )
            )
            refresh_agent_summaries(connection, self.organization_id, [entry.agent_id])
            return self._history_entry(connection, entry.id)

    def set_trust_override(
        self, weights: Mapping[str, object], *, set_by: str | None, set_at: datetime
    ) -> TrustOverride:
        """Store the override as given — not validated (SCORING.md §3: the pure engine
        rejects an invalid one when applying it) — replacing the active one."""
        override_id = uuid.uuid4()
        overrides = t.trust_weight_overrides
        with self._writing() as connection:
            connection.execute(
                update(overrides)
                .where(overrides.c.organization_id == self.organization_id, overrides.c.active.is_(True))
                .values(active=False)
            )
            connection.execute(
                insert(overrides).values(
                    id=override_id,
                    organization_id=self.organization_id,
                    weights=dict(weights),
                    set_by=set_by,
                    set_at=set_at,
                    active=True,
                )
            )
            row = connection.execute(select(overrides).where(overrides.c.id == override_id)).one()
        return _override_from_row(row)

    def trust_override(self) -> TrustOverride | None:
        """The active override, if any."""
        overrides = t.trust_weight_overrides
        with self._reading() as connection:
            row = connection.execute(
                select(overrides)
                .where(overrides.c.organization_id == self.organization_id, overrides.c.active.is_(True))
                .order_by(overrides.c.set_at.desc())
                .limit(1)
            ).one_or_none()
        return None if row is None else _override_from_row(row)

    def clear_trust_override(self) -> None:
        """Go back to the base weights (earlier overrides stay on record, inactive)."""
        overrides = t.trust_weight_overrides
        with self._writing() as connection:
            connection.execute(
                update(overrides)
                .where(overrides.c.organization_id == self.organization_id, overrides.c.active.is_(True))
                .values(active=False)
            )
