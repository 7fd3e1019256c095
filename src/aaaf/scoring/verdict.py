"""The A/B verdict engine of document 002 §4 with the ordered rules of SCORING.md §4 (pure).

Compare a control run C with a treatment run T on the samples present in both (paired by
``sample_id``; the unpaired are reported and left out).  One paired percentile bootstrap
— one B × n index matrix — gives the composite CI and every present layer's CI (95 %),
and the Bonferroni CIs of rule 3 (percentiles 100·α/(2k), 100 − 100·α/(2k)).  The first
rule that matches decides, and the verdict carries the reason that decided it:

1. one variant only → SOLO;
2. fewer than ``min_paired`` paired samples → UNDERPOWERED;
3. composite CI entirely < 0, or a layer passed its gate in C, fails it in T and its
   Bonferroni CI is entirely < 0 → REGRESS;
3b. composite CI contains 0 and MDE = 2.8·sd(diff)/√n > 0.25 → UNDERPOWERED;
4. composite CI and every layer CI contain 0 → NOISE;
5. composite CI entirely > 0, every present gate passes in T, judges agree → PROGRESS;
6. anything else → CAUTIOUS.

With the Hotelling option, "the composite CI excludes 0" in rules 3-5 becomes "T²'s
p-value < α" with the direction taken from the sign of the composite's mean difference.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import numpy as np
from numpy.typing import NDArray

from aaaf.scoring.core import display
from aaaf.scoring.layered import (
    LAYERS,
    LayeredConfig,
    LayeredRun,
    LayeredSample,
    RunScores,
    SampleScores,
    Standardisation,
    aggregate_layers,
    fit_standardisation,
    layer_count_histogram,
    mean_or_none,
    option_composite,
    score_sample,
    summarise,
)
from aaaf.stats.agreement import krippendorff_alpha, pearson, spearman
from aaaf.stats.bootstrap import bootstrap_means
from aaaf.stats.hotelling import HotellingResult, hotelling_t2
from aaaf.stats.power import minimum_detectable_effect, sample_sd


class Verdict(StrEnum):
    """The six verdicts of document 002 §4."""

    PROGRESS = "PROGRESS"
    CAUTIOUS = "CAUTIOUS"
    REGRESS = "REGRESS"
    NOISE = "NOISE"
    UNDERPOWERED = "UNDERPOWERED"
    SOLO = "SOLO"


# document 002 §4 'The six verdicts at a glance': what to do
VERDICT_ACTIONS: Mapping[Verdict, str] = {
    Verdict.PROGRESS: "SHIP",
    Verdict.CAUTIOUS: "INVESTIGATE",
    Verdict.REGRESS: "DO NOT SHIP",
    Verdict.NOISE: "INCONCLUSIVE",
    Verdict.UNDERPOWERED: "ADD SAMPLES",
    Verdict.SOLO: "ADD A CONTROL",
}


def parse_verdicts(text: str) -> tuple[Verdict, ...]:
    """'regress, Cautious' → (REGRESS, CAUTIOUS); case-insensitive, comma-separated.

    Raises ValueError naming the unknown names (the CLI turns it into exit 2).
    """
    names = [part.strip() for part in text.split(",") if part.strip()]
    if not names:
        raise ValueError("no verdict named")
    known = {v.value: v for v in Verdict}
    unknown = [name for name in names if name.upper() not in known]
    if unknown:
        raise ValueError(f"unknown verdict(s) {', '.join(unknown)}; expected some of {', '.join(known)}")
    return tuple(dict.fromkeys(known[name.upper()] for name in names))


def fmt(value: float | None, digits: int = 2, *, signed: bool = False) -> str:
    """A difference, bound or statistic for reasons and headlines, rounded ('—' for null).

    Levels on the 1-5 scale (means compared with a gate) go through ``core.display``
    instead, which truncates: a 3.499 mean shows as 3.49, never as a passing 3.50.
    """
    if value is None:
        return "—"
    if math.isinf(value):
        return "∞"
    return f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"


@dataclass(frozen=True)
class Interval:
    """A two-sided percentile interval; 'contains 0' is lo ≤ 0 ≤ hi (SCORING.md §4)."""

    low: float
    high: float

    @property
    def contains_zero(self) -> bool:
        return self.low <= 0.0 <= self.high

    @property
    def below_zero(self) -> bool:
        return self.high < 0.0

    @property
    def above_zero(self) -> bool:
        return self.low > 0.0

    def to_list(self) -> list[float]:
        return [self.low, self.high]

    def text(self) -> str:
        return f"[{fmt(self.low)}, {fmt(self.high)}]"


@dataclass(frozen=True)
class LayerComparison:
    """One layer of a comparison: means over paired samples, diff, CIs, gates."""

    name: str
    present: bool
    control: float | None
    treatment: float | None
    diff: float | None
    ci: Interval | None
    ci_bonferroni: Interval | None
    gate_control: bool | None
    gate_treatment: bool | None
    samples_control: int
    samples_treatment: int
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "present": self.present,
            "control": self.control,
            "treatment": self.treatment,
            "diff": self.diff,
            "ci": self.ci.to_list() if self.ci else None,
            "ci_bonferroni": self.ci_bonferroni.to_list() if self.ci_bonferroni else None,
            "gate": {"control": self.gate_control, "treatment": self.gate_treatment},
            "samples": {"control": self.samples_control, "treatment": self.samples_treatment},
        }
        if self.reason is not None:
            out["reason"] = self.reason
        return out


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
class JudgePair:
    """Pearson r of two judges over the samples both scored; counted per SCORING.md §4."""

    first: str
    second: str
    common: int
    r: float | None
    counted: bool
    reason: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "judges": [self.first, self.second],
            "common_samples": self.common,
            "pearson": self.r,
            "counted": self.counted,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class RunJudgeAgreement:
    """One run's judge agreement: mean pairwise Pearson over counted pairs, α (interval)."""

    judges: tuple[str, ...]
    pairs: tuple[JudgePair, ...]
    mean_pearson: float | None
    krippendorff_alpha: float | None
    disagree: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "judges": list(self.judges),
            "mean_pearson": self.mean_pearson,
            "krippendorff_alpha": self.krippendorff_alpha,
            "disagree": self.disagree,
            "pairs": [pair.to_dict() for pair in self.pairs],
        }


