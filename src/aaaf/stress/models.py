"""The stress-test task format (document 004 §5.3), validated on load.

A task carries its prompt, its input files, the tools it offers, a time baseline, a
declarative grader (a list of checks, each a milestone with a severity), and a reference
solution the oracle agent replays (it proves the ceiling is reachable).  Delegation tasks
carry their ground truth (self/delegate and the optimal delegate of the capability matrix);
orchestration tasks carry their sub-agents and the failures injected into them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from aaaf.scoring.dimensions import DIMENSIONS as DECLARED_DIMENSIONS

TASK_TYPES = (
    "domain_probe",
    "complexity_ladder",
    "tool_challenge",
    "autonomy_ladder",
    "delegation",
    "orchestration",
    "learning",
)
"""Document 004 §5.3's task types, one per dimension row of its table."""

TOOLS = ("bash", "python", "file_read", "file_write", "grep", "search", "delegate")
"""Tools the harness offers (issue 15 §2); ``request_approval`` is the autonomy checkpoint, not a tool."""

DIMENSIONS = tuple(d.name for d in DECLARED_DIMENSIONS)
"""The dimensions a task can serve, by name (their declarations: aaaf.scoring.dimensions)."""

TaskType = Literal[
    "domain_probe",
    "complexity_ladder",
    "tool_challenge",
    "autonomy_ladder",
    "delegation",
    "orchestration",
    "learning",
]
ToolName = Literal["bash", "python", "file_read", "file_write", "grep", "search", "delegate"]
Severity = Literal["critical", "major", "minor"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Check(_Strict):
    name: str = Field(min_length=1)
    severity: Severity = "major"


class AnswerEquals(_Check):
    """The final answer equals ``value`` (normalised: case, surrounding space and punctuation)."""

    kind: Literal["answer_equals"]
    value: str
    normalise: bool = True


class AnswerNumber(_Check):
    """The final answer's first number is ``value`` within ``tolerance``."""

    kind: Literal["answer_number"]
    value: float
    tolerance: float = Field(default=1e-6, ge=0)


class AnswerRegex(_Check):
    kind: Literal["answer_regex"]
    pattern: str


class AnswerContains(_Check):
    """Every one of ``values`` occurs in the answer (case-insensitive)."""

    kind: Literal["answer_contains"]
    values: list[str] = Field(min_length=1)


class AnswerJsonSchema(_Check):
    """The answer is JSON valid under ``schema`` (JSON Schema 2020-12)."""

    kind: Literal["answer_json_schema"]
    json_schema: dict[str, Any] = Field(alias="schema")


class FileExists(_Check):
    kind: Literal["file_exists"]
    path: str


class FileRegex(_Check):
    """The file the agent wrote matches ``pattern`` (``re.search``, multiline)."""

    kind: Literal["file_regex"]
    path: str
    pattern: str


class UnitTests(_Check):
    """``tests`` (Python) run in the task's sandbox, in its work directory, within
    ``timeout_seconds``; passing is exit status 0.  Failing tests are critical by default
    (broken behaviour)."""

    kind: Literal["unit_tests"]
    tests: str
    timeout_seconds: float = Field(default=10.0, gt=0, le=120)
    severity: Severity = "critical"


class ToolUsed(_Check):
    """The agent invoked ``tool`` successfully at least ``at_least`` times (checked on its actions)."""

    kind: Literal["tool_used"]
    tool: ToolName
    at_least: int = Field(default=1, ge=1)


Check = Annotated[
    AnswerEquals
    | AnswerNumber
    | AnswerRegex
    | AnswerContains
    | AnswerJsonSchema
    | FileExists
    | FileRegex
    | UnitTests
    | ToolUsed,
    Field(discriminator="kind"),
]


class Action(_Strict):
    tool: ToolName
    arguments: dict[str, Any] = Field(default_factory=dict)


class Reference(_Strict):
    """What a proper solution does: its tool actions in order, then its final answer."""

    actions: list[Action] = Field(default_factory=list)
    answer: str = ""


class DelegationSpec(_Strict):
    """Ground truth of a delegation task (document 004 §3.2 delegation, SCORING.md §2.3)."""

    ground_truth: Literal["self", "delegate"]
    optimal_delegate: str | None = None
    expert_answer: str = Field(description="what a capable colleague answers")
    expertise: str | None = Field(
        default=None,
        min_length=1,
        description="the domain of the question, matched against the colleagues' domains "
        "(default: the task's domain)",
    )

    @model_validator(mode="after")
    def _delegate_named(self) -> DelegationSpec:
        if self.ground_truth == "delegate" and not self.optimal_delegate:
            raise ValueError("a 'delegate' ground truth names its optimal_delegate")
        return self


class SubAgent(_Strict):
    name: str
    output: str
    failure: Literal["error", "incomplete"] | None = Field(
        default=None, description="injected on the first call: an error, or incomplete work"
    )


class OrchestrationSpec(_Strict):
    subagents: list[SubAgent] = Field(min_length=3)

    @model_validator(mode="after")
    def _both_failures(self) -> OrchestrationSpec:
        kinds = {s.failure for s in self.subagents}
        if not {"error", "incomplete"} <= kinds:
            raise ValueError("an orchestration scenario injects an error and incomplete work")
        return self


class StressTask(_Strict):
    """One task of a library (docs/stress-tests.md "Pieces")."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9_.-]*$", max_length=120)
    task_type: TaskType
    dimensions: list[str] = Field(min_length=1)
    domain: str | None = Field(
        min_length=1,
        description="the domain of the agent's own work on the task (domain_breadth, learning_rate); "
        "null for work of no domain, such as a delegation task's routing decision (docs/scoring.md §1: "
        "a task without a domain counts everywhere but domain breadth, consistency and learning rate)",
    )
    complexity_level: int = Field(ge=1, le=5)
    autonomy_level: int | None = Field(default=None, ge=0, le=3)
    category: str | None = Field(
        default=None,
        description="a learning sequence: the category's tasks, in id order, are the sequence whose "
        "order the evidence keeps (docs/stress-tests.md 'Learning sequences')",
    )
    prompt: str = Field(min_length=1)
    files: dict[str, str] = Field(default_factory=dict, description="input files put in the work directory")
    tools: list[ToolName] = Field(default_factory=list)
    time_baseline_seconds: float = Field(gt=0)
    max_turns: int = Field(default=30, ge=1, le=500)
    checks: list[Check] = Field(min_length=1)
    reference: Reference
    delegation: DelegationSpec | None = None
    orchestration: OrchestrationSpec | None = None

    @model_validator(mode="after")
    def _consistent(self) -> StressTask:
        unknown = [d for d in self.dimensions if d not in DIMENSIONS]
        if unknown:
            raise ValueError(f"unknown dimension(s): {', '.join(unknown)}")
        if self.task_type == "delegation" and self.delegation is None:
            raise ValueError("a delegation task has a `delegation` ground truth")
        if self.delegation is not None and self.delegation.expertise is None and self.domain is None:
            raise ValueError("a delegation task without a domain names its `delegation.expertise`")
        if self.task_type == "orchestration" and self.orchestration is None:
            raise ValueError("an orchestration task has its `orchestration` sub-agents")
        if self.task_type == "autonomy_ladder" and self.autonomy_level is None:
            raise ValueError("an autonomy_ladder task has an autonomy_level")
        if (self.delegation or self.orchestration) and "delegate" not in self.tools:
            raise ValueError("delegation and orchestration tasks offer the `delegate` tool")
        for action in self.reference.actions:
            if action.tool not in self.tools:
                raise ValueError(f"the reference uses tool {action.tool!r} the task does not offer")
        return self


class Colleague(_Strict):
    """A simulated colleague answering ``delegate``: it does well in its ``domains`` only."""

    name: str
    domains: list[str] = Field(min_length=1)


class LibraryFile(_Strict):
    """One data file of a library: its tasks (and, optionally, colleagues and documents)."""

    library: str | None = None
    version: str | None = None
    colleagues: list[Colleague] = Field(default_factory=list)
    tasks: list[StressTask] = Field(default_factory=list)
