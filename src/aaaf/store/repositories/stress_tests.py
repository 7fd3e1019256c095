"""The stress-test library and results (document 004 §5.3).

Part of the organization's repositories (:class:`aaaf.store.org_store.OrgStore`); it extends
:class:`WebhookRepository` so that its methods may use every earlier concept's.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Row, Select, delete, func, insert, select
from sqlalchemy.exc import IntegrityError

from aaaf.errors import AAAFError
from aaaf.store import tables as t
from aaaf.store.records import (
    StressTest,
    StressTestResult,
)
from aaaf.store.repositories.base import as_uuid, check_one_of, not_found, now_utc
from aaaf.store.repositories.webhooks import WebhookRepository
from aaaf.store.row_mapping import record_from_row


def insert_stress_test(
    connection: Connection,
    *,
    organization_id: uuid.UUID | None,
    dimension: str,
    task_definition: Mapping[str, object],
    complexity_level: int | None,
    domain: str | None,
    expected_outcome: Mapping[str, object] | None,
    now: datetime | None = None,
) -> uuid.UUID:
    """Insert one stress test definition (organization None = the system library); its id."""
    stress_test_id = uuid.uuid4()
    connection.execute(
        insert(t.stress_tests).values(
            id=stress_test_id,
            organization_id=organization_id,
            dimension=dimension,
            complexity_level=complexity_level,
            domain=domain,
            task_definition=dict(task_definition),
            expected_outcome=None if expected_outcome is None else dict(expected_outcome),
            created_at=now or now_utc(),
        )
    )
    return stress_test_id


def stress_test_from_row(row: Row[Any]) -> StressTest:
    return record_from_row(StressTest, row)


def _stress_result_from_row(row: Row[Any]) -> StressTestResult:
    return record_from_row(StressTestResult, row)


class StressTestRepository(WebhookRepository):
    """The stress-test library and results (document 004 §5.3)."""

    def create_stress_test(
        self,
        dimension: str,
        *,
        task_definition: Mapping[str, object],
        complexity_level: int | None = None,
        domain: str | None = None,
        expected_outcome: Mapping[str, object] | None = None,
    ) -> StressTest:
        """An organization's own stress test definition (document 004 §5.2 step 4)."""
        with self._writing() as connection:
            stress_test_id = insert_stress_test(
                connection,
                organization_id=self.organization_id,
                dimension=dimension,
                task_definition=task_definition,
                complexity_level=complexity_level,
                domain=domain,
                expected_outcome=expected_outcome,
                now=self._clock(),
            )
        return self.get_stress_test(stress_test_id)

    def _visible_stress_tests(self) -> Select[Any]:
        owner = t.stress_tests.c.organization_id
        return select(t.stress_tests).where((owner == self.organization_id) | owner.is_(None))

    def stress_tests(self, *, dimension: str | None = None) -> list[StressTest]:
        """The org's own definitions and the system defaults, oldest first."""
        query = self._visible_stress_tests()
        if dimension is not None:
            query = query.where(t.stress_tests.c.dimension == dimension)
        with self._reading() as connection:
            rows = connection.execute(query.order_by(t.stress_tests.c.created_at, t.stress_tests.c.id)).all()
        return [stress_test_from_row(row) for row in rows]

    def _stress_test_row(self, connection: Connection, stress_test_id: uuid.UUID | str) -> Row[Any]:
        wanted = as_uuid(stress_test_id)
        row = None
        if wanted is not None:
            row = connection.execute(
                self._visible_stress_tests().where(t.stress_tests.c.id == wanted)
            ).one_or_none()
        if row is None:
            raise not_found("Stress test", stress_test_id)
        return row

    def get_stress_test(self, stress_test_id: uuid.UUID | str) -> StressTest:
        with self._reading() as connection:
            return stress_test_from_row(self._stress_test_row(connection, stress_test_id))

    def delete_stress_test(self, stress_test_id: uuid.UUID | str) -> None:
        """Delete one of the org's own definitions (system defaults are not its to delete:
        ``NOT_FOUND``); one with recorded results is ``CONFLICT`` (results are kept, §7.3)."""
        wanted = as_uuid(stress_test_id)
        try:
            with self._writing() as connection:
                has_results = connection.execute(
                    select(func.count())
                    .select_from(t.stress_test_results)
                    .where(t.stress_test_results.c.stress_test_id == wanted)
                ).scalar_one()
                if has_results:
                    raise AAAFError(
                        "CONFLICT",
                        f"Stress test {stress_test_id} has recorded results and cannot be deleted.",
                        {"stress_test_id": str(stress_test_id)},
                    )
                result = connection.execute(
                    delete(t.stress_tests).where(
                        t.stress_tests.c.id == wanted,
                        t.stress_tests.c.organization_id == self.organization_id,
                    )
                )
        except IntegrityError as error:
            raise AAAFError(
                "CONFLICT",
                f"Stress test {stress_test_id} has recorded results and cannot be deleted.",
                {"stress_test_id": str(stress_test_id)},
            ) from error
        if wanted is None or result.rowcount == 0:
            raise not_found("Stress test", stress_test_id)

    def record_stress_test_result(
        self,
        assessment_id: uuid.UUID,
        stress_test_id: uuid.UUID,
        *,
        outcome: str,
        score: float | None,
        details: Mapping[str, object],
        executed_at: datetime,
    ) -> StressTestResult:
        """One executed stress test of an assessment; the agent is the assessment's."""
        check_one_of("outcome", outcome, t.STRESS_TEST_OUTCOMES)
        result_id = uuid.uuid4()
        with self._writing() as connection:
            assessment = self._assessment_row(connection, assessment_id)
            stress_test = self._stress_test_row(connection, stress_test_id)
            connection.execute(
                insert(t.stress_test_results).values(
                    id=result_id,
                    assessment_id=assessment.id,
                    stress_test_id=stress_test.id,
                    agent_id=assessment.agent_id,
                    outcome=outcome,
                    score=None if score is None else float(score),
                    details=dict(details),
                    executed_at=executed_at,
                )
            )
            row = connection.execute(
                select(t.stress_test_results).where(t.stress_test_results.c.id == result_id)
            ).one()
        return _stress_result_from_row(row)

    def stress_test_results(self, assessment_id: uuid.UUID) -> list[StressTestResult]:
        """Results of one assessment, in execution order."""
        results = t.stress_test_results
        with self._reading() as connection:
            assessment = self._assessment_row(connection, assessment_id)
            rows = connection.execute(
                select(results)
                .where(results.c.assessment_id == assessment.id)
                .order_by(results.c.executed_at, results.c.id)
            ).all()
        return [_stress_result_from_row(row) for row in rows]
