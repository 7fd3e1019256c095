"""The comparison of a control with treatment eval runs (docs/scoring.md §5; docs/scoring.md §6).

One treatment: :class:`Comparison`.  Several: :class:`SeveralComparison` — each treatment's
comparison (Bonferroni across treatments) and the worst verdict rolled up.
"""

from __future__ import annotations

from aaaf.models._base import Number, OpenModel, PublicModel
from aaaf.models.grading import ComparisonGrading, JudgeCalibration, SeveralGrading


class RunRef(PublicModel):
    run_id: str
    variant: str | None
    n_samples: int


class Unpaired(PublicModel):
    control_only: list[str]
    treatment_only: list[str]
    unscored: list[object]
    errored: list[object]


class CompositeDiff(OpenModel):
    """The composite's means, difference and confidence interval (docs/scoring.md §6)."""

    control: Number | None
    treatment: Number | None
    diff: Number | None
    ci: list[Number] | None


class Badge(PublicModel):
    label: str
    value: bool | None
    detail: str


class Comparison(PublicModel):
    """One treatment against the control: verdict, action and every figure behind it
    (``grading``/``calibration``: how the runs' assertions and judges were graded here)."""

    verdict: str
    action: str
    rule: str
    reason: str
    headline: str
    control: RunRef
    treatment: RunRef
    n_paired: int
    unpaired: Unpaired
    incomplete: list[object]
    composite: CompositeDiff
    layers: dict[str, dict[str, object]]
    judges: dict[str, object]
    badges: dict[str, Badge]
    hotelling: dict[str, object] | None
    standardisation: dict[str, object] | None
    method: dict[str, object]
    grading: ComparisonGrading | None = None
    calibration: dict[str, JudgeCalibration] | None = None


class TreatmentComparison(PublicModel):
    """One of several treatments against the control: ``treatment`` names it
    (``run_id/variant``), ``treatment_run`` describes it."""

    treatment: str
    verdict: str
    action: str
    rule: str
    reason: str
    headline: str
    control: RunRef
    n_paired: int
    unpaired: Unpaired
    incomplete: list[object]
    composite: CompositeDiff
    layers: dict[str, dict[str, object]]
    judges: dict[str, object]
    badges: dict[str, Badge]
    hotelling: dict[str, object] | None
    standardisation: dict[str, object] | None
    method: dict[str, object]
    treatment_run: RunRef


class SeveralComparison(PublicModel):
    """Several treatments against one control; ``verdict`` is the worst of theirs."""

    control: RunRef
    comparisons: list[TreatmentComparison]
    verdict: str
    action: str
    headline: str
    treatments: int
    family_confidence: Number
    grading: SeveralGrading | None = None
    calibration: dict[str, JudgeCalibration] | None = None
