"""Folding evidence events into task records (SCORING.md §1).

One pass over an agent's events groups them by ``task_id`` and applies the task rules:

* the counting ``task_completed`` of a task is the one with the latest timestamp, whatever
  its status; at equal timestamps the one whose canonical JSON (keys sorted, no spaces)
  sorts last, so that the result never depends on the order of the log;
* 'granular wins', decided per task and per kind: a task with a ``task_assigned`` takes
  domain, complexity and autonomy only from it; a task with any ``tool_invoked`` event
  ignores its ``tools_used``; a task with any ``delegation_decision`` event ignores its
  embedded ``delegation_decisions``.  The rich ``task_completed`` of document 004 §6.2
  otherwise counts exactly as the equivalent granular events, never twice;
* ``task_audited`` (SCORING.md §2.6): the latest finding of a task replaces its
  self-reported checklist items, completion status / milestones and errors
  (:mod:`aaaf.scoring.audit`); the record keeps the audited facts in ``audit``;
* ``memory_operation`` (an AAAF extension: ``{task_id, operation: "search" | "write"}``)
  marks the checklist items ``memory_search_performed`` / ``memory_written`` passed, OR-ed
  with the self-reported ``review_checklist``.

Evidence without a ``task_id`` cannot belong to a task; it is kept apart
(:class:`UnattachedEvidence`) and counts in a window by its own timestamp (SCORING.md §2.1).
``eval_result`` and ``workflow_run`` events belong to other schemes and are ignored.

Records are already validated by the shell; the fold does not re-validate, it only reads
defensively where a field is optional.

The per-task records are ``NamedTuple``s: immutable and typed like a frozen dataclass, but
built several times faster (a 33-field frozen dataclass costs ~8 µs to construct against
~1.4 µs for a named tuple, measured), and the fold builds one per task of every agent.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from operator import attrgetter
from typing import Any, NamedTuple, cast

from aaaf.scoring.audit import TaskAudit, apply_finding, read_finding
from aaaf.scoring.defaults import ERROR_SEVERITY_WEIGHTS
from aaaf.scoring.records import EventRecord

COMPLETED_STATUSES: frozenset[str] = frozenset({"accepted", "partial"})
"""SCORING.md §2.2: a task is *completed* when accepted or partial."""

MEMORY_OPERATION_ITEMS: Mapping[str, str] = {
    "search": "memory_search_performed",
    "write": "memory_written",
}
"""Which checklist item a ``memory_operation`` marks passed, by its ``operation``."""

DEFAULT_ERROR_SEVERITY = "major"
"""SCORING.md §2.2: an error given without severity counts as major."""


class ToolUsage(NamedTuple):
    """One tool's use within one task (or by one unattached ``tool_invoked`` event).

    ``failures`` = invocations − successes; ``recovered`` counts only recoveries from a
    failed invocation (SCORING.md §1), so it never exceeds ``failures``.
    """

    tool: str
    invocations: int
    successes: int
    failures: int
    recovered: int
    unnecessary: int
    event_ids: tuple[str, ...]


class DelegationDecision(NamedTuple):
    """A ``delegation_decision`` event or an embedded ``delegation_decisions`` entry."""

    decision: str | None
    delegate_to: str | None
    ground_truth: str | None
    optimal_delegate: str | None
    event_id: str


class DelegationOutcome(NamedTuple):
    """A ``delegation_outcome`` event: how delegated work ended."""

    outcome: str | None
    revision_needed: bool
    event_id: str


class OrchestrationResult(NamedTuple):
    """An ``orchestration_result`` event with its graded scores (SCORING.md §2.3)."""

    failures_injected: float
    failures_recovered: float
    workflow_design_score: float | None
    communication_clarity_score: float | None
    synthesis_quality_score: float | None
    event_id: str


class Task(NamedTuple):
    """Everything the AAAF formulas read about one task, after the §1 rules.

    ``placed_at`` is the timestamp that places the task in a window (its counting
    completion, else its assignment; SCORING.md §2.1); ``None`` when the task is known
    only from evidence that cannot place it (e.g. a lone ``tool_invoked``).
    """

    task_id: str
    domain: str | None
    complexity_level: int | None
    autonomy_level: int | None
    assigned_at: datetime | None
    completed_at: datetime | None
    completion_status: str | None
    credit: float
    milestone_fraction: float | None
    milestones_passed: int
    milestones_total: int
    time_to_complete_seconds: float | None
    revision_count: int
    revision_events: int
    revised: bool
    error_count: int
    weighted_errors: float
    checklist: Mapping[str, bool] | None
    tools: tuple[ToolUsage, ...]
    tools_from_events: bool
    delegation_decisions: tuple[DelegationDecision, ...]
    decisions_from_events: bool
    delegation_outcomes: tuple[DelegationOutcome, ...]
    orchestration_results: tuple[OrchestrationResult, ...]
    assigned_event_id: str | None
    completion_event_id: str | None
    attribute_event_id: str | None
    revision_event_ids: tuple[str, ...]
    memory_event_ids: tuple[str, ...]
    plan_event_ids: tuple[str, ...]
    superseded_completion_ids: tuple[str, ...]
    audit: TaskAudit | None  # the counting task_audited finding's facts (SCORING.md §2.6)

    @property
    def placed_at(self) -> datetime | None:
        return self.completed_at if self.completed_at is not None else self.assigned_at

    @property
    def completed(self) -> bool:
        """Accepted or partial (SCORING.md §2.2)."""
        return self.completion_status in COMPLETED_STATUSES

    @property
    def tool_event_ids(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(i for usage in self.tools for i in usage.event_ids))

    @property
    def decision_event_ids(self) -> tuple[str, ...]:
        ids = {d.event_id for d in self.delegation_decisions}
        return tuple(sorted(ids))

    def event_ids(self) -> tuple[str, ...]:
        """Every event id that this task's record uses (superseded completions excluded)."""
        ids: set[str] = set()
        for single in (self.assigned_event_id, self.completion_event_id):
            if single is not None:
                ids.add(single)
        ids.update(self.revision_event_ids)
        ids.update(self.memory_event_ids)
        ids.update(self.plan_event_ids)
        ids.update(self.tool_event_ids)
        ids.update(self.decision_event_ids)
        ids.update(o.event_id for o in self.delegation_outcomes)
        ids.update(o.event_id for o in self.orchestration_results)
        if self.audit is not None:
            ids.add(self.audit.event_id)
        return tuple(sorted(ids))


