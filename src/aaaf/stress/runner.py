"""Running the stress suite with ``inspect_ai.eval`` (issue 15 "Build on inspect_ai").

:func:`run_suite` builds the ``stress_suite`` task for the chosen tasks and agent, runs it
with ``inspect_ai.eval`` (samples in parallel up to ``parallel``), keeps the log in
``log_dir`` (``inspect view`` opens it) and returns the per-task records read back from
that log by the importer (:mod:`aaaf.evals.importers.inspect_stress`).  inspect_ai is
imported here, lazily: importing :mod:`aaaf.stress` does not load it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aaaf.errors import AAAFError
from aaaf.stress.sandbox import SandboxChoice

NOMINAL_MODEL = "mockllm/model"
"""The solver drives the agent itself and never calls inspect's model; mockllm is a stand-in."""


@dataclass
class AgentSpec:
    """The agent under test: a command (subprocess adapter) or an endpoint (chat completions)."""

    command: str | None = None
    url: str | None = None
    model: str | None = None
    api_key: str | None = field(default=None, repr=False)
    """The endpoint's key (sent to ``url`` only: :func:`aaaf.stress.adapters.agent_credentials`)."""

    def __post_init__(self) -> None:
        if (self.command is None) == (self.url is None):
            raise AAAFError("INVALID_REQUEST", "give exactly one of --agent-cmd or --agent-url")
        if self.url is not None and not self.model:
            raise AAAFError("INVALID_REQUEST", "--agent-url needs --model", {"field": "model"})

    @property
    def adapter(self) -> str:
        return "subprocess" if self.command is not None else "chat_completions"

    @property
    def reference(self) -> str:
        return self.command if self.command is not None else f"{self.url} ({self.model})"


@dataclass
class SuiteResult:
    log_path: str
    records: list[dict[str, Any]] = field(default_factory=list)
    library_version: str = ""
    eval_id: str | None = None
    """The log's ``eval.eval_id``: an import of the same log later is refused as a duplicate."""


def _nominal_model() -> Any:
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    output = ModelOutput.from_content(NOMINAL_MODEL, "unused")
    output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return get_model(NOMINAL_MODEL, custom_outputs=[output] * 2, memoize=False)


def run_suite(
    agent: AgentSpec,
    *,
    library_dirs: Sequence[str] = (),
    dimension: str | None = None,
    task_ids: Sequence[str] | None = None,
    parallel: int = 4,
    log_dir: str | Path,
    turn_timeout: float = 30.0,
    task_timeout: float = 120.0,
    on_task: Callable[[dict[str, Any]], None] | None = None,
    sandbox: SandboxChoice,
) -> SuiteResult:
    """Run the chosen stress tasks against ``agent``, every tool call and grader in
    ``sandbox`` (chosen and checked by :func:`aaaf.stress.sandbox.require_sandbox`); the
    records of the log it wrote."""
    from inspect_ai import eval as inspect_eval

    from aaaf.evals.importers.inspect_stress import read_stress_log
    from aaaf.stress import inspect_tasks
    from aaaf.stress.library import load_library

    dirs = [str(Path(d).resolve()) for d in library_dirs]
    library = load_library(dirs)  # validates the user's directories before anything runs
    chosen = library.select(dimension=dimension, task_ids=task_ids)
    if not chosen:
        raise AAAFError("INVALID_REQUEST", "no stress task matches the selection", {"field": "dimension"})
    suite = inspect_tasks.stress_suite(
        library=os.pathsep.join(dirs),
        dimension=dimension or "",
        task_ids=",".join(task_ids or []),
        agent_cmd=agent.command or "",
        agent_url=agent.url or "",
        model=agent.model or "",
        turn_timeout=turn_timeout,
        task_timeout=task_timeout,
        sandbox=sandbox.provider,
        sandbox_config=sandbox.config or "",
    )
    inspect_tasks.PROGRESS_HOOKS.append(on_task) if on_task else None
    try:
        logs = inspect_eval(
            suite,
            model=_nominal_model(),
            max_samples=max(1, parallel),
            log_dir=str(log_dir),
            log_format="eval",
            display="none",
            fail_on_error=False,
            score_display=False,
        )
    finally:
        if on_task:
            inspect_tasks.PROGRESS_HOOKS.remove(on_task)
    log = logs[0]
    if log.status == "error" and not log.samples:
        raise AAAFError("INTERNAL_ERROR", f"the stress run failed in inspect_ai: {log.error}")
    header, records = read_stress_log(log.location)
    return SuiteResult(
        log_path=str(log.location),
        records=records,
        library_version=library.version,
        eval_id=header.get("eval_id"),
    )