def judge_agreement(samples: Sequence[LayeredSample], config: LayeredConfig) -> RunJudgeAgreement:
    """Judge agreement of one run (SCORING.md §4 'Judge agreement').

    Pearson r for each pair of judges over the samples both scored; a pair counts only
    with ≥ ``judge_min_common`` common samples and neither judge constant on them.  The
    run disagrees when the mean r of its counted pairs is < 0.4; a run without a counted
    pair does not disagree.  Krippendorff's α (interval; judges as coders, samples as
    units) is reported beside it.
    """
    by_judge: dict[str, dict[str, float]] = {}
    for sample in samples:
        for score in sample.judges:
            by_judge.setdefault(score.judge, {})[sample.sample_id] = score.score
    judges = tuple(sorted(by_judge))
    pairs: list[JudgePair] = []
    for first, second in itertools.combinations(judges, 2):
        common = [sid for sid in by_judge[first] if sid in by_judge[second]]
        x = [by_judge[first][sid] for sid in common]
        y = [by_judge[second][sid] for sid in common]
        if len(common) < config.judge_min_common:
            pairs.append(
                JudgePair(
                    first,
                    second,
                    len(common),
                    None,
                    False,
                    f"fewer than {config.judge_min_common} common samples",
                )
            )
            continue
        constant = [name for name, values in ((first, x), (second, y)) if len(set(values)) == 1]
        if constant:
            pairs.append(
                JudgePair(
                    first,
                    second,
                    len(common),
                    None,
                    False,
                    f"judge {', '.join(constant)} constant on the common samples",
                )
            )
            continue
        pairs.append(JudgePair(first, second, len(common), pearson(x, y), True, None))
    counted = [pair.r for pair in pairs if pair.counted and pair.r is not None]
    mean_r = math.fsum(counted) / len(counted) if counted else None
    alpha: float | None = None
    if len(judges) >= 2:
        sample_ids = [s.sample_id for s in samples]
        matrix = np.full((len(judges), len(sample_ids)), np.nan)
        for row, judge in enumerate(judges):
            for column, sid in enumerate(sample_ids):
                if sid in by_judge[judge]:
                    matrix[row, column] = by_judge[judge][sid]
        alpha = krippendorff_alpha(matrix, "interval")
    disagree = mean_r is not None and mean_r < config.judge_min_pearson
    return RunJudgeAgreement(judges, tuple(pairs), mean_r, alpha, disagree)


