"""`similar` (SCORING.md §4): the lexical fallback by hand, the embedding model when installed."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aaaf.errors import AAAFError
from aaaf.graders import grade_assertion
from aaaf.graders.similarity import (
    EMBEDDING_METHOD,
    LEXICAL_METHOD,
    embedding_installed,
    lexical_features,
    lexical_similarity,
    similarity,
)


def test_features_are_casefolded_word_unigrams_and_bigrams() -> None:
    assert lexical_features("The cat, the CAT!") == {
        "the": 2,
        "cat": 2,
        "the cat": 2,
        "cat the": 1,
    }


def test_lexical_cosine_by_hand() -> None:
    # "the cat sat": the, cat, sat, "the cat", "cat sat"      (5 features, each count 1)
    # "the cat ran": the, cat, ran, "the cat", "cat ran"
    # shared: the, cat, "the cat" → dot = 3;  Σa² = 5, Σb² = 5  →  cos = 3 / √25 = 0.6
    assert lexical_similarity("the cat sat", "the cat ran") == 0.6
    # "a a b": a:2, b:1, "a a":1, "a b":1 → Σa² = 4+1+1+1 = 7
    # "a b":   a:1, b:1, "a b":1          → Σb² = 3
    # dot = 2·1 (a) + 1·1 (b) + 1·1 ("a b") = 4  →  cos = 4 / √21
    assert lexical_similarity("a a b", "a b") == 4 / math.sqrt(21)
    assert lexical_similarity("The CAT sat.", "the cat sat") == 1.0
    assert lexical_similarity("", "...") == 1.0  # neither has a word
    assert lexical_similarity("cat", "") == 0.0
    assert lexical_similarity("dog", "cat") == 0.0


def test_similar_assertion_with_the_lexical_method_against_its_threshold() -> None:
    sample = {"output": "the cat sat"}
    at = grade_assertion(
        {"type": "similar", "value": "the cat ran", "threshold": 0.6, "method": "lexical"}, sample
    )
    assert at.passed is True  # 0.6 ≥ 0.6: the threshold is inclusive
    assert at.measured == 0.6
    assert at.method == f"code:similar:{LEXICAL_METHOD}"
    assert at.reason == f"similarity 0.6000 ≥ threshold 0.6 ({LEXICAL_METHOD})"
    above = grade_assertion(
        {"type": "similar", "value": "the cat ran", "threshold": 0.61, "method": "lexical"}, sample
    )
    assert above.passed is False
    # default threshold 0.8
    assert (
        grade_assertion({"type": "similar", "value": "the cat ran", "method": "lexical"}, sample).passed
        is False
    )
    assert (
        grade_assertion({"type": "similar", "value": "The cat sat.", "method": "lexical"}, sample).passed
        is True
    )


def test_the_callers_default_method_applies_when_the_assertion_names_none() -> None:
    outcome = grade_assertion(
        {"type": "similar", "value": "x y"}, {"output": "x y"}, similarity_method="lexical"
    )
    assert outcome.method == f"code:similar:{LEXICAL_METHOD}"


def test_an_unknown_method_is_refused() -> None:
    with pytest.raises(AAAFError):
        similarity("a", "b", "psychic")


words = st.lists(st.sampled_from(["alpha", "beta", "Gamma", "delta", "ALPHA"]), max_size=12).map(" ".join)


@given(a=words, b=words)
def test_lexical_similarity_is_symmetric_and_bounded(a: str, b: str) -> None:
    value = lexical_similarity(a, b)
    assert value == lexical_similarity(b, a)
    assert 0.0 <= value <= 1.0
    assert lexical_similarity(a, a) == 1.0


@pytest.mark.slow
@pytest.mark.skipif(
    not embedding_installed(), reason="the optional embedding model (aaaf[similarity]) is not installed"
)
def test_embedding_method_scores_meaning_not_wording() -> None:
    paraphrase = similarity("A cat was sitting on the mat.", "The cat sat on the mat.", "embedding")
    unrelated = similarity(
        "Quantum chromodynamics describes the strong force.", "The cat sat on the mat.", "embedding"
    )
    assert paraphrase.method == unrelated.method == EMBEDDING_METHOD
    assert paraphrase.value > 0.8 > unrelated.value
    # the lexical fallback sees little overlap in the paraphrase: why the method is recorded
    assert lexical_similarity("A cat was sitting on the mat.", "The cat sat on the mat.") < paraphrase.value
    outcome = grade_assertion(
        {"type": "similar", "value": "The cat sat on the mat."}, {"output": "A cat was sitting on the mat."}
    )
    assert outcome.passed is True
    assert outcome.method == f"code:similar:{EMBEDDING_METHOD}"
    # deterministic on one machine
    assert similarity("A cat was sitting on the mat.", "The cat sat on the mat.", "embedding") == paraphrase
