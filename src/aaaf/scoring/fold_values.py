"""Reading event data for the fold: the §1 tie-break, value coercion, tools, decisions.

Part of the fold (:mod:`aaaf.scoring.fold`): the canonical JSON that breaks 'latest wins'
ties (SCORING.md §1), the defensive readers of optional fields, the completion credit of
SCORING.md §2.2 and the per-tool sums of ``tool_invoked`` / ``tools_used``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from functools import partial
from typing import Any, cast

from aaaf.scoring.defaults import ERROR_SEVERITY_WEIGHTS
from aaaf.scoring.fold_records import (
    DEFAULT_ERROR_SEVERITY,
    DelegationDecision,
    DelegationOutcome,
    OrchestrationResult,
    ToolUsage,
)
from aaaf.scoring.records import EventRecord

# --------------------------------------------------------------------------- helpers


def canonical_json(event: EventRecord) -> str:
    """The event's canonical JSON (keys sorted, no spaces), the §1 tie-break key.

    It is the canonical event form of SCORING.md §1 without the store's own id (which is
    not evidence): agent, the client key as ``id`` when given, type, the UTC timestamp
    and the data.
    """
    body: dict[str, Any] = {
        "agent": event.agent,
        "type": event.type,
        "timestamp": event.timestamp.astimezone(UTC).isoformat(),
        "data": event.data,
    }
    if event.key is not None:
        body["id"] = event.key
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def is_later(candidate: EventRecord, current: EventRecord | None) -> bool:
    """Whether ``candidate`` beats ``current`` under the §1 'latest wins' rule."""
    if current is None:
        return True
    if candidate.timestamp != current.timestamp:
        return candidate.timestamp > current.timestamp
    cand_key, cur_key = canonical_json(candidate), canonical_json(current)
    if cand_key != cur_key:
        return cand_key > cur_key
    # identical evidence: either may count; the store id keeps the choice deterministic
    return candidate.id > current.id


def parse_timestamp(value: Any) -> datetime | None:
    """An RFC 3339 string or a datetime as an aware datetime (naive is taken as UTC)."""
    if isinstance(value, datetime):
        parsed = value
    elif isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            return None
    else:
        return None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)


EMPTY: Mapping[str, Any] = {}


def is_mapping(value: Any) -> bool:
    """A JSON object (a dict, or any Mapping; the dict test first because it is cheap)."""
    return type(value) is dict or isinstance(value, Mapping)


def as_list(value: Any) -> Sequence[Any]:
    """A JSON array as a sequence, anything else as empty (a string is not a list here)."""
    if isinstance(value, list | tuple):
        return value
    if value is None or isinstance(value, str | bytes) or not isinstance(value, Sequence):
        return ()
    return value


def by_event_id(item: DelegationDecision | DelegationOutcome | OrchestrationResult) -> str:
    """The item's evidence id (a sort key)."""
    return item.event_id


def optional_float(value: Any) -> float | None:
    """A JSON number as a float; None for anything else (a bool is not a number)."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    return None


def optional_int(value: Any) -> int | None:
    """A JSON integer (or an integral float) as an int; None for anything else."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def as_count(value: Any) -> int:
    """A positive integer as a count; 0 for anything else."""
    number = optional_int(value)
    return number if number is not None and number > 0 else 0


def optional_str(value: Any) -> str | None:
    """A JSON string; None for anything else."""
    return value if isinstance(value, str) else None


def severity_weight(severity: Any) -> float:
    """Weight of one error (critical 3, major 1, minor 0.5; none or unknown → major)."""
    if isinstance(severity, str) and severity in ERROR_SEVERITY_WEIGHTS:
        return ERROR_SEVERITY_WEIGHTS[severity]
    return ERROR_SEVERITY_WEIGHTS[DEFAULT_ERROR_SEVERITY]


def error_severity(error: Any) -> Any:
    """The ``severity`` of one ``errors`` entry (None when the entry is not an object)."""
    if is_mapping(error):
        return error.get("severity")
    return None


def credit_inputs(data: Mapping[str, Any]) -> tuple[float, float | None, int, int]:
    """(credit, milestone_fraction, milestones passed, milestones total) of a completion.

    SCORING.md §2.2: accepted → 1; partial → passed / all milestones when a non-empty
    ``milestones`` checklist is given, else ``milestone_fraction``, else 0; anything else 0.
    """
    status = data.get("completion_status")
    fraction = optional_float(data.get("milestone_fraction"))
    milestones = data.get("milestones")
    passed = total = 0
    if milestones is not None:
        for milestone in as_list(milestones):
            total += 1
            if is_mapping(milestone) and milestone.get("passed") is True:
                passed += 1
    if status == "accepted":
        return 1.0, fraction, passed, total
    if status == "partial":
        if total > 0:
            return passed / total, fraction, passed, total
        if fraction is not None:
            return min(1.0, max(0.0, fraction)), fraction, passed, total
    return 0.0, fraction, passed, total


