"""The `aaaf` console script: discovers every command module in aaaf.cli.commands."""

from __future__ import annotations

import importlib
import logging
import pkgutil

import typer

from aaaf.cli import commands

app = typer.Typer(
    name="aaaf",
    help="AAAF — the AI Agent Assessment Framework: evidence in, scores, verdicts and verifiable badges out.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)


@app.callback()
def main(
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Log what happens (to stderr)."),
) -> None:
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s"
    )


def _register_commands() -> None:
    for module_info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{module_info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(app)


_register_commands()


def run() -> None:
    app()


if __name__ == "__main__":
    run()
