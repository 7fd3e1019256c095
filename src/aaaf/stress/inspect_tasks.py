"""The stress tests as inspect_ai tasks (issue 15 "Build on inspect_ai").

``stress_suite`` is one inspect_ai ``Task`` whose samples are the library's tasks (or a
dimension's, or named ones); ``stress_task`` is one stress task alone.  Both run under
``inspect eval``::

    inspect eval src/aaaf/stress/inspect_tasks.py@stress_task -T task_id=probe-code-1 \\
        -T agent_cmd="aaaf reference-agent oracle" --model mockllm/model

The solver drives the agent under test through :func:`aaaf.stress.adapters.run_episode`
(the agent is not inspect's model: the nominal model is ``mockllm/model``, never called)
and grades the attempt in the work directory; the scorer ``stress_grade`` writes the grade
and everything the evidence needs into the log's score metadata, which
:mod:`aaaf.evals.importers.inspect_stress` turns into AAAF events.  The transcript (tool
calls and results) is in the sample's messages, so ``inspect view`` shows what the agent did.

This module imports inspect_ai at import time; import it lazily (it is slow to import).
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageAssistant, ChatMessageTool, ModelOutput
from inspect_ai.scorer import Score, Target, mean, scorer
from inspect_ai.solver import Generate, TaskState, solver
from inspect_ai.tool import ToolCall as InspectToolCall
from inspect_ai.util import SandboxEnvironmentSpec, sandbox

from aaaf.stress.adapters import ChatCompletionsAgent, SubprocessAgent, run_episode
from aaaf.stress.grading import grade
from aaaf.stress.library import LIBRARY_DIRS_ENV, Library, load_library, sequence_position
from aaaf.stress.sandbox import BUBBLEWRAP, choose_sandbox_by_name, load_provider
from aaaf.stress.tools import ToolEnvironment

SCORER_NAME = "stress_grade"
METADATA_KEY = "aaaf_stress"
_LIBRARIES: dict[tuple[str, ...], Library] = {}
PROGRESS_HOOKS: list[Any] = []
"""Callables told each finished task's record (the CLI's live progress)."""


def _library(dirs: tuple[str, ...]) -> Library:
    if dirs not in _LIBRARIES:
        _LIBRARIES[dirs] = load_library(dirs)
    return _LIBRARIES[dirs]


def _split(value: str) -> tuple[str, ...]:
    return tuple(part for part in value.split(os.pathsep) if part) if value else ()


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


@solver
def stress_agent(
    library: str = "",
    agent_cmd: str = "",
    agent_url: str = "",
    model: str = "",
    turn_timeout: float = 30.0,
    task_timeout: float = 120.0,
    sandbox_name: str = "",
) -> Any:
    """Run the agent under test through one stress task and grade what it did; every tool
    call and grader in the sample's sandbox (``sandbox_name`` is recorded with the grade)."""
    dirs = _split(library)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        lib = _library(dirs)
        loaded = lib.get(str(state.sample_id))
        stress_task = loaded.task
        environment = ToolEnvironment(stress_task, lib, sandbox())
        await environment.setup()
        if agent_cmd:
            env = {LIBRARY_DIRS_ENV: os.pathsep.join(lib.directories[1:])}
            # in the directory aaaf runs in, so that a relative --agent-cmd works as typed
            session: Any = SubprocessAgent(agent_cmd, env=env)
        else:
            session = ChatCompletionsAgent(agent_url, model)
        started = datetime.now(UTC)
        episode = await run_episode(
            session, environment, turn_timeout=turn_timeout, task_timeout=task_timeout
        )
        finished = datetime.now(UTC)
        result = await grade(
            stress_task,
            episode.answer,
            environment.sandbox,
            environment.calls,
            failure=episode.failure,
            violations=environment.violations,
        )
        for item in episode.transcript:
            if item["role"] == "tool_call":
                call = InspectToolCall(
                    id=item["id"],
                    function=item["tool"],
                    arguments=item["arguments"] if isinstance(item["arguments"], dict) else {},
                )
                state.messages.append(ChatMessageAssistant(content="", tool_calls=[call]))
                state.messages.append(
                    ChatMessageTool(
                        content=item["output"][:4000],
                        tool_call_id=item["id"],
                        function=item["tool"],
                    )
                )
            else:
                state.messages.append(ChatMessageAssistant(content=item["content"]))
        state.output = ModelOutput.from_content("aaaf/agent-under-test", episode.answer or "")
        state.metadata[METADATA_KEY] = {
            "task_id": stress_task.id,
            "library": loaded.library,
            "task_type": stress_task.task_type,
            "dimensions": stress_task.dimensions,
            "domain": stress_task.domain,
            "complexity_level": stress_task.complexity_level,
            "autonomy_level": stress_task.autonomy_level,
            "category": stress_task.category,
            # the library's run order: the evidence's completion order (docs/stress-tests.md
            # "Learning sequences"), whatever order the parallel samples finished in
            "position": lib.position(stress_task.id),
            "sequence_position": sequence_position(lib.tasks, stress_task.id),
            "time_baseline_seconds": stress_task.time_baseline_seconds,
            "started_at": _iso(started),
            "finished_at": _iso(finished),
            "elapsed_seconds": episode.seconds,
            # the provider's failures, retried (chat adapter): not the agent's time, nor its task
            "provider_wait_seconds": episode.provider_wait_seconds,
            "provider_retries": int(getattr(session, "provider_retries", 0)),
            "infrastructure_failed": episode.infrastructure_failed,
            "turns": episode.turns,
            "answer": episode.answer,
            "failure": episode.failure,
            "grade": result.to_dict(),
            "tools": environment.summary(),
            "sandbox": sandbox_name,
            "delegation": None if stress_task.delegation is None else stress_task.delegation.model_dump(),
            "orchestration": None
            if stress_task.orchestration is None
            else {
                "subagents": [s.name for s in stress_task.orchestration.subagents],
                "failures_injected": sum(1 for s in stress_task.orchestration.subagents if s.failure),
            },
        }
        for hook in list(PROGRESS_HOOKS):
            hook(state.metadata[METADATA_KEY])
        state.completed = True
        return state

    return solve