@dataclass(frozen=True, slots=True)
class UnattachedEvidence:
    """Evidence without a ``task_id``, as (own timestamp, item) pairs sorted by time and id;
    it counts in a window by its own timestamp (SCORING.md §2.1)."""

    tools: tuple[tuple[datetime, ToolUsage], ...] = ()
    delegation_decisions: tuple[tuple[datetime, DelegationDecision], ...] = ()
    delegation_outcomes: tuple[tuple[datetime, DelegationOutcome], ...] = ()
    orchestration_results: tuple[tuple[datetime, OrchestrationResult], ...] = ()


@dataclass(frozen=True, slots=True)
class FoldedEvidence:
    """The result of folding: tasks by id, unattached evidence, and each event's type."""

    tasks: Mapping[str, Task]
    unattached: UnattachedEvidence
    event_types: Mapping[str, str] = field(default_factory=dict)


_new_tool_usage = cast(Callable[[tuple[Any, ...]], ToolUsage], partial(tuple.__new__, ToolUsage))
_new_task = cast(Callable[[tuple[Any, ...]], Task], partial(tuple.__new__, Task))
_TYPE_OF = attrgetter("type")
_TASK_ID_OF = attrgetter("task_id")
_ID_OF = attrgetter("id")
_new_decision = cast(
    Callable[[tuple[Any, ...]], DelegationDecision], partial(tuple.__new__, DelegationDecision)
)


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


