"""Deterministic workflow scoring (document 003 §3.2, semantics pinned in SCORING.md §5).

A validator executes each multi-step workflow a miner (agent) submits and records a
``workflow_run``.  This module turns runs into:

* a per-run composite ``S`` with its four parts (success, cost, latency, reliability),
  the success gate and the unplanned-retry penalty (:func:`score_run`);
* a per-agent equal-weight mean over its most recent 100 tasks (:func:`window_means`);
* one weight per agent, normalised to sum 1 with no agent above 15 % by iterative
  redistribution (:func:`capped_weights`);
* a result whose SHA-256 over RFC 8785 canonical JSON lets any validator compare
  digests (:class:`WorkflowWeights`, :func:`workflow_weights`).

Why so much care about the order of operations: document 003 promises that "every
validator running the same benchmark task produces identical scores".  IEEE-754
additions and multiplications are correctly rounded, so the same operations in the same
order give the same bits on every conforming machine; sums whose order could depend on
input order are computed with ``math.fsum`` (correctly rounded, so order-free).  The
evaluation orders below are the ones SCORING.md §5 fixes; nothing is rounded.

Choices SCORING.md §5 leaves to the implementation (documented in docs/scoring.md):

* A task counts once per agent: when several runs of one agent name the same
  ``task_id``, the latest (timestamp instant) counts; at an equal instant the run whose
  canonical JSON sorts last (the same tie rule as SCORING.md §1 for ``task_completed``).
  This makes the ordering key ``(instant, task_id)`` total, so the window never depends
  on the order runs arrive in.
* Redistribution in a capping round hands each uncapped agent
  ``w + excess × (w / pool)`` where ``excess`` is the fsum of the amounts cut from the
  agents capped in that round and ``pool`` the fsum of the uncapped weights before the
  hand-out.  Each update reads only values fixed before the round, so agent order is
  irrelevant.  (Only if every uncapped weight has underflowed to 0 — scores of the order
  of 1e-308 — is the excess handed out in proportion to their scores instead.)
* ⌈1 / cap⌉ is computed on the exact binary value of ``cap`` (``fractions.Fraction``),
  i.e. "is ``n × cap ≥ 1`` feasible" is decided exactly, not with a rounded division.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

import rfc8785

from aaaf.scoring.records import EventRecord
from aaaf.scoring.workflow_runs import (
    PENALTY_HARD_FAILURE,
    PENALTY_TIMEOUT,
    PENALTY_UNPLANNED_RETRY,
    RUN_FIELDS,
    SUCCESS_GATE,
    WEIGHT_COST,
    WEIGHT_LATENCY,
    WEIGHT_RELIABILITY,
    WEIGHT_SUCCESS,
    WORKFLOW_CAP,
    WORKFLOW_WINDOW,
    RunScore,
    WorkflowRun,
    invalid_request,
    score_run,
    utc_text,
)

# The per-run scoring is in workflow_runs; this module windows, caps and digests the
# runs of many agents and re-exports every name, so callers import aaaf.scoring.workflow.
__all__ = [
    "PENALTY_HARD_FAILURE",
    "PENALTY_TIMEOUT",
    "PENALTY_UNPLANNED_RETRY",
    "RUN_FIELDS",
    "SCHEME",
    "SUCCESS_GATE",
    "VERSION",
    "WEIGHT_COST",
    "WEIGHT_LATENCY",
    "WEIGHT_RELIABILITY",
    "WEIGHT_SUCCESS",
    "WORKFLOW_CAP",
    "WORKFLOW_WINDOW",
    "AgentWeight",
    "AgentWindow",
    "CappedWeights",
    "DigestedResult",
    "RunScore",
    "RunScores",
    "WorkflowConfig",
    "WorkflowRun",
    "WorkflowWeights",
    "capped_weights",
    "digest_of",
    "latest_run_per_task",
    "positive_needed",
    "runs_from_events",
    "score_run",
    "score_runs",
    "utc_text",
    "weights_from_windows",
    "window_means",
    "workflow_weights",
]

SCHEME = "workflow"
"""The scheme's registered name (DESIGN.md: one scheme = one module)."""
VERSION = "1"
"""Bumped whenever a formula changes, so a recorded result is never replayed on another one."""


