"""`aaaf gate`: the CI/CD gate (document 004 §8 phase 3) — a thin shell over
:mod:`aaaf.services.gate`, :mod:`aaaf.services.gate_agent` and
:mod:`aaaf.services.gate_baselines`.

    aaaf gate BASELINE CANDIDATE [--fail-on …] [--margin M] [--junit FILE] [--summary FILE] [--html FILE]
    aaaf gate --agent NAME (--agent-cmd CMD | --agent-url URL --model M) [--promote] [same options]
    aaaf gate promote ASSESSMENT_ID

``promote`` makes a stored assessment its agent's baseline (a file named ``promote`` is
``./promote``).
Two eval runs are read, graded and compared exactly as ``aaaf compare`` does
(:func:`aaaf.cli.commands.compare.compare_pair`); an agent is put through the stress suite,
assessed ``stress_test_only`` and compared with its stored baseline assessment.  Exit 0 when
no ``--fail-on`` condition holds, 1 when one does, 2 on bad input (a missing or unreadable
file, an unknown condition, …) with a message.  See docs/ci.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from aaaf.cli.commands.eval_common import (
    AllowIncompleteOption,
    ConfidenceOption,
    FromOption,
    JudgeSpecOption,
    JudgeUrlOption,
    RubricOption,
    SeedOption,
    build_config,
    judge_options,
)
from aaaf.cli.context import (
    DbOption,
    JsonOption,
    agent_api_key,
    bad_input,
    console,
    handle_errors,
    open_session,
    print_json,
)
from aaaf.graders.judge import DEFAULT_RUBRIC
from aaaf.services.gate import (
    DEFAULT_FAIL_ON,
    GATE_RESAMPLES,
    GateResult,
    Written,
    parse_fail_on,
    write_outputs,
)
from aaaf.services.gate_checks import DIMENSION_TOLERANCE


def register(app: typer.Typer) -> None:
    app.command("gate")(gate)


@handle_errors
def gate(
    baseline: Annotated[
        Path | None,
        typer.Argument(
            help="The baseline eval run (any format `aaaf compare` reads); or `promote` to make the "
            "assessment CANDIDATE its agent's baseline.",
            show_default=False,
        ),
    ] = None,
    candidate: Annotated[
        Path | None,
        typer.Argument(
            help="The candidate eval run (after `promote`: an assessment id).", show_default=False
        ),
    ] = None,
    fail_on: Annotated[
        str,
        typer.Option(
            "--fail-on",
            help="Exit 1 when one of these holds (comma-separated): a verdict name (regress, cautious, "
            "noise, underpowered, progress, equivalent, solo), tier-drop, any-layer-regress, inconclusive; "
            "'none' never fails. Strict: regress,tier-drop,inconclusive,any-layer-regress.",
        ),
    ] = DEFAULT_FAIL_ON,
    margin: Annotated[
        float | None,
        typer.Option(
            "--margin",
            help="Equivalence margin: EQUIVALENT when the composite difference's 90 % interval lies within "
            "±MARGIN (agent: 0-1 composite scale, default 0.10; eval runs: points, default 0.25).",
            show_default=False,
        ),
    ] = None,
    promote: Annotated[
        bool,
        typer.Option(
            "--promote",
            help="Agent: make this run's assessment the baseline even if the gate fails "
            "(a passed candidate becomes it anyway).",
        ),
    ] = False,
    junit: Annotated[
        Path | None, typer.Option("--junit", help="Write a JUnit XML report here.", show_default=False)
    ] = None,
    summary: Annotated[
        Path | None,
        typer.Option(
            "--summary",
            help="Write the Markdown summary here (also appended to $GITHUB_STEP_SUMMARY).",
            show_default=False,
        ),
    ] = None,
    html: Annotated[
        Path | None, typer.Option("--html", help="Write the HTML report here.", show_default=False)
    ] = None,
    agent: Annotated[
        str | None,
        typer.Option("--agent", help="Gate this agent: stress suite, then its baseline.", show_default=False),
    ] = None,
    agent_cmd: Annotated[
        str | None,
        typer.Option("--agent-cmd", help="A program speaking docs/agent-protocol.md.", show_default=False),
    ] = None,
    agent_url: Annotated[
        str | None,
        typer.Option(
            "--agent-url", help="An OpenAI-compatible base URL (key: AAAF_AGENT_API_KEY).", show_default=False
        ),
    ] = None,
    model: Annotated[
        str | None, typer.Option("--model", help="The model name, with --agent-url.", show_default=False)
    ] = None,
    baseline_assessment: Annotated[
        str | None,
        typer.Option(
            "--baseline-assessment",
            help="Compare with this assessment (default: the latest valid one that passed a gate or was promoted).",
            show_default=False,
        ),
    ] = None,
    library: Annotated[
        list[str] | None,
        typer.Option("--library", help="A directory of the organization's own tasks.", show_default=False),
    ] = None,
    dimension: Annotated[
        str | None, typer.Option("--dimension", help="Only this dimension's tasks.", show_default=False)
    ] = None,
    task: Annotated[
        list[str] | None, typer.Option("--task", help="Only these task ids (repeatable).", show_default=False)
    ] = None,
    parallel: Annotated[int, typer.Option("--parallel", min=1, max=64)] = 4,
    log_dir: Annotated[str, typer.Option("--log-dir", help="Where inspect_ai logs go.")] = "stress-logs",
    turn_timeout: Annotated[float, typer.Option("--turn-timeout", help="Seconds per agent message.")] = 30.0,
    task_timeout: Annotated[float, typer.Option("--task-timeout", help="Seconds per task.")] = 120.0,
    dimension_tolerance: Annotated[
        float,
        typer.Option(
            "--dimension-tolerance",
            help="Agent, when the baseline's evidence is gone: a dimension regressed when it fell by more than this.",
            min=0.0,
            max=1.0,
        ),
    ] = DIMENSION_TOLERANCE,
    db: DbOption = None,
    source_format: FromOption = "auto",
    judge: JudgeSpecOption = None,
    judge_url: JudgeUrlOption = None,
    rubric: RubricOption = DEFAULT_RUBRIC,
    resamples: Annotated[
        int | None,
        typer.Option(
            "--resamples",
            help="Bootstrap resamples (eval runs: 10 000; agent: 2 000).",
            min=1,
            show_default=False,
        ),
    ] = None,
    confidence: ConfidenceOption = 0.95,
    seed: SeedOption = 0,
    allow_incomplete: AllowIncompleteOption = False,
    as_json: JsonOption = False,
) -> None:
    """Gate a change in CI: exit 1 on a regression or a tier drop (--fail-on), 0 otherwise, 2 on bad input."""  # fmt: skip
    if baseline is not None and str(baseline) == "promote":
        _promote(candidate, db, as_json)
        return
    conditions = parse_fail_on(fail_on)
    if margin is not None and not margin > 0.0:
        bad_input("--margin must be a positive number", margin=margin)
    comparison = None
    if agent is not None:
        if baseline is not None or candidate is not None:
            bad_input("give either BASELINE CANDIDATE eval runs or --agent, not both")
        if (agent_cmd is None) == (agent_url is None):
            bad_input("--agent needs exactly one of --agent-cmd or --agent-url (with --model)")
        result = _agent_gate(
            agent, agent_cmd, agent_url, model, conditions, baseline_assessment, library, dimension, task,
            parallel, log_dir, turn_timeout, task_timeout, dimension_tolerance, db,
            margin=margin, promote=promote, resamples=resamples or GATE_RESAMPLES, seed=seed,
        )  # fmt: skip
    else:
        if baseline is None:
            bad_input("give BASELINE and CANDIDATE eval run files, or --agent NAME")
        for option, value in (("--agent-cmd", agent_cmd), ("--agent-url", agent_url), ("--baseline-assessment", baseline_assessment)):  # fmt: skip
            if value is not None:
                bad_input(f"{option} goes with --agent")
        if promote:
            bad_input("--promote goes with --agent (eval run files are not stored)")
        from aaaf.cli.commands.compare import compare_pair
        from aaaf.services.gate import decide_eval

        config = build_config(
            weights=None,
            standardize=False,
            hotelling=False,
            resamples=resamples or 10_000,
            confidence=confidence,
            seed=seed,
        )
        comparison, _ = compare_pair(
            baseline,
            candidate,
            config=config,
            options=judge_options(judge, judge_url, rubric, False, None),
            source_format=source_format,
            allow_incomplete=allow_incomplete,
        )
        result = decide_eval(comparison, conditions, **({} if margin is None else {"margin": margin}))
    written = write_outputs(result, summary=summary, junit=junit, html=html, comparison=comparison)
    if as_json:
        print_json(result.to_model(written.to_model()))
    else:
        _print(result, written)
    raise typer.Exit(result.exit_code)


def _agent_gate(
    agent: str, agent_cmd: str | None, agent_url: str | None, model: str | None, conditions: tuple[str, ...],
    baseline_assessment: str | None, library: list[str] | None, dimension: str | None, task: list[str] | None,
    parallel: int, log_dir: str, turn_timeout: float, task_timeout: float, dimension_tolerance: float, db: str | None,
    *, margin: float | None, promote: bool, resamples: int, seed: int,
) -> GateResult:  # fmt: skip
    from aaaf.services.gate import AGENT_MARGIN
    from aaaf.services.gate_agent import run_agent_gate
    from aaaf.stress.library import load_library
    from aaaf.stress.runner import AgentSpec

    spec = AgentSpec(command=agent_cmd, url=agent_url, model=model, api_key=agent_api_key())
    # a bad library or selection is bad input before anything is stored
    if not load_library(library or []).select(dimension=dimension, task_ids=task):
        bad_input(
            "no stress task matches the selection", dimension=dimension, task=task, library=library or []
        )
    with open_session(db) as session:
        result, _, _ = run_agent_gate(
            session.org,
            agent,
            spec,
            fail_on=conditions,
            clock=session.context.clock,
            baseline_assessment=baseline_assessment,
            dimension_tolerance=dimension_tolerance,
            margin=AGENT_MARGIN if margin is None else margin,
            promote=promote,
            resamples=resamples,
            seed=seed,
            library_dirs=library or [],
            dimension=dimension,
            task_ids=task,
            parallel=parallel,
            log_dir=log_dir,
            turn_timeout=turn_timeout,
            task_timeout=task_timeout,
            settings=session.context.settings,  # the judge of the model-graded sub-scores, if any
        )
    return result


def _promote(assessment_id: Path | None, db: str | None, as_json: bool) -> None:
    from aaaf.services.gate_baselines import promote

    if assessment_id is None:
        bad_input("gate promote needs an assessment id: aaaf gate promote ASSESSMENT_ID")
    with open_session(db) as session:
        record = promote(session.org, str(assessment_id))
        agent = session.org.get_agent(str(record.agent_id))
    if as_json:
        from aaaf.models import BaselinePromoted

        print_json(BaselinePromoted(promoted=str(record.id), agent=agent.name, type=record.type))
    else:
        console.print(
            f"assessment {record.id} is now the baseline of {agent.name} (its next `aaaf gate --agent` "
            "compares with it)",
            markup=False,
        )


def _print(result: GateResult, written: Written) -> None:
    from aaaf.services.gate_report import markdown_summary

    console.print(markdown_summary(result), markup=False)
    for name, path in written.to_model():
        if path is not None:
            console.print(f"{name}: {path}", markup=False)
