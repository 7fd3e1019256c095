"""`make validity` (issue 11 §3): the verdict engine's validity, measured in this process.

Simulated pairs of eval runs, each figure beside the same figure under the rules of
before (so the change of SCORING.md §4, 2026-11-23, is visible):

* A/A verdict shares (1 000 replications each) for two noise models —
  ``judges2_regex``: n = 60, three regex (fact) assertions and two agreeing judges;
  ``layers3_weighted``: n = 100, weighted fact (weights 1, 2, 3, 4) and behavior
  (1, 2, 2) assertions and one judge;
* power at a +0.25 latent effect (n = 100, 1 000 replications, both models): the share of
  PROGRESS;
* composite-CI coverage at n = 30, 60, 100 (400 replications per n) of the true
  composite difference (0 under A/A, +0.25 with the effect), percentile (the contract)
  beside BCa (``--ci-method bca``).

Data: each sample has a latent quality q ~ 0.08 + 0.85·Beta(1, 0.4) shared by both runs
(pairing); every assertion passes with probability p = q (+ effect/4 in the treatment,
so each layer's expectation 1 + 4p moves by exactly ``effect``), every judge scores
1 + Binomial(4, p).  Judges of one sample agree through q.

How it is computed: per replication, the per-sample layer scores of both runs are drawn
as arrays, and the one paired bootstrap of the library (``aaaf.stats.bootstrap``,
B = 2 000 resamples here instead of the default 10 000, to keep the run to a few
minutes on 2 cores; seed = the replication) gives the composite CI and the layer CIs at
95 % and at the Bonferroni level.  The new verdict is the engine's own
``aaaf.scoring.verdict_rules.decide_verdict`` on those facts; the old verdict is the
rules of before (:func:`old_verdict`: raw bounds, rule 4 on the plain 95 % layer CIs,
rule 5 without the drop check).  A test checks that the new verdict equals
``compare_runs`` on runs built from the same draws.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from aaaf.scoring.judging import JudgesSummary
from aaaf.scoring.layered import LayeredConfig
from aaaf.scoring.verdict_rules import (
    Interval,
    LayerComparison,
    Verdict,
    VerdictFacts,
    decide_verdict,
)
from aaaf.stats.agreement import pearson
from aaaf.stats.bootstrap import bootstrap_means
from aaaf.stats.power import minimum_detectable_effect

RESAMPLES = 2_000
VERDICTS = [v.value for v in Verdict if v is not Verdict.SOLO]


@dataclass(frozen=True)
class NoiseModel:
    """Which layers a sample has: fact/behavior assertion weights and the number of judges."""

    name: str
    n: int
    fact_weights: tuple[float, ...]
    behavior_weights: tuple[float, ...]
    judges: int


MODELS: Mapping[str, NoiseModel] = {
    "judges2_regex": NoiseModel("judges2_regex", 60, (1.0, 1.0, 1.0), (), 2),
    "layers3_weighted": NoiseModel("layers3_weighted", 100, (1.0, 2.0, 3.0, 4.0), (1.0, 2.0, 2.0), 1),
}


@dataclass(frozen=True)
class Draw:
    """One run's raw outcomes: assertion passes (n × a) per layer and judge scores (n × j)."""

    fact: NDArray[np.bool_]
    behavior: NDArray[np.bool_]
    judges: NDArray[np.float64]


def draw_run(
    model: NoiseModel, quality: NDArray[np.float64], effect: float, rng: np.random.Generator
) -> Draw:
    n = quality.size
    p = np.clip(quality + effect / 4.0, 0.0, 1.0)[:, None]
    return Draw(
        fact=rng.random((n, len(model.fact_weights))) < p,
        behavior=rng.random((n, len(model.behavior_weights))) < p,
        judges=(1 + rng.binomial(4, p, size=(n, model.judges))).astype(np.float64),
    )


def layer_scores(model: NoiseModel, draw: Draw) -> dict[str, NDArray[np.float64]]:
    """SCORING.md §4 per sample: 1 + 4 × passed_weight / total_weight; judge = mean of judges."""
    layers: dict[str, NDArray[np.float64]] = {}
    for name, weights, passes in (
        ("fact", model.fact_weights, draw.fact),
        ("behavior", model.behavior_weights, draw.behavior),
    ):
        if weights:
            w = np.asarray(weights)
            layers[name] = 1.0 + 4.0 * (passes @ w) / w.sum()
    if model.judges:
        layers["judge"] = draw.judges.mean(axis=1)
    return layers


