"""The trust score's bootstrap (SCORING.md §2.5, trust bullet): the vectorised resamples
against the engine's own ``trust_outcome`` run on each resample's observations, a
hand-worked case, and determinism."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from aaaf.scoring.records import EventRecord
from aaaf.scoring.trust import TRUST_DIMENSIONS, TrustConfig, score_trust, trust_outcome

AT = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def eval_event(
    i: int,
    dimension: str,
    score: float,
    days_ago: float,
    *,
    eval_set: str | None = None,
    juror: str | None = None,
) -> EventRecord:
    data: dict[str, object] = {"dimension": dimension, "score": score}
    if eval_set is not None:
        data["eval_set"] = eval_set
    if juror is not None:
        data["juror"] = juror
    return EventRecord(
        id=f"e{i:05d}", agent="a", type="eval_result", timestamp=AT - timedelta(days=days_ago), data=data
    )


def reference(
    result_dims: dict[str, list[float]],
    fixed: dict[str, float | None],
    weights: dict[str, float],
    config: TrustConfig,
) -> tuple[list[float | None], list[str]]:
    """Each resample by the engine: draw each dimension's observations in table order from
    one generator, mean the drawn decayed scores, and run ``trust_outcome``."""
    rng = np.random.default_rng(config.uncertainty_seed)
    draws = {
        name: rng.integers(
            0, len(result_dims[name]), size=(config.uncertainty_resamples, len(result_dims[name]))
        )
        for name in TRUST_DIMENSIONS
        if result_dims.get(name)
    }
    values: list[float | None] = []
    tiers: list[str] = []
    for b in range(config.uncertainty_resamples):
        scores: dict[str, float | None] = {}
        for name in TRUST_DIMENSIONS:
            if name in draws:
                picked = [result_dims[name][i] for i in draws[name][b]]
                scores[name] = math.fsum(picked) / len(picked)
            else:
                scores[name] = fixed.get(name)
        outcome = trust_outcome(scores, weights, config)
        values.append(outcome.composite)
        tiers.append(outcome.tier)
    return values, tiers


observation = st.tuples(st.sampled_from(TRUST_DIMENSIONS), st.floats(0, 100), st.floats(0, 60), st.booleans())


@settings(max_examples=40, deadline=None)
@given(
    st.lists(observation, min_size=1, max_size=60),
    st.dictionaries(st.sampled_from(TRUST_DIMENSIONS), st.floats(0, 100), max_size=6),
)
def test_vectorised_trust_resamples_equal_the_engine(
    obs: list[tuple[str, float, float, bool]], fill: dict[str, float]
) -> None:
    events = []
    for i, (dimension, score, age, jury) in enumerate(obs):
        # a few juries of 3-6 votes on one eval set: one observation each
        events.append(
            eval_event(
                i, dimension, score, age, eval_set="s1" if jury else None, juror=f"j{i}" if jury else None
            )
        )
    config = TrustConfig(uncertainty_resamples=60, uncertainty_seed=3)
    result = score_trust(events, fill, at=AT, config=config)
    dims = {
        name: [o.decayed_score for o in d.observations]
        for name, d in result.dimensions.items()
        if d.source == "eval_result"
    }
    fixed = {name: d.score for name, d in result.dimensions.items() if d.source != "eval_result"}
    values, tiers = reference(dims, fixed, dict(result.weights_in_force), config)
    got = result.uncertainty
    assert got is not None and got["resamples"] == 60
    present = [v for v in values if v is not None]
    assert got["insufficient"] == len(values) - len(present)
    if present:
        lo, hi = np.percentile(present, [2.5, 97.5], method="linear")
        assert abs(got["ci"][0] - lo) <= 1e-9 * 1000 and abs(got["ci"][1] - hi) <= 1e-9 * 1000
        for tier in got["tier_probabilities"]:
            if tier != "INSUFFICIENT_EVIDENCE":
                assert (
                    got["tier_probabilities"][tier]
                    == sum(1 for v, t in zip(values, tiers, strict=True) if v is not None and t == tier) / 60
                )
    else:
        assert got["ci"] is None
    assert math.isclose(math.fsum(got["tier_probabilities"].values()), 1.0, abs_tol=1e-12)
    assert list(got["tier_probabilities"])[:5] == ["uncertified", "bronze", "silver", "gold", "platinum"]


def test_hand_worked_gate_flips_with_the_security_draws() -> None:
    """Security has two fresh observations, 40 and 60: a resample draws (40, 40), (40, 60),
    (60, 40) or (60, 60) — security 40, 50, 50, 60 — so it is gated (< 50) exactly when both
    draws are the 40.  Every other dimension is 90 (one observation each), 14 dimensions
    covered of 16 (teamwork and latency not): the uncapped composite is 10 × the renormalised
    weighted mean.  Gated resamples are capped at 599 and at most bronze."""
    events = [eval_event(0, "security", 40.0, 0), eval_event(1, "security", 60.0, 0)]
    others = [n for n in TRUST_DIMENSIONS if n not in ("security", "teamwork", "latency")]
    events += [eval_event(10 + i, name, 90.0, 0) for i, name in enumerate(others)]
    config = TrustConfig(uncertainty_resamples=1000, uncertainty_seed=0)
    result = score_trust(events, {}, at=AT, config=config)
    assert result.dimensions["security"].score == 50.0 and not result.gated
    weights = dict(result.weights_in_force)
    covered = [*others, "security"]
    total = math.fsum(weights[n] for n in covered)

    def composite(security: float) -> float:
        return 10 * (math.fsum(weights[n] * 90.0 for n in others) + weights["security"] * security) / total

    # the draws: one generator, dimensions in table order; security's place in that order
    rng = np.random.default_rng(0)
    security_draws = None
    for name in TRUST_DIMENSIONS:
        if name == "security":
            security_draws = rng.integers(0, 2, size=(1000, 2))
        elif name in others:
            rng.integers(0, 1, size=(1000, 1))
    assert security_draws is not None
    both_low = int((security_draws.sum(axis=1) == 0).sum())
    values = []
    for row in security_draws:
        security = 40.0 if row.sum() == 0 else (60.0 if row.sum() == 2 else 50.0)
        value = composite(security)
        values.append(min(value, 599.0) if security < 50 else value)
    got = result.uncertainty
    assert got is not None
    assert got["tier_probabilities"]["bronze"] == both_low / 1000  # gated: capped 599, bronze
    # sums agree with the engine's to 1e-9 (§2.5), relative to the 0–1000 scale
    assert np.allclose(got["ci"], np.percentile(values, [2.5, 97.5], method="linear"), rtol=0, atol=1e-9)
    assert got["ci"][0] == 599.0  # a quarter of the resamples are gated and capped


def test_no_resamples_means_no_uncertainty() -> None:
    result = score_trust(
        [eval_event(0, "accuracy", 80.0, 0)], {}, at=AT, config=TrustConfig(uncertainty_resamples=0)
    )
    assert result.uncertainty is None and result.to_dict()["uncertainty"] is None