def _later(candidate: EventRecord, current: EventRecord | None) -> bool:
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


_EMPTY: Mapping[str, Any] = {}


def _is_mapping(value: Any) -> bool:
    """A JSON object (a dict, or any Mapping; the dict test first because it is cheap)."""
    return type(value) is dict or isinstance(value, Mapping)


def _as_list(value: Any) -> Sequence[Any]:
    """A JSON array as a sequence, anything else as empty (a string is not a list here)."""
    if isinstance(value, list | tuple):
        return value
    if value is None or isinstance(value, str | bytes) or not isinstance(value, Sequence):
        return ()
    return value


def _by_event_id(item: DelegationDecision | DelegationOutcome | OrchestrationResult) -> str:
    return item.event_id


def _optional_float(value: Any) -> float | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    return None


def _optional_int(value: Any) -> int | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def _count(value: Any) -> int:
    number = _optional_int(value)
    return number if number is not None and number > 0 else 0


def _optional_str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def severity_weight(severity: Any) -> float:
    """Weight of one error (critical 3, major 1, minor 0.5; none or unknown → major)."""
    if isinstance(severity, str) and severity in ERROR_SEVERITY_WEIGHTS:
        return ERROR_SEVERITY_WEIGHTS[severity]
    return ERROR_SEVERITY_WEIGHTS[DEFAULT_ERROR_SEVERITY]


def _error_severity(error: Any) -> Any:
    if _is_mapping(error):
        return error.get("severity")
    return None


def credit_inputs(data: Mapping[str, Any]) -> tuple[float, float | None, int, int]:
    """(credit, milestone_fraction, milestones passed, milestones total) of a completion.

    SCORING.md §2.2: accepted → 1; partial → passed / all milestones when a non-empty
    ``milestones`` checklist is given, else ``milestone_fraction``, else 0; anything else 0.
    """
    status = data.get("completion_status")
    fraction = _optional_float(data.get("milestone_fraction"))
    milestones = data.get("milestones")
    passed = total = 0
    if milestones is not None:
        for milestone in _as_list(milestones):
            total += 1
            if _is_mapping(milestone) and milestone.get("passed") is True:
                passed += 1
    if status == "accepted":
        return 1.0, fraction, passed, total
    if status == "partial":
        if total > 0:
            return passed / total, fraction, passed, total
        if fraction is not None:
            return min(1.0, max(0.0, fraction)), fraction, passed, total
    return 0.0, fraction, passed, total


def _embedded_tools(entries: Any, completion_id: str) -> tuple[ToolUsage, ...]:
    """``tools_used`` summaries, merged per tool (a missing ``recovered`` counts 0); their
    evidence is the ``task_completed`` that carries them."""
    merged: dict[str, list[int]] = {}
    for entry in _as_list(entries):
        if not _is_mapping(entry):
            continue
        tool = _optional_str(entry.get("tool"))
        if tool is None:
            continue
        invocations = _count(entry.get("invocations"))
        successes = min(_count(entry.get("successes")), invocations)
        failures = invocations - successes
        recovered = min(_count(entry.get("recovered")), failures)
        unnecessary = min(_count(entry.get("unnecessary")), invocations)
        sums = merged.setdefault(tool, [0, 0, 0, 0, 0])
        sums[0] += invocations
        sums[1] += successes
        sums[2] += failures
        sums[3] += recovered
        sums[4] += unnecessary
    ids = (completion_id,)
    return tuple(ToolUsage(tool, s[0], s[1], s[2], s[3], s[4], ids) for tool, s in sorted(merged.items()))