def embedded_tool_usages(entries: Any, completion_id: str) -> tuple[ToolUsage, ...]:
    """``tools_used`` summaries, merged per tool (a missing ``recovered`` counts 0); their
    evidence is the ``task_completed`` that carries them."""
    merged: dict[str, list[int]] = {}
    for entry in as_list(entries):
        if not is_mapping(entry):
            continue
        tool = optional_str(entry.get("tool"))
        if tool is None:
            continue
        invocations = as_count(entry.get("invocations"))
        successes = min(as_count(entry.get("successes")), invocations)
        failures = invocations - successes
        recovered = min(as_count(entry.get("recovered")), failures)
        unnecessary = min(as_count(entry.get("unnecessary")), invocations)
        sums = merged.setdefault(tool, [0, 0, 0, 0, 0])
        sums[0] += invocations
        sums[1] += successes
        sums[2] += failures
        sums[3] += recovered
        sums[4] += unnecessary
    ids = (completion_id,)
    return tuple(ToolUsage(tool, s[0], s[1], s[2], s[3], s[4], ids) for tool, s in sorted(merged.items()))


def invocation_counts(events: Iterable[EventRecord]) -> tuple[ToolUsage, ...]:
    """``tool_invoked`` events (one invocation each) summed per tool.

    ``error_recovered`` counts only on a failed invocation (SCORING.md §1).
    """
    # the flags counted as 1 / 0 and each ToolUsage built by tuple.__new__ in field order
    # (checked by a test): the fold 16.27 -> 15.31 M instructions per 1 000-event agent, -5.9 %
    # (callgrind, benchmarks/count_assess_work.py's fleet), with int(flag) and ToolUsage(...)
    per_tool: dict[str, list[Any]] = {}
    for event in events:
        data = event.data
        tool = data.get("tool")
        if type(tool) is not str:
            continue
        success = 1 if data.get("success") is True else 0
        recovered = 1 if not success and data.get("error_recovered") is True else 0
        unnecessary = 1 if data.get("unnecessary") is True else 0
        sums = per_tool.get(tool)
        if sums is None:
            per_tool[tool] = [1, success, recovered, unnecessary, [event.id]]
        else:
            sums[0] += 1
            sums[1] += success
            sums[2] += recovered
            sums[3] += unnecessary
            sums[4].append(event.id)
    return _tool_usages(per_tool)


_new_usage = cast(Callable[[tuple[Any, ...]], ToolUsage], partial(tuple.__new__, ToolUsage))


def _tool_usages(per_tool: Mapping[str, list[Any]]) -> tuple[ToolUsage, ...]:
    """The per-tool sums as ``ToolUsage``s in tool order."""
    return tuple(
        [
            _new_usage(
                (
                    tool,  # tool
                    sums[0],  # invocations
                    sums[1],  # successes
                    sums[0] - sums[1],  # failures
                    sums[2],  # recovered
                    sums[3],  # unnecessary
                    tuple(sorted(sums[4])) if len(sums[4]) > 1 else (sums[4][0],),  # event_ids
                )
            )
            for tool, sums in sorted(per_tool.items())
        ]
    )


def decision_of(data: Mapping[str, Any], event_id: str) -> DelegationDecision:
    """A delegation decision from its event data (or an embedded entry) and evidence id."""
    return DelegationDecision(
        decision=optional_str(data.get("decision")),
        delegate_to=optional_str(data.get("delegate_to")),
        ground_truth=optional_str(data.get("ground_truth")),
        optimal_delegate=optional_str(data.get("optimal_delegate")),
        event_id=event_id,
    )


def outcome_of(event: EventRecord) -> DelegationOutcome:
    """A ``delegation_outcome`` event as a :class:`DelegationOutcome`."""
    return DelegationOutcome(
        outcome=optional_str(event.data.get("outcome")),
        revision_needed=event.data.get("revision_needed") is True,
        event_id=event.id,
    )


def orchestration_of(event: EventRecord) -> OrchestrationResult:
    """An ``orchestration_result`` event as an :class:`OrchestrationResult`."""
    data = event.data
    return OrchestrationResult(
        failures_injected=optional_float(data.get("failures_injected")) or 0.0,
        failures_recovered=optional_float(data.get("failures_recovered")) or 0.0,
        workflow_design_score=optional_float(data.get("workflow_design_score")),
        communication_clarity_score=optional_float(data.get("communication_clarity_score")),
        synthesis_quality_score=optional_float(data.get("synthesis_quality_score")),
        event_id=event.id,
    )


def by_time_and_id(pair: tuple[datetime, Any]) -> tuple[datetime, str]:
    """Sort key of a (timestamp, unattached evidence) pair: the time, then the evidence id."""
    timestamp, item = pair
    return timestamp, item.event_ids[0] if isinstance(item, ToolUsage) else item.event_id
