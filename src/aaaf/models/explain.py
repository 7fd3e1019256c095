"""The explanation of an assessment (``aaaf explain --json``)."""

from __future__ import annotations

from aaaf.models._base import Number, OpenModel, PublicModel
from aaaf.models.assessment import Uncertainty


class TaskChange(OpenModel):
    """A task that lowered the dimension: the score without it and the change it made."""

    task_id: str


class DimensionExplanation(OpenModel):
    """One dimension as stored, and — when its evidence is still there — as recomputed."""

    axis: str
    score: Number | None
    evidence_count: int | None
    tasks_examined: int | None = None
    lowered_by: list[TaskChange] | None = None


class TierNeed(OpenModel):
    dimension: str


class TierRaise(OpenModel):
    """What would raise an axis to the next tier."""

    composite: Number | None
    tier: str | None


class SchemeSpec(PublicModel):
    """The scheme and exact configuration an assessment was scored with."""

    name: str
    version: str
    config: dict[str, object]


class Explanation(PublicModel):
    assessment_id: str
    agent: str
    status: str
    message: str | None
    spec: SchemeSpec | None
    window_end: str
    missing_events: int
    evidence_pruned_at: str | None = None  # when retention deleted its events (docs/scoring.md §7)
    dimensions: dict[str, DimensionExplanation]
    uncertainty: dict[str, Uncertainty | None] | None = None  # docs/uncertainty.md, as stored
    what_would_raise_the_tier: dict[str, TierRaise | None]
