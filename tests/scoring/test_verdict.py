"""The verdict engine: every verdict reached by a constructed pair of runs (SCORING.md §4).

Runs are built from layer scores: ``fact=k`` means k of 4 fact assertions pass, so the
sample's fact score is 1 + 4·k/4 = 1 + k (likewise ``behavior``); judges are given as
their 1-5 scores.  Each scenario states the arithmetic that decides it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np
import pytest

from aaaf.reports.verdict_text import (
    comparison_dict,
    comparison_headline,
    layer_absent_text,
    pair_reason_text,
    reason_text,
    solo_headline,
)
from aaaf.scoring.judging import JudgesSummary
from aaaf.scoring.layered import GradedAssertion, JudgeScore, LayeredConfig, LayeredRun, LayeredSample
from aaaf.scoring.verdict import (
    Interval,
    LayerComparison,
    ReasonCode,
    Verdict,
    VerdictFacts,
    compare_runs,
    decide_verdict,
    judge_agreement,
    parse_verdicts,
    score_solo,
)
from aaaf.stats.bootstrap import resample_indices

# judges that agree, with no judge pair to compare (SCORING.md §4)
AGREE = JudgesSummary(True, {}, (), 0.4)

JUDGE_NAMES = ("j1", "j2", "j3")


def sample(
    sid: str,
    fact: int | None = None,
    behavior: int | None = None,
    judges: Sequence[float] | None = None,
    human: float | None = None,
) -> LayeredSample:
    assertions: list[GradedAssertion] = []
    if fact is not None:
        assertions += [GradedAssertion("contains", i < fact) for i in range(4)]
    if behavior is not None:
        assertions += [GradedAssertion("tool_called", i < behavior) for i in range(4)]
    scores = tuple(JudgeScore(name, float(s)) for name, s in zip(JUDGE_NAMES, judges or (), strict=False))
    return LayeredSample(sid, tuple(assertions), scores, human)


def run(name: str, samples: Sequence[LayeredSample]) -> LayeredRun:
    return LayeredRun(name, name, tuple(samples))


def progress_pair(n: int = 30) -> tuple[LayeredRun, LayeredRun]:
    """T improves fact, behavior and judge on most samples; every T layer ≥ 3.5; judges agree.

    C: fact 1 + (2 + i%3) ∈ {3, 4, 5} (mean 4), behavior likewise shifted, judges 2 + i%3 (+1 on j2
    when i%4 == 0).  T: one more passing fact assertion on even samples, one more behavior on every
    third, judges +1 (capped at 5): every composite difference ≥ 0, most > 0.
    """
    control, treatment = [], []
    for i in range(n):
        q = i % 3
        c_judges = [2 + q, min(5, 2 + q + (i % 4 == 0)), 2 + q]
        t_judges = [min(5, s + 1) for s in c_judges]
        control.append(sample(f"s{i}", 2 + q, 2 + (i + 1) % 3, c_judges, human=2 + q))
        treatment.append(
            sample(
                f"s{i}",
                min(4, 2 + q + (i % 2 == 0)),
                min(4, 2 + (i + 1) % 3 + (i % 3 == 0)),
                t_judges,
                human=3 + q,
            )
        )
    return run("control", control), run("treatment", treatment)


def test_solo() -> None:
    control, _ = progress_pair()
    report = score_solo(control)
    assert report.verdict is Verdict.SOLO and report.rule == "1"
    assert solo_headline(report).startswith("SOLO · ADD A CONTROL — composite")
    facts = VerdictFacts(1, 30, None, None, None, (), AGREE)
    assert decide_verdict(facts, LayeredConfig()).verdict is Verdict.SOLO


def test_progress() -> None:
    control, treatment = progress_pair()
    result = compare_runs(control, treatment)
    assert result.verdict is Verdict.PROGRESS and result.rule == "5"
    assert result.composite.ci is not None and result.composite.ci.above_zero
    assert all(layer.gate_treatment for layer in result.present_layers)
    assert result.judges_agree
    assert comparison_headline(result).startswith("PROGRESS · SHIP — composite +")
    assert comparison_headline(result).endswith("3/3 layers pass, judges agree")
    assert result.reason.code is ReasonCode.ALL_CLEAR
    assert "entirely above 0" in reason_text(result.reason)


def test_regress_by_composite() -> None:
    control, treatment = progress_pair()
    result = compare_runs(treatment, control)  # the same pair, reversed
    assert result.verdict is Verdict.REGRESS and result.rule == "3"
    assert result.composite.ci is not None and result.composite.ci.high < 0
    assert "entirely below 0" in reason_text(result.reason)


def gate_drop_pair(n: int = 20) -> tuple[LayeredRun, LayeredRun]:
    """fact 4 → 3 on every sample (−1), judge 3 → 4 (+1), behavior 4 unchanged.

    Composite difference per sample = (−1 + 0 + 1)/3 = 0, so its CI is [0, 0] (contains 0) and the
    MDE is 0; fact passed its gate in C (4 ≥ 3.5), fails it in T (3 < 3.5) and its Bonferroni CI is
    [−1, −1], entirely < 0 → REGRESS by the layer clause of rule 3.
    """
    control = [sample(f"s{i}", 3, 3, [3, 3, 3]) for i in range(n)]
    treatment = [sample(f"s{i}", 2, 3, [4, 4, 4]) for i in range(n)]
    return run("control", control), run("treatment", treatment)


def test_regress_by_a_layer_falling_through_its_gate() -> None:
    result = compare_runs(*gate_drop_pair())
    assert result.verdict is Verdict.REGRESS and result.rule == "3"
    assert result.composite.ci == Interval(0.0, 0.0)
    assert result.reason.code is ReasonCode.LAYER_REGRESSED and result.reason.layer is not None
    assert result.reason.layer.name == "fact"
    assert "layer fact passed its gate in control" in reason_text(result.reason)
    fact = result.layers["fact"]
    assert (fact.gate_control, fact.gate_treatment) == (True, False)
    assert fact.ci_bonferroni == Interval(-1.0, -1.0)


def test_a_gate_drop_that_is_noise_does_not_regress() -> None:
    # C: k = 3, 2, 3, 2, … → fact scores 4, 3, … (sum 105), first raised to 5 → 106/30 = 3.533 ≥ 3.5
    # T: k = 2, 3, 2, 3, … → scores 3, 4, … (sum 105), second lowered to 2 → 103/30 = 3.433 < 3.5
    # the per-sample changes are ±1 (and −2, +1) around a mean of −0.1: the Bonferroni CI contains 0,
    # so the layer clause of rule 3 must not fire
    c_fact = [3, 2] * 15
    c_fact[0] = 4
    t_fact = [2, 3] * 15
    t_fact[1] = 1
    control = [sample(f"s{i}", c_fact[i], 3, [4, 4, 4]) for i in range(30)]
    treatment = [sample(f"s{i}", t_fact[i], 3, [4, 4, 4]) for i in range(30)]
    result = compare_runs(run("c", control), run("t", treatment))
    fact = result.layers["fact"]
    assert (fact.gate_control, fact.gate_treatment) == (True, False)
    assert fact.ci_bonferroni is not None and fact.ci_bonferroni.contains_zero
    assert result.verdict is not Verdict.REGRESS


def test_underpowered_by_too_few_pairs() -> None:
    control, treatment = progress_pair(4)
    result = compare_runs(control, treatment)
    assert result.verdict is Verdict.UNDERPOWERED and result.rule == "2"
    assert result.reason.code is ReasonCode.TOO_FEW_PAIRED
    assert reason_text(result.reason) == "4 paired sample(s), fewer than the 5 required"


def test_underpowered_by_minimum_detectable_effect() -> None:
    # 8 pairs whose composite moves +1 and −1 alternately: mean 0, sd = √(8/7) = 1.069,
    # MDE = 2.8 × 1.069 / √8 = 1.058 > 0.25 while the CI contains 0 → rule 3b
    control = [sample(f"s{i}", 2, 2, [3, 3, 3]) for i in range(8)]
    treatment = [
        sample(f"s{i}", 3 if i % 2 else 1, 3 if i % 2 else 1, [4, 4, 4] if i % 2 else [2, 2, 2])
        for i in range(8)
    ]
    result = compare_runs(run("c", control), run("t", treatment))
    assert result.verdict is Verdict.UNDERPOWERED and result.rule == "3b"
    assert result.composite.mde == pytest.approx(2.8 * (8 / 7) ** 0.5 / 8**0.5)
    assert result.reason.code is ReasonCode.LOW_POWER
    assert "minimum detectable effect 1.06 exceeds 0.25" in reason_text(result.reason)


def test_noise() -> None:
    # 200 pairs; fact moves +1 on even and −1 on odd samples, nothing else moves: composite diffs
    # ±1/3 with mean 0, sd ≈ 0.334, MDE = 2.8 × 0.334 / √200 = 0.066 ≤ 0.25; every CI contains 0
    control = [sample(f"s{i}", 2, 3, [4, 4, 5]) for i in range(200)]
    treatment = [sample(f"s{i}", 3 if i % 2 == 0 else 1, 3, [4, 4, 5]) for i in range(200)]
    result = compare_runs(run("c", control), run("t", treatment))
    assert result.verdict is Verdict.NOISE and result.rule == "4"
    assert result.composite.mde is not None and result.composite.mde < 0.25
    assert all(layer.ci is not None and layer.ci.contains_zero for layer in result.present_layers)


def test_cautious_when_a_gate_fails_in_treatment() -> None:
    # behavior improves 2 → 3 but stays below the 3.5 gate in T; fact and judge improve too
    control = [sample(f"s{i}", 2 + i % 3, 1, [3, 3, 3]) for i in range(30)]
    treatment = [sample(f"s{i}", min(4, 3 + i % 3), 2, [4, 4, 4]) for i in range(30)]
    result = compare_runs(run("c", control), run("t", treatment))
    assert result.verdict is Verdict.CAUTIOUS and result.rule == "6"
    assert "layer behavior fails its gate in treatment (3.00 < 3.50)" in reason_text(result.reason)
    assert comparison_headline(result).endswith("2/3 layers pass, judges agree")


def test_cautious_when_judges_disagree() -> None:
    control, treatment = progress_pair()
    # T's judges j1 and j2 now contradict each other (r = −1) around a mean of 4
    flipped = [
        LayeredSample(
            s.sample_id,
            s.assertions,
            (JudgeScore("j1", 4.0 + (i % 3 - 1)), JudgeScore("j2", 4.0 - (i % 3 - 1))),
            s.human,
        )
        for i, s in enumerate(treatment.samples)
    ]
    result = compare_runs(control, run("treatment", flipped))
    assert result.composite.ci is not None and result.composite.ci.above_zero
    assert result.verdict is Verdict.CAUTIOUS and result.rule == "6"
    assert result.judges["treatment"].mean_pearson == pytest.approx(-1.0)
    assert "judges disagree (treatment mean r -1.00 < 0.40)" in reason_text(result.reason)
    assert comparison_headline(result).endswith("judges disagree")


def test_cautious_when_layers_move_in_opposite_directions_under_a_flat_composite() -> None:
    # fact 4 → 5 (+1), judge 5 → 4 (−1), behavior 4: composite diffs exactly 0; both layers stay
    # above their gates, so rule 3 does not apply; their CIs exclude 0, so rule 4 does not either
    control = [sample(f"s{i}", 3, 3, [5, 5, 5]) for i in range(20)]
    treatment = [sample(f"s{i}", 4, 3, [4, 4, 4]) for i in range(20)]
    result = compare_runs(run("c", control), run("t", treatment))
    assert result.verdict is Verdict.CAUTIOUS and result.rule == "6"
    assert result.reason.ups == ("fact",) and result.reason.downs == ("judge",)
    assert "fact significantly up" in reason_text(
        result.reason
    ) and "judge significantly down" in reason_text(result.reason)


def test_cautious_when_no_layer_is_present_in_every_pair() -> None:
    # half the samples have only fact assertions, half only judges: the composite improves but no
    # layer is present in every paired sample, so "all layers absent ⇒ the gate fails"
    control = [
        sample(f"s{i}", 2, None, None) if i % 2 else sample(f"s{i}", None, None, [3, 3, 3]) for i in range(20)
    ]
    treatment = [
        sample(f"s{i}", 4, None, None) if i % 2 else sample(f"s{i}", None, None, [5, 4, 5]) for i in range(20)
    ]
    result = compare_runs(run("c", control), run("t", treatment))
    assert not result.present_layers
    assert result.verdict is Verdict.CAUTIOUS
    assert "no layer is present in every paired sample" in reason_text(result.reason)
    assert (
        layer_absent_text(result.layers["fact"])
        == "not every paired sample has it in both runs (10/20 control, 10/20 treatment)"
    )


def test_hotelling_option() -> None:
    control, treatment = progress_pair()
    result = compare_runs(control, treatment, LayeredConfig(hotelling=True))
    assert result.hotelling is not None and result.hotelling.p_value is not None
    assert result.hotelling.p_value < 0.05 and result.hotelling.dimensions == 3
    assert result.verdict is Verdict.PROGRESS and "Hotelling T² p = " in reason_text(result.reason)
    assert result.badges["difference_significant"].value is True
    reversed_result = compare_runs(treatment, control, LayeredConfig(hotelling=True))
    assert reversed_result.verdict is Verdict.REGRESS and "moving down" in reason_text(reversed_result.reason)


def test_hotelling_significant_under_a_flat_composite_is_cautious() -> None:
    # the opposite-directions pair: every sample moved fact +1 and judge −1 exactly, so T² is
    # infinite (p = 0) while the composite's mean difference is exactly 0: no direction → rule 6
    control = [sample(f"s{i}", 3, 3, [5, 5, 5]) for i in range(20)]
    treatment = [sample(f"s{i}", 4, 3, [4, 4, 4]) for i in range(20)]
    result = compare_runs(run("c", control), run("t", treatment), LayeredConfig(hotelling=True))
    assert result.hotelling is not None and result.hotelling.p_value == 0.0
    assert result.verdict is Verdict.CAUTIOUS and "composite is flat" in reason_text(result.reason)


def _facts(ci: Interval, *, mde: float = 0.1, n: int = 30, diff: float = 0.2) -> VerdictFacts:
    layer = LayerComparison(
        "fact", True, 4.0, 4.2, diff, Interval(-0.1, 0.3), Interval(-0.2, 0.4), True, True, n, n
    )
    return VerdictFacts(2, n, diff, ci, mde, (layer,), AGREE)


def test_interval_boundaries_follow_scoring_md() -> None:
    config = LayeredConfig()
    # 'contains 0' is lo ≤ 0 ≤ hi: a CI starting at exactly 0 is not > 0
    assert decide_verdict(_facts(Interval(0.0, 0.5)), config).verdict is Verdict.NOISE
    # a bound within 1e-9 of 0 is 0 (SCORING.md §4, 2026-11-23); just beyond it, it counts
    assert decide_verdict(_facts(Interval(1e-9, 0.5)), config).verdict is Verdict.NOISE
    assert decide_verdict(_facts(Interval(2e-9, 0.5)), config).verdict is Verdict.PROGRESS
    # 'entirely < 0' is hi < 0: a CI ending at exactly 0 is not a regression
    assert decide_verdict(_facts(Interval(-0.5, 0.0)), config).verdict is Verdict.NOISE
    assert decide_verdict(_facts(Interval(-0.5, -1e-9)), config).verdict is Verdict.NOISE
    assert decide_verdict(_facts(Interval(-0.5, -2e-9)), config).verdict is Verdict.REGRESS


def test_rule_order() -> None:
    config = LayeredConfig()
    # rule 3 before 3b: a significant drop is a signal even when the MDE is large
    assert decide_verdict(_facts(Interval(-0.9, -0.1), mde=2.0), config).verdict is Verdict.REGRESS
    # rule 2 before everything after it
    assert decide_verdict(_facts(Interval(-0.9, -0.1), n=4), config).verdict is Verdict.UNDERPOWERED
    # 3b only when the CI contains 0
    assert decide_verdict(_facts(Interval(-0.1, 0.3), mde=0.3), config).rule == "3b"
    assert decide_verdict(_facts(Interval(-0.1, 0.3), mde=0.25), config).rule == "4"


def test_one_index_matrix_and_bonferroni_level() -> None:
    control, treatment = progress_pair()
    config = LayeredConfig(resamples=2000, seed=3)
    result = compare_runs(control, treatment, config)
    # recompute the fact layer's CIs from the explicit index matrix of SCORING.md §4
    c = np.array([1 + sum(a.passed for a in s.assertions if a.layer == "fact") for s in control.samples])
    t = np.array([1 + sum(a.passed for a in s.assertions if a.layer == "fact") for s in treatment.samples])
    indices = resample_indices(30, 2000, 3)
    means = (t - c)[indices].mean(axis=1)
    k = 3
    low, high = np.percentile(means, [2.5, 97.5])
    b_low, b_high = np.percentile(means, [100 * 0.05 / (2 * k), 100 - 100 * 0.05 / (2 * k)])
    fact = result.layers["fact"]
    assert fact.ci is not None and fact.ci_bonferroni is not None
    assert (fact.ci.low, fact.ci.high) == pytest.approx((low, high), abs=1e-12)
    assert (fact.ci_bonferroni.low, fact.ci_bonferroni.high) == pytest.approx((b_low, b_high), abs=1e-12)


def test_pairing_unpaired_and_unscored() -> None:
    control_samples = [sample(f"s{i}", 3, 3, [4, 4, 4]) for i in range(10)]
    treatment_samples = [sample(f"s{i}", 4, 3, [4, 4, 4]) for i in range(10)]
    control_samples += [sample("only-c", 3), sample("empty", None)]
    treatment_samples += [sample("only-t", 3), sample("empty", 2)]
    result = compare_runs(run("c", control_samples), run("t", treatment_samples))
    assert result.n_paired == 10
    assert (result.control_only, result.treatment_only, result.unscored) == (
        ("only-c",),
        ("only-t",),
        ("empty",),
    )
    as_json = comparison_dict(result)
    assert as_json["unpaired"] == {
        "control_only": ["only-c"],
        "treatment_only": ["only-t"],
        "unscored": ["empty"],
        "errored": [],
    }


def test_a_layer_missing_from_one_paired_sample_is_absent() -> None:
    control, treatment = progress_pair(10)
    samples = list(treatment.samples)
    samples[0] = sample("s0", 3, None, [4, 4, 4])  # behavior missing in one T sample
    result = compare_runs(control, run("t", samples))
    assert not result.layers["behavior"].present
    assert result.layers["behavior"].gate_treatment is None
    assert len(result.present_layers) == 2
    # the composite still uses every paired sample (sample s0's composite from 2 layers)
    assert result.composite.layers_used_treatment == {"2": 1, "3": 9}


def test_judge_agreement_rules() -> None:
    config = LayeredConfig()
    samples = [
        LayeredSample("a", (), (JudgeScore("x", 1.0), JudgeScore("y", 2.0), JudgeScore("z", 3.0))),
        LayeredSample("b", (), (JudgeScore("x", 2.0), JudgeScore("y", 4.0), JudgeScore("z", 3.0))),
        LayeredSample("c", (), (JudgeScore("x", 3.0), JudgeScore("y", 3.0), JudgeScore("z", 3.0))),
        LayeredSample("d", (), (JudgeScore("x", 4.0), JudgeScore("w", 4.0))),
    ]
    agreement = judge_agreement(samples, config)
    pairs = {(p.first, p.second): p for p in agreement.pairs}
    # x,y over a,b,c: x = (1,2,3), y = (2,4,3): dx = (−1,0,1), dy = (−1,1,0) → r = 1/2
    assert pairs[("x", "y")].counted and pairs[("x", "y")].r == pytest.approx(0.5)
    # z is constant on its common samples: not counted; w shares one sample with x: not counted
    assert not pairs[("x", "z")].counted and "constant" in (pair_reason_text(pairs[("x", "z")].reason) or "")
    assert not pairs[("w", "x")].counted and pairs[("w", "x")].common == 1
    assert agreement.mean_pearson == pytest.approx(0.5) and not agreement.disagree
    # a run without any counted pair does not disagree
    lonely = judge_agreement([LayeredSample("a", (), (JudgeScore("x", 2.0),))], config)
    assert lonely.mean_pearson is None and not lonely.disagree


def test_badges() -> None:
    control, treatment = progress_pair()
    result = compare_runs(control, treatment)
    badges = result.badges
    assert badges["judges_agree"].value is True
    assert badges["difference_significant"].value is True
    assert badges["saturated"].value is False
    # humans = 2 + i%3 in C and 3 + i%3 in T, the judge layers rank the same way → ρ ≥ 0.8
    assert badges["human_aligned"].value is True
    perfect = [sample(f"s{i}", 4, 4, [5, 5, 5]) for i in range(10)]
    saturated = compare_runs(run("c", perfect), run("t", perfect))
    assert saturated.badges["saturated"].value is True
    assert saturated.badges["human_aligned"].value is None  # no human labels: unknown
    assert saturated.verdict is Verdict.NOISE


def test_json_shape_and_determinism() -> None:
    control, treatment = progress_pair()
    first = comparison_dict(compare_runs(control, treatment))
    second = comparison_dict(compare_runs(control, treatment))
    assert json.dumps(first) == json.dumps(second)
    for key in ("verdict", "reason", "n_paired", "unpaired", "composite", "layers", "judges", "badges"):
        assert key in first
    assert set(first["composite"]) >= {"control", "treatment", "diff", "ci"}
    for name in ("fact", "behavior", "judge"):
        layer = first["layers"][name]
        assert set(layer) >= {"control", "treatment", "diff", "ci", "gate"}
        assert set(layer["gate"]) == {"control", "treatment"}
    assert set(first["judges"]) >= {"pearson", "krippendorff_alpha", "agree"}
    assert set(first["badges"]) == {"judges_agree", "difference_significant", "saturated", "human_aligned"}


def test_parse_verdicts() -> None:
    assert parse_verdicts("regress, Cautious") == (Verdict.REGRESS, Verdict.CAUTIOUS)
    with pytest.raises(ValueError, match="unknown verdict"):
        parse_verdicts("regress,bad")
