"""The wording of A/B verdicts, headlines and methodology badges (SCORING.md §4, document 002 §4).

The pure core (:mod:`aaaf.scoring.verdict_rules`, :mod:`aaaf.scoring.verdict`,
:mod:`aaaf.scoring.treatments`, :mod:`aaaf.scoring.judging`) decides with codes and
numbers; this module turns them into the sentences every front end shows — the CLI line
and ``--json``, the HTML report and the API's compare route — and builds the JSON
bodies that carry them (:func:`comparison_dict`, :func:`solo_dict`, :func:`multi_dict`).
"""

from __future__ import annotations

from typing import Any

from aaaf.scoring.core import display
from aaaf.scoring.judging import (
    Badge,
    BadgeFacts,
    HumanAlignment,
    JudgePair,
    JudgesSummary,
    PairLeftOut,
    RunJudgeAgreement,
    Saturation,
    Significance,
)
from aaaf.scoring.layered import LAYERS, LayeredConfig
from aaaf.scoring.treatments import MultiComparison
from aaaf.scoring.verdict import Comparison, IncompleteRun, SoloReport
from aaaf.scoring.verdict_rules import LayerComparison, ReasonCode, VerdictReason, fmt

SOLO_SENTENCE = "one variant only: nothing to compare against"


def judges_text(judges: JudgesSummary) -> str:
    """'judges agree (mean r control 0.81, treatment 0.77 ≥ 0.40)' and its variants."""
    if judges.disagreeing:
        details = ", ".join(f"{name} mean r {fmt(judges.mean_pearson[name])}" for name in judges.disagreeing)
        return f"judges disagree ({details} < {fmt(judges.min_pearson)})"
    if all(r is None for r in judges.mean_pearson.values()):
        return "judges agree (no judge pair to compare)"
    details = ", ".join(f"{name} {fmt(r)}" for name, r in judges.mean_pearson.items() if r is not None)
    return f"judges agree (mean r {details} ≥ {fmt(judges.min_pearson)})"


def bonferroni_level(config: LayeredConfig, k: int) -> str:
    """'98.33 %': the confidence of a layer CI at the Bonferroni level 1 − α/k."""
    return f"{100.0 * (1.0 - config.alpha / max(k, 1)):.4g} %"


def incomplete_text(run: IncompleteRun) -> str:
    status = run.status if run.status is not None else "not recorded"
    return (
        f"{run.role} run {run.run_id} did not finish (status {status!r}): "
        f"{len(run.errored)} errored sample(s) left out"
    )


def _test_text(reason: VerdictReason) -> str:
    facts = reason.facts
    assert facts is not None
    if facts.use_hotelling:
        p = facts.hotelling_p
        return "Hotelling T² p not computable" if p is None else f"Hotelling T² p = {p:.3g}"
    ci = facts.composite_ci
    return "composite CI unavailable" if ci is None else f"composite CI {ci.text()}"


