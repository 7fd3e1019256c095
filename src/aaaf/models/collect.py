"""The collect report (docs/api.md batch answer, as ``aaaf collect --json`` prints it)."""

from __future__ import annotations

from pydantic import Field

from aaaf.models._base import PublicModel


class EventError(PublicModel):
    """Why the event at ``index`` (file ``line``, when read from one) was rejected (docs/scoring.md §2)."""

    index: int
    line: int | None = None
    code: str
    field: str | None
    error: str


class EventWarning(PublicModel):
    """What was stored but is probably a mistake (a domain outside the taxonomy, a checklist
    key the organization does not use, a field no scorer reads): the event at ``index`` (file
    ``line``) was accepted, and ``field`` is named so it can be fixed."""

    index: int
    line: int | None = None
    field: str
    warning: str


class CollectReport(PublicModel):
    """Counts of one collection; ``errors`` are the first lines' errors, ``errors_note``
    (present only then) says when that list is cut; ``warnings`` the first lines' warnings
    about accepted events (``warnings_total`` counts them all)."""

    accepted: int
    duplicates: int
    rejected: int
    skipped: int
    enrolled: list[str]
    errors: list[EventError]
    errors_total: int
    errors_note: str | None = None
    warnings: list[EventWarning] = Field(default_factory=list)
    warnings_total: int = 0
