"""`aaaf stress-test`, `aaaf stress-runs` and `aaaf reference-agent` (issue 15; document 004
§5.1 step 3, §5.3, §8 phase 1)."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.live import Live
from rich.table import Table

from aaaf.cli.context import (
    DbOption,
    JsonOption,
    agent_api_key,
    console,
    err_console,
    fail,
    handle_errors,
    open_session,
    print_json,
)
from aaaf.errors import AAAFError

if TYPE_CHECKING:
    from aaaf.models.stress_tasks import StressTaskListing


class ReferenceAgent(StrEnum):
    oracle = "oracle"
    heuristic = "heuristic"
    careless = "careless"
    random = "random"


def register(app: typer.Typer) -> None:
    app.command("stress-test")(stress_test)
    app.command("stress-runs")(stress_runs)
    app.command("reference-agent")(reference_agent)


STATUS_STYLE = {"accepted": "green", "partial": "yellow", "rejected": "red", "infrastructure": "magenta"}
"""``infrastructure``: the provider kept failing — not graded, not the agent's (docs/agent-protocol.md)."""


class _Progress:
    """The live display: the latest tasks with dimension and outcome, and the counts."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.rows: list[tuple[str, str, str, str]] = []
        self.counts: dict[str, int] = {}

    def __call__(self, record: dict[str, Any]) -> None:
        status = "infrastructure" if record.get("infrastructure_failed") else record["grade"]["status"]
        self.counts[status] = self.counts.get(status, 0) + 1
        note = record.get("failure") or (
            record["grade"]["errors"][0]["message"] if record["grade"]["errors"] else ""
        )
        self.rows.append((record["task_id"], ", ".join(record["dimensions"]), status, note[:60]))

    def render(self) -> Table:
        done = sum(self.counts.values())
        counts = "  ".join(f"{k} {v}" for k, v in sorted(self.counts.items()))
        table = Table(title=f"stress test: {done}/{self.total} tasks  {counts}")
        for column in ("task", "dimension", "outcome", "note"):
            table.add_column(column)
        for task_id, dims, status, note in self.rows[-12:]:
            table.add_row(task_id, dims, f"[{STATUS_STYLE[status]}]{status}[/]", note)
        return table


def task_listing(library: Any, chosen: list[Any]) -> list[StressTaskListing]:
    """What ``--list`` shows of each task, in run order (docs/stress-tests.md "Listing the tasks")."""
    from aaaf.models.stress_tasks import StressTaskListing
    from aaaf.stress.library import sequence_position

    return [
        StressTaskListing(
            id=loaded.task.id,
            task_type=loaded.task.task_type,
            domain=loaded.task.domain,
            complexity_level=loaded.task.complexity_level,
            autonomy_level=loaded.task.autonomy_level,
            dimensions=list(loaded.task.dimensions),
            category=loaded.task.category,
            sequence_position=sequence_position(library.tasks, loaded.task.id),
            tools=list(loaded.task.tools),
            time_baseline_seconds=loaded.task.time_baseline_seconds,
            library=loaded.library,
        )
        for loaded in chosen
    ]


def _print_listing(listing: list[StressTaskListing]) -> None:
    table = Table(title=f"{len(listing)} stress tasks, in run order")
    for column in ("id", "type", "domain", "level", "autonomy", "sequence", "tools", "baseline s"):
        table.add_column(column)
    for item in listing:
        sequence = f"{item.category} #{item.sequence_position}" if item.category else ""
        table.add_row(
            item.id,
            item.task_type,
            item.domain or "(none)",
            str(item.complexity_level),
            "" if item.autonomy_level is None else str(item.autonomy_level),
            sequence,
            ", ".join(item.tools),
            f"{item.time_baseline_seconds:g}",
        )
    console.print(table)


@handle_errors
def stress_test(
    name: Annotated[str | None, typer.Argument(help="The agent (enrolled when unknown).")] = None,
    agent_cmd: Annotated[
        str | None, typer.Option("--agent-cmd", help="A program speaking docs/agent-protocol.md.")
    ] = None,
    agent_url: Annotated[
        str | None,
        typer.Option("--agent-url", help="An OpenAI-compatible base URL (key: AAAF_AGENT_API_KEY)."),
    ] = None,
    model: Annotated[str | None, typer.Option("--model", help="The model name, with --agent-url.")] = None,
    dimension: Annotated[str | None, typer.Option("--dimension", help="Only this dimension's tasks.")] = None,
    task: Annotated[
        list[str] | None, typer.Option("--task", help="Only these task ids (repeatable).")
    ] = None,
    parallel: Annotated[int, typer.Option("--parallel", min=1, max=64)] = 4,
    library: Annotated[
        list[str] | None, typer.Option("--library", help="A directory of the organization's own tasks.")
    ] = None,
    log_dir: Annotated[str, typer.Option("--log-dir", help="Where inspect_ai logs go.")] = "stress-logs",
    turn_timeout: Annotated[float, typer.Option("--turn-timeout", help="Seconds per agent message.")] = 30.0,
    task_timeout: Annotated[float, typer.Option("--task-timeout", help="Seconds per task.")] = 120.0,
    sandbox: Annotated[
        str | None,
        typer.Option(
            "--sandbox",
            help="Where tool calls and code graders run: bubblewrap (default, AAAF_SANDBOX), docker, k8s, "
            "another inspect_ai sandbox provider, or none (on this machine, as you; docs/stress-tests.md).",
        ),
    ] = None,
    list_tasks: Annotated[
        bool,
        typer.Option(
            "--list",
            help="List the tasks (id, type, domain, levels, sequence, tools, baseline) instead of running them.",
        ),
    ] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Run the stress-test library against an agent (docs/stress-tests.md) and store the evidence."""
    from aaaf.services.stress import run_stress_test
    from aaaf.stress.library import load_library
    from aaaf.stress.runner import AgentSpec

    if list_tasks:
        try:
            loaded = load_library(library or [])
            listing = task_listing(loaded, loaded.select(dimension=dimension, task_ids=task))
        except AAAFError as error:
            fail(error, as_json=as_json)
        if as_json:
            print_json(listing)
        else:
            _print_listing(listing)
        return
    try:
        if name is None:
            raise AAAFError("INVALID_REQUEST", "give the agent's NAME (or --list to list the tasks)")
        spec = AgentSpec(command=agent_cmd, url=agent_url, model=model, api_key=agent_api_key())
        chosen = load_library(library or []).select(dimension=dimension, task_ids=task)
    except AAAFError as error:
        fail(error, as_json=as_json)
    assert name is not None
    with open_session(db) as session:
        from aaaf.services.stress import with_installed
        from aaaf.stress.sandbox import NONE_MEANS, require_sandbox

        if session.org.installed_libraries():  # issue 20 §3: installed libraries' tasks join the run
            chosen = load_library(with_installed(session.org, library or [])).select(
                dimension=dimension, task_ids=task
            )
        try:
            box = require_sandbox(
                [loaded.task for loaded in chosen], session.context.settings, requested=sandbox, service=False
            )
        except AAAFError as error:
            fail(error, as_json=as_json)
        if box.on_host:
            err_console.print(f"[yellow]warning:[/] {NONE_MEANS}")
        progress = _Progress(len(chosen))
        if as_json:
            run, _ = _run(run_stress_test, session, name, spec, library, dimension, task, parallel, log_dir, turn_timeout, task_timeout, None, box)  # fmt: skip
            from aaaf.models import LocalStressRun

            print_json(LocalStressRun.model_validate(run.to_dict()))
            return
        with Live(progress.render(), console=console, refresh_per_second=4) as live:

            def on_task(record: dict[str, Any]) -> None:
                progress(record)
                live.update(progress.render())

            run, _ = _run(run_stress_test, session, name, spec, library, dimension, task, parallel, log_dir, turn_timeout, task_timeout, on_task, box)  # fmt: skip
    infrastructure = run.summary.get("infrastructure_failed", {}).get("tasks", 0)
    console.print(
        f"stress run {run.id}: {run.summary['tasks']} tasks, {run.summary['statuses']}"
        + (f", {infrastructure} infrastructure-failed (not scored)" if infrastructure else "")
        + f"; log {run.log_path} (inspect view)"
    )
    graded = run.summary.get("model_graded")
    if graded:
        console.print(f"model-graded sub-scores: {graded['note']}")
    console.print(
        f"score it: aaaf assess {name} --type stress_test_only (or full, merged with passive evidence)"
    )


