"""What ``aaaf eval score|grade|import --json`` print (docs/scoring.md §5): one run scored
alone (the SOLO case), a run graded and written, runs imported from another tool's log."""

from __future__ import annotations

from aaaf.models._base import Number, PublicModel
from aaaf.models.comparison import Badge
from aaaf.models.grading import GradingSummary, JudgeCalibration


class JudgePair(PublicModel):
    judges: list[str]
    common_samples: int
    pearson: Number | None
    counted: bool
    reason: str | None


class JudgeAgreement(PublicModel):
    """How a run's judges agree: mean Pearson r over the counted pairs, Krippendorff's α."""

    judges: list[str]
    mean_pearson: Number | None
    krippendorff_alpha: Number | None
    disagree: bool
    pairs: list[JudgePair]


class SoloComposite(PublicModel):
    """The run's composite (``scale``: ``points`` 1-5, or ``z`` when standardised) and its CI."""

    score: Number | None
    samples: int
    layers_used: dict[str, int]
    covered: int
    total: int
    ci: list[Number] | None
    scale: str


class SoloLayer(PublicModel):
    score: Number | None
    samples: int
    ci: list[Number] | None


class SampleScore(PublicModel):
    """One sample's layer scores and composite (``layers_used``: how many layers it has)."""

    sample_id: str
    fact: Number | None
    behavior: Number | None
    judge: Number | None
    composite: Number | None
    layers_used: int
    human: Number | None
    records: int


class SoloScore(PublicModel):
    """One eval run scored alone (``aaaf eval score --json``): the SOLO verdict, layer means,
    composite and their bootstrap CIs, and how the run was graded here."""

    verdict: str
    action: str
    rule: str
    reason: str
    headline: str
    run_id: str
    variant: str
    n_samples: int
    composite: SoloComposite
    layers: dict[str, SoloLayer]
    samples: list[SampleScore]
    judges: JudgeAgreement
    badges: dict[str, Badge]
    standardisation: dict[str, object] | None
    method: dict[str, object]
    grading: GradingSummary
    calibration: dict[str, JudgeCalibration]


class GradedRunWritten(PublicModel):
    """``aaaf eval grade --output FILE --json``: where the graded run went, what grading did."""

    output: str
    grading: GradingSummary
    calibration: dict[str, JudgeCalibration]


class ImportedRun(PublicModel):
    """One run written by ``aaaf eval import`` and the importer's notes on it."""

    path: str
    run_id: str
    variant: str
    samples: int
    import_notes: list[str]


class ImportedRuns(PublicModel):
    runs: list[ImportedRun]
