"""The audit sample drawn and written as a worksheet (``aaaf audit sample --json``;
docs/scoring.md §3.9): which tasks of the agent's window were drawn, and where they went."""

from __future__ import annotations

from aaaf.models._base import Number, PublicModel


class AuditWorksheet(PublicModel):
    """The draw (``rate`` of the window's ``completed_tasks``, by ``seed``: the same three
    draw the same tasks again), the tasks drawn, and the worksheet file and its format."""

    agent: str
    window_start: str
    window_end: str
    rate: Number
    seed: int
    completed_tasks: int
    sampled: int
    task_ids: list[str]
    output: str
    format: str