def runs_from_events(events: Iterable[EventRecord]) -> list[WorkflowRun]:
    """The ``workflow_run`` events among ``events``, parsed (other types are ignored)."""
    return [WorkflowRun.from_event(event) for event in events if event.type == "workflow_run"]


def _as_run(item: WorkflowRun | EventRecord) -> WorkflowRun:
    return item if isinstance(item, WorkflowRun) else WorkflowRun.from_event(item)


def _order_key(run: WorkflowRun) -> tuple[datetime, str]:
    if run.timestamp is None:
        raise invalid_request(
            f"workflow_run {run.task_id!r} of {run.agent!r} has no timestamp; the window needs one",
            field="timestamp",
        )
    return (run.timestamp, run.task_id)


def latest_run_per_task(runs: Iterable[WorkflowRun]) -> list[WorkflowRun]:
    """One run per (agent, task_id): the latest instant, ties by canonical JSON sorting last."""
    chosen: dict[tuple[str, str], WorkflowRun] = {}
    for run in runs:
        stamp, _ = _order_key(run)
        key = (run.agent, run.task_id)
        held = chosen.get(key)
        if held is None:
            chosen[key] = run
            continue
        held_stamp, _ = _order_key(held)
        if stamp > held_stamp or (stamp == held_stamp and run.canonical() > held.canonical()):
            chosen[key] = run
    return list(chosen.values())


@dataclass(frozen=True)
class AgentWindow:
    """One agent's rolling window: the runs it holds, oldest first, and their mean S."""

    agent: str
    window_mean: float
    scores: tuple[RunScore, ...]
    runs_total: int

    @property
    def runs(self) -> int:
        return len(self.scores)


def window_means(
    runs: Iterable[WorkflowRun | EventRecord], window: int = WORKFLOW_WINDOW
) -> dict[str, AgentWindow]:
    """Per agent, the equal-weight mean of S over its most recent ``window`` tasks.

    SCORING.md §5: runs are ordered by (timestamp instant, task_id as string) ascending
    and the window is the last ``window`` of them, so at an equal instant the larger
    task_id is the more recent.  The mean is ``fsum(S) / n`` (correctly rounded sum).
    Agents come back sorted by name.
    """
    if isinstance(window, bool) or not isinstance(window, int) or window < 1:
        raise invalid_request(f"window must be a positive integer, got {window!r}", field="window")
    by_agent: dict[str, list[WorkflowRun]] = {}
    for run in latest_run_per_task(_as_run(item) for item in runs):
        if not run.agent:
            raise invalid_request(
                f"workflow_run {run.task_id!r} has no agent (event agent or 'miner'); the window needs one",
                field="miner",
            )
        by_agent.setdefault(run.agent, []).append(run)
    out: dict[str, AgentWindow] = {}
    for agent in sorted(by_agent):
        ordered = sorted(by_agent[agent], key=_order_key)
        kept = ordered[-window:]
        scores = tuple(score_run(run) for run in kept)
        mean = math.fsum(score.s for score in scores) / float(len(scores))
        out[agent] = AgentWindow(agent=agent, window_mean=mean, scores=scores, runs_total=len(ordered))
    return out


def positive_needed(cap: float) -> int:
    """⌈1 / cap⌉ on the exact binary value of ``cap``: the fewest agents that can all fit under it."""
    return math.ceil(1 / Fraction(cap))


def _check_cap(cap: float) -> float:
    if isinstance(cap, bool) or not isinstance(cap, int | float) or not math.isfinite(cap):
        raise invalid_request(f"cap must be a number in (0, 1], got {cap!r}", field="cap")
    if not 0.0 < float(cap) <= 1.0:
        raise invalid_request(f"cap must be in (0, 1], got {cap!r}", field="cap")
    return float(cap)


@dataclass(frozen=True)
class WorkflowConfig:
    """The *(config)* numbers of SCORING.md §5: the window (in runs) and the weight cap."""

    window: int = WORKFLOW_WINDOW
    cap: float = WORKFLOW_CAP

    def __post_init__(self) -> None:
        if isinstance(self.window, bool) or not isinstance(self.window, int) or self.window < 1:
            raise invalid_request(f"window must be a positive integer, got {self.window!r}", field="window")
        _check_cap(self.cap)