@dataclass(frozen=True)
class Badge:
    """A methodology badge (document 002 §4): value True / False / None (unknown)."""

    key: str
    label: str
    value: bool | None
    detail: str

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "value": self.value, "detail": self.detail}


def human_alignment(
    scores: Sequence[SampleScores], config: LayeredConfig
) -> tuple[bool | None, float | None, int, str]:
    """Spearman ρ between the judge layer and human labels where both exist.

    Returns (aligned, ρ, n, detail); aligned is None (unknown) without at least 3 labelled
    judged samples or when ρ is undefined (a constant side).
    """
    pairs = [(s.judge, s.human) for s in scores if s.judge is not None and s.human is not None]
    if len(pairs) < 3:
        return None, None, len(pairs), f"{len(pairs)} judged sample(s) with a human label (need ≥ 3)"
    rho = spearman([p[0] for p in pairs], [p[1] for p in pairs])
    if rho is None:
        return None, None, len(pairs), "Spearman ρ undefined (judge or human scores constant)"
    aligned = rho >= config.human_alignment_min_spearman
    relation = "≥" if aligned else "<"
    return (
        aligned,
        rho,
        len(pairs),
        f"Spearman ρ {fmt(rho)} {relation} {fmt(config.human_alignment_min_spearman)} over {len(pairs)} labelled samples",
    )


@dataclass(frozen=True)
class DecidedVerdict:
    verdict: Verdict
    rule: str
    reason: str


@dataclass(frozen=True)
class VerdictFacts:
    """Everything the ordered rules read, as plain values (so each rule is testable alone)."""

    variants: int
    n_paired: int
    composite_diff: float | None
    composite_ci: Interval | None
    mde: float | None
    layers: tuple[LayerComparison, ...]
    judges_agree: bool
    judges_detail: str
    hotelling_p: float | None = None
    use_hotelling: bool = False


def _significance(facts: VerdictFacts, config: LayeredConfig) -> tuple[bool, bool, bool, str]:
    """(significantly below, significantly above, contains zero, description) of the composite test."""
    if facts.use_hotelling:
        p = facts.hotelling_p
        diff = facts.composite_diff or 0.0
        significant = p is not None and p < config.alpha
        text = "Hotelling T² p not computable" if p is None else f"Hotelling T² p = {p:.3g}"
        return significant and diff < 0.0, significant and diff > 0.0, not significant, text
    ci = facts.composite_ci
    if ci is None:
        return False, False, True, "composite CI unavailable"
    return ci.below_zero, ci.above_zero, ci.contains_zero, f"composite CI {ci.text()}"