@scorer(metrics=[mean()], name=SCORER_NAME)
def stress_grade() -> Any:
    """The grade the solver computed, as credit in [0, 1] with its record in the metadata."""

    async def score(state: TaskState, target: Target) -> Score:
        record = state.metadata.get(METADATA_KEY)
        if record is None:  # the solver did not finish: nothing was graded
            return Score(value=0.0, explanation="not run", metadata={"status": "rejected"})
        graded = record["grade"]
        return Score(
            value=graded["credit"],
            answer=record["answer"],
            explanation=graded["status"]
            + ("" if not graded["errors"] else ": " + graded["errors"][0]["message"]),
            metadata=record,
        )

    return score


def _samples(lib: Library, dimension: str, task_ids: str) -> list[Sample]:
    chosen = lib.select(
        dimension=dimension or None, task_ids=[t for t in task_ids.split(",") if t] if task_ids else None
    )
    return [
        Sample(
            id=loaded.task.id,
            input=loaded.task.prompt,
            metadata={"task_type": loaded.task.task_type, "domain": loaded.task.domain},
        )
        for loaded in chosen
    ]


@task
def stress_suite(
    library: str = "",
    dimension: str = "",
    task_ids: str = "",
    agent_cmd: str = "",
    agent_url: str = "",
    model: str = "",
    turn_timeout: float = 30.0,
    task_timeout: float = 120.0,
    sandbox: str = BUBBLEWRAP,
    sandbox_config: str = "",
) -> Task:
    """The stress-test library (``library``: extra directories, ``os.pathsep``-separated).
    Every tool call and grader runs in ``sandbox`` (an inspect_ai provider name, or ``none``
    for the host; ``sandbox_config`` its configuration file)."""
    lib = _library(_split(library))
    choice = choose_sandbox_by_name(sandbox, sandbox_config or None)
    load_provider(choice.provider)
    return Task(
        name="aaaf_stress",
        dataset=MemoryDataset(_samples(lib, dimension, task_ids), name=lib.version),
        solver=stress_agent(
            library,
            agent_cmd,
            agent_url,
            model,
            turn_timeout,
            task_timeout,
            choice.to_dict()["provider"] or "",
        ),
        scorer=stress_grade(),
        sandbox=SandboxEnvironmentSpec(choice.provider, choice.config),
        metadata={"library_version": lib.version, "sandbox": choice.to_dict()},
    )


@task
def stress_task(
    task_id: str,
    library: str = "",
    agent_cmd: str = "",
    agent_url: str = "",
    model: str = "",
    sandbox: str = BUBBLEWRAP,
) -> Task:
    """One stress task of the library, alone."""
    return stress_suite(
        library=library,
        task_ids=task_id,
        agent_cmd=agent_cmd,
        agent_url=agent_url,
        model=model,
        sandbox=sandbox,
    )
