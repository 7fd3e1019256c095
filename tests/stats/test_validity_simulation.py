"""benchmarks/validity.py (issue 11 §3) computes the engine's verdict, not an imitation of it.

The simulation draws arrays and applies ``decide_verdict`` to facts it computes itself
(for speed); here, on a few replications of each noise model, that verdict must equal
``compare_runs`` on eval runs built from the very same draws, and the rules of before
must differ from the new ones exactly where the issue says they did.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from aaaf.scoring.layered import GradedAssertion, JudgeScore, LayeredConfig, LayeredRun, LayeredSample
from aaaf.scoring.verdict import compare_runs

VALIDITY = Path(__file__).resolve().parents[2] / "benchmarks" / "validity.py"


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("validity_bench", VALIDITY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("validity_bench", module)
    spec.loader.exec_module(module)
    return module


def _run(module: ModuleType, model: object, draw: object, name: str) -> LayeredRun:
    samples = []
    for i in range(draw.fact.shape[0]):  # type: ignore[attr-defined]
        assertions = tuple(
            GradedAssertion("regex", bool(draw.fact[i, j]), w)  # type: ignore[attr-defined]
            for j, w in enumerate(model.fact_weights)  # type: ignore[attr-defined]
        ) + tuple(
            GradedAssertion("tool_called", bool(draw.behavior[i, j]), w)  # type: ignore[attr-defined]
            for j, w in enumerate(model.behavior_weights)  # type: ignore[attr-defined]
        )
        judges = tuple(JudgeScore(f"j{k}", float(s)) for k, s in enumerate(draw.judges[i]))  # type: ignore[attr-defined]
        samples.append(LayeredSample(f"s{i}", assertions, judges))
    return LayeredRun(name, name, tuple(samples))


@pytest.mark.parametrize("model_name", ["judges2_regex", "layers3_weighted"])
@pytest.mark.parametrize("effect", [0.0, 0.25])
def test_simulated_verdicts_are_the_engine_verdicts(model_name: str, effect: float) -> None:
    module = _module()
    model = module.MODELS[model_name]
    rng = np.random.default_rng(7)
    config = LayeredConfig(resamples=module.RESAMPLES)
    for replication in range(6):
        rep, control, treatment = module.replicate(model, n=model.n, effect=effect, rng=rng, seed=replication)
        engine = compare_runs(
            _run(module, model, control, "c"),
            _run(module, model, treatment, "t"),
            LayeredConfig(resamples=module.RESAMPLES, seed=replication),
        )
        assert module.new_verdict(rep, config) is engine.verdict
        assert engine.composite.ci is not None
        assert rep.composite_ci == pytest.approx(engine.composite.ci.to_list(), abs=1e-9)


def test_old_rules_send_a_by_chance_layer_miss_to_cautious() -> None:
    module = _module()
    config = LayeredConfig()
    rep = module.Replication(
        n=100,
        composite_diff=0.03,
        composite_ci=(-0.02, 0.09),
        mde=0.08,
        names=("fact", "behavior", "judge"),
        means=((3.0, 3.15), (3.0, 2.96), (4.0, 4.0)),
        diffs=(0.15, -0.04, 0.0),
        ci=((0.02, 0.28), (-0.13, 0.05), (0.0, 0.0)),
        ci_bonferroni=((-0.01, 0.31), (-0.16, 0.08), (0.0, 0.0)),
        judges_agree=True,
    )
    assert module.old_verdict(rep, config).value == "CAUTIOUS"
    assert module.new_verdict(rep, config).value == "NOISE"
    noisy = module.Replication(**{**rep.__dict__, "composite_ci": (-0.38, -6e-17)})
    assert module.old_verdict(noisy, config).value == "REGRESS"
    assert module.new_verdict(noisy, config).value == "NOISE"