def decide_verdict(facts: VerdictFacts, config: LayeredConfig) -> DecidedVerdict:
    """The first rule of SCORING.md §4 that matches, with the reason that decided it."""
    if facts.variants < 2:
        return DecidedVerdict(Verdict.SOLO, "1", "one variant only: nothing to compare against")
    if facts.n_paired < config.min_paired:
        return DecidedVerdict(
            Verdict.UNDERPOWERED,
            "2",
            f"{facts.n_paired} paired sample(s), fewer than the {config.min_paired} required",
        )
    below, above, contains_zero, test_text = _significance(facts, config)
    present = [layer for layer in facts.layers if layer.present]
    if below:
        diff_text = fmt(facts.composite_diff, signed=True)
        if facts.use_hotelling:
            reason = f"{test_text} < α = {fmt(config.alpha)} with the composite moving down ({diff_text})"
        else:
            reason = f"{test_text} lies entirely below 0 (diff {diff_text})"
        return DecidedVerdict(Verdict.REGRESS, "3", reason)
    k = len(present)
    for layer in present:
        if (
            layer.gate_control
            and layer.gate_treatment is False
            and layer.ci_bonferroni is not None
            and layer.ci_bonferroni.below_zero
        ):
            level = 100.0 * (1.0 - config.alpha / k)
            return DecidedVerdict(
                Verdict.REGRESS,
                "3",
                f"layer {layer.name} passed its gate in control ({display(layer.control)} ≥ "
                f"{fmt(config.gate_threshold)}) but fails it in treatment ({display(layer.treatment)}), "
                f"and its {level:.4g} % Bonferroni CI {layer.ci_bonferroni.text()} lies entirely below 0",
            )
    if contains_zero and facts.mde is not None and facts.mde > config.mde_threshold:
        return DecidedVerdict(
            Verdict.UNDERPOWERED,
            "3b",
            f"{test_text} {'is not significant' if facts.use_hotelling else 'contains 0'} and the minimum "
            f"detectable effect {fmt(facts.mde)} exceeds {fmt(config.mde_threshold)} points",
        )
    moved = [layer for layer in present if layer.ci is not None and not layer.ci.contains_zero]
    if contains_zero and not moved:
        layers_text = (
            f"every layer CI ({', '.join(layer.name for layer in present)}) contains 0"
            if present
            else "no layer is present"
        )
        return DecidedVerdict(
            Verdict.NOISE,
            "4",
            f"{test_text} {'is not significant' if facts.use_hotelling else 'contains 0'} and {layers_text}",
        )
    failing = [layer for layer in present if not layer.gate_treatment]
    if above and present and not failing and facts.judges_agree:
        test_phrase = (
            f"{test_text} < α = {fmt(config.alpha)} with the composite moving up"
            if facts.use_hotelling
            else f"{test_text} lies entirely above 0"
        )
        return DecidedVerdict(
            Verdict.PROGRESS,
            "5",
            f"{test_phrase}, all {k} present layer gate(s) pass, {facts.judges_detail}",
        )
    # rule 6: say what kept it from a cleaner verdict
    if above:
        problems: list[str] = []
        if not present:
            problems.append("no layer is present in every paired sample, so the gate fails")
        problems.extend(
            f"layer {layer.name} fails its gate in treatment ({display(layer.treatment)} < {fmt(config.gate_threshold)})"
            for layer in failing
        )
        if not facts.judges_agree:
            problems.append(facts.judges_detail)
        upward = "is significant upward" if facts.use_hotelling else "lies entirely above 0"
        return DecidedVerdict(Verdict.CAUTIOUS, "6", f"{test_text} {upward}, but {'; '.join(problems)}")
    ups = [layer.name for layer in moved if layer.ci is not None and layer.ci.above_zero]
    downs = [layer.name for layer in moved if layer.ci is not None and layer.ci.below_zero]
    movement = [
        f"{', '.join(names)} significantly {way}" for names, way in ((ups, "up"), (downs, "down")) if names
    ]
    if not contains_zero:
        # only with Hotelling: the multivariate test is significant but the composite did not move
        return DecidedVerdict(
            Verdict.CAUTIOUS,
            "6",
            f"{test_text} < α = {fmt(config.alpha)} but the composite is flat"
            + (f" ({'; '.join(movement)})" if movement else ""),
        )
    not_significant = "is not significant" if facts.use_hotelling else "contains 0"
    return DecidedVerdict(
        Verdict.CAUTIOUS,
        "6",
        f"{test_text} {not_significant} while layers move in significant directions ({'; '.join(movement)})",
    )


@dataclass(frozen=True)
class RunInfo:
    run_id: str
    variant: str
    n_samples: int

    def to_dict(self) -> dict[str, Any]:
        return {"run_id": self.run_id, "variant": self.variant, "n_samples": self.n_samples}


def _badges(
    *,
    judges_agree: bool,
    judges_detail: str,
    significant: bool | None,
    significance_detail: str,
    saturated: bool | None,
    saturation_detail: str,
    human: tuple[bool | None, float | None, int, str],
) -> dict[str, Badge]:
    return {
        "judges_agree": Badge("judges_agree", "judges agree", judges_agree, judges_detail),
        "difference_significant": Badge(
            "difference_significant", "difference significant", significant, significance_detail
        ),
        "saturated": Badge("saturated", "saturated", saturated, saturation_detail),
        "human_aligned": Badge("human_aligned", "human-aligned", human[0], human[3]),
    }


