"""What every command shares: the database option, opening the store, printing, errors → exit codes.

Exit codes everywhere (issue 3, SCORING.md §0): 0 success, 2 bad input (the message names the
problem), 1 any other failure.

Tables (issue 21): when stdout is not a terminal (a pipe, a file, a CI log) a table is printed
as wide as its content needs, whatever ``COLUMNS`` says, so ids and numbers come out whole;
on a terminal it fits the terminal's width and a cell too wide for its column folds onto the
next line instead of being cut with "…".
"""

from __future__ import annotations

import functools
import json
import logging
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

from aaaf.errors import AAAFError

if TYPE_CHECKING:
    from aaaf.services.context import ServiceContext
    from aaaf.store.org_store import OrgStore

log = logging.getLogger("aaaf.cli")

_UNBOUNDED = 1_000_000


class CliConsole(Console):
    """A Rich console whose tables never lose characters (see the module docstring)."""

    def writes_to_terminal(self) -> bool:
        """Whether the output really is a terminal (``FORCE_COLOR`` and ``COLUMNS`` aside)."""
        isatty = getattr(self.file, "isatty", None)
        try:
            return bool(isatty is not None and isatty())
        except ValueError:  # a closed stream
            return False

    def print(self, *objects: Any, **kwargs: Any) -> None:
        tables = [item for item in objects if isinstance(item, Table)]
        if not tables:
            super().print(*objects, **kwargs)
            return
        if self.writes_to_terminal():
            for table in tables:
                for column in table.columns:
                    column.no_wrap = False  # a no_wrap column would be cropped away instead
                    column.overflow = "fold"
            super().print(*objects, **kwargs)
            return
        saved = self._width
        self._width = max(_natural_width(self, table) for table in tables)
        try:
            super().print(*objects, **kwargs)
        finally:
            self._width = saved


def _natural_width(target: Console, table: Table) -> int:
    """The width a table takes with nothing wrapped: its widest cells, title and caption."""
    options = target.options.update_width(_UNBOUNDED)
    width = Measurement.get(target, options, table).maximum
    for text in (table.title, table.caption):
        if text is not None:
            width = max(width, Measurement.get(target, options, text).maximum)
    return max(width, 1)


console = CliConsole(highlight=False, soft_wrap=True)
err_console = CliConsole(stderr=True, highlight=False, soft_wrap=True)

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


def agent_api_key() -> str | None:
    """The key of ``--agent-url`` on the CLI: ``AAAF_AGENT_API_KEY``, read here by the CLI's own
    choice — the service never reads it (a run over HTTP brings its own key)."""
    from aaaf.stress.adapters import API_KEY_ENV

    return os.environ.get(API_KEY_ENV) or None


def service_context() -> ServiceContext:
    """The settings and clock every service of this CLI command is handed (issue 10 §4): the
    process's settings (read once, ``get_settings`` caches them) and the system clock."""
    from aaaf.services.context import default_context

    return default_context()


@dataclass
class Session:
    """An open store scoped to the CLI's organization: the default one, or the one named by
    ``--org NAME`` / ``AAAF_ORG`` (SCORING.md §7 "Admin and keys"), and the service context."""

    store: Any
    org: OrgStore
    organization: Any
    context: ServiceContext = field(default_factory=service_context)


# the organization the command acts on, set by the app's callback from --org / AAAF_ORG
# (None: the default organization)
selected_organization: str | None = None
# the command the console script is running ("aaaf serve"), for messages that name it
current_command: str | None = None