def judges_disagree(draw: Draw, minimum: float = 0.4) -> bool:
    """One run: mean pairwise Pearson r < 0.4 over counted pairs (≥ 3 samples, neither constant)."""
    if draw.judges.shape[1] < 2:
        return False
    rs = []
    for a in range(draw.judges.shape[1]):
        for b in range(a + 1, draw.judges.shape[1]):
            x, y = draw.judges[:, a], draw.judges[:, b]
            if np.ptp(x) == 0 or np.ptp(y) == 0:
                continue
            r = pearson(x.tolist(), y.tolist())
            if r is not None:
                rs.append(r)
    return bool(rs) and math.fsum(rs) / len(rs) < minimum


@dataclass(frozen=True)
class Replication:
    """Everything both rule sets read, with the raw (unsnapped) bounds."""

    n: int
    composite_diff: float
    composite_ci: tuple[float, float]
    mde: float | None
    names: tuple[str, ...]
    means: tuple[tuple[float, float], ...]
    diffs: tuple[float, ...]
    ci: tuple[tuple[float, float], ...]
    ci_bonferroni: tuple[tuple[float, float], ...]
    judges_agree: bool
    bca_ci: tuple[float, float] | None = None


def replicate(
    model: NoiseModel,
    *,
    n: int,
    effect: float,
    rng: np.random.Generator,
    seed: int,
    resamples: int = RESAMPLES,
    bca: bool = False,
) -> tuple[Replication, Draw, Draw]:
    quality = 0.08 + 0.85 * rng.beta(1.0, 0.4, size=n)
    control = draw_run(model, quality, 0.0, rng)
    treatment = draw_run(model, quality, effect, rng)
    c_layers, t_layers = layer_scores(model, control), layer_scores(model, treatment)
    names = tuple(name for name in ("fact", "behavior", "judge") if name in c_layers)
    c_composite = np.mean([c_layers[name] for name in names], axis=0)
    t_composite = np.mean([t_layers[name] for name in names], axis=0)
    rows = np.vstack([t_composite - c_composite] + [t_layers[name] - c_layers[name] for name in names])
    boot = bootstrap_means(rows, resamples=resamples, seed=seed)
    low, high = boot.interval(0.95)
    b_low, b_high = boot.interval(0.95, comparisons=len(names))
    bca_ci: tuple[float, float] | None = None
    if bca:
        l_bca, h_bca = boot.interval(0.95, method="bca")
        bca_ci = (float(l_bca[0]), float(h_bca[0]))
    composite_diffs = rows[0]
    result = Replication(
        n=n,
        composite_diff=float(math.fsum(composite_diffs) / n),
        composite_ci=(float(low[0]), float(high[0])),
        mde=minimum_detectable_effect(composite_diffs),
        names=names,
        means=tuple((float(c_layers[x].mean()), float(t_layers[x].mean())) for x in names),
        diffs=tuple(float(rows[i + 1].mean()) for i in range(len(names))),
        ci=tuple((float(low[i + 1]), float(high[i + 1])) for i in range(len(names))),
        ci_bonferroni=tuple((float(b_low[i + 1]), float(b_high[i + 1])) for i in range(len(names))),
        judges_agree=not (judges_disagree(control) or judges_disagree(treatment)),
        bca_ci=bca_ci,
    )
    return result, control, treatment


def new_verdict(rep: Replication, config: LayeredConfig) -> Verdict:
    """The engine's rules (SCORING.md §4 as of 2026-11-23) on the replication's facts."""
    layers = tuple(
        LayerComparison(
            name,
            True,
            c_mean,
            t_mean,
            diff,
            Interval(*ci),
            Interval(*ci_b),
            c_mean >= config.gate_threshold,
            t_mean >= config.gate_threshold,
            rep.n,
            rep.n,
        )
        for name, (c_mean, t_mean), diff, ci, ci_b in zip(
            rep.names, rep.means, rep.diffs, rep.ci, rep.ci_bonferroni, strict=True
        )
    )
    facts = VerdictFacts(
        2,
        rep.n,
        rep.composite_diff,
        Interval(*rep.composite_ci),
        rep.mde,
        layers,
        JudgesSummary(rep.judges_agree, {}, () if rep.judges_agree else ("run",), config.judge_min_pearson),
    )
    return decide_verdict(facts, config).verdict


def old_verdict(rep: Replication, config: LayeredConfig) -> Verdict:
    """The rules of before (the engine until issue 11): raw bounds, rule 4 on plain 95 % layer CIs,
    rule 5 without the check that no layer dropped significantly."""
    if rep.n < config.min_paired:
        return Verdict.UNDERPOWERED
    low, high = rep.composite_ci
    if high < 0.0:
        return Verdict.REGRESS
    gates = [(c >= config.gate_threshold, t >= config.gate_threshold) for c, t in rep.means]
    for (gate_c, gate_t), (_, b_high) in zip(gates, rep.ci_bonferroni, strict=True):
        if gate_c and not gate_t and b_high < 0.0:
            return Verdict.REGRESS
    contains = low <= 0.0 <= high
    if contains and rep.mde is not None and rep.mde > config.mde_threshold:
        return Verdict.UNDERPOWERED
    moved = any(not (lo <= 0.0 <= hi) for lo, hi in rep.ci)
    if contains and not moved:
        return Verdict.NOISE
    if low > 0.0 and rep.names and all(gate_t for _, gate_t in gates) and rep.judges_agree:
        return Verdict.PROGRESS
    return Verdict.CAUTIOUS


