"""The `aaaf` console script: every command module of aaaf.cli.commands, loaded only when used.

A command group is a module that defines ``register(app)``.  Importing every group costs
seconds (SciPy, SQLAlchemy, Jinja, ...), so the console script's group (:class:`LazyGroup`)
knows the commands from :mod:`aaaf.cli.command_index` (generated from the modules by
``scripts/gen_cli_index.py``; a test fails when it drifts) and imports a command's module only
when that command runs or shows its own help: ``aaaf --help`` lists every command from the
index and imports none of them.  ``from aaaf.cli.main import app`` gets a Typer app with
every command registered (tests, embedding).
"""

from __future__ import annotations

import importlib
import logging
import os
import pkgutil
import sys
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

from aaaf.cli import command_index, commands, context

# commands that cannot run at all without an extra (aaaf.extras); any other command that reaches
# for a missing extra's module is stopped where it does (aaaf.cli.context.handle_errors)
_NEEDS_EXTRA = {"serve": "service", "worker": "service", "stress-test": "stress"}

_HELP = "AAAF — the AI Agent Assessment Framework: evidence in, scores, verdicts and verifiable badges out."


def _show_version(value: bool) -> None:
    if value:
        from aaaf import __version__

        typer.echo(f"aaaf {__version__}")
        raise typer.Exit()


def _app_callback(
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Log what happens (to stderr)."),
    org: str | None = typer.Option(
        None,
        "--org",
        envvar="AAAF_ORG",
        help="The organization every command acts on (default: the default organization);"
        " may also be given after the command.",
        show_default=False,
    ),
    db: str | None = typer.Option(
        None,
        "--db",
        help="Database of every command: a SQLite file path or a SQLAlchemy URL (default ./aaaf.db,"
        " or AAAF_DATABASE_URL); may also be given after the command.",
        show_default=False,
    ),
    version: bool = typer.Option(
        False, "--version", help="Print the version and exit.", callback=_show_version, is_eager=True
    ),
) -> None:
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s"
    )
    context.selected_organization = org or None
    if db:
        # every command reads its --db from AAAF_DATABASE_URL when not given after the command
        # (click reads a subcommand's options after this callback ran)
        os.environ["AAAF_DATABASE_URL"] = context.database_url(db) or db


def hoist_org_option(argv: list[str]) -> list[str]:
    """``--org NAME`` (or ``--org=NAME``) anywhere on the command line, moved in front of the
    command, where the app's callback takes it: every command accepts it without declaring it."""
    front: list[str] = []
    rest: list[str] = []
    tokens = iter(argv)
    for token in tokens:
        if token == "--":
            rest.append(token)
            rest.extend(tokens)
            break
        if token == "--org":
            front.extend([token, next(tokens, "")])
        elif token.startswith("--org="):
            front.extend(["--org", token.split("=", 1)[1]])
        else:
            rest.append(token)
    return front + rest


def module_names() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(commands.__path__))


def _new_app(cls: type[TyperGroup] | None = None) -> typer.Typer:
    return typer.Typer(
        name="aaaf",
        help=_HELP,
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode="rich",
        cls=cls,
    )


def build_app(modules: list[str] | None = None) -> typer.Typer:
    """A Typer app with the commands of ``modules`` (default: every module) registered."""
    application = _new_app()
    application.callback()(_app_callback)
    for name in module_names() if modules is None else modules:
        module = importlib.import_module(f"{commands.__name__}.{name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(application)
    return application


class _Listed(TyperCommand):
    """A command as ``aaaf --help`` lists it: its name and summary from the index, nothing imported."""


class LazyGroup(TyperGroup):
    """The top-level group: a command's module is imported when the command is looked up to run
    (or to show its own help); listing the commands in ``--help`` reads only the index."""

    _listing = False

    def list_commands(self, ctx: Any) -> list[str]:
        return sorted(set(command_index.COMMANDS) | set(self.commands))

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        entry = command_index.COMMANDS.get(cmd_name)
        if cmd_name not in self.commands and entry is not None:
            if self._listing:
                return _Listed(cmd_name, help=entry.summary, hidden=entry.hidden)
            self._load(entry.module)
        return self.commands.get(cmd_name)

    def _load(self, module_name: str) -> None:
        module = importlib.import_module(f"{commands.__name__}.{module_name}")
        loaded = _new_app()
        loaded.callback()(_app_callback)
        module.register(loaded)
        group = typer.main.get_group(loaded)
        for name, command in group.commands.items():
            self.commands.setdefault(name, command)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name, command, rest = super().resolve_command(ctx, args)
        context.current_command = f"aaaf {name}"
        extra = _NEEDS_EXTRA.get(name or "")
        if extra is not None and "--help" not in rest:
            from aaaf.extras import installed, missing_extra_error

            if not installed(extra):  # before the command does anything
                context.fail(missing_extra_error(extra, f"aaaf {name}"))
        return name, command, rest


def lazy_app() -> typer.Typer:
    """The console script's app: every command listed, each loaded when used."""
    application = _new_app(LazyGroup)
    application.callback()(_app_callback)
    return application


_full_app: typer.Typer | None = None


def __getattr__(name: str) -> Any:
    """``from aaaf.cli.main import app``: the app with every command (tests, embedding)."""
    global _full_app
    if name == "app":
        if _full_app is None:
            _full_app = build_app()
        return _full_app
    raise AttributeError(name)


def run() -> None:
    lazy_app()(args=hoist_org_option(sys.argv[1:]), prog_name="aaaf")


if __name__ == "__main__":
    run()
