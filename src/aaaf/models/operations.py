"""What the operator's commands print with ``--json``: ``aaaf status`` (the job queue as
``GET /health`` judges it, docs/jobs.md "Is anybody working?"), ``aaaf db upgrade|prune``
(docs/scoring.md §7 retention), ``aaaf init``, ``aaaf report`` and ``aaaf gate promote``.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from aaaf.models._base import PublicModel


class QueueStatus(PublicModel):
    """The job queue (docs/jobs.md "Is anybody working?")."""

    runner: str = Field(description="procrastinate (PostgreSQL, `aaaf worker`) or in-process (SQLite).")
    waiting_jobs: int
    oldest_waiting_seconds: float | None
    last_worker_heartbeat: str | None
    status: str = Field(description="ok, or degraded: jobs wait and no worker was seen.")
    reason: str | None


class DatabaseStatus(PublicModel):
    """``aaaf status --json``: the database, the organization's agents, its assessments by
    status, and the job queue (``status`` is the queue's)."""

    database: str
    organization: str
    agents: int
    assessments: dict[str, int]
    status: str
    queue: QueueStatus


class Migration(PublicModel):
    """``aaaf db upgrade --json``: the schema revisions before and after the upgrade."""

    database: str
    from_: list[str] = Field(alias="from")
    to: list[str]


class PruneCounts(PublicModel):
    """What one organization's prune deleted (in a dry run: would delete) and marked."""

    events_before: str
    stress_results_before: str
    events: int
    stress_results: int
    assessments_marked: int


class PruneResult(PublicModel):
    """``aaaf db prune --json``: each organization's counts, by name."""

    dry_run: bool
    organizations: dict[str, PruneCounts]


class FilesWritten(PublicModel):
    """``aaaf init --json``: the files written and those kept (already there, no --force)."""

    written: list[str]
    kept: list[str]


class ReportsWritten(PublicModel):
    """``aaaf report --json``: the reports written and the agents skipped (no completed
    assessment)."""

    written: list[str]
    skipped: list[str]


class BaselinePromoted(PublicModel):
    """``aaaf gate promote --json``: the assessment promoted to its agent's gate baseline."""

    promoted: str
    agent: str
    type: str


class Health(BaseModel):
    status: str = Field(description="ok, or degraded (see reason).")
    database: str
    version: str
    reason: str | None = None
    queue: QueueStatus | None = None
