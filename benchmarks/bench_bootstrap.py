"""`make bench`, the bootstrap part (issue 6 §7, §9): speed against SciPy and honesty of the verdicts.

Speed: n = 1 000 paired samples, 4 rows (layers), 10 000 resamples — AAAF's paired
bootstrap (``aaaf.stats.bootstrap``) next to ``scipy.stats.bootstrap`` (percentile method,
the same data, the same seed) in the same process.  Both draw the resample index matrix
as ``default_rng(seed).integers(0, n, size=(B, n))``, so their percentile intervals must
agree to floating-point rounding; ``max_bound_diff`` is the largest difference of any
bound, and ``monte_carlo_se`` the Monte-Carlo standard error of a 2.5 % quantile (the
tolerance the issue allows), for scale.

Honesty: :func:`simulate_verdict_rates` draws many pairs of eval runs and reports how
often each verdict comes out.  A/A pairs (both runs from one distribution) must give at
most 4 % PROGRESS and 9 % PROGRESS + REGRESS; with a true effect of +0.25 points on every
layer (so +0.25 on the composite) at n = 100 it reports the share detected.

The simulated runs: each sample has a latent quality q ~ 0.08 + 0.85·Beta(1, 0.4) shared
by both runs (pairing); 4 fact and 3 behavior assertions pass independently with
probability q (+ effect/4 in the treatment, so each layer's expectation 1 + 4·q moves by
exactly ``effect``); 3 judges score 1 + Binomial(4, q (+ effect/4)); a human labels every
fourth sample the same way.  Nothing here asserts on time.
"""

from __future__ import annotations

import json
import math
import time
from collections import Counter
from typing import Any

import numpy as np

from aaaf.scoring.layered import GradedAssertion, JudgeScore, LayeredConfig, LayeredRun, LayeredSample
from aaaf.scoring.verdict import Verdict, compare_runs
from aaaf.stats.bootstrap import bootstrap_means

JUDGES = ("judge-a", "judge-b", "judge-c")
FACT_ASSERTIONS = 4
BEHAVIOR_ASSERTIONS = 3


def bootstrap_speed(
    n: int = 1_000, layers: int = 4, resamples: int = 10_000, seed: int = 0, repeats: int = 5
) -> dict[str, Any]:
    """Best-of-``repeats`` wall and CPU time of ours and SciPy's on the same data and seed.

    CPU time (``process_time``, all threads of the process) is reported beside wall time
    because a shared machine inflates wall time for whichever runs while others do.
    """
    from scipy import stats as scipy_stats

    data = np.random.default_rng(12345).normal(loc=0.1, scale=1.0, size=(layers, n))
    ours_s = ours_cpu_s = math.inf
    for _ in range(repeats):
        start, cpu = time.perf_counter(), time.process_time()
        ours = bootstrap_means(data, resamples=resamples, seed=seed)
        low, high = ours.interval(0.95)
        ours_s = min(ours_s, time.perf_counter() - start)
        ours_cpu_s = min(ours_cpu_s, time.process_time() - cpu)
    scipy_s = scipy_cpu_s = math.inf
    for _ in range(repeats):
        start, cpu = time.perf_counter(), time.process_time()
        reference = scipy_stats.bootstrap(
            (data,),
            np.mean,
            axis=-1,
            vectorized=True,
            n_resamples=resamples,
            confidence_level=0.95,
            method="percentile",
            rng=np.random.default_rng(seed),
        )
        scipy_s = min(scipy_s, time.perf_counter() - start)
        scipy_cpu_s = min(scipy_cpu_s, time.process_time() - cpu)
    diffs = np.concatenate(
        [np.abs(low - reference.confidence_interval.low), np.abs(high - reference.confidence_interval.high)]
    )
    # Monte-Carlo standard error of the 2.5 % quantile of B resampled means, ≈ √(p(1−p)/B) / f(q)
    sd_of_mean = data.std(axis=1, ddof=1) / math.sqrt(n)
    density = math.exp(-(1.959964**2) / 2.0) / math.sqrt(2.0 * math.pi) / sd_of_mean
    monte_carlo_se = float(np.max(math.sqrt(0.025 * 0.975 / resamples) / density))
    return {
        "n": n,
        "layers": layers,
        "resamples": resamples,
        "ours_s": ours_s,
        "scipy_s": scipy_s,
        "speedup": scipy_s / ours_s,
        "ours_cpu_s": ours_cpu_s,
        "scipy_cpu_s": scipy_cpu_s,
        "speedup_cpu": scipy_cpu_s / ours_cpu_s,
        "max_bound_diff": float(diffs.max()),
        "monte_carlo_se": monte_carlo_se,
        "target_speedup_ge_5": scipy_s / ours_s >= 5.0,
        "bounds_within_monte_carlo_error": float(diffs.max()) <= monte_carlo_se,
    }


