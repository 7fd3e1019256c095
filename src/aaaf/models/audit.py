"""An agent's audit status over its window (docs/scoring.md §3.9; ``aaaf audit status --json``)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from aaaf.models._base import Number, PublicModel
from aaaf.models.assessment import AuditSummary


class AuditWindow(PublicModel):
    """The window an audit status covers and the thresholds it was judged by (``agent_id``:
    the API names the agent by id as well; the CLI by name only)."""

    agent_id: str | None = None
    agent: str
    window_start: str
    window_end: str
    honesty_threshold: Number
    min_audited_tasks: int


class AuditStatus(AuditSummary, AuditWindow):
    """The §2.6 ``audit`` object of the window, after the window and the thresholds it was judged by."""


class AuditSampleTask(BaseModel):
    """One sampled task: what the agent reported about it, and blank finding fields."""

    agent: str
    task_id: str
    completed_at: str | None
    domain: str | None
    complexity_level: int | None
    self_reported: dict[str, Any]
    finding: dict[str, Any]


class AuditSample(BaseModel):
    """The audit sample of an agent's window.  The server keeps no record of it: the same
    ``rate``, ``seed`` and ``window_end`` (all answered) draw the same tasks again."""

    agent_id: str
    agent: str
    window_start: str
    window_end: str
    rate: float
    seed: int
    completed_tasks: int
    sampled: int
    tasks: list[AuditSampleTask]
