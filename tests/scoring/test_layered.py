"""The layered per-sample and per-run formulas of SCORING.md §4 (document 002 §1), hand-computed."""

from __future__ import annotations

import hashlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aaaf.errors import AAAFError
from aaaf.scoring.layered import (
    ASSERTION_LAYERS,
    BEHAVIOR_ASSERTION_TYPES,
    FACT_ASSERTION_TYPES,
    GradedAssertion,
    JudgeScore,
    LayeredConfig,
    LayeredRun,
    LayeredSample,
    aggregate_layers,
    assertion_layer_score,
    fit_standardisation,
    option_composite,
    score_run,
    score_sample,
)
from aaaf.scoring.verdict import compare_runs


def test_assertion_classification_is_the_fixed_table() -> None:
    assert FACT_ASSERTION_TYPES == ("contains", "icontains", "equals", "regex", "json_schema", "similar")
    assert BEHAVIOR_ASSERTION_TYPES == (
        "tool_called",
        "tool_not_called",
        "tool_order",
        "max_turns",
        "max_cost",
        "max_latency",
    )
    assert set(ASSERTION_LAYERS.values()) == {"fact", "behavior"}


def test_sample_scores_by_hand() -> None:
    sample = LayeredSample(
        "s1",
        assertions=(
            GradedAssertion("contains", True, weight=2.0),
            GradedAssertion("regex", False, weight=1.0),
            GradedAssertion("tool_called", True),
            GradedAssertion("max_turns", False),
            GradedAssertion("max_cost", False),
            GradedAssertion("tool_order", True),
        ),
        judges=(JudgeScore("a", 4.0), JudgeScore("b", 5.0)),
    )
    scores = score_sample(sample)
    # fact: passed weight 2 of 3 → 1 + 4 × 2/3 = 3.6667 (by weight, not by count: 1 of 2 would give 3.0)
    assert scores.fact == pytest.approx(1 + 4 * 2 / 3)
    # behavior: 2 of 4 → 1 + 4 × 0.5 = 3.0
    assert scores.behavior == pytest.approx(3.0)
    # judge: mean(4, 5) = 4.5, raw (no normalisation)
    assert scores.judge == pytest.approx(4.5)
    # composite: mean of the three layers = (3.6667 + 3.0 + 4.5) / 3 = 3.7222, from 3 layers
    assert scores.composite == pytest.approx((1 + 4 * 2 / 3 + 3.0 + 4.5) / 3)
    assert scores.layers_used == 3


def test_missing_layers_are_null_and_the_composite_uses_the_rest() -> None:
    only_judge = score_sample(LayeredSample("s", judges=(JudgeScore("a", 3.0),)))
    assert (only_judge.fact, only_judge.behavior, only_judge.judge) == (None, None, 3.0)
    assert (only_judge.composite, only_judge.layers_used) == (3.0, 1)
    nothing = score_sample(LayeredSample("s"))
    assert (nothing.composite, nothing.layers_used) == (None, 0)


def test_pass_rate_extremes_map_to_one_and_five() -> None:
    all_fail = (GradedAssertion("equals", False), GradedAssertion("similar", False))
    all_pass = (GradedAssertion("equals", True), GradedAssertion("similar", True))
    assert assertion_layer_score(all_fail, "fact") == 1.0
    assert assertion_layer_score(all_pass, "fact") == 5.0
    assert assertion_layer_score(all_pass, "behavior") is None


def test_zero_total_weight_is_missing_not_one_point() -> None:
    assertions = (GradedAssertion("contains", True, weight=0.0), GradedAssertion("regex", False, weight=0.0))
    assert assertion_layer_score(assertions, "fact") is None


def test_invalid_records_are_rejected() -> None:
    with pytest.raises(AAAFError, match="Unknown assertion type"):
        GradedAssertion("llm-rubric", True)
    with pytest.raises(AAAFError, match="weight"):
        GradedAssertion("contains", True, weight=-1.0)
    with pytest.raises(AAAFError, match=r"\[1, 5\]"):
        JudgeScore("a", 6.0)


