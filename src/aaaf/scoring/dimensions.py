"""The AAAF dimensions, each declared once (SCORING.md §2.2, §2.3).

A dimension is its name, its axis, its default weight, its title, the standard it is
aligned with and a plain-language explanation of what it measures (what the report says to a
reader who has not read the formulas; docs/scoring.md §3.3 and §3.5 open each dimension with it).  The defaults (:mod:`aaaf.scoring.defaults`: the dimension lists, weight
tables and standards alignment), the report's titles and the stress library's dimension
list are read from here; everything keyed by a dimension is keyed by its name.

Its formulas bind to the declaration by name (:class:`Formulas`): the module that computes a
dimension registers each form of it with a decorator, and the engine and the bootstrap read
the registries, never a list of their own.  A formula for a name not declared is refused
when its module is imported; a declared dimension without a formula is refused when the
engine (or the bootstrap) first reads its registry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:  # the formulas' argument types; their modules import this one
    from aaaf.scoring.aaaf_context import AssessmentContext
    from aaaf.scoring.aaaf_performance import PerformanceRows
    from aaaf.scoring.aaaf_tasks import PerformanceComponents
    from aaaf.scoring.capability_rows import CapabilityRows
    from aaaf.scoring.core import DimensionResult
    from aaaf.scoring.resample_arrays import FloatArray


@dataclass(frozen=True)
class Dimension:
    name: str
    axis: str  # "performance" or "capability"
    weight: float  # the default weight in its axis's composite
    title: str  # how reports and pages name it
    standard: tuple[str, str]  # (standard, clause) it is aligned with
    explanation: str  # what it measures, in one or two sentences a non-expert understands


DIMENSIONS: tuple[Dimension, ...] = (
    # Performance (SCORING.md §2.2), weights 0.25 / 0.25 / 0.15 / 0.20 / 0.15
    Dimension(
        "task_completion_rate",
        "performance",
        0.25,
        "Task completion rate",
        ("NIST AI 100-1", "MEASURE 2.6 (valid and reliable)"),
        explanation=(
            "How much of the work assigned to the agent it finished to its acceptance criteria; a "
            "partly finished task counts for the share of its milestones it reached."
        ),
    ),
    Dimension(
        "accuracy",
        "performance",
        0.25,
        "Accuracy",
        ("ISO/IEC 25059:2023", "Accuracy quality characteristic"),
        explanation=(
            "How often the agent's finished work was right the first time: fewer revisions and fewer "
            "errors (serious errors weigh more) give a higher score."
        ),
    ),
    Dimension(
        "speed",
        "performance",
        0.15,
        "Speed to delivery",
        ("ISO/IEC 25059:2023", "Time behavior sub-characteristic (performance efficiency)"),
        explanation=(
            "How quickly the agent delivers compared with the time a task of that difficulty is "
            "expected to take: at or under that time scores 1, twice it or more scores 0."
        ),
    ),
    Dimension(
        "consistency",
        "performance",
        0.20,
        "Consistency",
        ("NIST AI 100-1", "MEASURE 2.6 (reliability across contexts)"),
        explanation=(
            "How steady the agent's results are across similar tasks (same domain, same difficulty): "
            "the less its accuracy and completion vary from task to task, the higher the score."
        ),
    ),
    Dimension(
        "review_compliance",
        "performance",
        0.15,
        "Review compliance",
        ("ISO/IEC 42001:2023", "Control A.6.2.6 (monitoring), PDCA Act phase"),
        explanation=(
            "How fully the agent's completed tasks pass the organization's review checklist (for "
            "example: memory searched, output format correct, verification evidence provided)."
        ),
    ),
    # Capability (SCORING.md §2.3), weights 0.15 / 0.20 / 0.15 / 0.10 / 0.10 / 0.15 / 0.15
    Dimension(
        "domain_breadth",
        "capability",
        0.15,
        "Domain breadth",
        ("IEEE P2894", "Capability description semantics"),
        explanation=(
            "The share of the organization's work domains in which the agent has completed at least "
            "three tasks and performs at Competent level or better."
        ),
    ),
    Dimension(
        "complexity_ceiling",
        "capability",
        0.20,
        "Complexity ceiling",
        ("ISO/IEC 25059:2023", "Functional suitability, completeness"),
        explanation=(
            "The hardest difficulty level, from 1 to 5, at which the agent has completed at least "
            "three tasks and performs at Proficient level or better."
        ),
    ),
    Dimension(
        "tool_proficiency",
        "capability",
        0.15,
        "Tool proficiency",
        ("NIST AI Agent Standards Initiative", "Agent-tool interaction security/identity"),
        explanation=(
            "How well the agent uses the tools it calls often: calls that succeed, recovery when a "
            "call fails, and few unnecessary calls."
        ),
    ),
    Dimension(
        "autonomy_level",
        "capability",
        0.10,
        "Autonomy level",
        ("ISO/IEC 22989:2022", "Human-in/on/over-the-loop definitions"),
        explanation=(
            "The most independent level of human oversight, from a person approving each step to "
            "fully autonomous, at which the agent has completed at least three tasks and performs at "
            "Proficient level or better."
        ),
    ),
    Dimension(
        "learning_rate",
        "capability",
        0.10,
        "Learning rate",
        ("ISO/IEC 25059:2023", "Adaptability, continuous learning quality"),
        explanation=(
            "Whether the agent gets better with practice: in each domain where it recently completed "
            "at least 15 tasks, how much its latest tasks improved on its earlier ones."
        ),
    ),
    Dimension(
        "delegation_capability",
        "capability",
        0.15,
        "Delegation capability",
        ("NIST AI Agent Standards Initiative", "Agent-to-agent communication, authorization"),
        explanation=(
            "How well the agent hands work to other agents: deciding rightly when to delegate, "
            "choosing the right one, and seeing delegated work through to a good outcome."
        ),
    ),
    Dimension(
        "orchestration_skills",
        "capability",
        0.15,
        "Orchestration skills",
        (
            "NIST AI Agent Standards Initiative + IEEE P2894",
            "Multi-agent coordination, interoperability levels",
        ),
        explanation=(
            "How well the agent runs a job shared among several agents: designing the workflow, "
            "communicating clearly, recovering from failures and combining the results."
        ),
    ),
)

BY_NAME: Mapping[str, Dimension] = {d.name: d for d in DIMENSIONS}


def names_of(axis: str) -> tuple[str, ...]:
    """The axis's dimension names, in declaration order."""
    return tuple(d.name for d in DIMENSIONS if d.axis == axis)


