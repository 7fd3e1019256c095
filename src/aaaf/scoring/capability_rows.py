"""The seven Capability dimensions in every resample of the bootstrap (SCORING.md §2.3, §2.5).

Each is registered with its declaration (:data:`aaaf.scoring.dimensions.CAPABILITY_ROWS`),
beside the engine's formula of it in :mod:`aaaf.scoring.aaaf_capability`: it reads the
resamples' multiplicities and the window's task columns (:class:`CapabilityRows`) and gives
the dimension's score in every resample (NaN = null).  The subsets a claim qualifies by are
:mod:`aaaf.scoring.resample_partitions`'; the learning-rate blocks
:func:`aaaf.scoring.resample_arrays.learning_blocks`.
"""

from __future__ import annotations

import numpy as np

from aaaf.scoring.aaaf_capability import (
    AUTONOMY_LEVELS,
    COMPLEXITY_LEVELS,
    DELEGATION_WEIGHTS,
    DOMAIN_QUALIFYING_PERFORMANCE,
    LEARNING_BLOCK,
    LEARNING_FULL_IMPROVEMENT,
    LEARNING_TASKS,
    MIN_COMPLETED_PER_CLAIM,
    MIN_TOOL_INVOCATIONS,
)
from aaaf.scoring.composite_rows import composite_rows
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.dimensions import CAPABILITY_ROWS
from aaaf.scoring.resample_arrays import (
    BoolArray,
    FloatArray,
    TaskArrays,
    divide,
    learning_blocks,
    quarter_sums,
)
from aaaf.scoring.resample_groups import GroupStats
from aaaf.scoring.resample_partitions import highest_level, listed_performance, partition_rows


class CapabilityRows:
    """What a Capability dimension's bootstrap formula reads: the resamples' multiplicities
    (``counts``, B × n), the window's task columns, the config and the window's group
    statistics (``whole``); what several formulas need is computed once, when first asked."""

    __slots__ = ("_tallies", "arrays", "config", "counts", "whole")

    def __init__(self, counts: FloatArray, arrays: TaskArrays, config: AAAFConfig, whole: GroupStats) -> None:
        self.counts = counts
        self.arrays = arrays
        self.config = config
        self.whole = whole
        self._tallies: FloatArray | None = None

    @property
    def tallies(self) -> FloatArray:
        """Every resample's completed copies, completed copies with an autonomy level, tool
        counts (:attr:`TaskArrays.tool_per_task`) and delegation counts
        (:attr:`TaskArrays.delegation_per_task`), in that column order: one product of the
        counts with these columns together.  Each is a sum of integers or of quarters (a
        management score), exact in any order, so it is the same float as its own product
        (taken in float32 where that is exact, :func:`quarter_sums`; with the orchestration
        shortcut: bootstrap 95.53 -> 94.12 M instructions per 1 000-event agent, callgrind)."""
        if self._tallies is None:
            arrays = self.arrays
            columns = np.column_stack(
                (
                    arrays.completed,
                    arrays.completed_with_autonomy,
                    arrays.tool_per_task,
                    arrays.delegation_per_task,
                )
            )
            self._tallies = quarter_sums(self.counts, columns)
        return self._tallies

    @property
    def any_completed(self) -> BoolArray:
        """Whether each resample holds a completed copy."""
        return self.tallies[:, 0] > 0.0


@CAPABILITY_ROWS.register("domain_breadth")
def _domain_breadth(rows: CapabilityRows) -> FloatArray:
    counts, arrays, config = rows.counts, rows.arrays, rows.config
    taxonomy = tuple(dict.fromkeys(config.taxonomy))
    if not taxonomy:
        return np.full(counts.shape[0], np.nan)
    index = {domain: at for at, domain in enumerate(taxonomy)}
    subset_of = [index.get(domain, -1) if domain is not None else -1 for domain in arrays.domain]
    partition = partition_rows(counts, subset_of, len(taxonomy), arrays, config, rows.whole)
    # a domain without 3 completed copies cannot qualify: only the domains with them in some
    # resample are scored, in every resample (a gather of the (domain, resample) pairs cost
    # more than the pairs it skips)
    enough = partition.completed.T >= MIN_COMPLETED_PER_CLAIM  # subsets × rows
    live = np.nonzero(enough.any(axis=1))[0]
    performing = partition.subsets_at_least(live, config, DOMAIN_QUALIFYING_PERFORMANCE)
    performing &= enough[live]
    qualified = np.count_nonzero(performing, axis=0)
    return np.where(rows.any_completed, qualified / len(taxonomy), np.nan)


@CAPABILITY_ROWS.register("complexity_ceiling")
def _complexity_ceiling(rows: CapabilityRows) -> FloatArray:
    ceiling = highest_level(
        rows.counts, rows.arrays, rows.config, rows.arrays.complexity, COMPLEXITY_LEVELS, 5, rows.whole
    )
    return np.where(rows.any_completed, ceiling, np.nan)