def _rule_text(reason: VerdictReason) -> str:
    facts, config = reason.facts, reason.config
    if reason.code is ReasonCode.ONE_VARIANT or facts is None or config is None:
        return SOLO_SENTENCE
    if reason.code is ReasonCode.TOO_FEW_PAIRED:
        return f"{facts.n_paired} paired sample(s), fewer than the {config.min_paired} required"
    test_text = _test_text(reason)
    present = [layer for layer in facts.layers if layer.present]
    k = len(present)
    level = bonferroni_level(config, k)
    alpha = fmt(config.alpha)
    not_significant = "is not significant" if facts.use_hotelling else "contains 0"
    if reason.code is ReasonCode.COMPOSITE_BELOW:
        diff_text = fmt(facts.composite_diff, signed=True)
        if facts.use_hotelling:
            return f"{test_text} < α = {alpha} with the composite moving down ({diff_text})"
        return f"{test_text} lies entirely below 0 (diff {diff_text})"
    if reason.code is ReasonCode.LAYER_REGRESSED:
        layer = reason.layer
        assert layer is not None and layer.ci_bonferroni is not None
        return (
            f"layer {layer.name} passed its gate in control ({display(layer.control)} ≥ "
            f"{fmt(config.gate_threshold)}) but fails it in treatment ({display(layer.treatment)}), "
            f"and its {level} Bonferroni CI {layer.ci_bonferroni.text()} lies entirely below 0"
        )
    if reason.code is ReasonCode.LOW_POWER:
        return (
            f"{test_text} {not_significant} and the minimum "
            f"detectable effect {fmt(facts.mde)} exceeds {fmt(config.mde_threshold)} points"
        )
    if reason.code is ReasonCode.NOTHING_MOVED:
        layers_text = (
            f"every layer's {level} Bonferroni CI ({', '.join(layer.name for layer in present)}) contains 0"
            if present
            else "no layer is present"
        )
        return f"{test_text} {not_significant} and {layers_text}"
    judges = judges_text(facts.judges)
    if reason.code is ReasonCode.ALL_CLEAR:
        test_phrase = (
            f"{test_text} < α = {alpha} with the composite moving up"
            if facts.use_hotelling
            else f"{test_text} lies entirely above 0"
        )
        return f"{test_phrase}, all {k} present layer gate(s) pass, no layer dropped significantly, {judges}"
    if reason.code is ReasonCode.UP_WITH_PROBLEMS:
        problems: list[str] = []
        if not present:
            problems.append("no layer is present in every paired sample, so the gate fails")
        problems.extend(
            f"layer {layer.name} fails its gate in treatment ({display(layer.treatment)} < {fmt(config.gate_threshold)})"
            for layer in reason.failing
        )
        problems.extend(
            f"layer {layer.name} dropped significantly (its {level} Bonferroni CI "
            f"{layer.ci_bonferroni.text() if layer.ci_bonferroni else '—'} lies entirely below 0)"
            for layer in reason.dropped
            if layer not in reason.failing
        )
        if not facts.judges_agree:
            problems.append(judges)
        upward = "is significant upward" if facts.use_hotelling else "lies entirely above 0"
        return f"{test_text} {upward}, but {'; '.join(problems)}"
    movement = [
        f"{', '.join(names)} significantly {way}"
        for names, way in ((reason.ups, "up"), (reason.downs, "down"))
        if names
    ]
    if reason.code is ReasonCode.SIGNIFICANT_BUT_FLAT:
        return f"{test_text} < α = {alpha} but the composite is flat" + (
            f" ({'; '.join(movement)})" if movement else ""
        )
    return (
        f"{test_text} {not_significant} while layers move in significant directions "
        f"at the {level} Bonferroni level ({'; '.join(movement)})"
    )


def reason_text(reason: VerdictReason) -> str:
    """The sentence that says which rule of SCORING.md §4 decided, and why."""
    text = _rule_text(reason)
    if reason.incomplete:
        text += "; " + "; ".join(incomplete_text(run) for run in reason.incomplete)
    return text


def badge_detail(facts: BadgeFacts) -> str:
    """The detail line of a methodology badge (document 002 §4)."""
    if isinstance(facts, JudgesSummary):
        return judges_text(facts)
    if isinstance(facts, Significance):
        if facts.kind == "single_run":
            return "a single run has no difference to test"
        if facts.kind == "hotelling":
            if facts.p_value is None:
                return "Hotelling T² p not computable"
            return f"Hotelling T² p = {facts.p_value:.3g} vs α = {fmt(facts.alpha)}"
        if facts.ci is None:
            return "no composite CI (no paired samples)"
        low, high = facts.ci
        return f"composite CI [{fmt(low)}, {fmt(high)}] {'excludes' if facts.significant else 'contains'} 0"
    if isinstance(facts, Saturation):
        threshold = fmt(facts.threshold)
        if facts.paired:
            if not facts.levels:
                return "no paired samples"
            control, treatment = facts.levels
            relation = "both ≥" if facts.saturated else "not both ≥"
            return f"composites {display(control)} / {display(treatment)} {relation} {threshold}"
        if not facts.levels:
            return "no scored sample"
        return f"composite {display(facts.levels[0])} {'≥' if facts.saturated else '<'} {threshold}"
    return _human_text(facts)


def _human_text(facts: HumanAlignment) -> str:
    if facts.n < 3:
        return f"{facts.n} judged sample(s) with a human label (need ≥ 3)"
    if facts.rho is None:
        return "Spearman ρ undefined (judge or human scores constant)"
    relation = "≥" if facts.aligned else "<"
    return f"Spearman ρ {fmt(facts.rho)} {relation} {fmt(facts.min_spearman)} over {facts.n} labelled samples"


def pair_reason_text(reason: PairLeftOut | None) -> str | None:
    """Why a judge pair does not count, or None when it counts."""
    if reason is None:
        return None
    if reason.constant:
        return f"judge {', '.join(reason.constant)} constant on the common samples"
    return f"fewer than {reason.min_common} common samples"


def pair_dict(pair: JudgePair) -> dict[str, Any]:
    return {**pair.to_dict(), "reason": pair_reason_text(pair.reason)}