def _invocation_counts(events: Iterable[EventRecord]) -> tuple[ToolUsage, ...]:
    """``tool_invoked`` events (one invocation each) summed per tool.

    ``error_recovered`` counts only on a failed invocation (SCORING.md §1).  Written as one
    flat loop (and inlined in :func:`_build_task`): it is the hottest path of the fold.
    """
    per_tool: dict[str, list[Any]] = {}
    for event in events:
        data = event.data
        tool = data.get("tool")
        if type(tool) is not str:
            continue
        success = data.get("success") is True
        recovered = (not success) and data.get("error_recovered") is True
        unnecessary = data.get("unnecessary") is True
        sums = per_tool.get(tool)
        if sums is None:
            per_tool[tool] = [1, int(success), int(recovered), int(unnecessary), [event.id]]
        else:
            sums[0] += 1
            sums[1] += success
            sums[2] += recovered
            sums[3] += unnecessary
            sums[4].append(event.id)
    return _tool_usages(per_tool)


def _tool_usages(per_tool: Mapping[str, list[Any]]) -> tuple[ToolUsage, ...]:
    """The per-tool sums as ``ToolUsage``s in tool order (built with ``tuple.__new__``: the
    named tuple's own ``__new__`` is a Python call, several per task)."""
    usages = []
    for tool in sorted(per_tool):
        invocations, successes, recoveries, unnecessary_calls, ids = per_tool[tool]
        usages.append(
            _new_tool_usage(
                (
                    tool,
                    invocations,
                    successes,
                    invocations - successes,
                    recoveries,
                    unnecessary_calls,
                    tuple(sorted(ids)) if len(ids) > 1 else (ids[0],),
                )
            )
        )
    return tuple(usages)


def _decision(data: Mapping[str, Any], event_id: str) -> DelegationDecision:
    # tuple.__new__ in field order (decision, delegate_to, ground_truth, optimal_delegate,
    # event_id): a keyword call of the named tuple is a Python call
    return _new_decision(
        (
            _optional_str(data.get("decision")),
            _optional_str(data.get("delegate_to")),
            _optional_str(data.get("ground_truth")),
            _optional_str(data.get("optimal_delegate")),
            event_id,
        )
    )


def _outcome(event: EventRecord) -> DelegationOutcome:
    return DelegationOutcome(
        outcome=_optional_str(event.data.get("outcome")),
        revision_needed=event.data.get("revision_needed") is True,
        event_id=event.id,
    )


def _orchestration(event: EventRecord) -> OrchestrationResult:
    data = event.data
    return OrchestrationResult(
        failures_injected=_optional_float(data.get("failures_injected")) or 0.0,
        failures_recovered=_optional_float(data.get("failures_recovered")) or 0.0,
        workflow_design_score=_optional_float(data.get("workflow_design_score")),
        communication_clarity_score=_optional_float(data.get("communication_clarity_score")),
        synthesis_quality_score=_optional_float(data.get("synthesis_quality_score")),
        event_id=event.id,
    )


def _by_time_and_id(pair: tuple[datetime, Any]) -> tuple[datetime, str]:
    timestamp, item = pair
    return timestamp, item.event_ids[0] if isinstance(item, ToolUsage) else item.event_id


# --------------------------------------------------------------------------- folding


TASK_EVIDENCE_TYPES: frozenset[str] = frozenset(
    {
        "task_assigned",
        "task_completed",
        "task_revised",
        "tool_invoked",
        "delegation_decision",
        "delegation_outcome",
        "orchestration_plan",
        "orchestration_result",
        "memory_operation",
        "task_audited",
    }
)
"""The event types the AAAF scheme reads (``eval_result`` and ``workflow_run`` are not)."""


