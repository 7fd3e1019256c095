"""What changed between an agent's assessment and its previous one, and why (docs/scoring.md §1,
§3): ``GET /api/v1/assessments/{id}/changes`` and the dashboard's agent page."""

from __future__ import annotations

from pydantic import Field

from aaaf.models._base import Number, PublicModel


class DimensionChange(PublicModel):
    """One dimension: its score before and after, the change, and the causes in words."""

    dimension: str
    before: Number | None = None
    after: Number | None = None
    change: Number | None = None
    samples_before: int = 0
    samples_after: int = 0
    weight_before: Number | None = None
    weight_after: Number | None = None
    causes: list[str] = Field(default_factory=list)


class AxisChange(PublicModel):
    axis: str
    composite_before: Number | None = None
    composite_after: Number | None = None
    change: Number | None = None
    tier_before: str | None = None
    tier_after: str | None = None
    dimensions: list[DimensionChange] = Field(default_factory=list)


class ConfigurationChange(PublicModel):
    """A setting changed between the two assessments: when, by whom, before → after."""

    changed_at: str
    setting: str
    before: object | None = None
    after: object | None = None
    changed_by: str | None = Field(
        default=None, description="The API key or OAuth client, or the command line; null when not recorded."
    )


class AuditCause(PublicModel):
    """Audit findings recorded between the two assessments, and the honesty result the later
    assessment drew from its window's findings (docs/scoring.md §2.6)."""

    audited_tasks: int = Field(description="Tasks audited between the two assessments.")
    first_at: str
    last_at: str
    auditors: list[str] = Field(default_factory=list)
    honesty: Number | None = None
    facts_checked: int = 0
    facts_refuted: int = 0
    self_report_unreliable: bool = False


class AppealCause(PublicModel):
    """An appeal of one of the agent's assessments decided between the two assessments."""

    appeal_id: str
    assessment_id: str
    status: str
    resolved_at: str
    dimensions_challenged: list[str] = Field(default_factory=list)
    reviewer_notes: str | None = None


class AssessmentChanges(PublicModel):
    """The assessment against the agent's previous completed one (``previous_id`` null: none)."""

    assessment_id: str
    previous_id: str | None = None
    axes: list[AxisChange] = Field(default_factory=list)
    configuration_changes: list[ConfigurationChange] = Field(default_factory=list)
    audits: list[AuditCause] = Field(default_factory=list)
    appeals: list[AppealCause] = Field(default_factory=list)
