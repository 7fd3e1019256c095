"""One workflow run and its composite ``S`` (document 003 §3.2, SCORING.md §5).

Part of the workflow scheme (:mod:`aaaf.scoring.workflow`): the *(config)* numbers, a
``workflow_run`` parsed and validated (:class:`WorkflowRun`) and its four parts, success
gate and unplanned-retry penalty (:func:`score_run`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from aaaf.errors import AAAFError
from aaaf.scoring.core import guard_builtin_weights
from aaaf.scoring.records import EventRecord

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


def invalid_request(message: str, **details: Any) -> AAAFError:
    """The ``INVALID_REQUEST`` error with ``details``."""
    return AAAFError("INVALID_REQUEST", message, details)


def _count(data: Mapping[str, Any], name: str, *, default: int | None = None, minimum: int = 0) -> int:
    """A non-negative integer count; like the evidence layer, 2.0 or "2" is not the integer 2."""
    if name not in data or data[name] is None:
        if default is None:
            raise invalid_request(f"workflow_run: missing required field '{name}'", field=name)
        return default
    value = data[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise invalid_request(f"workflow_run: '{name}' must be an integer, got {value!r}", field=name)
    if value < minimum:
        raise invalid_request(f"workflow_run: '{name}' must be ≥ {minimum}, got {value}", field=name)
    return value


def _number(
    data: Mapping[str, Any], name: str, *, positive: bool = False, at_most: float | None = None
) -> float:
    """A finite float ≥ 0 (or > 0 when ``positive``), optionally ≤ ``at_most``."""
    if name not in data or data[name] is None:
        raise invalid_request(f"workflow_run: missing required field '{name}'", field=name)
    value = data[name]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise invalid_request(f"workflow_run: '{name}' must be a number, got {value!r}", field=name)
    number = float(value)
    if not math.isfinite(number):
        raise invalid_request(f"workflow_run: '{name}' must be finite, got {value!r}", field=name)
    if positive and not number > 0.0:
        raise invalid_request(f"workflow_run: '{name}' must be > 0, got {value!r}", field=name)
    if number < 0.0:
        raise invalid_request(f"workflow_run: '{name}' must be ≥ 0, got {value!r}", field=name)
    if at_most is not None and number > at_most:
        raise invalid_request(f"workflow_run: '{name}' must be ≤ {at_most}, got {value!r}", field=name)
    return number


def _instant(value: Any) -> datetime:
    if isinstance(value, datetime):
        stamp = value
    elif isinstance(value, str):
        try:
            stamp = datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
        except ValueError as error:
            raise invalid_request(
                f"workflow_run: timestamp {value!r} is not RFC 3339", field="timestamp"
            ) from error
    else:
        raise invalid_request(f"workflow_run: timestamp {value!r} is not RFC 3339", field="timestamp")
    if stamp.tzinfo is None or stamp.utcoffset() is None:
        raise invalid_request(f"workflow_run: timestamp {value!r} has no UTC offset", field="timestamp")
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
            raise invalid_request(
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
                raise invalid_request("workflow_run: missing required field 'task_id'", field="task_id")
            task_id = str(raw_task)
        stamp_source = timestamp if timestamp is not None else data.get("timestamp")
        stamp = _instant(stamp_source) if stamp_source is not None else None
        dag_steps = _count(data, "dag_steps", minimum=1)
        steps_completed = _count(data, "steps_completed")
        if steps_completed > dag_steps:
            raise invalid_request(
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
            raise invalid_request(f"not a workflow_run event: {event.type!r}", field="type")
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
