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
import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

import rfc8785

from aaaf.errors import AAAFError
from aaaf.scoring.core import guard_builtin_weights
from aaaf.scoring.records import EventRecord

SCHEME = "workflow"
"""The scheme's registered name (DESIGN.md: one scheme = one module)."""
VERSION = "1"
"""Bumped whenever a formula changes, so a recorded result is never replayed on another one."""

#: SCORING.md §5 *(config)*: the rolling window, in tasks.
WORKFLOW_WINDOW = 100
#: SCORING.md §5 *(config)*: no agent's weight above this share.
WORKFLOW_CAP = 0.15

#: Document 003 §3.2 composite weights, in evaluation order.
WEIGHT_SUCCESS = 0.50
WEIGHT_COST = 0.25
WEIGHT_LATENCY = 0.15
WEIGHT_RELIABILITY = 0.10
# the built-in table goes through the load-time guard every scheme's weights go through
guard_builtin_weights(
    {
        "success": WEIGHT_SUCCESS,
        "cost": WEIGHT_COST,
        "latency": WEIGHT_LATENCY,
        "reliability": WEIGHT_RELIABILITY,
    },
    "workflow S (document 003 §3.2)",
)
#: The success gate: cost and latency count only when S_success is strictly above it.
SUCCESS_GATE = 0.7
#: Reliability penalties per unplanned retry, timeout and hard failure.
PENALTY_UNPLANNED_RETRY = 0.10
PENALTY_TIMEOUT = 0.20
PENALTY_HARD_FAILURE = 0.50

RUN_FIELDS: tuple[str, ...] = (
    "task_id",
    "dag_steps",
    "steps_completed",
    "output_quality",
    "actual_cost",
    "max_budget",
    "actual_seconds",
    "max_latency_seconds",
    "declared_retry_budget",
    "actual_retries",
    "timeouts",
    "hard_failures",
)


def _invalid(message: str, **details: Any) -> AAAFError:
    return AAAFError("INVALID_REQUEST", message, details)