def verdict_shares(
    model: NoiseModel, *, effect: float, replications: int, seed: int, n: int | None = None
) -> dict[str, Any]:
    """Share of each verdict under the new and the old rules over ``replications`` pairs."""
    config = LayeredConfig(resamples=RESAMPLES)
    rng = np.random.default_rng(seed)
    new: Counter[str] = Counter()
    old: Counter[str] = Counter()
    size = n or model.n
    for replication in range(replications):
        rep, _, _ = replicate(model, n=size, effect=effect, rng=rng, seed=replication)
        new[new_verdict(rep, config).value] += 1
        old[old_verdict(rep, config).value] += 1
    return {
        "model": model.name,
        "n": size,
        "effect": effect,
        "replications": replications,
        "new": {v: new[v] / replications for v in VERDICTS},
        "old": {v: old[v] / replications for v in VERDICTS},
    }


def coverage(model: NoiseModel, *, n: int, effect: float, replications: int, seed: int) -> dict[str, Any]:
    """Share of composite CIs containing the true difference (``effect``): old, new, BCa."""
    rng = np.random.default_rng(seed)
    hits = Counter[str]()
    for replication in range(replications):
        rep, _, _ = replicate(model, n=n, effect=effect, rng=rng, seed=replication, bca=True)
        low, high = rep.composite_ci
        hits["old_percentile"] += low <= effect <= high
        snapped = Interval(low, high)
        hits["new_percentile"] += snapped.low <= effect <= snapped.high
        assert rep.bca_ci is not None
        bca = Interval(*rep.bca_ci)
        hits["bca"] += bca.low <= effect <= bca.high
    return {
        "model": model.name,
        "n": n,
        "effect": effect,
        "replications": replications,
        **{key: hits[key] / replications for key in ("old_percentile", "new_percentile", "bca")},
    }


def run(replications: int = 1_000, coverage_replications: int = 400) -> dict[str, Any]:
    start = time.perf_counter()
    results: dict[str, Any] = {"resamples": RESAMPLES, "aa": {}, "power_0_25": {}, "coverage": []}
    for offset, model in enumerate(MODELS.values()):
        results["aa"][model.name] = verdict_shares(
            model, effect=0.0, replications=replications, seed=1000 + offset
        )
        results["power_0_25"][model.name] = verdict_shares(
            model, effect=0.25, replications=replications, seed=2000 + offset, n=100
        )
    model = MODELS["layers3_weighted"]
    for n in (30, 60, 100):
        for effect in (0.0, 0.25):
            results["coverage"].append(
                coverage(model, n=n, effect=effect, replications=coverage_replications, seed=3000 + n)
            )
    results["seconds"] = time.perf_counter() - start
    return results


def _pct(value: float) -> str:
    return f"{100.0 * value:5.1f} %"


def render(results: Mapping[str, Any]) -> str:
    lines = [
        f"Verdict validity (SCORING.md §4, issue 11) — B = {results['resamples']} resamples, "
        f"{results['seconds']:.0f} s",
        "",
        "A/A verdict shares (no true difference), new rules vs old rules:",
    ]
    header = f"  {'model':<18} {'n':>4}  " + "  ".join(f"{v:>17}" for v in VERDICTS)
    lines.append(header)
    for label, block in (("A/A", results["aa"]), ("+0.25", results["power_0_25"])):
        if label == "+0.25":
            lines += ["", "Power at a +0.25 latent effect (share of PROGRESS), new vs old:", header]
        for item in block.values():
            cells = "  ".join(f"{_pct(item['new'][v])} / {_pct(item['old'][v])}" for v in VERDICTS)
            lines.append(f"  {item['model']:<18} {item['n']:>4}  {cells}")
    lines += [
        "",
        "Composite-CI coverage of the true difference (nominal 95 %), layers3_weighted:",
        f"  {'n':>4} {'effect':>7} {'percentile (new)':>17} {'percentile (old)':>17} {'BCa':>8}",
    ]
    for item in results["coverage"]:
        lines.append(
            f"  {item['n']:>4} {item['effect']:>7.2f} {_pct(item['new_percentile']):>17} "
            f"{_pct(item['old_percentile']):>17} {_pct(item['bca']):>8}"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replications", type=int, default=1_000)
    parser.add_argument("--coverage-replications", type=int, default=400)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    results = run(args.replications, args.coverage_replications)
    print(json.dumps(results, indent=2) if args.json else render(results))


if __name__ == "__main__":
    main()