def default_weights(axis: str) -> dict[str, float]:
    return {d.name: d.weight for d in DIMENSIONS if d.axis == axis}


def weights_for_declared(axis: str, stored: Mapping[str, float]) -> dict[str, float]:
    """An organization's stored weights for the dimensions declared now (docs/scoring.md §1).

    Stored when the axis had other dimensions, a table is carried over by one rule: a
    dimension no longer declared is dropped; a declared dimension the table does not name
    gets its default weight; the stored weights of the rest keep their proportions and share
    what is left, so the table sums to 1.  A table naming exactly the declared dimensions is
    returned as stored; one whose remaining weights sum to 0 gives way to the defaults.
    """
    declared = names_of(axis)
    if set(stored) == set(declared):
        return {name: stored[name] for name in declared}
    defaults = default_weights(axis)
    added = [name for name in declared if name not in stored]
    kept_total = sum(stored[name] for name in declared if name in stored)
    if kept_total <= 0.0:
        return defaults
    share = (1.0 - sum(defaults[name] for name in added)) / kept_total
    return {name: stored[name] * share if name in stored else defaults[name] for name in declared}


# --------------------------------------------------------------------------- formulas

FormulaT = TypeVar("FormulaT", bound=Callable[..., Any])


class Formulas(Generic[FormulaT]):
    """One form of the dimensions' formulas, keyed by the declared name.

    ``axis``: the form exists for that axis's dimensions only (``None``: for every one).
    """

    def __init__(self, form: str, axis: str | None = None) -> None:
        self.form = form
        self.axis = axis
        self._by_name: dict[str, FormulaT] = {}
        self._complete: dict[str, FormulaT] | None = None

    def register(self, name: str) -> Callable[[FormulaT], FormulaT]:
        """Decorator: the function is dimension ``name``'s formula of this form.

        Refused at once (RuntimeError naming it) when ``name`` is not declared, is declared
        on another axis, or already has a formula of this form."""
        declared = BY_NAME.get(name)
        if declared is None or (self.axis is not None and declared.axis != self.axis):
            where = f"a {self.axis} dimension" if self.axis else "a dimension"
            raise RuntimeError(
                f"{self.form} formula for {name!r}: {name!r} is not declared as {where} "
                "in aaaf.scoring.dimensions"
            )
        if name in self._by_name:
            raise RuntimeError(f"dimension {name!r} has two {self.form} formulas")

        def bind(function: FormulaT) -> FormulaT:
            self._by_name[name] = function
            self._complete = None
            return function

        return bind

    def complete(self) -> Mapping[str, FormulaT]:
        """Every declared dimension's formula of this form, in declaration order.

        A declared dimension without one raises RuntimeError naming it."""
        if self._complete is None:
            wanted = [d.name for d in DIMENSIONS if self.axis is None or d.axis == self.axis]
            missing = [name for name in wanted if name not in self._by_name]
            if missing:
                raise RuntimeError(
                    f"declared dimension(s) without a formula ({self.form}): {', '.join(missing)}"
                )
            self._complete = {name: self._by_name[name] for name in wanted}
        return self._complete


ENGINE: Formulas[Callable[[AssessmentContext], DimensionResult]] = Formulas("engine")
"""The engine's formula of each dimension: its result (score, sample, details, evidence) over
one assessment's window (registered in :mod:`aaaf.scoring.aaaf_performance` and
:mod:`aaaf.scoring.aaaf_capability`)."""

SUBSET_SCORES: Formulas[Callable[[PerformanceComponents], float | None]] = Formulas(
    "subset score", "performance"
)
"""A Performance dimension's score from the components of any task set: what ``perf(S)``
(SCORING.md §2.3) weighs (registered in :mod:`aaaf.scoring.aaaf_performance`)."""

PERFORMANCE_ROWS: Formulas[Callable[[PerformanceRows], FloatArray]] = Formulas("rows", "performance")
"""A Performance dimension's score in every resample of the bootstrap, from the rows' sums of
the per-task terms (SCORING.md §2.5; registered in :mod:`aaaf.scoring.aaaf_performance`)."""

CAPABILITY_ROWS: Formulas[Callable[[CapabilityRows], FloatArray]] = Formulas("rows", "capability")
"""A Capability dimension's score in every resample of the bootstrap (SCORING.md §2.5;
registered in :mod:`aaaf.scoring.capability_rows`, which :mod:`aaaf.scoring.uncertainty`
imports)."""


__all__ = [
    "BY_NAME",
    "CAPABILITY_ROWS",
    "DIMENSIONS",
    "ENGINE",
    "PERFORMANCE_ROWS",
    "SUBSET_SCORES",
    "Dimension",
    "Formulas",
    "default_weights",
    "names_of",
    "weights_for_declared",
]
