"""The release gate's record (migration 0017): one row per agent gate — the candidate
assessment, the baseline it was compared with, the verdict, whether it passed and on which
``--fail-on`` conditions — and one per explicit promotion to baseline.

The agent gate's default baseline is the latest valid assessment that passed a gate or was
promoted (:func:`aaaf.services.gate_baselines.find_baseline`), so a candidate that failed
is recorded as failed and never becomes the next run's baseline.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Row, insert, select

from aaaf.store import tables as t
from aaaf.store.repositories.base import OrgScoped
from aaaf.store.row_mapping import record_from_row


@dataclass(frozen=True)
class GateDecision:
    id: uuid.UUID
    agent_id: uuid.UUID
    assessment_id: uuid.UUID
    kind: str  # gate | promotion
    baseline_assessment_id: uuid.UUID | None
    verdict: str | None
    passed: bool | None
    fail_on: str | None
    stress_run_id: uuid.UUID | None
    created_at: datetime

    @property
    def makes_baseline(self) -> bool:
        """A promotion, or a gate the candidate passed."""
        return self.kind == "promotion" or bool(self.passed)


def _decision_from_row(row: Row[object]) -> GateDecision:
    return record_from_row(GateDecision, row)


class GateDecisionRepository(OrgScoped):
    """The organization's gate decisions and promotions."""

    def record_gate_decision(
        self,
        agent_id: uuid.UUID,
        assessment_id: uuid.UUID,
        *,
        kind: str,
        baseline_assessment_id: uuid.UUID | None = None,
        verdict: str | None = None,
        passed: bool | None = None,
        fail_on: str | None = None,
        stress_run_id: uuid.UUID | None = None,
    ) -> GateDecision:
        decision_id = uuid.uuid4()
        with self._writing() as connection:
            connection.execute(
                insert(t.gate_decisions).values(
                    id=decision_id,
                    organization_id=self.organization_id,
                    agent_id=agent_id,
                    assessment_id=assessment_id,
                    kind=kind,
                    baseline_assessment_id=baseline_assessment_id,
                    verdict=verdict,
                    passed=passed,
                    fail_on=fail_on,
                    stress_run_id=stress_run_id,
                    created_at=self._clock(),
                )
            )
            row = connection.execute(
                select(t.gate_decisions).where(t.gate_decisions.c.id == decision_id)
            ).one()
        return _decision_from_row(row)

    def gate_decisions(self, agent_id: uuid.UUID) -> list[GateDecision]:
        """One agent's gate decisions and promotions, oldest first."""
        table = t.gate_decisions
        with self._reading() as connection:
            rows = connection.execute(
                select(table)
                .where(table.c.organization_id == self.organization_id, table.c.agent_id == agent_id)
                .order_by(table.c.created_at, table.c.id)
            ).all()
        return [_decision_from_row(row) for row in rows]
