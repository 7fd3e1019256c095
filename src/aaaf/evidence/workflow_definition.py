"""Workflow definition files: where a run's ``dag_steps`` and retry budget come from.

Document 003 §3.2 scores a run against the workflow the miner declared:
``completion_ratio = steps_completed / total_steps_in_dag`` and
``declared_retry_budget = sum of retry_count values in error_handling (0 if absent)``;
``timeouts`` count step executions that exceeded the declared ``timeout_seconds``.  A
definition file declares exactly that::

    {"name": "etl",
     "steps": [{"id": "fetch", "depends_on": [],
                "error_handling": {"retry_count": 2}, "timeout_seconds": 30},
               {"id": "load", "depends_on": ["fetch"]}]}

and a ``workflow_run`` whose ``data`` says ``"workflow": "etl"`` may leave ``dag_steps`` and
``declared_retry_budget`` out: :func:`resolve_run` fills them in from the definition (it
runs on the raw payload, before ``validate_event``, which requires both).  A run that
gives them and disagrees with its definition is an error naming both values — a miner
cannot declare a larger retry budget than its workflow does.

Files are JSON; ``.yaml``/``.yml`` files are read too when PyYAML is importable (it is not
a declared dependency, so YAML is a convenience, not a promise).  Every failure is an
``AAAFError('INVALID_REQUEST')`` naming the file and the field.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aaaf.errors import AAAFError

DEFINITION_SUFFIXES: tuple[str, ...] = (".json", ".yaml", ".yml")


@dataclass(frozen=True)
class StepDefinition:
    """One DAG step: its dependencies, its declared retry budget and timeout."""

    id: str
    depends_on: tuple[str, ...]
    retry_count: int
    timeout_seconds: float | None


@dataclass(frozen=True)
class WorkflowDefinition:
    """A validated workflow: unique step ids, known dependencies, no cycle."""

    name: str
    steps: tuple[StepDefinition, ...]
    source: str | None = None

    @property
    def dag_steps(self) -> int:
        """``total_steps_in_dag`` of document 003."""
        return len(self.steps)

    @property
    def declared_retry_budget(self) -> int:
        """Σ ``error_handling.retry_count`` over the steps (0 where absent), document 003."""
        return sum(step.retry_count for step in self.steps)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "dag_steps": self.dag_steps,
            "declared_retry_budget": self.declared_retry_budget,
            "steps": [
                {
                    "id": step.id,
                    "depends_on": list(step.depends_on),
                    "error_handling": {"retry_count": step.retry_count},
                    "timeout_seconds": step.timeout_seconds,
                }
                for step in self.steps
            ],
        }


def _where(source: str | None) -> str:
    return f"{source}: " if source else ""


def _invalid(source: str | None, field: str, message: str, **details: Any) -> AAAFError:
    body: dict[str, Any] = {"field": field, **details}
    if source:
        body["file"] = source
    return AAAFError("INVALID_REQUEST", f"{_where(source)}workflow definition {field}: {message}", body)


def _find_cycle(steps: Sequence[StepDefinition]) -> list[str] | None:
    """The first cycle met by a depth-first walk in declaration order, as [a, b, …, a]."""
    depends = {step.id: step.depends_on for step in steps}
    state: dict[str, int] = {}  # 1 = on the current path, 2 = finished
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for parent in depends[node]:
            if state.get(parent) == 1:
                return [*path[path.index(parent) :], parent]
            if parent not in state:
                found = visit(parent)
                if found is not None:
                    return found
        path.pop()
        state[node] = 2
        return None

    for step in steps:
        if step.id not in state:
            found = visit(step.id)
            if found is not None:
                return found
    return None


def _step(raw: Any, index: int, source: str | None) -> StepDefinition:
    where = f"steps[{index}]"
    if not isinstance(raw, Mapping):
        raise _invalid(source, where, f"must be an object, got {raw!r}")
    step_id = raw.get("id")
    if not isinstance(step_id, str) or not step_id:
        raise _invalid(source, f"{where}.id", f"must be a non-empty string, got {step_id!r}")
    depends_raw = raw.get("depends_on", [])
    if depends_raw is None:
        depends_raw = []
    if not isinstance(depends_raw, list) or not all(isinstance(d, str) and d for d in depends_raw):
        raise _invalid(source, f"{where}.depends_on", f"must be a list of step ids, got {depends_raw!r}")
    if len(set(depends_raw)) != len(depends_raw):
        raise _invalid(source, f"{where}.depends_on", f"names a step twice: {depends_raw!r}")
    handling = raw.get("error_handling")
    retry_count: Any = 0
    if handling is not None:
        if not isinstance(handling, Mapping):
            raise _invalid(source, f"{where}.error_handling", f"must be an object, got {handling!r}")
        retry_count = handling.get("retry_count", 0)
    if isinstance(retry_count, bool) or not isinstance(retry_count, int) or retry_count < 0:
        raise _invalid(
            source, f"{where}.error_handling.retry_count", f"must be an integer ≥ 0, got {retry_count!r}"
        )
    timeout = raw.get("timeout_seconds")
    if timeout is not None and (
        isinstance(timeout, bool)
        or not isinstance(timeout, int | float)
        or not math.isfinite(timeout)
        or timeout <= 0
    ):
        raise _invalid(
            source, f"{where}.timeout_seconds", f"must be a number of seconds > 0, got {timeout!r}"
        )
    return StepDefinition(
        id=step_id,
        depends_on=tuple(depends_raw),
        retry_count=retry_count,
        timeout_seconds=float(timeout) if timeout is not None else None,
    )


def parse_definition(raw: Any, *, source: str | None = None) -> WorkflowDefinition:
    """Validate a definition: name, non-empty steps, unique ids, known dependencies, acyclic."""
    if not isinstance(raw, Mapping):
        raise _invalid(source, "(root)", f"must be an object, got {type(raw).__name__}")
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise _invalid(source, "name", f"must be a non-empty string, got {name!r}")
    steps_raw = raw.get("steps")
    if not isinstance(steps_raw, list) or not steps_raw:
        raise _invalid(source, "steps", f"must be a non-empty list of steps, got {steps_raw!r}")
    steps = [_step(item, index, source) for index, item in enumerate(steps_raw)]
    seen: dict[str, int] = {}
    for index, step in enumerate(steps):
        if step.id in seen:
            raise _invalid(
                source,
                f"steps[{index}].id",
                f"duplicate step id {step.id!r} (also steps[{seen[step.id]}])",
                step=step.id,
            )
        seen[step.id] = index
    for index, step in enumerate(steps):
        for parent in step.depends_on:
            if parent not in seen:
                raise _invalid(
                    source,
                    f"steps[{index}].depends_on",
                    f"step {step.id!r} depends on unknown step {parent!r}",
                    step=step.id,
                    unknown=parent,
                )
    cycle = _find_cycle(steps)
    if cycle is not None:
        raise _invalid(
            source,
            "steps",
            f"dependencies form a cycle: {' → '.join(cycle)} (a workflow is a DAG)",
            cycle=cycle,
        )
    return WorkflowDefinition(name=name, steps=tuple(steps), source=source)


def _read_yaml(text: str, source: str) -> Any:
    try:
        import yaml  # PyYAML: optional, see the module docstring
    except ImportError as error:
        raise AAAFError(
            "INVALID_REQUEST",
            f"{source}: YAML workflow definitions need PyYAML; write the definition as JSON",
            {"file": source},
        ) from error
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise AAAFError("INVALID_REQUEST", f"{source}: not valid YAML: {error}", {"file": source}) from error


def load_definition(path: str | Path) -> WorkflowDefinition:
    """Read and validate one definition file (JSON, or YAML when PyYAML is present)."""
    file = Path(path)
    source = str(file)
    text = file.read_text(encoding="utf-8")
    if file.suffix.lower() in (".yaml", ".yml"):
        raw = _read_yaml(text, source)
    else:
        try:
            raw = json.loads(text)
        except json.JSONDecodeError as error:
            raise AAAFError(
                "INVALID_REQUEST",
                f"{source}: not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})",
                {"file": source, "line": error.lineno},
            ) from error
    return parse_definition(raw, source=source)


def load_definitions(directory: str | Path) -> dict[str, WorkflowDefinition]:
    """Every definition file in ``directory`` (not recursive), by workflow name.

    Two files defining one name is an error naming both files: which one a run meant
    would otherwise depend on the directory listing.
    """
    folder = Path(directory)
    if not folder.is_dir():
        raise AAAFError(
            "INVALID_REQUEST", f"workflow definitions: {folder} is not a directory", {"path": str(folder)}
        )
    definitions: dict[str, WorkflowDefinition] = {}
    for file in sorted(folder.iterdir()):
        if not file.is_file() or file.suffix.lower() not in DEFINITION_SUFFIXES:
            continue
        definition = load_definition(file)
        held = definitions.get(definition.name)
        if held is not None:
            raise AAAFError(
                "CONFLICT",
                f"workflow {definition.name!r} is defined twice: {held.source} and {definition.source}",
                {"workflow": definition.name, "files": [held.source, definition.source]},
            )
        definitions[definition.name] = definition
    return definitions


DERIVED_FIELDS: tuple[str, ...] = ("dag_steps", "declared_retry_budget")


def resolve_run(data: Mapping[str, Any], definitions: Mapping[str, WorkflowDefinition]) -> dict[str, Any]:
    """A run's payload with ``dag_steps`` / ``declared_retry_budget`` taken from its definition.

    * no ``workflow`` in ``data`` → returned unchanged (a copy);
    * the named definition is known → missing derived fields are filled in; a given field
      that differs from the definition is an error naming both values;
    * the named definition is unknown → fine when the run gives both fields itself,
      otherwise an error naming the workflow and the definitions that are known.
    """
    out = dict(data)
    name = data.get("workflow")
    if name is None:
        return out
    if not isinstance(name, str) or not name:
        raise AAAFError(
            "INVALID_REQUEST",
            f"data.workflow: must be a non-empty string naming a workflow definition, got {name!r}",
            {"field": "data.workflow"},
        )
    definition = definitions.get(name)
    if definition is None:
        missing = [field for field in DERIVED_FIELDS if field not in data]
        if missing:
            known = ", ".join(sorted(definitions)) or "none loaded"
            raise AAAFError(
                "INVALID_REQUEST",
                f"data.workflow: workflow {name!r} is not defined (known: {known}) and the run does "
                f"not give {' or '.join(missing)}",
                {
                    "field": "data.workflow",
                    "workflow": name,
                    "missing": missing,
                    "known": sorted(definitions),
                },
            )
        return out
    derived = {"dag_steps": definition.dag_steps, "declared_retry_budget": definition.declared_retry_budget}
    for field, value in derived.items():
        if field not in data or data[field] is None:
            out[field] = value
            continue
        given = data[field]
        if isinstance(given, bool) or given != value:
            raise AAAFError(
                "INVALID_REQUEST",
                f"data.{field}: the run gives {given!r} but workflow {name!r} defines {value}"
                + (f" ({definition.source})" if definition.source else ""),
                {"field": f"data.{field}", "given": given, "defined": value, "workflow": name},
            )
    return out


def resolve_event(raw: Any, definitions: Mapping[str, WorkflowDefinition]) -> Any:
    """A raw event with its ``workflow_run`` payload resolved; anything else passes through.

    For collectors: call it on each raw event before ``validate_event``.
    """
    if not isinstance(raw, Mapping) or raw.get("type") != "workflow_run":
        return raw
    data = raw.get("data")
    if not isinstance(data, Mapping):
        return raw
    resolved = dict(raw)
    resolved["data"] = resolve_run(data, definitions)
    return resolved
