"""One AAAF assessment's evidence and the caches its dimensions share (SCORING.md §2.2, §2.3).

Part of the AAAF scheme (:mod:`aaaf.scoring.aaaf`): :class:`AssessmentContext` holds the window's
Performance components, its consistency groups (reused by every ``perf(S)``) and its
tasks by domain.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from operator import attrgetter
from typing import Any

from aaaf.scoring.aaaf_tasks import (
    ConsistencyGroup,
    PerformanceComponents,
    ScoredTask,
    performance_components,
)
from aaaf.scoring.aaaf_window import WindowEvidence
from aaaf.scoring.core import DimensionResult, renormalised_weights
from aaaf.scoring.defaults import AAAFConfig


def partition(
    scored: Sequence[ScoredTask], key_of: Callable[[ScoredTask], Any]
) -> dict[Any, list[ScoredTask]]:
    """``scored`` split by ``key_of`` (``None`` keys dropped), each part in ``scored``'s order."""
    parts: dict[Any, list[ScoredTask]] = {}
    for key, item in zip(map(key_of, scored), scored, strict=True):
        if key is not None:
            bucket = parts.get(key)
            if bucket is None:
                parts[key] = [item]
            else:
                bucket.append(item)
    return parts


DOMAIN_OF = attrgetter("task.domain")
COMPLEXITY_OF = attrgetter("task.complexity_level")
AUTONOMY_OF = attrgetter("task.autonomy_level")


class AssessmentContext:
    """One assessment's evidence plus caches shared by its dimensions."""

    __slots__ = ("_by_domain", "_groups", "_performance", "_weights", "config", "window")

    def __init__(self, window: WindowEvidence, config: AAAFConfig) -> None:
        self.window = window
        self.config = config
        self._performance: PerformanceComponents | None = None
        self._groups: dict[tuple[str, int], ConsistencyGroup] | None = None
        self._weights: dict[tuple[bool, ...], dict[str, float]] = {}
        self._by_domain: dict[str, list[ScoredTask]] | None = None

    @property
    def by_domain(self) -> dict[str, list[ScoredTask]]:
        """The window's tasks by domain, each domain's in task_id order (shared, read-only)."""
        if self._by_domain is None:
            self._by_domain = partition(self.window.scored, DOMAIN_OF)
        return self._by_domain

    @property
    def performance(self) -> PerformanceComponents:
        if self._performance is None:
            self._performance = performance_components(self.window.scored, self.config)
        return self._performance

    def perf(self, subset: Sequence[ScoredTask]) -> float | None:
        """perf(S) (§2.3), the window's consistency groups reused where a subset holds them whole."""
        groups = self._groups
        if groups is None:
            groups = self._groups = {(g.domain, g.complexity_level): g for g in self.performance.groups}
        if not subset:
            return None
        scores = performance_components(subset, self.config, groups).scores()
        # composite(scores, performance_weights).score, its renormalised weights kept per
        # pattern of covered dimensions (they depend on nothing else): the same sum
        pattern = tuple([value is not None for value in scores.values()])
        used = self._weights.get(pattern)
        if used is None:
            used = self._weights[pattern] = renormalised_weights(scores, self.config.performance_weights)
        if not used:
            return None
        return math.fsum(used[name] * float(scores[name]) for name in used)  # type: ignore[arg-type]


def dimension_result(
    name: str,
    score: float | None,
    sample_size: int,
    details: Mapping[str, Any],
    event_ids: tuple[str, ...],
    reason: str,
) -> DimensionResult:
    """A dimension's result; its ``reason`` (why it is null) kept only when it has no score."""
    return DimensionResult(
        name=name,
        score=score,
        sample_size=sample_size,
        evidence_count=len(event_ids),
        details=details,
        reason=None if score is not None else reason,
        event_ids=event_ids,
    )
