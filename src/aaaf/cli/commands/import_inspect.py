"""`aaaf import-inspect LOG... --agent NAME`: a user's own inspect_ai logs of the stress tasks
as evidence of the agent (issue 15 "Build on inspect_ai": the harness's logs and the user's go
through one importer, :func:`aaaf.services.stress.import_inspect_log`).

A user who ran the stress tasks with inspect themselves, e.g.::

    inspect eval src/aaaf/stress/inspect_tasks.py@stress_suite -T agent_cmd="python my_agent.py" \\
        --model mockllm/model

imports the log here; each log becomes a stress run of its own (``aaaf stress-runs``).  This
installation did not run it, so its evidence is reported by the organization, not stress-tested
(docs/stress-tests.md "Provenance"): ``aaaf assess NAME`` (``full``, ``passive_only``) scores
it, ``--type stress_test_only`` does not.  Logs of other inspect tasks are eval runs (``aaaf
eval import``) and are refused with that advice.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from aaaf.cli.context import DbOption, JsonOption, console, handle_errors, open_session, print_json


def register(app: typer.Typer) -> None:
    app.command("import-inspect")(import_inspect)


@handle_errors
def import_inspect(
    logs: Annotated[
        list[Path],
        typer.Argument(help="inspect_ai logs (.eval or .json) of the AAAF stress tasks.", show_default=False),
    ],
    agent: Annotated[str, typer.Option("--agent", help="The agent the logs assessed.", show_default=False)],
    enroll: Annotated[bool, typer.Option("--enroll", help="Enroll the agent when it is unknown.")] = False,
    library: Annotated[
        list[str] | None,
        typer.Option("--library", help="A directory of the organization's own tasks the logs ran."),
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Import inspect_ai logs of the stress tasks you ran yourself as the agent's evidence, reported
    by the organization (one run per log, in order; a log already stored is refused, so nothing is
    counted twice)."""
    from aaaf.services.stress import import_inspect_log

    imported = []
    with open_session(db) as session:
        for log in logs:
            run, records = import_inspect_log(
                session.org,
                agent,
                log,
                library_dirs=library or [],
                enroll=enroll,
                settings=session.context.settings,
                clock=session.context.clock,
            )
            imported.append(run)
            if not as_json:
                graded = run.summary.get("model_graded")
                console.print(
                    f"{log}: stress run {run.id}, {len(records)} task(s) {run.summary['statuses']}, "
                    f"{run.summary['events']['accepted']} event(s)"
                    + (f"; model-graded sub-scores: {graded['note']}" if graded else ""),
                    markup=False,
                )
    if as_json:
        from aaaf.models import LocalStressRun

        print_json([LocalStressRun.model_validate(run.to_dict()) for run in imported])
        return
    console.print(
        "not run by this installation: stored as evidence reported by the organization, not "
        f"stress-tested (docs/stress-tests.md, Provenance); score it: aaaf assess {agent} (full or "
        "passive_only; stress_test_only counts only this installation's own stress runs: aaaf stress-test)",
        markup=False,
    )
