"""The layered eval scheme of document 002 with the semantics of SCORING.md §4 (pure).

An eval run is a list of samples; each sample carries graded assertions, judge scores
and perhaps a human label.  Per sample:

* ``fact = 1 + 4 × passed_weight / total_weight`` over its fact assertions (null if none),
* ``behavior`` likewise over its behavior assertions,
* ``judge`` = the mean of its judges' 1-5 scores (null if none),
* ``composite`` = the mean of the sample's own non-null layers, reported with the number
  of layers it used (document 002 §3 ③: two equal composites built from different
  layers must not be confused).

A run's layer score is the mean over the samples that have the layer; its composite the
mean of its samples' composites.  This module is the frozen v0.x formula; the v1.0
options (explicit weights, z-score standardisation) are opt-in through
:class:`LayeredConfig` and never change the default (SCORING.md §4, last bullet; a
frozen-hash test guards it).

Grading is not done here: an assertion without ``passed`` is graded by the shell
(``aaaf.services.evals.grade_run`` grades it (code graders and model judges)) before the core sees it, so the
core stays free of I/O and of model calls.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from aaaf.errors import AAAFError
from aaaf.scoring.core import check_weights, renormalised_weights

LAYERS: tuple[str, ...] = ("fact", "behavior", "judge")
# SCORING.md §4: percentile is the default and the contract; BCa is offered for comparison.
CI_METHODS: tuple[str, ...] = ("percentile", "bca")
SCALE_MIN = 1.0
SCHEME = "layered"
"""The scheme's registered name (DESIGN.md: one scheme = one module)."""
VERSION = "1"
"""Bumped whenever a formula changes, so a recorded result is never replayed on another one."""

SCALE_MAX = 5.0

# SCORING.md §4: the fixed, documented classification of assertion types.
FACT_ASSERTION_TYPES: tuple[str, ...] = ("contains", "icontains", "equals", "regex", "json_schema", "similar")
BEHAVIOR_ASSERTION_TYPES: tuple[str, ...] = (
    "tool_called",
    "tool_not_called",
    "tool_order",
    "max_turns",
    "max_cost",
    "max_latency",
)
ASSERTION_LAYERS: Mapping[str, str] = {
    **{name: "fact" for name in FACT_ASSERTION_TYPES},
    **{name: "behavior" for name in BEHAVIOR_ASSERTION_TYPES},
}


def assertion_layer(assertion_type: str) -> str:
    """'fact' or 'behavior' for a known assertion type; INVALID_REQUEST otherwise."""
    layer = ASSERTION_LAYERS.get(assertion_type)
    if layer is None:
        raise AAAFError(
            "INVALID_REQUEST",
            f"Unknown assertion type {assertion_type!r}; known types: {', '.join(ASSERTION_LAYERS)}.",
            {"field": "type", "value": assertion_type},
        )
    return layer


