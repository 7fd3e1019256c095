"""The ``data`` payload of each event type, as strict pydantic-validated TypedDicts (SCORING.md §1).

Document 004 §6.2 "Supported Event Types" gives each type's required fields; SCORING.md
§1 adds the optional ones it names (``milestone_fraction``, ``milestones``,
``autonomy_level``, ``optimal_delegate``, the graded orchestration scores, ``cost_usd``,
``budget_usd``, ``recovered``, an error's ``severity``), §3 adds ``eval_result`` and §5
``workflow_run``; ``memory_operation`` is AAAF's own (docs/memory-format.md).

Why strict: evidence feeds scores that end up on signed badges, so a string ``"3"`` is not
the integer 3, ``true`` is not 1 and ``3.0`` is not a complexity level; a producer that
sends them is told so, naming the field.  Why extra items are allowed: unknown fields are
kept, so producers can add fields before the scorer reads them (forward compatible) —
but they must still be JSON (finite numbers, string keys), since they are stored and may
be read later.  An optional field may be absent but, unless it says otherwise, not
``null``: downstream code can rely on "present means valid".  The exceptions are
``delegate_to`` and ``optimal_delegate``, which §1 allows to be absent or null when the
decision is ``self``.

Each field's ``description`` is the phrase an error message puts after "must be"
(``data.complexity_level: must be an integer from 1 to 5, got 7``); ``field_phrase``
finds it.  Cross-field rules (``successes ≤ invocations``, ``delegate_to`` when
delegating, ...) are after-validators that raise ``rule_error`` naming their field.

Why TypedDicts rather than BaseModels: validation only needs a yes/no and the errors, and
a TypedDict validator builds no model instances — about twice as fast on a rich
``task_completed`` (``make bench`` validates a million events).  The validators are
compiled once, at import (``PAYLOAD_ADAPTERS``).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any, Literal, NotRequired, Required, get_args, get_origin

from pydantic import AfterValidator, ConfigDict, Field, Strict, TypeAdapter, with_config
from pydantic.fields import FieldInfo
from pydantic_core import PydanticCustomError
from typing_extensions import (
    TypeAliasType,
    TypedDict,
    get_type_hints,
    is_typeddict,
)

from aaaf.evidence.limits import printable
from aaaf.evidence.timestamps import RFC3339_PHRASE, parse_rfc3339, timestamp_problem
from aaaf.evidence.vocabulary import (
    COMPLETION_STATUSES,
    DELEGATION_CHOICES,
    DELEGATION_OUTCOMES,
    EVIDENCE_EVENT_TYPES,
    MEMORY_OPERATIONS,
    SEVERITIES,
    TRUST_DIMENSIONS,
)

# Error type raised by the cross-field rules; its context carries the message and,
# when the rule is about one field of an object, that field's name.
RULE_ERROR = "aaaf_rule"

_STRICT = ConfigDict(strict=True, allow_inf_nan=False)


def one_of_phrase(values: tuple[str, ...]) -> str:
    """'one of 'a', 'b' or 'c'' — the phrase for a closed vocabulary."""
    quoted = [f"'{value}'" for value in values]
    return "one of " + (", ".join(quoted[:-1]) + " or " + quoted[-1] if len(quoted) > 1 else quoted[0])


def rule_error(message: str, field: str | None = None) -> PydanticCustomError:
    """A rule's failure; ``field`` names the member of the object the rule is about."""
    context: dict[str, Any] = {"message": message}
    if field is not None:
        context["field"] = field
    return PydanticCustomError(RULE_ERROR, "{message}", context)


