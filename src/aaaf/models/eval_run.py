"""Stored eval runs (docs/api.md "Routes"), as the API answers them."""

from __future__ import annotations

from aaaf.models._base import PublicModel


class EvalRunSummary(PublicModel):
    """A stored run without its samples (what a list shows)."""

    id: str
    run_id: str
    variant: str
    source_format: str
    samples: int
    status: str | None
    uploaded_at: str


class EvalRun(EvalRunSummary):
    """A stored run: its summary and the run object (samples and all)."""

    run: dict[str, object]


class EvalRunPage(PublicModel):
    """One page of stored runs, newest first (docs/api.md "Pages")."""

    items: list[EvalRunSummary]
    next_cursor: str | None
