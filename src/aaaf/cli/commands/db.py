"""`aaaf db upgrade`: migrate the database to the schema head (SCORING.md §7 "Databases");
`aaaf db prune [--dry-run]`: retention by hand (SCORING.md §6).

Migrations are the only way the schema changes (DESIGN.md); this runs them on SQLite or
PostgreSQL and says which revision the database was at and is at now.
"""

from __future__ import annotations

import typer

from aaaf.cli.context import DbOption, JsonOption, console, database_url, handle_errors, print_json

db_app = typer.Typer(help="Database maintenance.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(db_app, name="db")


@db_app.command("upgrade")
@handle_errors
def upgrade(
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Migrate the database to the latest schema (a no-op when it is there)."""
    from aaaf.settings import get_settings
    from aaaf.store.engine import build_engine
    from aaaf.store.migrate import current_revisions, head_revisions, upgrade_to_head

    url = database_url(db) or get_settings().database_url
    engine = build_engine(url)
    try:
        with engine.connect() as connection:
            before = sorted(current_revisions(connection))
        upgrade_to_head(engine)
        with engine.connect() as connection:
            after = sorted(current_revisions(connection))
        shown = engine.url.render_as_string(hide_password=True)
    finally:
        engine.dispose()
    if after != sorted(head_revisions()):  # pragma: no cover - upgrade_to_head raises first
        raise typer.Exit(1)
    if as_json:
        from aaaf.models import Migration

        print_json(Migration.model_validate({"database": shown, "from": before, "to": after}))
    elif before == after:
        console.print(f"{shown} is at the schema head ({', '.join(after)})")
    else:
        console.print(f"{shown} upgraded from {', '.join(before) or 'an empty schema'} to {', '.join(after)}")


@db_app.command("prune")
@handle_errors
def prune(
    dry_run: bool = typer.Option(False, "--dry-run", help="Count what would be deleted; delete nothing."),
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Delete evidence past retention (docs/scoring.md §7): events after 180 days, stress-test
    results after 365 (each organization's ``event_retention_days`` /
    ``stress_result_retention_days``); assessments, scores and badges are kept."""
    from datetime import UTC, datetime

    from aaaf.services.retention import prune_all
    from aaaf.store import open_store

    with open_store(database_url(db)) as store:
        counts = prune_all(store, now=datetime.now(UTC), dry_run=dry_run)
    if as_json:
        from aaaf.models import PruneCounts, PruneResult

        organizations = {name: PruneCounts.model_validate(c.to_dict()) for name, c in counts.items()}
        print_json(PruneResult(dry_run=dry_run, organizations=organizations))
        return
    verb = "would delete" if dry_run else "deleted"
    for name, c in counts.items():
        console.print(
            f"{name}: {verb} {c.events} event(s) before {c.events_before:%Y-%m-%d} and {c.stress_results} "
            f"stress-test result(s) before {c.stress_results_before:%Y-%m-%d}; "
            f"{c.assessments_marked} assessment(s) {'would be' if dry_run else ''} marked evidence-pruned".replace(
                "  ", " "
            )
        )