@dataclass(frozen=True)
class CappedWeights:
    """Weights from :func:`capped_weights` with how they were reached.

    ``method`` is ``"iterative"`` (normalise, then cap and redistribute ``rounds`` times),
    ``"equal_share"`` (fewer than ⌈1/cap⌉ agents with a positive score: they share
    equally, each above the cap) or ``"all_zero"`` (no positive score: every weight 0).
    """

    weights: Mapping[str, float]
    capped: frozenset[str]
    rounds: int
    method: str
    positive: int
    positive_needed: int


def capped_weights(scores: Mapping[str, float], cap: float = WORKFLOW_CAP) -> CappedWeights:
    """Normalise ``scores`` to sum 1, then no agent above ``cap`` (SCORING.md §5).

    Agents with score 0 get 0 and do not count.  With ``n`` positive agents and
    ``n < ⌈1/cap⌉`` no weighting can respect the cap, so the positive agents share
    equally.  Otherwise: cap every agent above the cap, hand the excess to the uncapped
    in proportion to their weights, and repeat until none exceeds the cap.  In exact
    arithmetic this reaches the unique ``w`` with ``Σw = 1`` and ``wᵢ = min(cap, λ·sᵢ)``;
    the bits are those of this iteration.
    """
    cap = _check_cap(cap)
    for agent, value in scores.items():
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise invalid_request(f"score of {agent!r} is not a finite number: {value!r}", field="scores")
        if value < 0.0:
            raise invalid_request(f"score of {agent!r} is negative: {value!r}", field="scores")
    names = sorted(scores)
    weights: dict[str, float] = {name: 0.0 for name in names}
    positive = [name for name in names if float(scores[name]) > 0.0]
    needed = positive_needed(cap)
    if not positive:
        return CappedWeights(weights, frozenset(), 0, "all_zero", 0, needed)
    if len(positive) < needed:
        share = 1.0 / float(len(positive))
        for name in positive:
            weights[name] = share
        return CappedWeights(weights, frozenset(), 0, "equal_share", len(positive), needed)
    total = math.fsum(float(scores[name]) for name in positive)
    for name in positive:
        weights[name] = float(scores[name]) / total
    capped: set[str] = set()
    rounds = 0
    while True:
        over = [name for name in positive if name not in capped and weights[name] > cap]
        if not over:
            break
        rounds += 1
        excess = math.fsum(weights[name] - cap for name in over)
        for name in over:
            weights[name] = cap
            capped.add(name)
        uncapped = [name for name in positive if name not in capped]
        if not uncapped:
            break
        pool = math.fsum(weights[name] for name in uncapped)
        if pool > 0.0:
            for name in uncapped:
                weights[name] = weights[name] + excess * (weights[name] / pool)
        else:
            # Every uncapped weight underflowed to 0 (scores near 5e-324): hand the excess
            # out in proportion to their scores, which is what their weights stand for.
            score_pool = math.fsum(float(scores[name]) for name in uncapped)
            for name in uncapped:
                weights[name] = excess * (float(scores[name]) / score_pool)
    return CappedWeights(weights, frozenset(capped), rounds, "iterative", len(positive), needed)


@dataclass(frozen=True)
class AgentWeight:
    agent: str
    window_mean: float
    runs: int
    runs_total: int
    weight: float
    capped: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "window_mean": self.window_mean,
            "runs": self.runs,
            "runs_total": self.runs_total,
            "weight": self.weight,
            "capped": self.capped,
        }


def digest_of(body: Mapping[str, Any]) -> str:
    """SHA-256 hex of the RFC 8785 canonical JSON of ``body`` (SCORING.md §5)."""
    return hashlib.sha256(rfc8785.dumps(dict(body))).hexdigest()


class DigestedResult:
    """A result whose ``to_dict()`` is its ``body()`` plus ``digest``: the SHA-256 of the RFC
    8785 canonical JSON of that body (SCORING.md §5), so two validators compare one line."""

    def body(self) -> dict[str, Any]:
        raise NotImplementedError

    def digest(self) -> str:
        return digest_of(self.body())

    def to_dict(self) -> dict[str, Any]:
        out = self.body()
        out["digest"] = digest_of(out)
        return out


