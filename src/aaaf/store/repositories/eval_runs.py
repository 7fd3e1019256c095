"""Eval runs uploaded over the API (SCORING.md §4; issue 13 "eval runs/compare").

Part of the organization's repositories (:class:`aaaf.store.org_store.OrgStore`, an extra
base).  Each row is one run object as ``aaaf compare`` reads it from a file, so comparing
stored runs is comparing the files they came from.  Another organization's run is
``NOT_FOUND``, as an id that does not exist.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Row, insert, select

from aaaf.store import tables as t
from aaaf.store.repositories.base import OrgScoped, as_uuid, not_found
from aaaf.store.row_mapping import record_from_row


@dataclass(frozen=True)
class StoredEvalRun:
    """One stored eval run; ``run`` is the run object (``{run_id, variant, samples, …}``)."""

    id: uuid.UUID
    organization_id: uuid.UUID
    run_id: str
    variant: str
    source_format: str
    samples: int
    run: Mapping[str, object]
    uploaded_at: datetime

    def summary(self) -> dict[str, Any]:
        """What a list shows: everything but the samples."""
        return {
            "id": str(self.id),
            "run_id": self.run_id,
            "variant": self.variant,
            "source_format": self.source_format,
            "samples": self.samples,
            "status": self.run.get("status"),
            "uploaded_at": self.uploaded_at.isoformat().replace("+00:00", "Z"),
        }


def _from_row(row: Row[Any]) -> StoredEvalRun:
    return record_from_row(StoredEvalRun, row)


class EvalRunRepository(OrgScoped):
    """The organization's uploaded eval runs."""

    def add_eval_runs(
        self, runs: Sequence[Mapping[str, Any]], *, source_format: str, uploaded_at: datetime
    ) -> list[StoredEvalRun]:
        """Store ``runs`` (validated run objects) in one transaction; the stored records."""
        records = [
            StoredEvalRun(
                id=uuid.uuid4(),
                organization_id=self.organization_id,
                run_id=str(run["run_id"]),
                variant=str(run["variant"]),
                source_format=source_format,
                samples=len(run.get("samples") or ()),
                run=dict(run),
                uploaded_at=uploaded_at,
            )
            for run in runs
        ]
        with self._writing() as connection:
            if records:
                connection.execute(
                    insert(t.eval_runs),
                    [
                        {
                            "id": record.id,
                            "organization_id": record.organization_id,
                            "run_id": record.run_id,
                            "variant": record.variant,
                            "source_format": record.source_format,
                            "samples": record.samples,
                            "run": dict(record.run),
                            "uploaded_at": record.uploaded_at,
                        }
                        for record in records
                    ],
                )
        return records

    def get_eval_run(self, run_ref: uuid.UUID | str) -> StoredEvalRun:
        """One stored run by its id; ``NOT_FOUND`` when it is not this organization's."""
        run_uuid = as_uuid(run_ref)
        if run_uuid is None:
            raise not_found("Eval run", run_ref)
        with self._reading() as connection:
            row = connection.execute(
                select(t.eval_runs).where(
                    t.eval_runs.c.id == run_uuid, t.eval_runs.c.organization_id == self.organization_id
                )
            ).one_or_none()
        if row is None:
            raise not_found("Eval run", run_ref)
        return _from_row(row)

    def eval_runs(self) -> list[StoredEvalRun]:
        """Every stored run of the organization, newest first."""
        eval_runs = t.eval_runs
        with self._reading() as connection:
            rows = connection.execute(
                select(eval_runs)
                .where(eval_runs.c.organization_id == self.organization_id)
                .order_by(eval_runs.c.uploaded_at.desc(), eval_runs.c.id.desc())
            ).all()
        return [_from_row(row) for row in rows]
