"""`aaaf worker`: run the service's jobs on PostgreSQL (issue 14; document 004 §8 phase 2).

Any number of workers on any number of machines share the queue in the database: triggered
assessments, badge issuing, stress runs requested over HTTP (one at a time per worker, on a
queue of their own; ``--no-stress-runs`` leaves them to other workers), the periodic sweep (jobs
of a worker that stopped beating run again), the periodic duties and retention.  ``AAAF_SECRET_KEY`` is required (SCORING.md §7
"Secrets": every worker signs badges with the one issuer key); SIGINT or SIGTERM lets the
jobs at hand finish.  With the embedded SQLite default there is nothing to run: ``aaaf
serve`` runs the jobs itself.
"""

from __future__ import annotations

import logging
from typing import Annotated

import typer

from aaaf.cli.context import DbOption, console, database_url, handle_errors


def register(app: typer.Typer) -> None:
    app.command("worker")(worker)


@handle_errors
def worker(
    concurrency: Annotated[
        int, typer.Option("--concurrency", help="Jobs this process runs at a time.", min=1)
    ] = 1,
    stress_runs: Annotated[
        bool,
        typer.Option(
            "--stress-runs/--no-stress-runs",
            help="Also run stress runs, one at a time, beside the other jobs (docs/jobs.md).",
        ),
    ] = True,
    log_level: Annotated[str, typer.Option("--log-level", help="Logging level.")] = "info",
    db: DbOption = None,
) -> None:
    """Run jobs from the PostgreSQL queue (assessments, badges, stress runs, periodic duties)."""
    from aaaf.jobs.runner import run_worker

    logging.basicConfig(
        level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s", force=True
    )
    also = ", and one stress run" if stress_runs else ""
    console.print(f"aaaf worker: {concurrency} job(s) at a time{also} (stop with Ctrl-C)")
    run_worker(database_url(db), concurrency=concurrency, stress_runs=stress_runs)
