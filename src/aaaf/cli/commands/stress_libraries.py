"""`aaaf stress-libraries publish|list|install`: custom stress-task libraries (issue 20 §3),
thin over :mod:`aaaf.services.stress_libraries` (the same as ``/api/v1/stress-libraries``).

    aaaf stress-libraries publish DIR --name N --version V [--shared] [--description D] [--json]
    aaaf stress-libraries list [--json]
    aaaf stress-libraries install NAME VERSION [--json]

``DIR`` is a library directory as ``aaaf stress-test --library DIR`` takes it.  A version is
immutable once published.  ``--shared`` makes it visible to every organization, which is
refused when a task's grader would run code (``unit_tests``, a ``bash``/``python`` reference
action).  An installed library's tasks join the organization's ``aaaf stress-test`` runs.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from aaaf.cli.context import DbOption, JsonOption, console, handle_errors, open_session, print_json
from aaaf.services import stress_libraries as library_service
from aaaf.stress.library import read_library_directory

libraries_app = typer.Typer(
    help="Publish, list and install custom stress-task libraries.", no_args_is_help=True
)


def register(app: typer.Typer) -> None:
    app.add_typer(libraries_app, name="stress-libraries")


@libraries_app.command("publish")
@handle_errors
def publish(
    directory: Annotated[str, typer.Argument(help="The library directory (task files, documents/).")],
    name: Annotated[str, typer.Option("--name", help="The library's name.")],
    version: Annotated[str, typer.Option("--version", help="Its version (immutable once published).")],
    shared: Annotated[
        bool, typer.Option("--shared", help="Visible to every organization (declarative graders only).")
    ] = False,
    description: Annotated[str | None, typer.Option("--description")] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Validate DIR and publish it as NAME VERSION."""
    content, documents = read_library_directory(directory)
    with open_session(db) as session:
        published = library_service.publish_library(
            session.org,
            name=name,
            version=version,
            content=content,
            documents=documents,
            visibility="shared" if shared else "private",
            description=description,
        )
    if as_json:
        print_json(published)
        return
    console.print(
        f"published {published.name} {published.version} ({published.visibility}): "
        f"{published.task_count} task(s), digest {published.digest}",
        markup=False,
    )


@libraries_app.command("list")
@handle_errors
def list_libraries(db: DbOption = None, as_json: JsonOption = False) -> None:
    """The organization's own libraries and every shared one."""
    with open_session(db) as session:
        items = library_service.list_libraries(session.org)
    if as_json:
        from aaaf.models.stress_tasks import StressLibraryPage

        print_json(StressLibraryPage(items=items, next_cursor=None))
        return
    if not items:
        console.print("no library published or shared yet", markup=False)
        return
    table = Table("name", "version", "visibility", "tasks", "graders", "yours", "installed")
    for item in items:
        table.add_row(
            item.name,
            item.version,
            item.visibility,
            str(item.task_count),
            ", ".join(item.graders),
            "yes" if item.owned else "",
            "yes" if item.installed else "",
        )
    console.print(table)


@libraries_app.command("install")
@handle_errors
def install(
    name: Annotated[str, typer.Argument(help="The library's name.")],
    version: Annotated[str, typer.Argument(help="Its version.")],
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Install NAME VERSION: its tasks join the organization's stress runs."""
    with open_session(db) as session:
        installed = library_service.install_library(session.org, name, version)
    if as_json:
        print_json(installed)
        return
    console.print(
        f"installed {installed.name} {installed.version}: {installed.task_count} task(s)", markup=False
    )