def checked_database_url(db: str | None, *, must_exist: bool = False) -> str:
    """The database a command opens (``--db``, else ``AAAF_DATABASE_URL``, else ./aaaf.db),
    refused in one plain sentence (``INVALID_REQUEST``, exit 2) when it cannot be: a URL of a
    database AAAF does not store to, PostgreSQL without its driver, a folder, and — for a
    command that only reads (``must_exist``) — a SQLite file that does not exist, which is
    never created just to be found empty."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    url = database_url(db) or service_context().settings.database_url
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise AAAFError(
            "INVALID_REQUEST",
            f"{url!r} is not a database URL: give a SQLite file path or a postgresql:// URL.",
            {"field": "db"},
        ) from None
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql", "postgres"):
        raise AAAFError(
            "INVALID_REQUEST",
            f"AAAF does not store to {parsed.drivername}:// databases: give a SQLite file path "
            "(or sqlite:///PATH) or a PostgreSQL URL (postgresql://USER@HOST/DATABASE).",
            {"field": "db", "scheme": parsed.drivername},
        )
    if backend != "sqlite":
        import importlib.util

        if importlib.util.find_spec("psycopg") is None:
            from aaaf.extras import missing_extra_error

            raise missing_extra_error("service", "A PostgreSQL database")
        return url
    database = parsed.database or ""
    if database in ("", ":memory:") or database.startswith("file:"):
        return url
    path = Path(database).expanduser()
    if path.is_dir():
        raise AAAFError(
            "INVALID_REQUEST",
            f"{path} is a folder, not a database file: give a file in it, such as {path / 'aaaf.db'}.",
            {"field": "db"},
        )
    if must_exist and (not path.exists() or path.stat().st_size == 0):
        raise AAAFError(
            "INVALID_REQUEST",
            f"There is no database at {path}: this command only reads, so it does not create one. "
            "Point --db (or AAAF_DATABASE_URL) at an existing database — after `make demo`, out/aaaf.db.",
            {"field": "db"},
        )
    return url


@contextmanager
def open_store_for(db: str | None, *, must_exist: bool = False) -> Iterator[Any]:
    """The store itself, unscoped (organization administration); ``must_exist`` for a command
    that only reads (:func:`checked_database_url`)."""
    from sqlalchemy.exc import OperationalError

    from aaaf.store import open_store

    url = checked_database_url(db, must_exist=must_exist)
    try:
        store = open_store(url, clock=service_context().clock)
    except OperationalError as error:  # e.g. a PostgreSQL database that does not exist
        from sqlalchemy.engine import make_url

        reason = str(getattr(error, "orig", error)).strip().splitlines()[0]
        shown = make_url(url).render_as_string(hide_password=True)
        raise AAAFError(
            "INVALID_REQUEST", f"Cannot open the database {shown}: {reason}.", {"field": "db"}
        ) from None
    if store.created:  # SCORING.md §7 "Databases": a new SQLite file is said
        err_console.print(f"created a new database at {store.engine.url.database}", markup=False)
    try:
        yield store
    finally:
        store.close()


@contextmanager
def open_session(db: str | None, *, must_exist: bool = False) -> Iterator[Session]:
    with open_store_for(db, must_exist=must_exist) as store:
        if selected_organization is None:
            organization = store.default_organization()
        else:
            from aaaf.services.keys import organization_named

            organization = organization_named(store, selected_organization)
        yield Session(store=store, org=store.scope(organization.id), organization=organization)


def print_json(value: Any, *, stream: Any = None) -> None:
    """JSON with full float precision (json.dumps uses repr for floats).  A public shape of
    :mod:`aaaf.models` (or a list of them) is printed as :func:`aaaf.models.dump` gives it."""
    from pydantic import BaseModel

    from aaaf.models import dump

    if isinstance(value, BaseModel):
        value = dump(value)
    elif isinstance(value, list) and value and isinstance(value[0], BaseModel):
        value = [dump(item) for item in value]
    text = json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False)
    (stream or sys.stdout).write(text + "\n")


def fail(error: AAAFError, *, as_json: bool = False) -> NoReturn:
    """Report an error on stderr (the §6.4 JSON with --json) and exit with its code."""
    if as_json:
        from aaaf.models.error import error_body

        print_json(
            error_body(error.code, error.message, error.details, empty_details=False), stream=sys.stderr
        )
    else:
        from rich.markup import escape  # a message may hold brackets: "pip install 'aaaf[service]'"

        err_console.print(f"[bold red]error[/] {escape(f'[{error.code}] {error.message}')}", markup=True)
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
        except ModuleNotFoundError as error:  # an optional part of the install is missing
            from aaaf.extras import extra_for_module, missing_extra_error

            extra = extra_for_module(error.name)
            if extra is None:
                raise
            fail(missing_extra_error(extra, _command_path()), as_json=as_json)
        except Exception as error:  # the CLI's last line of defence: exit 1, never a traceback
            log.debug("unexpected failure", exc_info=True)
            err_console.print(f"[bold red]error[/] {type(error).__name__}: {error}")
            raise typer.Exit(1) from error

    return wrapper


def _command_path() -> str:
    return current_command or "this command"


def split_csv(value: str | None) -> list[str]:
    """'a, b,,c' -> ['a', 'b', 'c']"""
    if not value:
        return []
    return [part.strip() for part in value.split(",") if part.strip()]
