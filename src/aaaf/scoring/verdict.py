"""The A/B verdict engine of document 002 §4 with the ordered rules of SCORING.md §4 (pure).

Compare a control run C with a treatment run T on the samples present in both (paired by
``sample_id``; the unpaired are reported and left out).  A sample recorded over several
epochs is one unit (its layer scores and composite are the means over its records); a
sample that errored is left out and its run reported as incomplete.  One paired
bootstrap — one B × n index matrix over the n paired sample ids — gives the composite
CI and every present layer's CI, and the Bonferroni CIs at 1 − α/k (percentiles
100·α/(2k), 100 − 100·α/(2k)) that rules 3-5 read.  The rules themselves, and the
codes of their reasons, are in :mod:`aaaf.scoring.verdict_rules`; judge agreement and
the badges in :mod:`aaaf.scoring.judging`; several treatments against one control in
:mod:`aaaf.scoring.treatments`.  The sentences (reasons, headlines, badge details) are
worded by :mod:`aaaf.reports.verdict_text`.  This module keeps the names other modules import.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from aaaf.scoring.judging import (
    Badge,
    JudgePair,
    RunJudgeAgreement,
    Saturation,
    Significance,
    human_alignment,
    judge_agreement,
    judges_summary,
    methodology_badges,
)
from aaaf.scoring.layered import (
    LAYERS,
    LayeredConfig,
    LayeredRun,
    RunScores,
    Standardisation,
    aggregate_layers,
    fit_standardisation,
    layer_count_histogram,
    mean_or_none,
    option_composite,
    score_units,
    summarise,
)
from aaaf.scoring.verdict_rules import (
    SEVERITY,
    VERDICT_ACTIONS,
    ZERO_TOLERANCE,
    DecidedVerdict,
    Interval,
    LayerComparison,
    ReasonCode,
    Verdict,
    VerdictFacts,
    VerdictReason,
    decide_verdict,
    fmt,
    parse_verdicts,
    snap_zero,
    worst_verdict,
)
from aaaf.stats.bootstrap import bootstrap_means
from aaaf.stats.hotelling import HotellingResult, hotelling_t2
from aaaf.stats.power import minimum_detectable_effect, sample_sd

__all__ = [
    "SEVERITY",
    "VERDICT_ACTIONS",
    "ZERO_TOLERANCE",
    "Badge",
    "Comparison",
    "CompositeComparison",
    "DecidedVerdict",
    "IncompleteRun",
    "Interval",
    "JudgePair",
    "LayerComparison",
    "ReasonCode",
    "RunInfo",
    "RunJudgeAgreement",
    "SoloReport",
    "Verdict",
    "VerdictFacts",
    "VerdictReason",
    "compare_runs",
    "decide_verdict",
    "fmt",
    "human_alignment",
    "judge_agreement",
    "parse_verdicts",
    "score_solo",
    "snap_zero",
    "worst_verdict",
]


@dataclass(frozen=True)
class CompositeComparison:
    """The composite's means over paired samples, mean difference, CI and power."""

    control: float | None
    treatment: float | None
    diff: float | None
    ci: Interval | None
    sd_diff: float | None
    mde: float | None
    layers_used_control: Mapping[str, int]
    layers_used_treatment: Mapping[str, int]
    scale: str
    differences: tuple[float, ...] = ()
    """The paired per-sample composite differences (T − C) the interval resamples; not in
    the JSON (the release gate's equivalence test reads them)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "control": self.control,
            "treatment": self.treatment,
            "diff": self.diff,
            "ci": self.ci.to_list() if self.ci else None,
            "sd_diff": self.sd_diff,
            "mde": self.mde,
            "layers_used": {
                "control": dict(self.layers_used_control),
                "treatment": dict(self.layers_used_treatment),
            },
            "scale": self.scale,
        }


@dataclass(frozen=True)
class IncompleteRun:
    """A run whose source says it did not finish (SCORING.md §4), compared with --allow-incomplete."""

    role: str
    run_id: str
    status: str | None
    errored: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "role": self.role,
            "run_id": self.run_id,
            "status": self.status,
            "errored_samples": list(self.errored),
            "left_out": len(self.errored),
        }


@dataclass(frozen=True)
class RunInfo:
    run_id: str
    variant: str
    n_samples: int

    def to_dict(self) -> dict[str, Any]:
        return {"run_id": self.run_id, "variant": self.variant, "n_samples": self.n_samples}


@dataclass(frozen=True)
class Comparison:
    """The result of comparing two runs: verdict, reason, and every number behind it.

    ``reason`` is the rule's code and facts; :mod:`aaaf.reports.verdict_text` words it,
    the headline and the badges' details.
    """

    verdict: Verdict
    rule: str
    reason: VerdictReason
    control: RunInfo
    treatment: RunInfo
    n_paired: int
    control_only: tuple[str, ...]
    treatment_only: tuple[str, ...]
    unscored: tuple[str, ...]
    composite: CompositeComparison
    layers: Mapping[str, LayerComparison]
    judges: Mapping[str, RunJudgeAgreement]
    judges_agree: bool
    badges: Mapping[str, Badge]
    hotelling: HotellingResult | None
    standardisation: Standardisation | None
    config: LayeredConfig
    errored: tuple[str, ...] = ()
    incomplete: tuple[IncompleteRun, ...] = ()
    treatments: int = 1
    family_confidence: float | None = None

    @property
    def action(self) -> str:
        return VERDICT_ACTIONS[self.verdict]

    @property
    def present_layers(self) -> tuple[LayerComparison, ...]:
        return tuple(layer for layer in self.layers.values() if layer.present)

    def to_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict.value,
            "action": self.action,
            "rule": self.rule,
            "control": self.control.to_dict(),
            "treatment": self.treatment.to_dict(),
            "n_paired": self.n_paired,
            "unpaired": {
                "control_only": list(self.control_only),
                "treatment_only": list(self.treatment_only),
                "unscored": list(self.unscored),
                "errored": list(self.errored),
            },
            "incomplete": [run.to_dict() for run in self.incomplete],
            "composite": self.composite.to_dict(),
            "layers": {name: layer.to_dict() for name, layer in self.layers.items()},
            "judges": {
                "pearson": {name: a.mean_pearson for name, a in self.judges.items()},
                "krippendorff_alpha": {name: a.krippendorff_alpha for name, a in self.judges.items()},
                "agree": self.judges_agree,
                "runs": {name: a.to_dict() for name, a in self.judges.items()},
            },
            "badges": {key: {"label": b.label, "value": b.value} for key, b in self.badges.items()},
            "hotelling": self.hotelling.to_dict() if self.hotelling is not None else None,
            "standardisation": self.standardisation.to_dict() if self.standardisation is not None else None,
            "method": self._method(),
        }

    def _method(self) -> dict[str, Any]:
        method = self.config.method_dict()
        if self.treatments > 1:
            # Bonferroni across treatments: `confidence` is this comparison's adjusted level
            method["treatments"] = self.treatments
            method["family_confidence"] = self.family_confidence
        return method


def _interval(low: float, high: float) -> Interval:
    """An interval from bootstrap bounds; bounds within 1e-9 of 0 become 0 (SCORING.md §4)."""
    return Interval(float(low), float(high))


def _defined(value: float | None) -> float:
    """A value the pairing rules guarantee is present (a None here is a bug, not bad input)."""
    if value is None:
        raise ValueError("a paired sample lacks a value its pairing guaranteed")
    return value


def compare_runs(
    control: LayeredRun,
    treatment: LayeredRun,
    config: LayeredConfig | None = None,
    *,
    treatments: int = 1,
) -> Comparison:
    """Compare two runs whatever their variant labels (SCORING.md §4) and decide the verdict.

    ``treatments`` = k > 1 when this treatment is one of k compared with the same control:
    every confidence level is then adjusted for the k comparisons (Bonferroni across
    treatments: the composite CI at 1 − α/k, the layer CIs at 1 − α/(k·m)).  Samples that
    errored in either run are left out (``errored``), and a run its source marks as not
    finished is named in the reason (``incomplete``); refusing such runs is the shell's job.
    """
    config = config or LayeredConfig()
    if isinstance(treatments, bool) or not isinstance(treatments, int) or treatments < 1:
        raise ValueError(f"treatments must be a positive integer, got {treatments!r}")
    family_confidence: float | None = None
    if treatments > 1:
        family_confidence = config.confidence
        config = replace(config, confidence=1.0 - config.alpha / treatments)
    errored_ids = set(control.errored) | set(treatment.errored)
    control_scores = {s.sample_id: s for s in score_units(control.samples) if s.sample_id not in errored_ids}
    treatment_scores = {
        s.sample_id: s for s in score_units(treatment.samples) if s.sample_id not in errored_ids
    }
    errored = tuple(
        sid for sid in dict.fromkeys([*control.errored, *treatment.errored]) if sid in errored_ids
    )
    control_only = tuple(sid for sid in control_scores if sid not in treatment_scores)
    treatment_only = tuple(sid for sid in treatment_scores if sid not in control_scores)
    both = [sid for sid in control_scores if sid in treatment_scores]
    # a sample without a composite in either run (no layer at all, or explicit weights of 0
    # on every layer it has) cannot be paired: it is reported as unscored and left out
    unscored = tuple(
        sid
        for sid in both
        if aggregate_layers(control_scores[sid].layers(), config.weights)[0] is None
        or aggregate_layers(treatment_scores[sid].layers(), config.weights)[0] is None
    )
    paired = [sid for sid in both if sid not in unscored]
    n = len(paired)
    c_scores = [control_scores[sid] for sid in paired]
    t_scores = [treatment_scores[sid] for sid in paired]

    standardisation = fit_standardisation(c_scores + t_scores) if config.standardize else None
    c_composites = [_defined(option_composite(s, config, standardisation)) for s in c_scores]
    t_composites = [_defined(option_composite(s, config, standardisation)) for s in t_scores]
    composite_diffs = [t - c for c, t in zip(c_composites, t_composites, strict=True)]

    present = [
        name
        for name in LAYERS
        if n > 0
        and all(s.layer(name) is not None for s in c_scores)
        and all(s.layer(name) is not None for s in t_scores)
    ]
    k = len(present)

    # row 0: the composite; rows 1..k: the present layers — one index matrix for all
    rows: list[list[float]] = [composite_diffs]
    for name in present:
        rows.append(
            [
                _defined(t.layer(name)) - _defined(c.layer(name))
                for c, t in zip(c_scores, t_scores, strict=True)
            ]
        )
    ci95: tuple[NDArray[np.float64], NDArray[np.float64]] | None = None
    ci_bonf: tuple[NDArray[np.float64], NDArray[np.float64]] | None = None
    if n > 0:
        boot = bootstrap_means(np.array(rows), resamples=config.resamples, seed=config.seed)
        method = config.ci_method if n >= 2 else "percentile"
        ci95 = boot.interval(config.confidence, method=method)
        ci_bonf = boot.interval(config.confidence, comparisons=max(k, 1), method=method)

    composite = CompositeComparison(
        control=mean_or_none(list(c_composites)),
        treatment=mean_or_none(list(t_composites)),
        diff=(math.fsum(composite_diffs) / n) if n else None,
        ci=_interval(ci95[0][0], ci95[1][0]) if ci95 is not None else None,
        sd_diff=sample_sd(composite_diffs),
        mde=minimum_detectable_effect(composite_diffs),
        layers_used_control=layer_count_histogram(c_scores),
        layers_used_treatment=layer_count_histogram(t_scores),
        scale="z" if config.standardize else "points",
        differences=tuple(composite_diffs),
    )

    layers: dict[str, LayerComparison] = {}
    for name in LAYERS:
        c_values = [s.layer(name) for s in c_scores]
        t_values = [s.layer(name) for s in t_scores]
        c_mean = mean_or_none(c_values)
        t_mean = mean_or_none(t_values)
        samples_c = sum(1 for v in c_values if v is not None)
        samples_t = sum(1 for v in t_values if v is not None)
        if name in present:
            row = 1 + present.index(name)
            assert ci95 is not None and ci_bonf is not None
            diffs = rows[row]
            layers[name] = LayerComparison(
                name=name,
                present=True,
                control=c_mean,
                treatment=t_mean,
                diff=math.fsum(diffs) / len(diffs),
                ci=_interval(ci95[0][row], ci95[1][row]),
                ci_bonferroni=_interval(ci_bonf[0][row], ci_bonf[1][row]),
                gate_control=c_mean is not None and c_mean >= config.gate_threshold,
                gate_treatment=t_mean is not None and t_mean >= config.gate_threshold,
                samples_control=samples_c,
                samples_treatment=samples_t,
            )
        else:
            layers[name] = LayerComparison(
                name=name,
                present=False,
                control=c_mean,
                treatment=t_mean,
                diff=None,
                ci=None,
                ci_bonferroni=None,
                gate_control=None,
                gate_treatment=None,
                samples_control=samples_c,
                samples_treatment=samples_t,
                absent_of=n,
            )

    paired_ids = set(paired)
    control_samples = [s for s in control.samples if s.sample_id in paired_ids]
    treatment_samples = [s for s in treatment.samples if s.sample_id in paired_ids]
    agreements = {
        "control": judge_agreement(control_samples, config),
        "treatment": judge_agreement(treatment_samples, config),
    }
    judges = judges_summary(agreements, config)

    hotelling: HotellingResult | None = None
    if config.hotelling:
        layer_matrix = np.array(rows[1:]).T if k else np.empty((n, 0))
        hotelling = hotelling_t2(layer_matrix)

    facts = VerdictFacts(
        variants=2,
        n_paired=n,
        composite_diff=composite.diff,
        composite_ci=composite.ci,
        mde=composite.mde,
        layers=tuple(layers[name] for name in LAYERS),
        judges=judges,
        hotelling_p=hotelling.p_value if hotelling is not None else None,
        use_hotelling=config.hotelling,
    )
    decided = decide_verdict(facts, config)
    incomplete = tuple(
        IncompleteRun(role, run.run_id, run.status, run.errored)
        for role, run in (("control", control), ("treatment", treatment))
        if run.incomplete
    )
    if incomplete:
        decided = replace(decided, reason=replace(decided.reason, incomplete=incomplete))
    if config.hotelling:
        p = hotelling.p_value if hotelling is not None else None
        significance = Significance("hotelling", p is not None and p < config.alpha, p, config.alpha)
    elif composite.ci is not None:
        significance = Significance(
            "ci", not composite.ci.contains_zero, ci=(composite.ci.low, composite.ci.high)
        )
    else:
        significance = Significance("none", None)
    c_level = mean_or_none([s.composite for s in c_scores])
    t_level = mean_or_none([s.composite for s in t_scores])
    if c_level is not None and t_level is not None:
        saturation = Saturation(
            paired=True,
            levels=(c_level, t_level),
            threshold=config.saturation_threshold,
            saturated=c_level >= config.saturation_threshold and t_level >= config.saturation_threshold,
        )
    else:
        saturation = Saturation(paired=True, levels=(), threshold=config.saturation_threshold, saturated=None)
    badges = methodology_badges(
        judges=judges,
        significance=significance,
        saturation=saturation,
        human=human_alignment(c_scores + t_scores, config),
    )
    return Comparison(
        verdict=decided.verdict,
        rule=decided.rule,
        reason=decided.reason,
        control=RunInfo(control.run_id, control.variant, len(control.samples)),
        treatment=RunInfo(treatment.run_id, treatment.variant, len(treatment.samples)),
        n_paired=n,
        control_only=control_only,
        treatment_only=treatment_only,
        unscored=unscored,
        composite=composite,
        layers=layers,
        judges=agreements,
        judges_agree=judges.agree,
        badges=badges,
        hotelling=hotelling,
        standardisation=standardisation,
        config=config,
        errored=errored,
        incomplete=incomplete,
        treatments=treatments,
        family_confidence=family_confidence,
    )


# rule 1: a single run has nothing to compare against
SOLO_REASON = VerdictReason(ReasonCode.ONE_VARIANT)


@dataclass(frozen=True)
class SoloReport:
    """The single-run result (`aaaf eval score`): verdict SOLO, scores, CIs of the levels."""

    scores: RunScores
    composite: float | None
    composite_ci: Interval | None
    layer_cis: Mapping[str, Interval | None]
    judges: RunJudgeAgreement
    badges: Mapping[str, Badge]
    standardisation: Standardisation | None
    config: LayeredConfig
    verdict: Verdict = Verdict.SOLO
    rule: str = "1"
    reason: VerdictReason = SOLO_REASON

    @property
    def action(self) -> str:
        return VERDICT_ACTIONS[self.verdict]

    def to_dict(self) -> dict[str, Any]:
        out = self.scores.to_dict()
        out["composite"]["score"] = self.composite
        out["composite"]["ci"] = self.composite_ci.to_list() if self.composite_ci else None
        out["composite"]["scale"] = "z" if self.config.standardize else "points"
        for name in LAYERS:
            interval = self.layer_cis.get(name)
            out["layers"][name]["ci"] = interval.to_list() if interval else None
        return {
            "verdict": self.verdict.value,
            "action": self.action,
            "rule": self.rule,
            **out,
            "samples": [s.to_dict() for s in self.scores.samples],
            "judges": self.judges.to_dict(),
            "badges": {key: {"label": b.label, "value": b.value} for key, b in self.badges.items()},
            "standardisation": self.standardisation.to_dict() if self.standardisation is not None else None,
            "method": self.config.method_dict(),
        }


def score_solo(run: LayeredRun, config: LayeredConfig | None = None) -> SoloReport:
    """Score one run (the SOLO case): layer means, composite and their bootstrap CIs."""
    config = config or LayeredConfig()
    scores = summarise(run.run_id, run.variant, score_units(run.samples))
    standardisation = fit_standardisation(scores.samples) if config.standardize else None
    composites = [
        c for c in (option_composite(s, config, standardisation) for s in scores.samples) if c is not None
    ]
    rows: list[list[float]] = [composites] if composites else []
    layer_rows: dict[str, int] = {}
    for name in LAYERS:
        values = [v for v in (s.layer(name) for s in scores.samples) if v is not None]
        if values:
            layer_rows[name] = len(rows)
            rows.append(values)
    composite_ci: Interval | None = None
    layer_cis: dict[str, Interval | None] = dict.fromkeys(LAYERS)
    # rows have different lengths (a layer may be missing from some samples): bootstrap each
    # with the same seed; the composite row uses the run's full index matrix
    for index, row in enumerate(rows):
        result = bootstrap_means(np.array(row), resamples=config.resamples, seed=config.seed)
        method = config.ci_method if len(row) >= 2 else "percentile"
        low, high = result.interval(config.confidence, method=method)
        interval = _interval(low[0], high[0])
        if composites and index == 0:
            composite_ci = interval
        for name, position in layer_rows.items():
            if position == index:
                layer_cis[name] = interval
    judges = judge_agreement(run.samples, config)
    summary = judges_summary({"run": judges}, config)
    composite = mean_or_none(list(composites))
    saturated = composite is not None and not config.standardize and composite >= config.saturation_threshold
    badges = methodology_badges(
        judges=summary,
        significance=Significance("single_run", None),
        saturation=Saturation(
            paired=False,
            levels=(composite,) if composite is not None else (),
            threshold=config.saturation_threshold,
            saturated=saturated if composite is not None else None,
        ),
        human=human_alignment(scores.samples, config),
    )
    return SoloReport(
        scores=scores,
        composite=composite,
        composite_ci=composite_ci,
        layer_cis=layer_cis,
        judges=judges,
        badges=badges,
        standardisation=standardisation,
        config=config,
    )