def show_value(value: Any) -> str:
    """A value the way the user wrote it: JSON scalars verbatim, containers by kind."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if value is None or isinstance(value, str | int | float):
        # printable (lone surrogates escaped) and short: a 50 MB value is not echoed back
        return printable(json.dumps(value, ensure_ascii=False), 80)
    return f"a non-JSON value of type {type(value).__name__}"


# A JSON value whose numbers are finite: what unknown fields and free-form fields may hold.
# Every branch is marked strict: a recursive alias does not inherit the payload's config,
# and lax lists would take sets and tuples.
FiniteFloat = Annotated[float, Strict(), Field(allow_inf_nan=False)]
if TYPE_CHECKING:
    JsonData = Any
else:
    JsonData = TypeAliasType(
        "JsonData",
        Annotated[list["JsonData"], Strict()]
        | Annotated[dict[str, "JsonData"], Strict()]
        | Annotated[str, Strict()]
        | Annotated[bool, Strict()]
        | Annotated[int, Strict()]
        | FiniteFloat
        | None,
    )


def _check_rfc3339(value: str) -> str:
    try:
        parse_rfc3339(value)
    except ValueError as reason:
        raise rule_error(timestamp_problem(show_value(value), str(reason))) from None
    return value


def _check_container(value: Any) -> Any:
    if not isinstance(value, dict | list):
        raise rule_error(f"must be an object or a list, got {show_value(value)}")
    return value


def _check_error_item(value: Any) -> Any:
    """SCORING.md §2.2: an error is an object with an optional severity (other fields
    kept) or a plain string — an error without severity, which counts as major."""
    if isinstance(value, str):
        return value
    if not isinstance(value, dict):
        raise rule_error(f"must be an object or a string describing the error, got {show_value(value)}")
    if "severity" in value and value["severity"] not in SEVERITIES:
        raise rule_error(
            f"must be {one_of_phrase(SEVERITIES)}, got {show_value(value['severity'])}", "severity"
        )
    return value


# Literal types built from the vocabularies (mypy sees str; pydantic checks them in Rust).
if TYPE_CHECKING:
    CompletionStatusWord = str
    SeverityWord = str
    DelegationChoiceWord = str
    DelegationOutcomeWord = str
    MemoryOperationWord = str
    TrustDimensionWord = str
else:
    CompletionStatusWord = Literal[COMPLETION_STATUSES]
    SeverityWord = Literal[SEVERITIES]
    DelegationChoiceWord = Literal[DELEGATION_CHOICES]
    DelegationOutcomeWord = Literal[DELEGATION_OUTCOMES]
    MemoryOperationWord = Literal[MEMORY_OPERATIONS]
    TrustDimensionWord = Literal[TRUST_DIMENSIONS]

Text = Annotated[str, Field(min_length=1, description="a non-empty string")]
AnyText = Annotated[str, Field(description="a string")]
TaskId = Annotated[str, Field(min_length=1, description="a non-empty string naming the task")]
Flag = Annotated[bool, Field(description="a boolean (true or false)")]
Count = Annotated[int, Field(ge=0, description="an integer ≥ 0")]
Ordinal = Annotated[int, Field(ge=1, description="an integer ≥ 1")]
Duration = Annotated[float, Field(ge=0, description="a number of seconds ≥ 0")]
PositiveDuration = Annotated[float, Field(gt=0, description="a number of seconds > 0")]
Money = Annotated[float, Field(ge=0, description="an amount ≥ 0")]
PositiveMoney = Annotated[float, Field(gt=0, description="an amount > 0")]
UnitScore = Annotated[float, Field(ge=0, le=1, description="a number from 0 to 1")]
PercentScore = Annotated[float, Field(ge=0, le=100, description="a number from 0 to 100")]
ComplexityLevel = Annotated[int, Field(ge=1, le=5, description="an integer from 1 to 5")]
AutonomyLevel = Annotated[int, Field(ge=0, le=3, description="an integer from 0 to 3")]
Rfc3339Text = Annotated[str, AfterValidator(_check_rfc3339), Field(description=RFC3339_PHRASE)]
NullableName = Annotated[str | None, Field(min_length=1, description="a non-empty string or null")]
CompletionStatus = Annotated[CompletionStatusWord, Field(description=one_of_phrase(COMPLETION_STATUSES))]
Severity = Annotated[SeverityWord, Field(description=one_of_phrase(SEVERITIES))]
DelegationChoice = Annotated[DelegationChoiceWord, Field(description=one_of_phrase(DELEGATION_CHOICES))]
DelegationOutcome = Annotated[DelegationOutcomeWord, Field(description=one_of_phrase(DELEGATION_OUTCOMES))]
MemoryOperationKind = Annotated[MemoryOperationWord, Field(description=one_of_phrase(MEMORY_OPERATIONS))]
TrustDimension = Annotated[
    TrustDimensionWord,
    Field(description="one of the 16 trust dimensions (" + ", ".join(TRUST_DIMENSIONS) + ")"),
]
ErrorItem = Annotated[JsonData, AfterValidator(_check_error_item)]


class Payload(TypedDict, extra_items=JsonData):  # type: ignore[call-arg]  # PEP 728, unknown to mypy
    """Every payload's base: unknown fields are kept, and must be finite JSON (the
    subclasses inherit ``extra_items``)."""


@with_config(_STRICT)
class Milestone(Payload):
    """A ``milestones`` checklist item (SCORING.md §2.2)."""

    name: AnyText
    passed: Flag


@with_config(_STRICT)
class ToolUsage(Payload):
    """A ``tools_used`` summary (SCORING.md §2.3 tool_proficiency)."""

    tool: Text
    invocations: Count
    successes: Count
    unnecessary: Count
    recovered: NotRequired[Count]


def _tool_usage_within_invocations(usage: ToolUsage) -> ToolUsage:
    """Parts of the invocations cannot exceed them; a successful invocation cannot be
    recovered, so ``recovered`` is bounded by the failures, keeping recovered / failures
    (SCORING.md §2.3) within [0, 1]."""
    invocations = usage["invocations"]
    for part in ("successes", "unnecessary"):
        if usage[part] > invocations:
            raise rule_error(f"must be at most invocations ({invocations}), got {usage[part]}", part)
    failures = invocations - usage["successes"]
    recovered = usage.get("recovered")
    if recovered is not None and recovered > failures:
        raise rule_error(
            f"must be at most the failed invocations (invocations − successes = {failures}), got {recovered}",
            "recovered",
        )
    return usage


@with_config(_STRICT)
class DecisionFields(Payload):
    """A delegation decision, granular or embedded in a rich ``task_completed``."""

    task_fragment: Text
    decision: DelegationChoice
    delegate_to: NotRequired[NullableName]
    ground_truth: DelegationChoice
    optimal_delegate: NotRequired[NullableName]
    correct: NotRequired[Flag]


def _delegate_names_a_delegate(decision: Any) -> Any:
    """SCORING.md §1: ``delegate_to`` is required only when ``decision`` is ``delegate``;
    with ``self`` it may be absent or null."""
    if decision["decision"] == "delegate" and decision.get("delegate_to") is None:
        raise rule_error("Missing required field (required when decision is 'delegate')", "delegate_to")
    return decision


@with_config(_STRICT)
class TaskAssignedData(Payload):
    task_id: TaskId
    complexity_level: ComplexityLevel
    domain: Text
    assigned_at: Rfc3339Text
    autonomy_level: NotRequired[AutonomyLevel]


@with_config(_STRICT)
class TaskCompletedData(Payload):
    """Document 004 §6.2's required fields plus the rich example's embedded evidence."""

    task_id: TaskId
    completion_status: CompletionStatus
    time_to_complete_seconds: Duration
    revision_count: Count
    errors: Annotated[list[ErrorItem], Field(description="a list of errors (objects or strings)")]
    milestone_fraction: NotRequired[UnitScore]
    milestones: NotRequired[Annotated[list[Milestone], Field(description="a list of {name, passed} objects")]]
    domain: NotRequired[Text]
    complexity_level: NotRequired[ComplexityLevel]
    autonomy_level: NotRequired[AutonomyLevel]
    tools_used: NotRequired[
        Annotated[
            list[Annotated[ToolUsage, AfterValidator(_tool_usage_within_invocations)]],
            Field(description="a list of {tool, invocations, successes, unnecessary} objects"),
        ]
    ]
    delegation_decisions: NotRequired[
        Annotated[
            list[Annotated[DecisionFields, AfterValidator(_delegate_names_a_delegate)]],
            Field(description="a list of delegation decision objects"),
        ]
    ]
    review_checklist: NotRequired[
        Annotated[dict[str, Flag], Field(description="an object mapping checklist items to booleans")]
    ]
    cost_usd: NotRequired[Money]
    budget_usd: NotRequired[Money]


@with_config(_STRICT)
class TaskRevisedData(Payload):
    task_id: TaskId
    revision_number: Ordinal
    reason_code: Severity
    changes: Annotated[JsonData, Field(description="a description of the changes")]


@with_config(_STRICT)
class ToolInvokedData(Payload):
    task_id: TaskId
    tool: Text
    success: Flag
    unnecessary: Flag
    error_recovered: Flag


@with_config(_STRICT)
class DelegationDecisionData(DecisionFields):
    task_id: TaskId


@with_config(_STRICT)
class DelegationOutcomeData(Payload):
    task_id: TaskId
    delegate_agent_id: Text
    outcome: DelegationOutcome
    revision_needed: Flag


@with_config(_STRICT)
class OrchestrationPlanData(Payload):
    task_id: TaskId
    agents_involved: Annotated[list[Text], Field(description="a list of agent names")]
    dependency_graph: Annotated[
        JsonData, AfterValidator(_check_container), Field(description="an object or a list")
    ]
    parallel_groups: Annotated[list[JsonData], Field(description="a list")]


@with_config(_STRICT)
class OrchestrationResultData(Payload):
    task_id: TaskId
    outcome: Text
    failures_injected: Count
    failures_recovered: Count
    synthesis_quality_score: UnitScore
    workflow_design_score: NotRequired[UnitScore]
    communication_clarity_score: NotRequired[UnitScore]


def _recovered_within_injected(result: OrchestrationResultData) -> OrchestrationResultData:
    """SCORING.md §2.3: failure_handling = failures_recovered / failures_injected ≤ 1."""
    injected, recovered = result["failures_injected"], result["failures_recovered"]
    if recovered > injected:
        raise rule_error(
            f"must be at most failures_injected ({injected}), got {recovered}", "failures_recovered"
        )
    return result


@with_config(_STRICT)
class EvalResultData(Payload):
    """SCORING.md §3: one eval observation on a trust dimension, 0-100."""

    dimension: TrustDimension
    score: PercentScore
    eval_set: NotRequired[Text]
    juror: NotRequired[Text]
    task_id: NotRequired[TaskId]


@with_config(_STRICT)
class WorkflowRunData(Payload):
    """SCORING.md §5.  ``miner``, when given, must equal the event's agent; that rule
    needs the envelope and is checked by the validator."""

    task_id: TaskId
    dag_steps: Ordinal
    steps_completed: Count
    output_quality: UnitScore
    actual_cost: Money
    max_budget: PositiveMoney
    actual_seconds: Duration
    max_latency_seconds: PositiveDuration
    declared_retry_budget: Count
    actual_retries: Count
    timeouts: Count
    hard_failures: Count
    miner: NotRequired[Text]
    workflow: NotRequired[Text]


def _completed_within_dag(run: WorkflowRunData) -> WorkflowRunData:
    dag_steps, completed = run["dag_steps"], run["steps_completed"]
    if completed > dag_steps:
        raise rule_error(f"must be at most dag_steps ({dag_steps}), got {completed}", "steps_completed")
    return run


@with_config(_STRICT)
class MemoryOperationData(Payload):
    """AAAF extension (docs/memory-format.md): a memory search or write for a task, read
    by the scorer as review-checklist evidence."""

    task_id: TaskId
    operation: MemoryOperationKind
    path: NotRequired[Text]
    summary: NotRequired[AnyText]


AUDITED_STATUSES: tuple[str, ...] = ("accepted", "partial", "rejected")
if TYPE_CHECKING:
    AuditedStatusWord = str
else:
    AuditedStatusWord = Literal[AUDITED_STATUSES]


@with_config(_STRICT)
class TaskAuditedData(Payload):
    """SCORING.md §2.6: an auditor's finding on one task (what the auditor found true).

    Every finding field is optional and may be ``null`` (a field left out or blank is
    "not given"); an ``errors`` list given, even empty, replaces the self-reported errors.
    """

    task_id: TaskId
    auditor: Text
    checklist: NotRequired[
        Annotated[
            dict[str, bool | None] | None,
            Field(description="an object mapping checklist items to booleans (or null)"),
        ]
    ]
    completion_status: NotRequired[
        Annotated[AuditedStatusWord | None, Field(description=one_of_phrase(AUDITED_STATUSES))]
    ]
    milestone_fraction: NotRequired[UnitScore | None]
    milestones: NotRequired[
        Annotated[list[Milestone] | None, Field(description="a list of {name, passed} objects")]
    ]
    errors: NotRequired[
        Annotated[list[ErrorItem] | None, Field(description="a list of errors (objects or strings)")]
    ]
    notes: NotRequired[AnyText | None]


# The TypedDict of each type's payload (for error phrases) and its whole validated type.
PAYLOAD_SHAPES: dict[str, Any] = {
    "task_assigned": TaskAssignedData,
    "task_completed": TaskCompletedData,
    "task_revised": TaskRevisedData,
    "tool_invoked": ToolInvokedData,
    "delegation_decision": DelegationDecisionData,
    "delegation_outcome": DelegationOutcomeData,
    "orchestration_plan": OrchestrationPlanData,
    "orchestration_result": OrchestrationResultData,
    "eval_result": EvalResultData,
    "workflow_run": WorkflowRunData,
    "memory_operation": MemoryOperationData,
    "task_audited": TaskAuditedData,
}
_TOP_LEVEL_RULES: dict[str, Any] = {
    "delegation_decision": _delegate_names_a_delegate,
    "orchestration_result": _recovered_within_injected,
    "workflow_run": _completed_within_dag,
}
PAYLOAD_ADAPTERS: dict[str, TypeAdapter[Any]] = {
    name: TypeAdapter(
        Annotated[shape, AfterValidator(_TOP_LEVEL_RULES[name])] if name in _TOP_LEVEL_RULES else shape
    )
    for name, shape in PAYLOAD_SHAPES.items()
}

if set(PAYLOAD_SHAPES) != set(EVIDENCE_EVENT_TYPES):  # a type without a shape is a crash, not a hole
    raise RuntimeError(f"payload shapes {sorted(PAYLOAD_SHAPES)} do not match {sorted(EVIDENCE_EVENT_TYPES)}")


def _unwrap(hint: Any) -> tuple[str | None, Any]:
    """Strip NotRequired/Annotated from a field's type; keep its description."""
    description: str | None = None
    while True:
        origin = get_origin(hint)
        if origin is NotRequired or origin is Required:
            hint = get_args(hint)[0]
        elif origin is Annotated:
            for meta in hint.__metadata__:
                if description is None and isinstance(meta, FieldInfo) and meta.description:
                    description = meta.description
            hint = hint.__origin__
        else:
            return description, hint