def _count(data: Mapping[str, Any], name: str, *, default: int | None = None, minimum: int = 0) -> int:
    """A non-negative integer count; like the evidence layer, 2.0 or "2" is not the integer 2."""
    if name not in data or data[name] is None:
        if default is None:
            raise _invalid(f"workflow_run: missing required field '{name}'", field=name)
        return default
    value = data[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise _invalid(f"workflow_run: '{name}' must be an integer, got {value!r}", field=name)
    if value < minimum:
        raise _invalid(f"workflow_run: '{name}' must be ≥ {minimum}, got {value}", field=name)
    return value


def _number(
    data: Mapping[str, Any], name: str, *, positive: bool = False, at_most: float | None = None
) -> float:
    """A finite float ≥ 0 (or > 0 when ``positive``), optionally ≤ ``at_most``."""
    if name not in data or data[name] is None:
        raise _invalid(f"workflow_run: missing required field '{name}'", field=name)
    value = data[name]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _invalid(f"workflow_run: '{name}' must be a number, got {value!r}", field=name)
    number = float(value)
    if not math.isfinite(number):
        raise _invalid(f"workflow_run: '{name}' must be finite, got {value!r}", field=name)
    if positive and not number > 0.0:
        raise _invalid(f"workflow_run: '{name}' must be > 0, got {value!r}", field=name)
    if number < 0.0:
        raise _invalid(f"workflow_run: '{name}' must be ≥ 0, got {value!r}", field=name)
    if at_most is not None and number > at_most:
        raise _invalid(f"workflow_run: '{name}' must be ≤ {at_most}, got {value!r}", field=name)
    return number


def _instant(value: Any) -> datetime:
    if isinstance(value, datetime):
        stamp = value
    elif isinstance(value, str):
        try:
            stamp = datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
        except ValueError as error:
            raise _invalid(f"workflow_run: timestamp {value!r} is not RFC 3339", field="timestamp") from error
    else:
        raise _invalid(f"workflow_run: timestamp {value!r} is not RFC 3339", field="timestamp")
    if stamp.tzinfo is None or stamp.utcoffset() is None:
        raise _invalid(f"workflow_run: timestamp {value!r} has no UTC offset", field="timestamp")
    return stamp.astimezone(UTC)


def utc_text(stamp: datetime) -> str:
    """The instant in UTC with a 'Z' (so the same instant always prints the same)."""
    text = stamp.astimezone(UTC).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


@dataclass(frozen=True)
class WorkflowRun:
    """One validated ``workflow_run`` (SCORING.md §5 field list; costs in the budget's unit).

    ``declared_retry_budget`` is Σ ``retry_count`` over the workflow's ``error_handling``
    (0 if absent, document 003); a run that names a workflow definition gets it, and
    ``dag_steps``, from the definition before it reaches the core
    (``aaaf.evidence.workflow_definition.resolve_run``).
    """

    agent: str
    task_id: str
    timestamp: datetime | None
    dag_steps: int
    steps_completed: int
    output_quality: float
    actual_cost: float
    max_budget: float
    actual_seconds: float
    max_latency_seconds: float
    declared_retry_budget: int
    actual_retries: int
    timeouts: int
    hard_failures: int
    event_id: str | None = None

    @classmethod
    def from_mapping(
        cls,
        data: Mapping[str, Any],
        *,
        agent: str | None = None,
        timestamp: datetime | str | None = None,
        task_id: str | None = None,
        event_id: str | None = None,
    ) -> WorkflowRun:
        """Parse and check a run's data; every failure names the field (SCORING.md §1).

        ``agent`` is the event's agent; a ``miner`` in ``data`` must equal it.  Without
        an ``agent`` argument the ``miner`` (or ``agent``) in ``data`` is used, else ""
        (enough to score one run, not to place it in a window).
        """
        miner = data.get("miner")
        if agent is None:
            agent = miner if miner is not None else data.get("agent")
        elif miner is not None and str(miner) != agent:
            raise _invalid(
                f"workflow_run: miner {miner!r} differs from the event's agent {agent!r}",
                field="miner",
                miner=miner,
                agent=agent,
            )
        if agent is None:
            agent = ""  # a lone run can be scored without one; a window cannot (window_means)
        if task_id is None:
            raw_task = data.get("task_id")
            if raw_task is None or isinstance(raw_task, bool) or str(raw_task) == "":
                raise _invalid("workflow_run: missing required field 'task_id'", field="task_id")
            task_id = str(raw_task)
        stamp_source = timestamp if timestamp is not None else data.get("timestamp")
        stamp = _instant(stamp_source) if stamp_source is not None else None
        dag_steps = _count(data, "dag_steps", minimum=1)
        steps_completed = _count(data, "steps_completed")
        if steps_completed > dag_steps:
            raise _invalid(
                f"workflow_run: steps_completed ({steps_completed}) exceeds dag_steps ({dag_steps})",
                field="steps_completed",
                steps_completed=steps_completed,
                dag_steps=dag_steps,
            )
        return cls(
            agent=str(agent),
            task_id=str(task_id),
            timestamp=stamp,
            dag_steps=dag_steps,
            steps_completed=steps_completed,
            output_quality=_number(data, "output_quality", at_most=1.0),
            actual_cost=_number(data, "actual_cost"),
            max_budget=_number(data, "max_budget", positive=True),
            actual_seconds=_number(data, "actual_seconds"),
            max_latency_seconds=_number(data, "max_latency_seconds", positive=True),
            declared_retry_budget=_count(data, "declared_retry_budget", default=0),
            actual_retries=_count(data, "actual_retries"),
            timeouts=_count(data, "timeouts"),
            hard_failures=_count(data, "hard_failures"),
            event_id=event_id,
        )

    @classmethod
    def from_event(cls, event: EventRecord) -> WorkflowRun:
        if event.type != "workflow_run":
            raise _invalid(f"not a workflow_run event: {event.type!r}", field="type")
        return cls.from_mapping(
            event.data,
            agent=event.agent,
            timestamp=event.timestamp,
            task_id=event.task_id,
            event_id=event.id,
        )

    def inputs(self) -> dict[str, Any]:
        """The scoring inputs, as they enter the formula (for audit output and tie-breaks)."""
        return {
            "dag_steps": self.dag_steps,
            "steps_completed": self.steps_completed,
            "output_quality": self.output_quality,
            "actual_cost": self.actual_cost,
            "max_budget": self.max_budget,
            "actual_seconds": self.actual_seconds,
            "max_latency_seconds": self.max_latency_seconds,
            "declared_retry_budget": self.declared_retry_budget,
            "actual_retries": self.actual_retries,
            "timeouts": self.timeouts,
            "hard_failures": self.hard_failures,
        }

    def canonical(self) -> str:
        """Canonical JSON of the run (keys sorted, no spaces): the last tie-breaker."""
        body = self.inputs()
        body["agent"] = self.agent
        body["task_id"] = self.task_id
        body["timestamp"] = utc_text(self.timestamp) if self.timestamp is not None else None
        return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class RunScore:
    """S and its four parts for one run (document 003 §3.2, SCORING.md §5)."""

    run: WorkflowRun
    s: float
    s_success: float
    s_cost: float
    s_latency: float
    s_reliability: float
    gated: bool
    unplanned_retries: int

    def to_dict(self) -> dict[str, Any]:
        run = self.run
        return {
            "agent": run.agent,
            "task_id": run.task_id,
            "timestamp": utc_text(run.timestamp) if run.timestamp is not None else None,
            "s": self.s,
            "s_success": self.s_success,
            "s_cost": self.s_cost,
            "s_latency": self.s_latency,
            "s_reliability": self.s_reliability,
            "gated": self.gated,
            "unplanned_retries": self.unplanned_retries,
            "inputs": run.inputs(),
        }


def score_run(run: WorkflowRun | Mapping[str, Any]) -> RunScore:
    """Score one run exactly as SCORING.md §5 fixes the evaluation order.

    * ``S_success = (output_quality × steps_completed) / dag_steps``;
    * cost and latency count only when ``S_success > 0.7`` strictly ("success-first
      gating": a failed workflow is not good however cheap or fast);
    * ``S_reliability = min(1, max(0, 1 − ((0.10·unplanned + 0.20·timeouts) + 0.50·hard_failures)))``
      with ``unplanned = max(0, actual_retries − declared_retry_budget)`` — declared retries
      are free — applied regardless of the gate;
    * ``S = ((0.50·S_success + 0.25·S_cost) + 0.15·S_latency) + 0.10·S_reliability``.
    """
    parsed = run if isinstance(run, WorkflowRun) else WorkflowRun.from_mapping(run)
    s_success = (parsed.output_quality * float(parsed.steps_completed)) / float(parsed.dag_steps)
    gated = not s_success > SUCCESS_GATE
    if gated:
        s_cost = 0.0
        s_latency = 0.0
    else:
        s_cost = max(0.0, 1.0 - parsed.actual_cost / parsed.max_budget)
        s_latency = max(0.0, 1.0 - parsed.actual_seconds / parsed.max_latency_seconds)
    unplanned = max(0, parsed.actual_retries - parsed.declared_retry_budget)
    penalty = (float(unplanned) * PENALTY_UNPLANNED_RETRY + float(parsed.timeouts) * PENALTY_TIMEOUT) + float(
        parsed.hard_failures
    ) * PENALTY_HARD_FAILURE
    s_reliability = min(1.0, max(0.0, 1.0 - penalty))
    s = (
        (WEIGHT_SUCCESS * s_success + WEIGHT_COST * s_cost) + WEIGHT_LATENCY * s_latency
    ) + WEIGHT_RELIABILITY * s_reliability
    return RunScore(
        run=parsed,
        s=s,
        s_success=s_success,
        s_cost=s_cost,
        s_latency=s_latency,
        s_reliability=s_reliability,
        gated=gated,
        unplanned_retries=unplanned,
    )


def runs_from_events(events: Iterable[EventRecord]) -> list[WorkflowRun]:
    """The ``workflow_run`` events among ``events``, parsed (other types are ignored)."""
    return [WorkflowRun.from_event(event) for event in events if event.type == "workflow_run"]


def _as_run(item: WorkflowRun | EventRecord) -> WorkflowRun:
    return item if isinstance(item, WorkflowRun) else WorkflowRun.from_event(item)


def _order_key(run: WorkflowRun) -> tuple[datetime, str]:
    if run.timestamp is None:
        raise _invalid(
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
        raise _invalid(f"window must be a positive integer, got {window!r}", field="window")
    by_agent: dict[str, list[WorkflowRun]] = {}
    for run in latest_run_per_task(_as_run(item) for item in runs):
        if not run.agent:
            raise _invalid(
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
        raise _invalid(f"cap must be a number in (0, 1], got {cap!r}", field="cap")
    if not 0.0 < float(cap) <= 1.0:
        raise _invalid(f"cap must be in (0, 1], got {cap!r}", field="cap")
    return float(cap)


@dataclass(frozen=True)
class WorkflowConfig:
    """The *(config)* numbers of SCORING.md §5: the window (in runs) and the weight cap."""

    window: int = WORKFLOW_WINDOW
    cap: float = WORKFLOW_CAP

    def __post_init__(self) -> None:
        if isinstance(self.window, bool) or not isinstance(self.window, int) or self.window < 1:
            raise _invalid(f"window must be a positive integer, got {self.window!r}", field="window")
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
            raise _invalid(f"score of {agent!r} is not a finite number: {value!r}", field="scores")
        if value < 0.0:
            raise _invalid(f"score of {agent!r} is negative: {value!r}", field="scores")
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


@dataclass(frozen=True)
class WorkflowWeights:
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

    def digest(self) -> str:
        return digest_of(self.body())

    def to_dict(self) -> dict[str, Any]:
        out = self.body()
        out["digest"] = digest_of(out)
        return out


def digest_of(body: Mapping[str, Any]) -> str:
    """SHA-256 hex of the RFC 8785 canonical JSON of ``body`` (SCORING.md §5)."""
    return hashlib.sha256(rfc8785.dumps(dict(body))).hexdigest()


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
class RunScores:
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

    def digest(self) -> str:
        return digest_of(self.body())

    def to_dict(self) -> dict[str, Any]:
        out = self.body()
        out["digest"] = digest_of(out)
        return out


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
