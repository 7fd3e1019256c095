"""``aaaf status``: the database, the organization's agents and assessments, and whether anybody
runs the queued jobs (the same verdict as ``GET /health``; docs/jobs.md "Is anybody working?")."""

from __future__ import annotations

from collections import Counter

import typer

from aaaf.cli.context import DbOption, JsonOption, console, handle_errors, open_session, print_json


def register(app: typer.Typer) -> None:
    app.command("status")(status)


@handle_errors
def status(db: DbOption = None, as_json: JsonOption = False) -> None:
    """The database, its agents and assessments, and the job queue: jobs waiting, the oldest's age, the last worker heartbeat."""
    from sqlalchemy.engine import make_url

    from aaaf.services.queue_health import queue_health

    with open_session(db, must_exist=True) as session:
        agents = session.org.agents()
        assessments = Counter(record.status for record in session.org.assessments())
        judged = queue_health(session.store.engine, session.context)
        shown = make_url(session.store.url).render_as_string(hide_password=True)
        organization = session.organization.name
    from aaaf.models import DatabaseStatus, QueueStatus

    queue = QueueStatus.model_validate(judged.to_dict())
    body = DatabaseStatus(
        database=shown,
        organization=organization,
        agents=len(agents),
        assessments=dict(sorted(assessments.items())),
        status=queue.status,
        queue=queue,
    )
    if as_json:
        print_json(body)
        return
    console.print(f"database      {shown}", markup=False)
    console.print(f"organization  {organization}", markup=False)
    counts = ", ".join(f"{n} {state}" for state, n in sorted(assessments.items())) or "none"
    console.print(f"agents        {len(agents)}; assessments: {counts}", markup=False)
    oldest = queue.oldest_waiting_seconds
    waiting = f"{queue.waiting_jobs} waiting" + ("" if oldest is None else f", the oldest for {oldest:.0f} s")
    runner = (
        "the server runs jobs itself (SQLite)" if queue.runner == "in-process" else "aaaf worker processes"
    )
    beat = queue.last_worker_heartbeat or "never"
    console.print(f"jobs          {waiting}; run by {runner}", markup=False)
    if queue.runner != "in-process":
        console.print(f"last worker heartbeat  {beat}", markup=False)
    if judged.degraded:
        console.print(f"[yellow]degraded:[/] {judged.reason}")
    else:
        console.print("ok")