@CAPABILITY_ROWS.register("tool_proficiency")
def _tool_proficiency(rows: CapabilityRows) -> FloatArray:
    counts, arrays = rows.counts, rows.arrays
    n_rows = counts.shape[0]
    n_tools = len(arrays.tool_names)
    if n_tools == 0:
        return np.full(n_rows, np.nan)
    sums = (arrays.tool_base[None, :] + rows.tallies[:, 2 : 2 + 5 * n_tools]).reshape(n_rows, n_tools, 5)
    invocations, successes, failures, recovered, unnecessary = (sums[:, :, k] for k in range(5))
    qualifies = invocations >= MIN_TOOL_INVOCATIONS
    safe = np.where(invocations > 0.0, invocations, 1.0)
    recovery = np.ones(invocations.shape)
    np.divide(recovered, failures, out=recovery, where=failures > 0.0)
    score = 0.5 * (successes / safe) + 0.3 * recovery + 0.2 * (1.0 - unnecessary / safe)
    return divide(np.where(qualifies, score, 0.0).sum(axis=1), qualifies.sum(axis=1).astype(np.float64))


@CAPABILITY_ROWS.register("autonomy_level")
def _autonomy_level(rows: CapabilityRows) -> FloatArray:
    counts, arrays, config = rows.counts, rows.arrays, rows.config
    # an autonomy level cuts consistency groups: the groups of (group, level), all at once
    joint: dict[tuple[int, int], int] = {}
    by_autonomy = np.array(
        [
            -1 if g < 0 or a is None else joint.setdefault((g, a), len(joint))
            for g, a in zip(arrays.group.tolist(), arrays.autonomy, strict=True)
        ],
        dtype=np.int64,
    ).reshape(-1)
    autonomy = highest_level(counts, arrays, config, arrays.autonomy, AUTONOMY_LEVELS, 3, None, by_autonomy)
    with_autonomy = rows.tallies[:, 1] > 0.0
    return np.where(with_autonomy, autonomy, np.nan)


@CAPABILITY_ROWS.register("learning_rate")
def _learning_rate(rows: CapabilityRows) -> FloatArray:
    """Per taxonomy domain with ≥ 15 completed copies: perf(last 5) − perf(first 5) of its 15
    most recently completed copies (:func:`aaaf.scoring.resample_arrays.learning_blocks`), every block scored in one call."""
    counts, arrays, config = rows.counts, rows.arrays, rows.config
    where, listed = learning_blocks(counts, arrays, config.taxonomy, LEARNING_TASKS, LEARNING_BLOCK)
    if where.size == 0:
        return np.full(counts.shape[0], np.nan)
    # both blocks of every pair in one call
    both = listed_performance(
        np.concatenate((listed[:, :LEARNING_BLOCK], listed[:, LEARNING_BLOCK:])), arrays, config
    )
    later, earlier = both[: where.size], both[where.size :]
    valid = ~np.isnan(later) & ~np.isnan(earlier)
    learning = np.where(valid, np.clip((later - earlier) / LEARNING_FULL_IMPROVEMENT, 0.0, 1.0), 0.0)
    # bincount adds in the pairs' order (each resample's in domain order), as np.add.at did (bit
    # for bit), at a fraction of its cost
    # (weighted: float64 already, copy=False keeps the cast free; typed for mypy)
    total = np.bincount(where, learning, counts.shape[0]).astype(np.float64, copy=False)
    domains = np.bincount(where, valid, counts.shape[0]).astype(np.float64, copy=False)
    return divide(total, domains)


@CAPABILITY_ROWS.register("delegation_capability")
def _delegation_capability(rows: CapabilityRows) -> FloatArray:
    arrays = rows.arrays
    sums = arrays.delegation_base[None, :] + rows.tallies[:, -6:]
    judgment = divide(sums[:, 1], sums[:, 0])
    selection = divide(sums[:, 3], sums[:, 2])
    management = divide(sums[:, 5], sums[:, 4])
    weights = [DELEGATION_WEIGHTS[part] for part in ("judgment", "selection", "management")]
    return composite_rows([judgment, selection, management], weights)


@CAPABILITY_ROWS.register("orchestration_skills")
def _orchestration_skills(rows: CapabilityRows) -> FloatArray:
    arrays = rows.arrays
    if arrays.orchestration_per_task.any():
        sums = arrays.orchestration_base[None, :] + rows.counts @ arrays.orchestration_per_task
    else:  # no task has results of its own: every resample has the window's (base + 0, the same floats)
        sums = np.broadcast_to(arrays.orchestration_base, (rows.counts.shape[0], 2))
    return divide(sums[:, 1], sums[:, 0])


__all__ = ["CapabilityRows"]