@dataclass(frozen=True)
class LayeredConfig:
    """The *(config)* numbers of SCORING.md §4 and the per-comparison v1.0 options.

    ``weights`` (explicit layer weights), ``standardize`` (z-scores before aggregation) and
    ``hotelling`` (multivariate test) default to off: the v0.x formula stays the default.
    """

    resamples: int = 10_000
    confidence: float = 0.95
    seed: int = 0
    gate_threshold: float = 3.5
    min_paired: int = 5
    mde_threshold: float = 0.25
    judge_min_pearson: float = 0.4
    judge_min_common: int = 3
    saturation_threshold: float = 4.8
    human_alignment_min_spearman: float = 0.80
    weights: Mapping[str, float] | None = None
    standardize: bool = False
    hotelling: bool = False
    ci_method: str = "percentile"

    def __post_init__(self) -> None:
        problems: list[str] = []
        if self.ci_method not in CI_METHODS:
            problems.append(f"ci_method must be one of {', '.join(CI_METHODS)}, got {self.ci_method!r}")
        if isinstance(self.resamples, bool) or not isinstance(self.resamples, int) or self.resamples < 1:
            problems.append(f"resamples must be a positive integer, got {self.resamples!r}")
        if not (isinstance(self.confidence, int | float) and 0.0 < self.confidence < 1.0):
            problems.append(f"confidence must be in (0, 1), got {self.confidence!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            problems.append(f"seed must be a non-negative integer, got {self.seed!r}")
        if self.min_paired < 1:
            problems.append(f"min_paired must be ≥ 1, got {self.min_paired!r}")
        if self.judge_min_common < 2:
            problems.append(f"judge_min_common must be ≥ 2, got {self.judge_min_common!r}")
        if problems:
            raise AAAFError("INVALID_REQUEST", "Invalid comparison settings: " + "; ".join(problems) + ".")
        if self.weights is not None:
            object.__setattr__(self, "weights", check_weights(self.weights, LAYERS))

    @property
    def alpha(self) -> float:
        return 1.0 - self.confidence

    @property
    def is_default_formula(self) -> bool:
        """True when the composite is the frozen v0.x equal-weight mean of raw layers."""
        return self.weights is None and not self.standardize

    def method_dict(self) -> dict[str, Any]:
        return {
            "resamples": self.resamples,
            "confidence": self.confidence,
            "seed": self.seed,
            "gate_threshold": self.gate_threshold,
            "min_paired": self.min_paired,
            "mde_threshold": self.mde_threshold,
            "judge_min_pearson": self.judge_min_pearson,
            "judge_min_common": self.judge_min_common,
            "saturation_threshold": self.saturation_threshold,
            "human_alignment_min_spearman": self.human_alignment_min_spearman,
            "weights": dict(self.weights) if self.weights is not None else None,
            "standardize": self.standardize,
            "significance_test": "hotelling_t2" if self.hotelling else "composite_ci",
            "ci_method": self.ci_method,
            "formula": "v0.x equal-weight mean" if self.is_default_formula else "v1.0 option",
        }


@dataclass(frozen=True)
class GradedAssertion:
    """An assertion whose outcome is known (given as ``passed`` or computed by a grader).

    Its layer comes from the fixed table of SCORING.md §4; an already graded assertion of
    another tool's type (promptfoo's ``javascript``, ``levenshtein``…) names its layer in
    ``source_layer`` as its importer classified it.
    """

    type: str
    passed: bool
    weight: float = 1.0
    reason: str | None = None
    source_layer: str | None = None

    def __post_init__(self) -> None:
        if self.type in ASSERTION_LAYERS:
            if self.source_layer is not None and self.source_layer != ASSERTION_LAYERS[self.type]:
                raise AAAFError(
                    "INVALID_REQUEST",
                    f"Assertion type {self.type!r} counts in the {ASSERTION_LAYERS[self.type]} layer, "
                    f"not {self.source_layer!r}.",
                    {"field": "layer", "value": self.source_layer},
                )
        elif self.source_layer not in ("fact", "behavior"):
            # an imported grade of another tool's type names its layer (SCORING.md §4 'Importers')
            assertion_layer(self.type)
        if not (math.isfinite(self.weight) and self.weight >= 0.0):
            raise AAAFError(
                "INVALID_REQUEST",
                f"Assertion weight must be a finite number ≥ 0, got {self.weight!r}.",
                {"field": "weight"},
            )

    @property
    def layer(self) -> str:
        return ASSERTION_LAYERS.get(self.type) or str(self.source_layer)


@dataclass(frozen=True)
class JudgeScore:
    """One judge's 1-5 score of one sample."""

    judge: str
    score: float

    def __post_init__(self) -> None:
        if not (math.isfinite(self.score) and SCALE_MIN <= self.score <= SCALE_MAX):
            raise AAAFError(
                "INVALID_REQUEST",
                f"Judge {self.judge!r} score must be in [1, 5], got {self.score!r}.",
                {"field": "score"},
            )


@dataclass(frozen=True)
class LayeredSample:
    """One record of an eval sample as the core sees it: graded assertions, judges, human label.

    ``epoch`` (integer ≥ 1) numbers the records of a sample recorded several times
    (inspect_ai epochs, promptfoo ``--repeat``); ``error`` is the source's error when the
    sample did not finish (such a sample is left out of comparisons and reported).
    """

    sample_id: str
    assertions: tuple[GradedAssertion, ...] = ()
    judges: tuple[JudgeScore, ...] = ()
    human: float | None = None
    epoch: int | None = None
    error: str | None = None


@dataclass(frozen=True)
class LayeredRun:
    """One eval run (one variant) of graded samples; ``status`` as its source recorded it."""

    run_id: str
    variant: str
    samples: tuple[LayeredSample, ...]
    status: str | None = None

    @property
    def errored(self) -> tuple[str, ...]:
        """Distinct ids of the samples that errored (any of their records), in run order."""
        return tuple(dict.fromkeys(s.sample_id for s in self.samples if s.error is not None))

    @property
    def incomplete(self) -> bool:
        """SCORING.md §4: the source says the run did not finish (status, or an errored sample)."""
        return self.status not in (None, "success") or bool(self.errored)

    def incomplete_text(self) -> str:
        """ "status 'error', 2 errored sample(s)" — how a refusal or a reason names it."""
        status = self.status if self.status is not None else "not recorded"
        return f"status {status!r}, {len(self.errored)} errored sample(s)"


def assertion_layer_score(assertions: Sequence[GradedAssertion], layer: str) -> float | None:
    """``1 + 4 × passed_weight / total_weight`` over the layer's assertions (SCORING.md §4).

    None when the sample has no assertion of the layer, or when their weights sum to 0
    (no weighted evidence: a 0/0 pass rate is missing, not 1 point).
    """
    weights = [a.weight for a in assertions if a.layer == layer]
    if not weights:
        return None
    total = math.fsum(weights)
    if total <= 0.0:
        return None
    passed = math.fsum(a.weight for a in assertions if a.layer == layer and a.passed)
    return SCALE_MIN + (SCALE_MAX - SCALE_MIN) * passed / total


def judge_layer_score(judges: Sequence[JudgeScore]) -> float | None:
    """The mean of the sample's judge scores, raw (document 002 §1: no post-processing)."""
    if not judges:
        return None
    return math.fsum(j.score for j in judges) / len(judges)


def aggregate_layers(
    values: Mapping[str, float | None], weights: Mapping[str, float] | None = None
) -> tuple[float | None, int]:
    """(composite, layers used) of one sample.

    Default (v0.x, frozen): the plain mean of the non-null layers.  With explicit weights
    (v1.0): the weighted mean with weights renormalised over the non-null layers
    (SCORING.md §0 'Missing dimensions').  A sample without any layer has no composite.
    """
    present = [name for name in LAYERS if values.get(name) is not None]
    if not present:
        return None, 0
    if weights is None:
        return math.fsum(float(values[name]) for name in present) / len(present), len(present)  # type: ignore[arg-type]
    used = renormalised_weights(values, {name: weights[name] for name in LAYERS})
    if not used:
        # every present layer has weight 0: the weights say nothing about this sample
        return None, 0
    return math.fsum(used[name] * float(values[name]) for name in used), len(present)  # type: ignore[arg-type]


@dataclass(frozen=True)
class SampleScores:
    """One sample's layer scores and v0.x composite, with the number of layers it used."""

    sample_id: str
    fact: float | None
    behavior: float | None
    judge: float | None
    composite: float | None
    layers_used: int
    human: float | None = None
    records: int = 1

    def layer(self, name: str) -> float | None:
        if name == "fact":
            return self.fact
        if name == "behavior":
            return self.behavior
        if name == "judge":
            return self.judge
        raise KeyError(name)

    def layers(self) -> dict[str, float | None]:
        return {"fact": self.fact, "behavior": self.behavior, "judge": self.judge}

    def to_dict(self) -> dict[str, Any]:
        return {
            "sample_id": self.sample_id,
            "fact": self.fact,
            "behavior": self.behavior,
            "judge": self.judge,
            "composite": self.composite,
            "layers_used": self.layers_used,
            "human": self.human,
            "records": self.records,
        }


def score_sample(sample: LayeredSample) -> SampleScores:
    """The frozen v0.x per-sample formula of SCORING.md §4."""
    layers = {
        "fact": assertion_layer_score(sample.assertions, "fact"),
        "behavior": assertion_layer_score(sample.assertions, "behavior"),
        "judge": judge_layer_score(sample.judges),
    }
    composite, used = aggregate_layers(layers)
    return SampleScores(
        sample_id=sample.sample_id,
        fact=layers["fact"],
        behavior=layers["behavior"],
        judge=layers["judge"],
        composite=composite,
        layers_used=used,
        human=sample.human,
    )


def check_records(samples: Sequence[LayeredSample]) -> None:
    """SCORING.md §4: ``(sample_id, epoch)`` unique; a repeated ``sample_id`` needs ``epoch`` on every record."""
    seen: dict[str, list[int | None]] = {}
    for sample in samples:
        seen.setdefault(sample.sample_id, []).append(sample.epoch)
    for sample_id, epochs in seen.items():
        if len(epochs) == 1:
            continue
        if any(epoch is None for epoch in epochs):
            raise AAAFError(
                "INVALID_REQUEST",
                f"Sample {sample_id} is recorded {len(epochs)} times without an epoch on every record: "
                "pairing needs unique ids (give each record its `epoch`).",
                {"sample_id": sample_id},
            )
        repeated = sorted({epoch for epoch in epochs if epochs.count(epoch) > 1})  # type: ignore[type-var]
        if repeated:
            raise AAAFError(
                "INVALID_REQUEST",
                f"Sample {sample_id} has epoch {', '.join(map(str, repeated))} more than once: "
                "(sample_id, epoch) must be unique.",
                {"sample_id": sample_id},
            )


def score_units(samples: Sequence[LayeredSample]) -> list[SampleScores]:
    """One score per ``sample_id`` (SCORING.md §4, 2026-11-23), in order of first appearance.

    A sample recorded once scores as :func:`score_sample`.  A sample recorded over several
    epochs is one unit: each layer is the mean of its records' layer scores (over the
    records that have the layer), its composite the mean of its records' composites, its
    human label the mean of its records' labels; ``records`` counts them.
    """
    check_records(samples)
    groups: dict[str, list[SampleScores]] = {}
    for sample in samples:
        groups.setdefault(sample.sample_id, []).append(score_sample(sample))
    units: list[SampleScores] = []
    for sample_id, scores in groups.items():
        if len(scores) == 1:
            units.append(scores[0])
            continue
        composites = [s.composite for s in scores]
        units.append(
            SampleScores(
                sample_id=sample_id,
                fact=mean_or_none([s.fact for s in scores]),
                behavior=mean_or_none([s.behavior for s in scores]),
                judge=mean_or_none([s.judge for s in scores]),
                composite=mean_or_none(composites),
                layers_used=max(s.layers_used for s in scores),
                human=mean_or_none([s.human for s in scores]),
                records=len(scores),
            )
        )
    return units


def mean_or_none(values: Sequence[float | None]) -> float | None:
    """Mean of the non-null values (math.fsum), None when there are none."""
    present = [v for v in values if v is not None]
    if not present:
        return None
    return math.fsum(present) / len(present)


def layer_count_histogram(scores: Sequence[SampleScores]) -> dict[str, int]:
    """How many samples' composites used 1, 2 or 3 layers (keys as strings, for JSON)."""
    histogram: dict[str, int] = {}
    for score in scores:
        if score.composite is not None:
            key = str(score.layers_used)
            histogram[key] = histogram.get(key, 0) + 1
    return dict(sorted(histogram.items()))


@dataclass(frozen=True)
class RunScores:
    """A run's per-sample scores and its run-level means (SCORING.md §4)."""

    run_id: str
    variant: str
    samples: tuple[SampleScores, ...]
    layer_means: Mapping[str, float | None] = field(default_factory=dict)
    layer_samples: Mapping[str, int] = field(default_factory=dict)
    composite: float | None = None
    composite_samples: int = 0
    layers_used: Mapping[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "variant": self.variant,
            "n_samples": len(self.samples),
            "composite": {
                "score": self.composite,
                "samples": self.composite_samples,
                "layers_used": dict(self.layers_used),
                "covered": sum(1 for name in LAYERS if self.layer_means.get(name) is not None),
                "total": len(LAYERS),
            },
            "layers": {
                name: {"score": self.layer_means.get(name), "samples": self.layer_samples.get(name, 0)}
                for name in LAYERS
            },
        }


def summarise(run_id: str, variant: str, scores: Sequence[SampleScores]) -> RunScores:
    """Run-level means over the given sample scores: per layer over the samples that have it."""
    layer_means = {name: mean_or_none([s.layer(name) for s in scores]) for name in LAYERS}
    layer_samples = {name: sum(1 for s in scores if s.layer(name) is not None) for name in LAYERS}
    composites = [s.composite for s in scores]
    return RunScores(
        run_id=run_id,
        variant=variant,
        samples=tuple(scores),
        layer_means=layer_means,
        layer_samples=layer_samples,
        composite=mean_or_none(composites),
        composite_samples=sum(1 for c in composites if c is not None),
        layers_used=layer_count_histogram(scores),
    )


def score_run(run: LayeredRun) -> RunScores:
    """Every sample's v0.x scores (one unit per sample_id) and the run's layer means and composite."""
    return summarise(run.run_id, run.variant, score_units(run.samples))


@dataclass(frozen=True)
class Standardisation:
    """Per-layer mean and sd (n − 1) used to z-score layers before aggregation (v1.0 option).

    A layer with fewer than 2 values or no spread has sd None: its z-scores are 0 (it
    carries no information about differences between samples).
    """

    means: Mapping[str, float | None]
    sds: Mapping[str, float | None]

    def z(self, layer: str, value: float | None) -> float | None:
        if value is None:
            return None
        mean = self.means.get(layer)
        sd = self.sds.get(layer)
        if mean is None or sd is None:
            return 0.0
        return (value - mean) / sd

    def to_dict(self) -> dict[str, Any]:
        return {"means": dict(self.means), "sds": dict(self.sds)}


def fit_standardisation(scores: Sequence[SampleScores]) -> Standardisation:
    """Pooled per-layer mean and sd over the given samples (both runs of a comparison)."""
    means: dict[str, float | None] = {}
    sds: dict[str, float | None] = {}
    for name in LAYERS:
        values = [v for v in (s.layer(name) for s in scores) if v is not None]
        mean = math.fsum(values) / len(values) if values else None
        sd: float | None = None
        if mean is not None and len(values) >= 2:
            variance = math.fsum((v - mean) ** 2 for v in values) / (len(values) - 1)
            sd = math.sqrt(variance) if variance > 0.0 else None
        means[name] = mean
        sds[name] = sd
    return Standardisation(means, sds)


def option_composite(
    score: SampleScores, config: LayeredConfig, standardisation: Standardisation | None
) -> float | None:
    """A sample's composite under the comparison's options (the v0.x composite by default)."""
    if config.is_default_formula:
        return score.composite
    values = score.layers()
    if config.standardize:
        if standardisation is None:
            raise ValueError("standardize needs a fitted Standardisation")
        values = {name: standardisation.z(name, value) for name, value in values.items()}
    composite, _ = aggregate_layers(values, config.weights)
    return composite
