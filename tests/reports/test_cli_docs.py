"""docs/cli.md documents every command the CLI registers, and every option of `aaaf report`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import typer

DOCS = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


@pytest.fixture(scope="module")
def cli() -> Any:
    from aaaf.cli.main import app

    command = typer.main.get_command(app)
    assert hasattr(command, "commands")  # a group (Typer's own click)
    return command


def command_paths(group: Any, prefix: str = "aaaf") -> list[str]:
    paths = []
    for name, command in sorted(group.commands.items()):
        path = f"{prefix} {name}"
        if hasattr(command, "commands"):
            paths.extend(command_paths(command, path))
        else:
            paths.append(path)
    return paths


def test_every_command_is_documented(cli: Any) -> None:
    text = DOCS.read_text(encoding="utf-8")
    paths = command_paths(cli)
    assert "aaaf report" in paths and "aaaf badge issue" in paths
    missing = [path for path in paths if f"`{path}" not in text]
    assert not missing, f"docs/cli.md does not document {missing}"


def test_every_report_option_is_documented(cli: Any) -> None:
    text = DOCS.read_text(encoding="utf-8")
    report = cli.commands["report"]
    options = [opt for param in report.params if param.param_type_name == "option" for opt in param.opts]
    assert "--summary" in options and "--no-trust" in options
    missing = [opt for opt in options if opt != "--help" and f"`{opt}" not in text]
    assert not missing, f"docs/cli.md does not document report options {missing}"