def test_run_means_by_hand() -> None:
    run = LayeredRun(
        "r",
        "v",
        (
            # fact 5, judge 3 → composite 4 (2 layers)
            LayeredSample("a", (GradedAssertion("contains", True),), (JudgeScore("j", 3.0),)),
            # fact 1 → composite 1 (1 layer)
            LayeredSample("b", (GradedAssertion("contains", False),)),
            # judge 5 → composite 5 (1 layer)
            LayeredSample("c", (), (JudgeScore("j", 5.0),)),
        ),
    )
    scores = score_run(run)
    # layer means over the samples that have them: fact (5 + 1)/2 = 3, judge (3 + 5)/2 = 4
    assert scores.layer_means == {"fact": 3.0, "behavior": None, "judge": 4.0}
    assert scores.layer_samples == {"fact": 2, "behavior": 0, "judge": 2}
    # composite: mean of sample composites (4 + 1 + 5)/3 = 3.3333, not the mean of layer means (3.5)
    assert scores.composite == pytest.approx(10 / 3)
    assert scores.layers_used == {"1": 2, "2": 1}
    assert scores.to_dict()["composite"]["covered"] == 2


def test_explicit_weights_renormalise_over_present_layers() -> None:
    weights = {"fact": 0.5, "behavior": 0.3, "judge": 0.2}
    # all three: 0.5·5 + 0.3·3 + 0.2·4 = 2.5 + 0.9 + 0.8 = 4.2
    assert aggregate_layers({"fact": 5.0, "behavior": 3.0, "judge": 4.0}, weights) == (pytest.approx(4.2), 3)
    # no behavior: weights 0.5/0.7 and 0.2/0.7 → (2.5 + 0.8)/0.7 = 4.7143
    assert aggregate_layers({"fact": 5.0, "behavior": None, "judge": 4.0}, weights) == (
        pytest.approx(3.3 / 0.7),
        2,
    )
    # only layers with weight 0: no composite
    assert aggregate_layers({"judge": 4.0}, {"fact": 1.0, "behavior": 0.0, "judge": 0.0}) == (None, 0)


def test_standardisation_by_hand() -> None:
    scores = [
        score_sample(LayeredSample("a", (GradedAssertion("contains", True),), (JudgeScore("j", 2.0),))),
        score_sample(LayeredSample("b", (GradedAssertion("contains", False),), (JudgeScore("j", 4.0),))),
    ]
    fitted = fit_standardisation(scores)
    # fact values 5 and 1: mean 3, sd √((4 + 4)/1) = 2.8284; judge 2 and 4: mean 3, sd √2
    assert fitted.means == {"fact": 3.0, "behavior": None, "judge": 3.0}
    assert fitted.sds["fact"] == pytest.approx(8**0.5)
    assert fitted.sds["behavior"] is None
    config = LayeredConfig(standardize=True)
    # sample a: z_fact = 2/2.8284 = 0.7071, z_judge = −1/1.4142 = −0.7071 → composite 0
    assert option_composite(scores[0], config, fitted) == pytest.approx(0.0, abs=1e-12)
    # default formula ignores the standardisation
    assert option_composite(scores[0], LayeredConfig(), None) == scores[0].composite


def test_config_validation() -> None:
    with pytest.raises(AAAFError) as excinfo:
        LayeredConfig(weights={"fact": 0.5, "behavior": 0.6, "judge": 0.2})
    assert excinfo.value.code == "WEIGHT_SUM_INVALID" and "1.3" in excinfo.value.message
    with pytest.raises(AAAFError) as excinfo:
        LayeredConfig(weights={"fact": 1.0})
    assert excinfo.value.code == "WEIGHT_SUM_INVALID"
    with pytest.raises(AAAFError, match="confidence"):
        LayeredConfig(confidence=1.5)
    with pytest.raises(AAAFError, match="resamples"):
        LayeredConfig(resamples=0)


