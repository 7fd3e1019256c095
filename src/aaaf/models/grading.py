"""How the runs of an evaluation were graded here (docs/scoring.md §5): what grading recorded in
each run, and each judge's calibration against the human labels — shown by ``aaaf eval
score|grade --json`` and by a comparison (one treatment or several)."""

from __future__ import annotations

from aaaf.models._base import Number, PublicModel


class GradingSummary(PublicModel):
    """What grading recorded in a run: graded assertions, judge scores, failed judgements
    (``failure_reasons``: the first three, ``judge: reason``)."""

    run_id: str
    assertions: int
    assertions_graded_here: int
    assertions_failed: int
    judge_scores: int
    judge_failures: int
    failure_reasons: list[str]


class JudgeCalibration(PublicModel):
    """A judge's Spearman ρ against the human labels and whether it may be used."""

    spearman: Number | None
    n: int
    dropped: int
    accepted: bool
    dimension: str | None
    reason: str


class ComparisonGrading(PublicModel):
    """What grading recorded in the control and in the treatment."""

    control: GradingSummary
    treatment: GradingSummary


class SeveralGrading(PublicModel):
    """What grading recorded in the control and in each treatment, in the order given."""

    control: GradingSummary
    treatments: list[GradingSummary]