def _judges_summary(agreements: Mapping[str, RunJudgeAgreement], config: LayeredConfig) -> tuple[bool, str]:
    disagreeing = [name for name, a in agreements.items() if a.disagree]
    if disagreeing:
        details = ", ".join(f"{name} mean r {fmt(agreements[name].mean_pearson)}" for name in disagreeing)
        return False, f"judges disagree ({details} < {fmt(config.judge_min_pearson)})"
    if all(a.mean_pearson is None for a in agreements.values()):
        return True, "judges agree (no judge pair to compare)"
    details = ", ".join(
        f"{name} {fmt(a.mean_pearson)}" for name, a in agreements.items() if a.mean_pearson is not None
    )
    return True, f"judges agree (mean r {details} ≥ {fmt(config.judge_min_pearson)})"


@dataclass(frozen=True)
class Comparison:
    """The result of comparing two runs: verdict, reason, and every number behind it."""

    verdict: Verdict
    rule: str
    reason: str
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

    @property
    def action(self) -> str:
        return VERDICT_ACTIONS[self.verdict]

    @property
    def present_layers(self) -> tuple[LayerComparison, ...]:
        return tuple(layer for layer in self.layers.values() if layer.present)

    def headline(self) -> str:
        """The terse CLI line, e.g. 'PROGRESS · SHIP — composite +0.42 [0.18, 0.66], 3/3 layers pass, judges agree'."""
        unit = " sd" if self.composite.scale == "z" else ""
        composite = f"composite {fmt(self.composite.diff, signed=True)}{unit}"
        if self.composite.ci is not None:
            composite += f" {self.composite.ci.text()}"
        present = self.present_layers
        passing = sum(1 for layer in present if layer.gate_treatment)
        judges = "judges agree" if self.judges_agree else "judges disagree"
        return f"{self.verdict.value} · {self.action} — {composite}, {passing}/{len(present)} layers pass, {judges}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict.value,
            "action": self.action,
            "rule": self.rule,
            "reason": self.reason,
            "headline": self.headline(),
            "control": self.control.to_dict(),
            "treatment": self.treatment.to_dict(),
            "n_paired": self.n_paired,
            "unpaired": {
                "control_only": list(self.control_only),
                "treatment_only": list(self.treatment_only),
                "unscored": list(self.unscored),
            },
            "composite": self.composite.to_dict(),
            "layers": {name: layer.to_dict() for name, layer in self.layers.items()},
            "judges": {
                "pearson": {name: a.mean_pearson for name, a in self.judges.items()},
                "krippendorff_alpha": {name: a.krippendorff_alpha for name, a in self.judges.items()},
                "agree": self.judges_agree,
                "runs": {name: a.to_dict() for name, a in self.judges.items()},
            },
            "badges": {key: badge.to_dict() for key, badge in self.badges.items()},
            "hotelling": self.hotelling.to_dict() if self.hotelling is not None else None,
            "standardisation": self.standardisation.to_dict() if self.standardisation is not None else None,
            "method": self.config.method_dict(),
        }


def _interval(low: float, high: float) -> Interval:
    return Interval(float(low), float(high))


def _defined(value: float | None) -> float:
    """A value the pairing rules guarantee is present (a None here is a bug, not bad input)."""
    if value is None:
        raise ValueError("a paired sample lacks a value its pairing guaranteed")
    return value


