"""What every command shares: the database option, opening the store, printing, errors → exit codes.

Exit codes everywhere (issue 3, SCORING.md §0): 0 success, 2 bad input (the message names the
problem), 1 any other failure.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Annotated, Any, NoReturn, ParamSpec, TypeVar

import typer
from rich.console import Console

from aaaf.errors import AAAFError

log = logging.getLogger("aaaf.cli")

console = Console(highlight=False, soft_wrap=True)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        envvar="AAAF_DATABASE_URL",
        help="Database: a SQLite file path or a SQLAlchemy URL (default ./aaaf.db).",
        show_default=False,
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]


def database_url(db: str | None) -> str | None:
    """A plain path means a SQLite file; anything with '://' is a SQLAlchemy URL."""
    if db is None or db == "":
        return None
    if "://" in db:
        return db
    return "sqlite:///" + os.path.abspath(db)


@dataclass
class Session:
    """An open store scoped to the CLI's organization (the default organization, phase 1)."""

    store: Any
    org: Any
    organization: Any


@contextmanager
def open_session(db: str | None) -> Iterator[Session]:
    from aaaf.store import open_store

    store = open_store(database_url(db))
    if store.created:  # SCORING.md §7 "Databases": a new SQLite file is said
        err_console.print(f"created a new database at {store.engine.url.database}", markup=False)
    try:
        organization = store.default_organization()
        yield Session(store=store, org=store.scope(organization.id), organization=organization)
    finally:
        store.close()


def print_json(value: Any, *, stream: Any = None) -> None:
    """JSON with full float precision (json.dumps uses repr for floats)."""
    text = json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False)
    (stream or sys.stdout).write(text + "\n")


def fail(error: AAAFError, *, as_json: bool = False) -> NoReturn:
    """Report an error on stderr (the §6.4 JSON with --json) and exit with its code."""
    if as_json:
        print_json(error.to_dict(), stream=sys.stderr)
    else:
        err_console.print(f"[bold red]error[/] [{error.code}] {error.message}", markup=True)
        if error.details:
            err_console.print_json(json.dumps(error.details, default=str))
    raise typer.Exit(error.exit_code)


def bad_input(message: str, **details: Any) -> NoReturn:
    fail(AAAFError("INVALID_REQUEST", message, details))


P = ParamSpec("P")
R = TypeVar("R")


def handle_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Map AAAFError to its exit code (2 for bad input) and anything unexpected to 1."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        as_json = bool(kwargs.get("as_json", False))
        try:
            return func(*args, **kwargs)
        except typer.Exit:
            raise
        except AAAFError as error:
            fail(error, as_json=as_json)
        except (FileNotFoundError, IsADirectoryError, PermissionError) as error:
            fail(AAAFError("INVALID_REQUEST", f"{error.strerror}: {error.filename}"), as_json=as_json)
        except Exception as error:  # the CLI's last line of defence: exit 1, never a traceback
            log.debug("unexpected failure", exc_info=True)
            err_console.print(f"[bold red]error[/] {type(error).__name__}: {error}")
            raise typer.Exit(1) from error

    return wrapper


def split_csv(value: str | None) -> list[str]:
    """'a, b,,c' -> ['a', 'b', 'c']"""
    if not value:
        return []
    return [part.strip() for part in value.split(",") if part.strip()]
