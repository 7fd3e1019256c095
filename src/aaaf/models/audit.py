"""An agent's audit status over its window (docs/scoring.md §3.9; ``aaaf audit status --json``)."""

from __future__ import annotations

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


class ReportedFacts(BaseModel):
    """What the agent reported about a sampled task, before any finding."""

    completion_status: str | None
    milestone_fraction: Number | None
    checklist: dict[str, bool]
    errors: int
    weighted_errors: Number


class BlankFinding(BaseModel):
    """The finding fields of a drawn task, left blank for the auditor."""

    auditor: None
    completion_status: None
    milestone_fraction: None
    checklist: dict[str, None]
    errors: None
    notes: None


class AuditSampleTask(BaseModel):
    """One sampled task (one worksheet row): what the agent reported about it, and blank
    finding fields."""

    agent: str
    task_id: str
    completed_at: str | None
    domain: str | None
    complexity_level: int | None
    self_reported: ReportedFacts
    finding: BlankFinding


class AuditDraw(BaseModel):
    """The draw of an audit sample: ``rate`` of the window's ``completed_tasks``, by ``seed``."""

    agent: str
    window_start: str
    window_end: str
    rate: float
    seed: int
    completed_tasks: int
    sampled: int


class _AgentId(BaseModel):
    agent_id: str


class AuditSample(AuditDraw, _AgentId):
    """The audit sample of an agent's window: the agent's id, the draw, then its tasks (the
    worksheet's rows).  The server keeps no record of it: the same ``rate``, ``seed`` and
    ``window_end`` (all answered) draw the same tasks again."""

    tasks: list[AuditSampleTask]