def compare_runs(
    control: LayeredRun, treatment: LayeredRun, config: LayeredConfig | None = None
) -> Comparison:
    """Compare two runs whatever their variant labels (SCORING.md §4) and decide the verdict."""
    config = config or LayeredConfig()
    control_scores = {s.sample_id: score_sample(s) for s in control.samples}
    treatment_scores = {s.sample_id: score_sample(s) for s in treatment.samples}
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
        ci95 = boot.interval(config.confidence)
        ci_bonf = boot.interval(config.confidence, comparisons=max(k, 1))

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
                reason=(
                    "no paired samples"
                    if n == 0
                    else f"not every paired sample has it in both runs ({samples_c}/{n} control, {samples_t}/{n} treatment)"
                ),
            )

    paired_ids = set(paired)
    control_samples = [s for s in control.samples if s.sample_id in paired_ids]
    treatment_samples = [s for s in treatment.samples if s.sample_id in paired_ids]
    agreements = {
        "control": judge_agreement(control_samples, config),
        "treatment": judge_agreement(treatment_samples, config),
    }
    judges_agree, judges_detail = _judges_summary(agreements, config)

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
        judges_agree=judges_agree,
        judges_detail=judges_detail,
        hotelling_p=hotelling.p_value if hotelling is not None else None,
        use_hotelling=config.hotelling,
    )
    decided = decide_verdict(facts, config)

    if config.hotelling:
        p = hotelling.p_value if hotelling is not None else None
        significant: bool | None = p is not None and p < config.alpha
        significance_detail = (
            "Hotelling T² p not computable"
            if p is None
            else f"Hotelling T² p = {p:.3g} vs α = {fmt(config.alpha)}"
        )
    elif composite.ci is not None:
        significant = not composite.ci.contains_zero
        significance_detail = (
            f"composite CI {composite.ci.text()} {'excludes' if significant else 'contains'} 0"
        )
    else:
        significant = None
        significance_detail = "no composite CI (no paired samples)"
    c_level = mean_or_none([s.composite for s in c_scores])
    t_level = mean_or_none([s.composite for s in t_scores])
    saturated: bool | None = None
    saturation_detail = "no paired samples"
    if c_level is not None and t_level is not None:
        saturated = c_level >= config.saturation_threshold and t_level >= config.saturation_threshold
        saturation_detail = (
            f"composites {display(c_level)} / {display(t_level)} "
            f"{'both ≥' if saturated else 'not both ≥'} {fmt(config.saturation_threshold)}"
        )
    badges = _badges(
        judges_agree=judges_agree,
        judges_detail=judges_detail,
        significant=significant,
        significance_detail=significance_detail,
        saturated=saturated,
        saturation_detail=saturation_detail,
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
        judges_agree=judges_agree,
        badges=badges,
        hotelling=hotelling,
        standardisation=standardisation,
        config=config,
    )


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
    reason: str = "one variant only: nothing to compare against"

    @property
    def action(self) -> str:
        return VERDICT_ACTIONS[self.verdict]

    def headline(self) -> str:
        ci = f" {self.composite_ci.text()}" if self.composite_ci is not None else ""
        # a level in points is truncated (SCORING.md §0); a z-score is rounded
        level = fmt(self.composite) if self.config.standardize else display(self.composite)
        layers = sum(1 for name in LAYERS if self.scores.layer_means.get(name) is not None)
        return (
            f"{self.verdict.value} · {self.action} — composite {level}{ci} "
            f"over {len(self.scores.samples)} samples, {layers}/{len(LAYERS)} layers"
        )

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
            "reason": self.reason,
            "headline": self.headline(),
            **out,
            "samples": [s.to_dict() for s in self.scores.samples],
            "judges": self.judges.to_dict(),
            "badges": {key: badge.to_dict() for key, badge in self.badges.items()},
            "standardisation": self.standardisation.to_dict() if self.standardisation is not None else None,
            "method": self.config.method_dict(),
        }


def score_solo(run: LayeredRun, config: LayeredConfig | None = None) -> SoloReport:
    """Score one run (the SOLO case): layer means, composite and their bootstrap CIs."""
    config = config or LayeredConfig()
    scores = summarise(run.run_id, run.variant, [score_sample(s) for s in run.samples])
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
        low, high = result.interval(config.confidence)
        interval = _interval(low[0], high[0])
        if composites and index == 0:
            composite_ci = interval
        for name, position in layer_rows.items():
            if position == index:
                layer_cis[name] = interval
    judges = judge_agreement(run.samples, config)
    judges_agree, judges_detail = _judges_summary({"run": judges}, config)
    composite = mean_or_none(list(composites))
    saturated = composite is not None and not config.standardize and composite >= config.saturation_threshold
    badges = _badges(
        judges_agree=judges_agree,
        judges_detail=judges_detail,
        significant=None,
        significance_detail="a single run has no difference to test",
        saturated=saturated if composite is not None else None,
        saturation_detail=(
            f"composite {display(composite)} {'≥' if saturated else '<'} {fmt(config.saturation_threshold)}"
            if composite is not None
            else "no scored sample"
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