def _inner_shape(hint: Any) -> Any | None:
    """The TypedDict a field's values (or its list's items) are validated against."""
    _, bare = _unwrap(hint)
    if is_typeddict(bare):
        return bare
    for argument in get_args(bare):
        found = _inner_shape(argument)
        if found is not None:
            return found
    return None


_FIELDS_CACHE: dict[Any, dict[str, Any]] = {}


def _fields_of(shape: Any) -> dict[str, Any]:
    if shape not in _FIELDS_CACHE:
        _FIELDS_CACHE[shape] = get_type_hints(shape, include_extras=True)
    return _FIELDS_CACHE[shape]


def field_phrase(event_type: str, location: tuple[str | int, ...] | list[str | int]) -> str | None:
    """The "must be …" phrase of the field a validation error's location ends on, or None
    when the location does not end on a declared field (a list item, an unknown key)."""
    shape: Any | None = PAYLOAD_SHAPES[event_type]
    phrase: str | None = None
    for part in location:
        if isinstance(part, int):
            phrase = None  # an item of a list: the list's description does not fit it
            continue
        if shape is None:
            return None
        fields = _fields_of(shape)
        if part not in fields:
            return None
        phrase, _ = _unwrap(fields[part])
        shape = _inner_shape(fields[part])
    return phrase