def fold_evidence(events: Sequence[EventRecord]) -> FoldedEvidence:
    """Fold an agent's events into tasks and unattached evidence (SCORING.md §1).

    The first pass only groups events by task; each task's few events are then read once
    by :func:`_build_task`.
    """
    grouped: dict[str, list[EventRecord]] = {}
    loose_tools: list[tuple[datetime, ToolUsage]] = []
    loose_decisions: list[tuple[datetime, DelegationDecision]] = []
    loose_outcomes: list[tuple[datetime, DelegationOutcome]] = []
    loose_orchestration: list[tuple[datetime, OrchestrationResult]] = []
    event_types: dict[str, str]

    types = list(map(_TYPE_OF, events))
    task_ids = list(map(_TASK_ID_OF, events))
    if None not in task_ids and TASK_EVIDENCE_TYPES.issuperset(types):
        # the common case, every event a task's evidence with its task_id: the types are
        # mapped in C and the loop only groups (the same buckets as the loop below)
        event_types = dict(zip(map(_ID_OF, events), types, strict=True))
        for task_id, event in zip(task_ids, events, strict=True):
            bucket = grouped.get(task_id)
            if bucket is None:
                grouped[task_id] = [event]
            else:
                bucket.append(event)
        remaining: Sequence[EventRecord] = ()  # nothing left for the general loop
    else:
        event_types = {}
        remaining = events

    for event in remaining:
        kind = event.type
        if kind not in TASK_EVIDENCE_TYPES:
            continue  # eval_result, workflow_run: other schemes
        event_types[event.id] = kind
        task_id = event.task_id
        if task_id is None:
            value = event.data.get("task_id")
            if isinstance(value, str):
                task_id = value
            else:
                if kind == "tool_invoked":
                    loose_tools.extend((event.timestamp, u) for u in _invocation_counts((event,)))
                elif kind == "delegation_decision":
                    loose_decisions.append((event.timestamp, _decision(event.data, event.id)))
                elif kind == "delegation_outcome":
                    loose_outcomes.append((event.timestamp, _outcome(event)))
                elif kind == "orchestration_result":
                    loose_orchestration.append((event.timestamp, _orchestration(event)))
                continue
        bucket = grouped.get(task_id)
        if bucket is None:
            grouped[task_id] = [event]
        else:
            bucket.append(event)

    tasks = {task_id: _build_task(task_id, bucket) for task_id, bucket in grouped.items()}
    unattached = UnattachedEvidence(
        tools=tuple(sorted(loose_tools, key=_by_time_and_id)),
        delegation_decisions=tuple(sorted(loose_decisions, key=_by_time_and_id)),
        delegation_outcomes=tuple(sorted(loose_outcomes, key=_by_time_and_id)),
        orchestration_results=tuple(sorted(loose_orchestration, key=_by_time_and_id)),
    )
    return FoldedEvidence(tasks, unattached, event_types)


def fold_tasks(events: Sequence[EventRecord]) -> dict[str, Task]:
    """The tasks of an agent's events, by ``task_id`` (SCORING.md §1)."""
    return dict(fold_evidence(events).tasks)