def _run(run_stress_test: Any, session: Any, name: str, spec: Any, library: Any, dimension: Any, task: Any, parallel: int, log_dir: str, turn_timeout: float, task_timeout: float, on_task: Any, sandbox: Any) -> Any:  # fmt: skip
    return run_stress_test(
        session.org,
        name,
        spec,
        library_dirs=library or [],
        dimension=dimension,
        task_ids=task,
        parallel=parallel,
        log_dir=log_dir,
        turn_timeout=turn_timeout,
        task_timeout=task_timeout,
        on_task=on_task,
        settings=session.context.settings,  # the judge of the model-graded sub-scores, if any
        sandbox=sandbox,
        clock=session.context.clock,
    )


@handle_errors
def stress_runs(
    name: Annotated[str, typer.Argument(help="The agent.")],
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """An agent's stress runs (docs/api.md)."""
    with open_session(db) as session:
        agent = session.org.get_agent(name)
        runs = session.org.stress_runs(agent.id)
    if as_json:
        from aaaf.models import LocalStressRun

        print_json([LocalStressRun.model_validate(run.to_dict()) for run in runs])
        return
    table = Table(title=f"Stress runs of {agent.name}")
    for column in ("id", "adapter", "library", "started", "status", "tasks", "model-graded", "merged into"):
        table.add_column(column)
    for run in runs:
        table.add_row(
            str(run.id),
            run.adapter,
            run.library_version,
            f"{run.started_at or run.created_at:%Y-%m-%d %H:%M}",
            run.status,
            str(run.summary.get("statuses", "")),
            _model_graded(run.summary.get("model_graded")),
            str(run.assessment_id or "—"),
        )
    console.print(table)


def _model_graded(graded: Any) -> str:
    """The run's model-graded sub-scores in one cell: the judge, or null without one."""
    if not isinstance(graded, dict):
        return "—"
    if graded.get("judge") is None:
        return "null (no judge configured)"
    return f"{graded['judge']}: {graded['judged']}"


def reference_agent(
    kind: Annotated[ReferenceAgent, typer.Argument(help="oracle, heuristic, careless or random.")],
) -> None:
    """A reference agent speaking the stress-test protocol on stdin/stdout (docs/agent-protocol.md)."""
    from aaaf.stress.reference_agents import main

    raise typer.Exit(main([kind.value]))
