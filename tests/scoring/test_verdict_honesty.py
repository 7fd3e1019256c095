"""Honesty of the verdicts, measured (issue 6 §9): A/A false verdicts and power at +0.25.

The simulation lives in benchmarks/bench_bootstrap.py (``make bench`` runs it with 1 000
replications); here a smaller, seeded run: 300 A/A pairs and 100 pairs with a true effect
of +0.25 points at n = 100, B = 2 000 resamples, for the default test and for Hotelling T².
Seeded, so the figures are fixed; the bounds are the issue's (≤ 4 % PROGRESS, ≤ 9 %
PROGRESS + REGRESS under A/A).  With 300 replications a true PROGRESS rate of 2.5 % would
exceed 4 % with probability ≈ 6 %; the seed fixes one draw, and the bench reports the
larger run.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_bootstrap.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_bootstrap", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_bootstrap", module)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
@pytest.mark.parametrize("hotelling", [False, True], ids=["composite_ci", "hotelling"])
def test_aa_pairs_rarely_progress_or_regress(hotelling: bool) -> None:
    rates = _bench().simulate_verdict_rates(replications=300, n=100, effect=0.0, hotelling=hotelling)
    assert rates["progress"] <= 0.04
    assert rates["progress_or_regress"] <= 0.09


@pytest.mark.slow
@pytest.mark.parametrize("hotelling", [False, True], ids=["composite_ci", "hotelling"])
def test_a_quarter_point_effect_at_n_100_is_detected(hotelling: bool) -> None:
    rates = _bench().simulate_verdict_rates(replications=100, n=100, effect=0.25, hotelling=hotelling, seed=7)
    assert rates["progress"] >= 0.80
    assert rates["shares"]["REGRESS"] == 0.0