def agreement_dict(agreement: RunJudgeAgreement) -> dict[str, Any]:
    """One run's judge agreement with each pair's reason worded."""
    out = agreement.to_dict()
    out["pairs"] = [pair_dict(pair) for pair in agreement.pairs]
    return out


def badge_dict(badge: Badge) -> dict[str, Any]:
    return {"label": badge.label, "value": badge.value, "detail": badge_detail(badge.facts)}


def layer_absent_text(layer: LayerComparison) -> str | None:
    """Why a layer is not compared (not present in every paired sample of both runs)."""
    n = layer.absent_of
    if n is None:
        return None
    if n == 0:
        return "no paired samples"
    return (
        f"not every paired sample has it in both runs "
        f"({layer.samples_control}/{n} control, {layer.samples_treatment}/{n} treatment)"
    )


def comparison_headline(comparison: Comparison) -> str:
    """The terse CLI line, e.g. 'PROGRESS · SHIP — composite +0.42 [0.18, 0.66], 3/3 layers pass, judges agree'."""
    unit = " sd" if comparison.composite.scale == "z" else ""
    composite = f"composite {fmt(comparison.composite.diff, signed=True)}{unit}"
    if comparison.composite.ci is not None:
        composite += f" {comparison.composite.ci.text()}"
    present = comparison.present_layers
    passing = sum(1 for layer in present if layer.gate_treatment)
    judges = "judges agree" if comparison.judges_agree else "judges disagree"
    return (
        f"{comparison.verdict.value} · {comparison.action} — {composite}, "
        f"{passing}/{len(present)} layers pass, {judges}"
    )


def solo_headline(report: SoloReport) -> str:
    ci = f" {report.composite_ci.text()}" if report.composite_ci is not None else ""
    # a level in points is truncated (SCORING.md §0); a z-score is rounded
    level = fmt(report.composite) if report.config.standardize else display(report.composite)
    layers = sum(1 for name in LAYERS if report.scores.layer_means.get(name) is not None)
    return (
        f"{report.verdict.value} · {report.action} — composite {level}{ci} "
        f"over {len(report.scores.samples)} samples, {layers}/{len(LAYERS)} layers"
    )


def multi_headline(result: MultiComparison) -> str:
    """'REGRESS · DO NOT SHIP — worst of 3 treatments (t2: REGRESS)'."""
    names = ", ".join(f"{c.treatment.run_id}" for c in result.deciding)
    return (
        f"{result.verdict.value} · {result.action} — worst of {len(result.comparisons)} treatments "
        f"({names}: {result.verdict.value})"
    )


def comparison_dict(comparison: Comparison) -> dict[str, Any]:
    """The JSON of ``aaaf compare --json`` (before grading and calibration are added)."""
    body = comparison.to_dict()
    body["judges"]["runs"] = {name: agreement_dict(a) for name, a in comparison.judges.items()}
    for name, layer in comparison.layers.items():
        absent = layer_absent_text(layer)
        if absent is not None:
            body["layers"][name]["reason"] = absent
    return {
        "verdict": body.pop("verdict"),
        "action": body.pop("action"),
        "rule": body.pop("rule"),
        "reason": reason_text(comparison.reason),
        "headline": comparison_headline(comparison),
        **body,
        # same position as the core's badges (a repeated key keeps its first place)
        "badges": {key: badge_dict(badge) for key, badge in comparison.badges.items()},
    }


def solo_dict(report: SoloReport) -> dict[str, Any]:
    """The JSON of ``aaaf eval score --json``."""
    body = report.to_dict()
    body["judges"] = agreement_dict(report.judges)
    return {
        "verdict": body.pop("verdict"),
        "action": body.pop("action"),
        "rule": body.pop("rule"),
        "reason": reason_text(report.reason),
        "headline": solo_headline(report),
        **body,
        "badges": {key: badge_dict(badge) for key, badge in report.badges.items()},
    }


def multi_dict(result: MultiComparison) -> dict[str, Any]:
    """The JSON of ``aaaf compare CONTROL T1 T2 … --json``."""
    comparisons = []
    for comparison in result.comparisons:
        body = comparison_dict(comparison)
        run = body.pop("treatment")
        comparisons.append(
            {
                "treatment": f"{comparison.treatment.run_id}/{comparison.treatment.variant}",
                **body,
                "treatment_run": run,
            }
        )
    return {
        "control": result.control.to_dict(),
        "comparisons": comparisons,
        "verdict": result.verdict.value,
        "action": result.action,
        "headline": multi_headline(result),
        "treatments": len(result.comparisons),
        "family_confidence": result.confidence,
    }