def _simulated_run(
    name: str, quality: np.ndarray, effect: float, rng: np.random.Generator, human_every: int = 4
) -> LayeredRun:
    n = quality.size
    p = np.clip(quality + effect / 4.0, 0.0, 1.0)
    fact = rng.random((n, FACT_ASSERTIONS)) < p[:, None]
    behavior = rng.random((n, BEHAVIOR_ASSERTIONS)) < p[:, None]
    judges = 1 + rng.binomial(4, p[:, None], size=(n, len(JUDGES)))
    human = 1 + rng.binomial(4, p)
    samples = []
    for i in range(n):
        assertions = tuple(GradedAssertion("contains", bool(x)) for x in fact[i]) + tuple(
            GradedAssertion("tool_called", bool(x)) for x in behavior[i]
        )
        scores = tuple(JudgeScore(judge, float(judges[i, j])) for j, judge in enumerate(JUDGES))
        samples.append(
            LayeredSample(f"s{i}", assertions, scores, float(human[i]) if i % human_every == 0 else None)
        )
    return LayeredRun(name, name, tuple(samples))


def simulate_verdict_rates(
    *,
    replications: int = 1_000,
    n: int = 100,
    effect: float = 0.0,
    resamples: int = 2_000,
    hotelling: bool = False,
    seed: int = 20261120,
) -> dict[str, Any]:
    """Share of each verdict over ``replications`` simulated (control, treatment) pairs."""
    rng = np.random.default_rng(seed)
    counts: Counter[str] = Counter()
    for replication in range(replications):
        quality = 0.08 + 0.85 * rng.beta(1.0, 0.4, size=n)
        control = _simulated_run("control", quality, 0.0, rng)
        treatment = _simulated_run("treatment", quality, effect, rng)
        config = LayeredConfig(resamples=resamples, seed=replication, hotelling=hotelling)
        counts[compare_runs(control, treatment, config).verdict.value] += 1
    shares = {verdict.value: counts[verdict.value] / replications for verdict in Verdict}
    return {
        "replications": replications,
        "n": n,
        "effect": effect,
        "resamples": resamples,
        "hotelling": hotelling,
        "shares": shares,
        "progress": shares["PROGRESS"],
        "progress_or_regress": shares["PROGRESS"] + shares["REGRESS"],
    }


def honesty(replications: int = 1_000, resamples: int = 2_000) -> dict[str, Any]:
    """A/A false-verdict rates and power at +0.25 (n = 100), default and Hotelling."""
    out: dict[str, Any] = {}
    for label, hotelling in (("default", False), ("hotelling", True)):
        null = simulate_verdict_rates(replications=replications, resamples=resamples, hotelling=hotelling)
        alternative = simulate_verdict_rates(
            replications=replications, resamples=resamples, effect=0.25, hotelling=hotelling, seed=7
        )
        out[label] = {
            "aa_progress": null["progress"],
            "aa_progress_or_regress": null["progress_or_regress"],
            "aa_shares": null["shares"],
            "effect_0_25_n_100_progress": alternative["progress"],
            "effect_0_25_n_100_shares": alternative["shares"],
            "targets_met": null["progress"] <= 0.04 and null["progress_or_regress"] <= 0.09,
        }
    out["replications"] = replications
    out["resamples"] = resamples
    return out


def run() -> dict[str, Any]:
    """The figures `benchmarks/run.py` merges into results.json."""
    figures = bootstrap_speed()
    figures["verdict_honesty"] = honesty()
    return figures


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
