"""Invariants of the trust scheme (SCORING.md §3), stated as properties."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from aaaf.scoring.records import EventRecord
from aaaf.scoring.trust import (
    TRUST_DIMENSIONS,
    TRUST_TIERS,
    TRUST_WEIGHTS,
    jury_value,
    merge_override,
    observations,
    score_trust,
    trust_outcome,
)

AT = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
TIER_RANK = {tier.name: rank for rank, tier in enumerate(sorted(TRUST_TIERS, key=lambda t: t.lower))}

vote = st.floats(min_value=0, max_value=100, allow_nan=False)
maybe_score = st.one_of(st.none(), vote)
score_maps = st.fixed_dictionaries({name: maybe_score for name in TRUST_DIMENSIONS})


@settings(max_examples=300)
@given(scores=score_maps, which=st.sampled_from(TRUST_DIMENSIONS), raise_by=st.floats(0, 100))
def test_no_single_dimension_increase_lowers_the_composite_or_the_tier(
    scores: dict[str, float | None], which: str, raise_by: float
) -> None:
    current = scores[which]
    if current is None:
        return
    higher = dict(scores)
    higher[which] = min(100.0, current + raise_by)
    before, after = trust_outcome(scores, TRUST_WEIGHTS), trust_outcome(higher, TRUST_WEIGHTS)
    assert before.composite is not None and after.composite is not None
    assert after.composite >= before.composite - 1e-9
    assert TIER_RANK[after.tier] >= TIER_RANK[before.tier]


@settings(max_examples=300)
@given(scores=score_maps)
def test_composite_stays_on_the_0_1000_scale_and_the_gate_holds(scores: dict[str, float | None]) -> None:
    outcome = trust_outcome(scores, TRUST_WEIGHTS)
    if outcome.composite is None:
        assert outcome.covered == 0
        return
    assert 0.0 <= outcome.composite <= 1000.0 + 1e-9
    security = scores["security"]
    assert outcome.gated == (security is not None and security < 50)
    if outcome.gated:
        assert outcome.composite <= 599.0
        assert TIER_RANK[outcome.tier] <= TIER_RANK["bronze"]
    if outcome.covered < 10 or any(
        scores[m] is None for m in ("accuracy", "reliability", "safety", "security")
    ):
        assert outcome.tier == "uncertified"


def _eval(
    dimension: str,
    score: float,
    age_days: float,
    index: int,
    eval_set: str | None = None,
    juror: str | None = None,
) -> EventRecord:
    data: dict[str, object] = {"dimension": dimension, "score": score}
    if eval_set is not None:
        data["eval_set"] = eval_set
    if juror is not None:
        data["juror"] = juror
    return EventRecord(
        id=f"e{index:05d}", agent="a", type="eval_result", timestamp=AT - timedelta(days=age_days), data=data
    )


evidence = st.lists(
    st.tuples(
        st.sampled_from(TRUST_DIMENSIONS),
        vote,
        st.floats(min_value=0, max_value=400, allow_nan=False),
        st.one_of(st.none(), st.sampled_from(["set-a", "set-b"])),
        st.one_of(st.none(), st.sampled_from([f"j{i}" for i in range(8)])),
    ),
    max_size=40,
)


@settings(max_examples=200, deadline=None)
@given(items=evidence, later_by=st.floats(min_value=0, max_value=500, allow_nan=False))
def test_the_same_evidence_asked_about_later_never_scores_higher(
    items: list[tuple[str, float, float, str | None, str | None]], later_by: float
) -> None:
    events = [_eval(d, s, age, i, es, j) for i, (d, s, age, es, j) in enumerate(items)]
    now = score_trust(events, at=AT)
    later = score_trust(events, at=AT + timedelta(days=later_by))
    for name in TRUST_DIMENSIONS:
        a, b = now.dimensions[name].score, later.dimensions[name].score
        assert (a is None) == (b is None)  # decay never uncovers a dimension
        if a is not None and b is not None:
            assert b <= a + 1e-9
    if now.composite is not None:
        assert later.composite is not None and later.composite <= now.composite + 1e-9
        assert TIER_RANK[later.tier] <= TIER_RANK[now.tier]


@settings(max_examples=300)
@given(votes=st.lists(vote, min_size=1, max_size=25), data=st.data())
def test_permuting_a_jurys_votes_never_changes_its_observation(
    votes: list[float], data: st.DataObject
) -> None:
    events = [_eval("safety", s, 1.0 + 0.01 * i, i, "set", f"j{i:02d}") for i, s in enumerate(votes)]
    shuffled = data.draw(st.permutations(events))
    (a,) = observations(events, at=AT)["safety"]
    (b,) = observations(shuffled, at=AT)["safety"]
    assert a == b
    assert jury_value(votes) == jury_value(data.draw(st.permutations(votes)))


@settings(max_examples=500)
@given(
    votes=st.lists(vote, min_size=5, max_size=25),
    which=st.integers(0, 24),
    extreme=st.sampled_from([0.0, 100.0]),
)
def test_one_juror_at_0_or_100_moves_the_observation_at_most_to_the_neighbouring_middle_vote(
    votes: list[float], which: int, extreme: float
) -> None:
    ordered = sorted(votes)
    n = len(ordered)
    before = jury_value(votes)
    changed = list(votes)
    changed[which % n] = extreme
    after = jury_value(changed)
    # the middle vote(s) sit at indices lo..hi; one changed vote shifts order statistics by at most one place
    lo, hi = (n - 1) // 2, n // 2
    assert ordered[lo - 1] - 1e-9 <= after <= ordered[hi + 1] + 1e-9
    assert ordered[lo] <= before <= ordered[hi]


@settings(max_examples=300)
@given(
    override=st.dictionaries(
        st.sampled_from(TRUST_DIMENSIONS),
        st.floats(min_value=-0.5, max_value=1.5, allow_nan=False),
        max_size=5,
    )
)
def test_an_override_is_applied_exactly_when_the_merged_table_is_valid(override: dict[str, float]) -> None:
    in_force, rejected = merge_override(TRUST_WEIGHTS, override)
    merged = {**TRUST_WEIGHTS, **override}
    valid = all(0 <= w <= 1 for w in override.values()) and abs(math.fsum(merged.values()) - 1) <= 0.001
    assert (rejected is None) == valid
    assert in_force == (merged if valid else dict(TRUST_WEIGHTS))