@dataclass(frozen=True)
class WorkflowWeights(DigestedResult):
    """The auditable result: window, cap, one row per agent (sorted by name), and a digest.

    ``digest()`` is the SHA-256 (hex) of the RFC 8785 canonical JSON of ``to_dict()``
    without its ``digest`` field (SCORING.md §5), so two validators can compare one line.
    """

    window: int
    cap: float
    method: str
    rounds: int
    positive_agents: int
    positive_needed: int
    agents: tuple[AgentWeight, ...] = field(default_factory=tuple)

    def body(self) -> dict[str, Any]:
        return {
            "scheme": SCHEME,
            "window": self.window,
            "cap": self.cap,
            "method": self.method,
            "rounds": self.rounds,
            "positive_agents": self.positive_agents,
            "positive_needed": self.positive_needed,
            "agents": [agent.to_dict() for agent in self.agents],
        }


def weights_from_windows(
    windows: Mapping[str, AgentWindow], *, window: int = WORKFLOW_WINDOW, cap: float = WORKFLOW_CAP
) -> WorkflowWeights:
    result = capped_weights({agent: w.window_mean for agent, w in windows.items()}, cap)
    rows = tuple(
        AgentWeight(
            agent=agent,
            window_mean=windows[agent].window_mean,
            runs=windows[agent].runs,
            runs_total=windows[agent].runs_total,
            weight=result.weights[agent],
            capped=agent in result.capped,
        )
        for agent in sorted(windows)
    )
    return WorkflowWeights(
        window=window,
        cap=_check_cap(cap),
        method=result.method,
        rounds=result.rounds,
        positive_agents=result.positive,
        positive_needed=result.positive_needed,
        agents=rows,
    )


def workflow_weights(
    runs: Iterable[WorkflowRun | EventRecord], *, window: int = WORKFLOW_WINDOW, cap: float = WORKFLOW_CAP
) -> WorkflowWeights:
    """Runs in, capped weights out: :func:`window_means` then :func:`capped_weights`."""
    cap = _check_cap(cap)
    return weights_from_windows(window_means(runs, window), window=window, cap=cap)


@dataclass(frozen=True)
class RunScores(DigestedResult):
    """Per-run breakdown for ``aaaf workflow score``: every run's S and parts, plus windows.

    ``in_window[i]`` says whether ``scores[i]`` is one of the runs its agent's window mean
    uses (the most recent ``window`` tasks, one run per task).  ``windows`` is empty when
    some run has no timestamp (a window needs an order).
    """

    scores: tuple[RunScore, ...]
    in_window: tuple[bool, ...]
    windows: Mapping[str, AgentWindow]
    window: int

    def body(self) -> dict[str, Any]:
        rows = []
        for score, counted in zip(self.scores, self.in_window, strict=True):
            row = score.to_dict()
            row["in_window"] = counted
            rows.append(row)
        return {
            "scheme": SCHEME,
            "window": self.window,
            "runs": rows,
            "agents": [
                {
                    "agent": agent,
                    "window_mean": self.windows[agent].window_mean,
                    "runs": self.windows[agent].runs,
                    "runs_total": self.windows[agent].runs_total,
                }
                for agent in sorted(self.windows)
            ],
        }


def score_runs(runs: Iterable[WorkflowRun | EventRecord], window: int = WORKFLOW_WINDOW) -> RunScores:
    """Score every run, ordered by (agent, instant, task_id, canonical JSON), and mark the
    ones each agent's window uses.

    Identical duplicate runs are interchangeable; the last of them in this order is the
    one marked, so the output never depends on input order.
    """
    parsed = [_as_run(item) for item in runs]
    earliest = datetime.min.replace(tzinfo=UTC)

    def key(run: WorkflowRun) -> tuple[str, datetime, str, str]:
        stamp = run.timestamp if run.timestamp is not None else earliest
        return (run.agent, stamp, run.task_id, run.canonical())

    ordered = sorted(parsed, key=key)
    windows: dict[str, AgentWindow] = {}
    if all(run.timestamp is not None for run in ordered):
        windows = window_means(ordered, window)
    counted = {score.run.canonical() for held in windows.values() for score in held.scores}
    flags: list[bool] = []
    for run in reversed(ordered):
        text = run.canonical()
        flags.append(text in counted)
        counted.discard(text)
    flags.reverse()
    return RunScores(
        scores=tuple(score_run(run) for run in ordered),
        in_window=tuple(flags),
        windows=windows,
        window=window,
    )
