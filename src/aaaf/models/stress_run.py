"""Stress runs (docs/api.md "Stress tests"), as the API answers them."""

from __future__ import annotations

from aaaf.models._base import Number, PublicModel


class StressRun(PublicModel):
    """One run: what was requested, the library and version, its dates, attempts and summary
    (``summary.error`` says why a ``failed`` run failed), and the assessment that merged it."""

    id: str
    agent_id: str
    adapter: str
    agent_reference: str
    library: str
    library_version: str
    status: str
    created_at: str
    started_at: str | None
    finished_at: str | None
    attempts: int
    request: dict[str, object] | None
    summary: dict[str, object]
    assessment_id: str | None


class LocalStressRun(PublicModel):
    """A run as the CLI prints it (``aaaf stress run|runs``, ``aaaf import-inspect``): the
    fields of :class:`StressRun` and, after ``request``, where the run's log was written."""

    id: str
    agent_id: str
    adapter: str
    agent_reference: str
    library: str
    library_version: str
    status: str
    created_at: str
    started_at: str | None
    finished_at: str | None
    attempts: int
    request: dict[str, object] | None
    log_path: str | None
    summary: dict[str, object]
    assessment_id: str | None


class StressRunResult(PublicModel):
    """One executed task of a run, in execution order."""

    task_key: str | None
    outcome: str
    score: Number | None
    details: dict[str, object]
    assessment_id: str | None


class StressRunWithResults(StressRun):
    """A run and its per-task results."""

    results: list[StressRunResult]


class StressRunQueued(PublicModel):
    """The answer to starting a stress test: the queued run and the assessment it is for."""

    stress_run: StressRun
    assessment_id: str