def _build_task(task_id: str, events: list[EventRecord]) -> Task:
    """One task's record from its events (SCORING.md §1: latest completion, granular wins)."""
    completion: EventRecord | None = None
    assigned: EventRecord | None = None
    superseded: list[str] = []
    revisions: list[EventRecord] = []
    per_tool: dict[str, list[Any]] = {}
    invoked = False
    decision_events: list[EventRecord] = []
    outcome_events: list[EventRecord] = []
    orchestration_events: list[EventRecord] = []
    plans: list[str] = []
    memory: list[EventRecord] = []
    finding: EventRecord | None = None
    for event in events:
        kind = event.type
        if kind == "tool_invoked":
            # the body of _invocation_counts, inlined
            invoked = True
            data = event.data
            tool = data.get("tool")
            if type(tool) is str:
                success = data.get("success") is True
                recovered = (not success) and data.get("error_recovered") is True
                unnecessary = data.get("unnecessary") is True
                sums = per_tool.get(tool)
                if sums is None:
                    per_tool[tool] = [1, int(success), int(recovered), int(unnecessary), [event.id]]
                else:
                    sums[0] += 1
                    sums[1] += success
                    sums[2] += recovered
                    sums[3] += unnecessary
                    sums[4].append(event.id)
        elif kind == "task_completed":
            if completion is None:
                completion = event
            elif _later(event, completion):
                superseded.append(completion.id)
                completion = event
            else:
                superseded.append(event.id)
        elif kind == "task_assigned":
            if assigned is None or _later(event, assigned):
                assigned = event
        elif kind == "task_revised":
            revisions.append(event)
        elif kind == "delegation_decision":
            decision_events.append(event)
        elif kind == "delegation_outcome":
            outcome_events.append(event)
        elif kind == "orchestration_result":
            orchestration_events.append(event)
        elif kind == "orchestration_plan":
            plans.append(event.id)
        elif kind == "memory_operation":
            memory.append(event)
        elif kind == "task_audited" and (finding is None or _later(event, finding)):
            finding = event  # the latest finding counts (SCORING.md §2.6)
    done: Mapping[str, Any] = completion.data if completion is not None else _EMPTY

    # granular wins: a task_assigned is the only source of domain, complexity, autonomy
    attributes: Mapping[str, Any]
    attribute_event_id: str | None
    assigned_at: datetime | None
    if assigned is not None:
        attributes, attribute_event_id = assigned.data, assigned.id
        stated = attributes.get("assigned_at")
        if type(stated) is str:  # parse_timestamp's common case, inline
            try:
                assigned_at = datetime.fromisoformat(stated)
            except ValueError:
                assigned_at = assigned.timestamp
            else:
                if assigned_at.tzinfo is None:
                    assigned_at = assigned_at.replace(tzinfo=UTC)
        else:
            assigned_at = parse_timestamp(stated) or assigned.timestamp
    else:
        attributes = done
        attribute_event_id = completion.id if completion is not None else None
        assigned_at = completion.timestamp if completion is not None else None
    # the common JSON types are taken as they are; the helpers decide anything else
    domain = attributes.get("domain")
    if type(domain) is not str:
        domain = _optional_str(domain)
    complexity = attributes.get("complexity_level")
    if type(complexity) is not int:
        complexity = _optional_int(complexity)
    autonomy = attributes.get("autonomy_level")
    if type(autonomy) is not int:
        autonomy = _optional_int(autonomy)

    status = done.get("completion_status")
    if type(status) is not str:
        status = None
    fraction = done.get("milestone_fraction")
    if done.get("milestones") is None and type(fraction) is float:
        # credit_inputs' common case (no milestone checklist, a float fraction), inline
        milestones_passed = milestones_total = 0
        if status == "accepted":
            credit = 1.0
        elif status == "partial":
            credit = min(1.0, max(0.0, fraction))
        else:
            credit = 0.0
    else:
        credit, fraction, milestones_passed, milestones_total = credit_inputs(done)

    revision_count = done.get("revision_count")
    if type(revision_count) is not int or revision_count < 0:
        revision_count = _count(revision_count)
    error_list = done.get("errors")
    if type(error_list) is not list:
        error_list = _as_list(error_list)
    weighted_errors = 0.0
    error_count = 0
    if error_list or revisions:
        weighted = [severity_weight(_error_severity(error)) for error in error_list]
        weighted.extend(severity_weight(rev.data.get("reason_code")) for rev in revisions)
        error_count = len(weighted)
        weighted_errors = math.fsum(weighted)

    checklist: dict[str, bool] | None = None
    review = done.get("review_checklist")
    if review is not None and _is_mapping(review):
        # an item passes only when its value is exactly true; JSON keys are already str
        checklist = {(key if type(key) is str else str(key)): value is True for key, value in review.items()}
    if memory:
        if checklist is None:
            checklist = {}
        for op in memory:
            item = MEMORY_OPERATION_ITEMS.get(_optional_str(op.data.get("operation")) or "")
            if item is not None:
                checklist[item] = True

    audit: TaskAudit | None = None
    if finding is not None:
        # SCORING.md §2.6: the auditor's values replace the self-reported ones
        applied = apply_finding(read_finding(finding.data, finding.id), checklist, done)
        checklist = dict(applied.checklist) if applied.checklist is not None else None
        status = _optional_str(applied.completion.get("completion_status"))
        credit, fraction, milestones_passed, milestones_total = credit_inputs(applied.completion)
        if applied.errors is not None:
            weighted = [severity_weight(_error_severity(error)) for error in applied.errors]
            weighted.extend(severity_weight(rev.data.get("reason_code")) for rev in revisions)
            error_count = len(weighted)
            weighted_errors = math.fsum(weighted)
        audit = applied.audit

    tools: tuple[ToolUsage, ...] = ()
    if invoked:
        tools = _tool_usages(per_tool)
        tools_from_events = True
    else:
        embedded_tools = _as_list(done.get("tools_used"))
        if embedded_tools and completion is not None:
            tools = _embedded_tools(embedded_tools, completion.id)
        tools_from_events = False

    decisions: tuple[DelegationDecision, ...] = ()
    if decision_events:
        decisions = tuple(sorted([_decision(e.data, e.id) for e in decision_events], key=_by_event_id))
        decisions_from_events = True
    else:
        embedded = done.get("delegation_decisions")
        if embedded is not None:
            embedded = _as_list(embedded)
        if completion is not None and embedded:
            decisions = tuple(_decision(entry, completion.id) for entry in embedded if _is_mapping(entry))
        decisions_from_events = False

    time_to_complete = done.get("time_to_complete_seconds")
    if type(time_to_complete) is not float:
        time_to_complete = _optional_float(time_to_complete)
    outcomes: tuple[DelegationOutcome, ...] = ()
    if outcome_events:
        outcomes = tuple(sorted([_outcome(e) for e in outcome_events], key=_by_event_id))
    orchestration: tuple[OrchestrationResult, ...] = ()
    if orchestration_events:
        orchestration = tuple(sorted([_orchestration(e) for e in orchestration_events], key=_by_event_id))
    # tuple.__new__ from one tuple: a keyword call of 31 fields costs ~2 µs more per task,
    # the named tuple's positional __new__ (a Python function) ~0.5 µs more
    return _new_task(
        (
            task_id,  # task_id
            domain,  # domain
            complexity,  # complexity_level
            autonomy,  # autonomy_level
            assigned_at,  # assigned_at
            completion.timestamp if completion is not None else None,  # completed_at
            status,  # completion_status
            credit,  # credit
            fraction,  # milestone_fraction
            milestones_passed,  # milestones_passed
            milestones_total,  # milestones_total
            time_to_complete,  # time_to_complete_seconds
            revision_count,  # revision_count
            len(revisions),  # revision_events
            revision_count > 0 or bool(revisions),  # revised
            error_count,  # error_count
            weighted_errors,  # weighted_errors
            checklist,  # checklist
            tools,  # tools
            tools_from_events,  # tools_from_events
            decisions,  # delegation_decisions
            decisions_from_events,  # decisions_from_events
            outcomes,  # delegation_outcomes
            orchestration,  # orchestration_results
            assigned.id if assigned is not None else None,  # assigned_event_id
            completion.id if completion is not None else None,  # completion_event_id
            attribute_event_id,  # attribute_event_id
            tuple(sorted([e.id for e in revisions])) if revisions else (),  # revision_event_ids
            tuple(sorted([e.id for e in memory])) if memory else (),  # memory_event_ids
            tuple(sorted(plans)) if plans else (),  # plan_event_ids
            tuple(sorted(superseded)) if superseded else (),  # superseded_completion_ids
            audit,  # audit
        )
    )
