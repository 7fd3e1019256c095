"""The assessment of docs/api.md (``GET /api/v1/assessments/{id}``) and its parts.

Exactly §6.2's fields, plus ``covered``/``total`` per composite, each dimension's docs/scoring.md
§0 traceability terms, the §2.6 ``audit`` object and — in listings (``extended``) — the
record's type, window, review state and error.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from aaaf.models._base import Number, OpenModel, PublicModel
from aaaf.models.error import ErrorDetail


class DimensionScore(OpenModel):
    """One dimension (docs/scoring.md §3): ``score`` (null without evidence), how many tasks
    and events it rests on, then the dimension's own terms (docs/scoring.md §1) and ``details``."""

    score: Number | None
    sample_size: int | None = None
    evidence_count: int | None = None


class Uncertainty(PublicModel):
    """docs/uncertainty.md's statement of how sure an axis's composite is: the 95 % interval over
    the bootstrap's sufficient resamples, each tier's share of the resamples, how many there
    were and how many were insufficient."""

    ci: list[Number] | None
    tier_probabilities: dict[str, Number]
    resamples: int
    insufficient: int


class AxisScore(OpenModel):
    """One axis (Performance or Capability): the composite, its tier and the dimensions.
    Open: further per-axis figures (e.g. an uncertainty) follow the named fields."""

    composite_score: Number | None
    tier: str | None
    covered: int | None
    total: int | None
    uncertainty: Uncertainty | None = None
    dimensions: dict[str, DimensionScore]


class AuditSummary(PublicModel):
    """The ``audit`` object of docs/scoring.md §3.9."""

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
    refuted: list[dict[str, object]]
    event_ids: list[str]


class AxisEvidence(PublicModel):
    """Where one axis's evidence came from (docs/stress-tests.md "Provenance"): its tasks and
    events stress-tested by this installation (its own stress runs) and those reported by the
    organization (events it sent, logs it imported).  The events are those the axis's
    dimensions used (docs/scoring.md §1, traceability); a task mixing both counts as reported."""

    stress_tested_tasks: int
    reported_tasks: int
    stress_tested_events: int
    reported_events: int


class ModelGraded(PublicModel):
    """Who graded the model-graded sub-scores of the stress-tested orchestration results
    (``note`` says how many had no judge)."""

    orchestration_results: int
    judged: int
    judges: list[str]
    note: str | None


class EvidenceSources(PublicModel):
    """Where an assessment's scored evidence (inside its window) came from.

    ``passive_events`` are reported by the organization, ``stress_test_events`` were
    stress-tested by this installation in ``stress_runs`` (runs its own harness executed).
    ``reported_stress_events`` claim a stress test this installation did not run — imported
    logs (``reported_stress_runs``) or events marked as stress evidence without one of its
    runs — and count as reported.  ``performance`` / ``capability`` split each axis's tasks by
    provenance.  Assessments recorded before provenance carry only the first three fields (and
    ``model_graded``)."""

    passive_events: int
    stress_test_events: int
    stress_runs: list[str]
    reported_stress_events: int | None = None
    reported_stress_runs: list[str] | None = None
    model_graded: ModelGraded | None = None
    performance: AxisEvidence | None = None
    capability: AxisEvidence | None = None


class BadgeUrls(PublicModel):
    svg: str
    png: str
    json_url: str = Field(alias="json")


class Assessment(PublicModel):
    """docs/api.md assessment object; the fields after ``completed_at`` are the
    record's (present in listings and in the API's answer)."""

    id: str
    agent_id: str
    status: str
    performance: AxisScore | None
    capability: AxisScore | None
    audit: AuditSummary | None = None
    evidence_sources: EvidenceSources | None = None
    badge_urls: BadgeUrls
    valid_until: str | None
    created_at: str | None
    completed_at: str | None
    type: str | None = None
    dimension: str | None = None
    status_detail: str | None = Field(
        default=None,
        description="While pending: 'waiting for a worker' (docs/jobs.md, \"Is anybody working?\").",
    )
    window_start: str | None = None
    window_end: str | None = None
    anomalous: bool | None = None
    review_state: str | None = None
    error: str | dict[str, object] | None = None
    appeals: list[dict[str, object]] | None = None


class AssessOutcome(PublicModel):
    """One agent's outcome of ``assess --all``: its assessment, or the §6.4 error that stopped it."""

    agent: str
    assessment: Assessment | None = None
    error: ErrorDetail | None = None


class AssessmentStarted(BaseModel):
    id: str
    agent_id: str
    status: str
    type: str
    created_at: str
