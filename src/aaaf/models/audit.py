"""An agent's audit status over its window (SCORING.md §2.6; ``aaaf audit status --json``)."""

from __future__ import annotations

from typing import Any

from aaaf.models._base import Number, PublicModel


class AuditStatus(PublicModel):
    """The §2.6 ``audit`` object of the window, with the thresholds it was judged by."""

    agent: str
    window_start: str
    window_end: str
    honesty_threshold: Number
    min_audited_tasks: int
    coverage: Number | None
    honesty: Number | None
    audited_tasks: int
    required_rate: Number
    met: bool
    self_report_unreliable: bool
    facts_checked: int
    facts_refuted: int
    completed_tasks: int
    audited_completed_tasks: int
    refuted: list[dict[str, Any]]
    event_ids: list[str]
