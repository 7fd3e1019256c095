"""User-facing text is for someone who has only the repository: no "issue N", no reference into
the specification ("document 00x", "SCORING.md §x") — it points into docs/ instead, with anchors
(docs/scoring.md sections).  Checked: the README and docs/ (and the generated JSON Schemas and
openapi.json), every command's help, and every string the code prints or renders (string
literals that are not docstrings; templates).  Code comments and docstrings may cite the spec."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import typer

from aaaf.cli.main import build_app

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "aaaf"
FORBIDDEN = re.compile(r"\b[Ii]ssue \d+|\b[Dd]ocument 00\d|SCORING\.md|DESIGN\.md")
# the pure core's strings are scheme specs and data recorded with every result; the judges'
# rubrics are hashed into their calibration: neither is shown as prose
NOT_PROSE = ("scoring", "stats")


def _found(text: str) -> list[str]:
    return [text[max(0, m.start() - 40) : m.end() + 20] for m in FORBIDDEN.finditer(text)]


def test_readme_and_docs_cite_docs_not_the_spec_or_issues() -> None:
    files = [
        ROOT / "README.md",
        *sorted((ROOT / "docs").rglob("*.md")),
        *sorted((ROOT / "docs").rglob("*.json")),
    ]
    files.append(ROOT / "openapi.json")
    found = {str(f.relative_to(ROOT)): _found(f.read_text(encoding="utf-8")) for f in files}
    assert {name: hits for name, hits in found.items() if hits} == {}


def test_command_help_cites_docs_not_the_spec_or_issues() -> None:
    found: list[tuple[str, str]] = []

    def walk(command: object, path: str) -> None:
        texts = [getattr(command, "help", None) or "", getattr(command, "short_help", None) or ""]
        texts += [getattr(param, "help", None) or "" for param in getattr(command, "params", [])]
        found.extend((path, hit) for text in texts for hit in _found(text))
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, f"{path} {name}")

    walk(typer.main.get_group(build_app()), "aaaf")
    assert found == []


def _printed_strings(path: Path) -> list[tuple[int, str]]:
    """String literals of a module that are not docstrings or bare string statements."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    statements = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in statements
    ]


def test_what_the_code_prints_cites_docs_not_the_spec_or_issues() -> None:
    found: list[tuple[str, int, str]] = []
    for path in sorted(SRC.rglob("*.py")):
        relative = path.relative_to(SRC)
        if relative.parts[0] in NOT_PROSE or "migrations" in relative.parts:
            continue
        for line, text in _printed_strings(path):
            found.extend((str(relative), line, hit) for hit in _found(text))
    for path in sorted(SRC.rglob("*")):
        if path.suffix in (".html", ".j2") and path.is_file():
            found.extend(
                (str(path.relative_to(SRC)), 0, hit) for hit in _found(path.read_text(encoding="utf-8"))
            )
    assert found == []
