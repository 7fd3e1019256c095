"""Appeals (docs/scoring.md §2.4; docs/api.md "Appeals"), as the API answers them."""

from __future__ import annotations

from aaaf.models._base import PublicModel


class Appeal(PublicModel):
    """An appeal against an assessment: what is challenged, why, and how it was resolved."""

    id: str
    assessment_id: str
    dimensions_challenged: list[str]
    justification: str
    counter_evidence: list[dict[str, object]]
    status: str
    reviewer_notes: str | None
    resolution: dict[str, object] | None
    filed_at: str
    resolved_at: str | None


class AppealPage(PublicModel):
    """One page of an assessment's appeals, oldest first (docs/api.md "Pages")."""

    items: list[Appeal]
    next_cursor: str | None
