"""The `aaaf` console script: discovers every command module in aaaf.cli.commands.

A command group is a module that defines ``register(app)``.  Importing every group costs
seconds (SciPy, SQLAlchemy, Jinja, ...), so the console script registers only the module
that defines the requested command (found by reading the sources, not importing them);
``--help``, an unknown command and ``from aaaf.cli.main import app`` get every command.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
import re
import sys
from pathlib import Path
from typing import Any

import typer

from aaaf.cli import commands, context

_COMMAND_NAME = re.compile(r"""\bapp\.command\(\s*"([\w-]+)"|\bapp\.add_typer\([^)]*name="([\w-]+)\"""")


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
) -> None:
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s"
    )
    context.selected_organization = org or None


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


def modules_by_command() -> dict[str, str]:
    """Which module registers which top-level command, read from the sources."""
    table: dict[str, str] = {}
    for name in module_names():
        path = Path(commands.__path__[0]) / f"{name}.py"
        for match in _COMMAND_NAME.finditer(path.read_text(encoding="utf-8")):
            table.setdefault(match.group(1) or match.group(2), name)
    return table


def build_app(modules: list[str] | None = None) -> typer.Typer:
    application = typer.Typer(
        name="aaaf",
        help="AAAF — the AI Agent Assessment Framework: evidence in, scores, verdicts and verifiable badges out.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode="rich",
    )
    application.callback()(_app_callback)
    for name in module_names() if modules is None else modules:
        module = importlib.import_module(f"{commands.__name__}.{name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(application)
    return application


def _requested_command(argv: list[str]) -> str | None:
    tokens = iter(argv)
    for token in tokens:
        if token == "--org":
            next(tokens, None)  # its value
        elif not token.startswith("-"):
            return token
    return None


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
    argv = hoist_org_option(sys.argv[1:])
    command = _requested_command(argv)
    module = modules_by_command().get(command) if command else None
    build_app([module] if module else None)(args=argv, prog_name="aaaf")


if __name__ == "__main__":
    run()