assertion_strategy = st.builds(
    GradedAssertion,
    type=st.sampled_from(sorted(ASSERTION_LAYERS)),
    passed=st.booleans(),
    weight=st.floats(0.0, 3.0, allow_nan=False),
)
judge_strategy = st.builds(JudgeScore, judge=st.sampled_from(["a", "b", "c"]), score=st.floats(1.0, 5.0))


@settings(max_examples=100, deadline=None)
@given(
    assertions=st.lists(assertion_strategy, max_size=8),
    judges=st.lists(judge_strategy, max_size=3),
    order=st.randoms(use_true_random=False),
)
def test_sample_invariants(
    assertions: list[GradedAssertion], judges: list[JudgeScore], order: object
) -> None:
    scores = score_sample(LayeredSample("s", tuple(assertions), tuple(judges)))
    layers = [v for v in scores.layers().values() if v is not None]
    for value in layers:
        assert 1.0 <= value <= 5.0
    if layers:
        assert scores.composite is not None
        assert min(layers) - 1e-12 <= scores.composite <= max(layers) + 1e-12
        assert scores.layers_used == len(layers)
    else:
        assert scores.composite is None
    shuffled = list(assertions)
    order.shuffle(shuffled)  # type: ignore[attr-defined]
    again = score_sample(LayeredSample("s", tuple(shuffled), tuple(judges)))
    for name in ("fact", "behavior"):
        if scores.layer(name) is None:
            assert again.layer(name) is None
        else:
            assert again.layer(name) == pytest.approx(scores.layer(name))


# ---- the frozen formula (document 002 §6: changing it is BREAKING-COMPARABILITY) ----------


def _frozen_runs() -> tuple[LayeredRun, LayeredRun]:
    types = sorted(ASSERTION_LAYERS)
    runs = []
    for offset in (0, 1):
        samples = []
        for i in range(12):
            assertions = tuple(
                GradedAssertion(
                    types[(i + j) % len(types)], (i * 7 + j * 3 + offset * (j + 1)) % 5 != 0, 1.0 + j % 2
                )
                for j in range(5)
            )
            judges = tuple(
                JudgeScore(name, float(1 + (i * 3 + k + offset * 2) % 5)) for k, name in enumerate("ab")
            )
            samples.append(LayeredSample(f"s{i:02d}", assertions, judges, human=float(1 + i % 5)))
        runs.append(LayeredRun(f"run{offset}", f"v{offset}", tuple(samples)))
    return runs[0], runs[1]


def _digest(value: object) -> str:
    def rounded(item: object) -> object:
        # 12 decimals: immune to last-bit differences between BLAS builds, not to any formula change
        if isinstance(item, float):
            return round(item, 12)
        if isinstance(item, dict):
            return {key: rounded(v) for key, v in item.items()}
        if isinstance(item, list):
            return [rounded(v) for v in item]
        return item

    text = json.dumps(rounded(value), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


def test_frozen_default_formula_hash() -> None:
    """The v0.x formula's outputs on a fixed input; a new hash here means a breaking change.

    If this fails, the default layered formula (or the default verdict computation) changed:
    every stored comparison stops being comparable.  Change the default only on purpose, with a
    version bump, and put new behaviour behind a LayeredConfig option instead.
    """
    control, treatment = _frozen_runs()
    per_sample = [score.to_dict() for run in (control, treatment) for score in score_run(run).samples]
    comparison = compare_runs(control, treatment).to_dict()
    assert comparison["verdict"] == "UNDERPOWERED" and comparison["n_paired"] == 12
    frozen = {
        "samples": per_sample,
        "runs": [score_run(run).to_dict() for run in (control, treatment)],
        "verdict": comparison["verdict"],
        "rule": comparison["rule"],
        "composite": comparison["composite"],
        "layers": comparison["layers"],
        "judges": {key: comparison["judges"][key] for key in ("pearson", "krippendorff_alpha", "agree")},
    }
    assert _digest(frozen) == FROZEN_DEFAULT_DIGEST


FROZEN_DEFAULT_DIGEST = "5ce4380b8ac2e1dd954c1147f3fa4b55b318d05ecb8877b05d33f8e95cd27f07"
