"""Issue 11 in the pure engine: verdicts that mean what they say (SCORING.md §4, 2026-11-23).

Each "Why" case of the issue is a pair of runs that the rules of before decided wrongly;
the comments give the arithmetic.  Fact scores use ``fact=k``: k of the sample's
assertions pass (4 assertions unless said otherwise), so the fact score is 1 + 4·k/4.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as scipy_stats

from aaaf.errors import AAAFError
from aaaf.reports.verdict_text import comparison_dict, multi_dict, reason_text
from aaaf.scoring.layered import (
    GradedAssertion,
    JudgeScore,
    LayeredConfig,
    LayeredRun,
    LayeredSample,
    score_run,
)
from aaaf.scoring.treatments import compare_treatments
from aaaf.scoring.verdict import Interval, Verdict, compare_runs, worst_verdict
from aaaf.stats.bootstrap import bootstrap_means
from tests.scoring.test_verdict import progress_pair, run, sample


def tenths(sid: str, passed: int, epoch: int | None = None) -> LayeredSample:
    """A sample with 10 equally weighted fact assertions, ``passed`` of them passing: 1 + 0.4·passed."""
    assertions = tuple(GradedAssertion("contains", i < passed) for i in range(10))
    return LayeredSample(sid, assertions, epoch=epoch)


def composite_diffs(control: LayeredRun, treatment: LayeredRun) -> list[float]:
    pairs = zip(score_run(control).samples, score_run(treatment).samples, strict=True)
    return [float(t.composite or 0.0) - float(c.composite or 0.0) for c, t in pairs]


def tenths_pair(control: list[int], treatment: list[int]) -> tuple[LayeredRun, LayeredRun]:
    return (
        run("c", [tenths(f"s{i}", k) for i, k in enumerate(control)]),
        run("t", [tenths(f"s{i}", k) for i, k in enumerate(treatment)]),
    )


# ---- 1. floating-point noise must not decide a verdict ------------------------------------


def test_a_bound_that_is_zero_up_to_float_noise_does_not_regress() -> None:
    # fact only (10 assertions): diffs 0.4·(kt − kc) = 0, −0.8, −0.4, +0.4, −1.2, −0.8.  The
    # 97.5th percentile of the 10 000 resample means is a resample whose mean is exactly 0,
    # computed as a sum of floats: −7.4e-17.  Before, "hi < 0" made that REGRESS, exit 1.
    control, treatment = tenths_pair([10, 9, 2, 6, 6, 10], [10, 7, 1, 7, 3, 8])
    diffs = composite_diffs(control, treatment)
    _, raw_high = bootstrap_means(np.array([diffs, diffs]), resamples=10_000, seed=0).interval(0.95)
    assert -1e-9 < raw_high[0] < 0.0  # the noise the rules of before read as "entirely below 0"
    result = compare_runs(control, treatment)
    assert result.composite.ci is not None and result.composite.ci.high == 0.0
    assert result.layers["fact"].ci_bonferroni is not None and result.layers["fact"].ci_bonferroni.high == 0.0
    assert result.verdict is not Verdict.REGRESS
    assert result.verdict is Verdict.UNDERPOWERED and result.rule == "3b"
    assert "[-0.87, 0.00] contains 0" in reason_text(result.reason)


def test_a_bound_that_is_zero_up_to_float_noise_does_not_progress() -> None:
    # diffs 1.2, 0.4, 0, −0.4, 0.4, 0.4, 0, 0.4 (mean 0.3): the 2.5th percentile is an exact-0
    # resample mean computed as +2.7e-17.  Before: "lo > 0", every gate ≥ 3.5 (T fact 3.6) →
    # PROGRESS "CI [0.00, 0.60] lies entirely above 0".
    control, treatment = tenths_pair([6, 8, 4, 3, 9, 7, 7, 2], [9, 9, 4, 2, 10, 8, 7, 3])
    diffs = composite_diffs(control, treatment)
    raw_low, _ = bootstrap_means(np.array([diffs, diffs]), resamples=10_000, seed=0).interval(0.95)
    assert 0.0 < raw_low[0] < 1e-9
    result = compare_runs(control, treatment)
    assert result.composite.ci is not None and result.composite.ci.low == 0.0
    assert result.verdict is not Verdict.PROGRESS
    assert result.verdict is Verdict.UNDERPOWERED


def test_interval_snaps_bounds_within_1e_9() -> None:
    assert Interval(-1e-17, 0.5).to_list() == [0.0, 0.5]
    assert Interval(-0.5, 1e-9).to_list() == [-0.5, 0.0]
    assert Interval(-0.5, -1.1e-9).high == -1.1e-9


# ---- 2. rule 4 reads the Bonferroni-level layer CIs ----------------------------------------


def bonferroni_noise_pair() -> tuple[LayeredRun, LayeredRun]:
    """n = 100, judges constant.  fact: +1 on s0-s30, −1 on s31-s46 (mean +0.15, sd 0.672, z ≈ 2.2);
    behavior: +1 on s47-s56, −1 on s57-s70 (mean −0.04).  The plain 95 % fact CI [0.02, 0.28]
    excludes 0, its 98.3 % Bonferroni CI [−0.01, 0.31] does not; composite diffs are
    (fact + behavior)/3, CI [−0.02, 0.09], MDE 0.08 ≤ 0.25.
    """
    control, treatment = [], []
    for i in range(100):
        fact = 3 if i < 31 else 1 if i < 47 else 2
        behavior = 3 if 47 <= i < 57 else 1 if 57 <= i < 71 else 2
        control.append(sample(f"s{i}", 2, 2, [4, 4, 4]))
        treatment.append(sample(f"s{i}", fact, behavior, [4, 4, 4]))
    return run("c", control), run("t", treatment)


def test_one_layer_missing_its_plain_ci_by_chance_is_noise_not_cautious() -> None:
    result = compare_runs(*bonferroni_noise_pair())
    fact = result.layers["fact"]
    assert fact.ci is not None and fact.ci_bonferroni is not None
    assert not fact.ci.contains_zero  # before: rule 4 failed here and the verdict was CAUTIOUS
    assert fact.ci_bonferroni.contains_zero
    assert result.composite.ci is not None and result.composite.ci.contains_zero
    assert result.composite.mde is not None and result.composite.mde <= 0.25
    assert result.verdict is Verdict.NOISE and result.rule == "4"
    assert "every layer's 98.33 % Bonferroni CI (fact, behavior, judge) contains 0" in reason_text(
        result.reason
    )


# ---- 3. a significant layer drop does not ship --------------------------------------------


def test_a_significant_drop_above_its_gate_is_cautious_not_progress() -> None:
    # fact 5 → 4 on 4 of every 5 samples (diff −1 or 0: Bonferroni CI entirely < 0, but T's fact
    # mean 4.2 still passes the 3.5 gate); judge 3 → 5 (+2); behavior 4.  Composite diffs
    # (−1 + 2)/3 or 2/3 > 0.  Before: composite > 0, every gate passes → PROGRESS · SHIP.
    control = [sample(f"s{i}", 4, 3, [3, 3, 3]) for i in range(30)]
    treatment = [sample(f"s{i}", 4 if i % 5 == 0 else 3, 3, [5, 5, 5]) for i in range(30)]
    result = compare_runs(run("c", control), run("t", treatment))
    fact = result.layers["fact"]
    assert result.composite.ci is not None and result.composite.ci.above_zero
    assert all(layer.gate_treatment for layer in result.present_layers)
    assert fact.ci_bonferroni is not None and fact.ci_bonferroni.below_zero
    assert result.verdict is Verdict.CAUTIOUS and result.rule == "6"
    assert "layer fact dropped significantly" in reason_text(result.reason)


# ---- 4. epochs are one unit, not pseudo-replicates -----------------------------------------


def epoch_runs(epochs: int) -> tuple[LayeredRun, LayeredRun]:
    """Five questions; control right on 2, treatment on 5; each record repeated ``epochs`` times."""
    control, treatment = [], []
    for q in range(5):
        for epoch in range(1, epochs + 1):
            tag = epoch if epochs > 1 else None
            control.append(LayeredSample(f"q{q}", (GradedAssertion("contains", q < 2),), epoch=tag))
            treatment.append(LayeredSample(f"q{q}", (GradedAssertion("contains", True),), epoch=tag))
    return run("c", control), run("t", treatment)


def test_epochs_average_into_one_unit_and_n_counts_sample_ids() -> None:
    once = compare_runs(*epoch_runs(1))
    twice = compare_runs(*epoch_runs(2))
    # deterministic duplicates add no information: the same n, the same CI, the same verdict
    assert twice.n_paired == once.n_paired == 5
    assert twice.composite.ci == once.composite.ci
    assert twice.composite.mde == once.composite.mde
    assert twice.verdict is once.verdict
    # what the importer of before did: ten "independent" samples q0#epoch1 … — a narrower CI
    control, treatment = epoch_runs(2)

    def relabel(r: LayeredRun) -> LayeredRun:
        return LayeredRun(
            r.run_id,
            r.variant,
            tuple(LayeredSample(f"{s.sample_id}#epoch{s.epoch}", s.assertions) for s in r.samples),
        )

    pseudo = compare_runs(relabel(control), relabel(treatment))
    assert pseudo.n_paired == 10 and pseudo.composite.mde is not None and twice.composite.mde is not None
    assert pseudo.composite.mde < twice.composite.mde


def test_a_unit_averages_its_records() -> None:
    # q0: records with fact 5 and 1 → unit fact 3, composite 3; judges 4 and 2 → judge 3
    records = (
        LayeredSample("q0", (GradedAssertion("contains", True),), (JudgeScore("j", 4.0),), epoch=1),
        LayeredSample("q0", (GradedAssertion("contains", False),), (JudgeScore("j", 2.0),), epoch=2),
    )
    (unit,) = score_run(LayeredRun("r", "r", records)).samples
    assert (unit.fact, unit.judge, unit.composite, unit.records) == (3.0, 3.0, 3.0, 2)


def test_repeated_ids_need_distinct_epochs() -> None:
    with pytest.raises(AAAFError, match="without an epoch"):
        score_run(LayeredRun("r", "r", (LayeredSample("a"), LayeredSample("a", epoch=2))))
    with pytest.raises(AAAFError, match="epoch 1 more than once"):
        score_run(LayeredRun("r", "r", (LayeredSample("a", epoch=1), LayeredSample("a", epoch=1))))


# ---- 5. an unfinished run is named, its errored samples left out ---------------------------


def test_errored_samples_are_left_out_and_the_reason_names_the_incomplete_run() -> None:
    control, treatment = progress_pair()
    broken = tuple(
        LayeredSample(s.sample_id, (), (), error="RuntimeError: boom") if s.sample_id in ("s0", "s1") else s
        for s in treatment.samples
    )
    result = compare_runs(control, LayeredRun("t", "t", broken, status="error"))
    assert result.n_paired == 28 and result.errored == ("s0", "s1")
    assert reason_text(result.reason).endswith(
        "treatment run t did not finish (status 'error'): 2 errored sample(s) left out"
    )
    as_json = comparison_dict(result)
    assert as_json["unpaired"]["errored"] == ["s0", "s1"]
    assert as_json["incomplete"] == [
        {
            "role": "treatment",
            "run_id": "t",
            "status": "error",
            "errored_samples": ["s0", "s1"],
            "left_out": 2,
        }
    ]


# ---- several treatments ---------------------------------------------------------------------


def test_several_treatments_bonferroni_and_roll_up() -> None:
    control, better = progress_pair()
    worse = run("worse", list(control.samples))  # the control against itself: NOISE or better
    result = compare_treatments(control, [better, worse, control])
    assert [c.config.confidence for c in result.comparisons] == [pytest.approx(1 - 0.05 / 3)] * 3
    # the composite CI of a treatment among 3 is the two-run CI at 1 − α/3
    alone = compare_runs(control, better, LayeredConfig(confidence=1 - 0.05 / 3))
    assert result.comparisons[0].composite.ci == alone.composite.ci
    assert result.comparisons[0].layers["fact"].ci_bonferroni == alone.layers["fact"].ci_bonferroni
    assert result.verdict is worst_verdict(c.verdict for c in result.comparisons)
    payload = multi_dict(result)
    assert payload["verdict"] == result.verdict.value
    assert [c["treatment"] for c in payload["comparisons"]] == [
        "treatment/treatment",
        "worse/worse",
        "control/control",
    ]
    assert payload["comparisons"][0]["method"]["treatments"] == 3


def test_one_treatment_is_the_two_run_comparison_byte_for_byte() -> None:
    control, treatment = progress_pair()
    (single,) = compare_treatments(control, [treatment]).comparisons
    assert comparison_dict(single) == comparison_dict(compare_runs(control, treatment))


def test_worst_verdict_order() -> None:
    order = [Verdict.PROGRESS, Verdict.NOISE, Verdict.UNDERPOWERED, Verdict.CAUTIOUS, Verdict.REGRESS]
    for position, verdict in enumerate(order):
        assert worst_verdict(order[: position + 1]) is verdict
        assert worst_verdict(reversed(order[: position + 1])) is verdict


# ---- BCa --------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 11])
def test_bca_matches_scipy(seed: int) -> None:
    data = np.random.default_rng(seed + 100).gamma(1.5, 1.0, size=40) - 1.0  # skewed
    ours = bootstrap_means(data, resamples=4_000, seed=seed)
    low, high = ours.interval(0.95, method="bca")
    reference = scipy_stats.bootstrap(
        (data,),
        np.mean,
        n_resamples=4_000,
        confidence_level=0.95,
        method="BCa",
        rng=np.random.default_rng(seed),
    )
    assert low[0] == pytest.approx(reference.confidence_interval.low, abs=1e-12)
    assert high[0] == pytest.approx(reference.confidence_interval.high, abs=1e-12)
    # BCa moves the percentile interval toward the skew; the two differ on skewed data
    p_low, p_high = ours.interval(0.95)
    assert (low[0], high[0]) != (p_low[0], p_high[0])


def test_bca_of_constant_data_is_the_constant() -> None:
    low, high = bootstrap_means(np.full(10, 0.5), resamples=500, seed=0).interval(0.95, method="bca")
    assert (low[0], high[0]) == (0.5, 0.5)


def test_bca_option_in_the_engine() -> None:
    control, treatment = progress_pair()
    result = compare_runs(control, treatment, LayeredConfig(ci_method="bca"))
    assert comparison_dict(result)["method"]["ci_method"] == "bca"
    assert result.composite.ci != compare_runs(control, treatment).composite.ci
    with pytest.raises(AAAFError, match="ci_method"):
        LayeredConfig(ci_method="studentized")
