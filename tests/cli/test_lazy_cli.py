"""The console script starts fast: commands load when used, `aaaf --help` lists them from the
generated index without importing any (docs/cli.md "Start-up"), and the global options."""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
from pathlib import Path

import typer

import aaaf
from aaaf.cli import command_index
from aaaf.cli.main import build_app

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("sqlalchemy", "numpy", "scipy", "inspect_ai", "alembic", "fastapi", "jinja2")


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from aaaf.cli.main import run; sys.argv[0] = 'aaaf'; run()",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "200", **(env or {})},
    )


def _modules_loaded_by(*args: str) -> set[str]:
    code = (
        "import sys\nfrom aaaf.cli.main import run\nsys.argv = ['aaaf', *sys.argv[1:]]\n"
        "try:\n    run()\nexcept SystemExit:\n    pass\n"
        "print('LOADED', ' '.join(sorted({m.split('.')[0] for m in sys.modules})), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120)
    line = [line for line in done.stderr.splitlines() if line.startswith("LOADED ")][-1]
    return set(line.split()[1:])


def test_the_index_is_what_the_generator_writes() -> None:
    """src/aaaf/cli/command_index.py is generated; regenerate with scripts/gen_cli_index.py."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import gen_cli_index
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    committed = (ROOT / "src" / "aaaf" / "cli" / "command_index.py").read_text(encoding="utf-8")
    assert gen_cli_index.render() == committed, "run `make regen`"


def test_the_index_names_every_command_the_modules_register() -> None:
    group = typer.main.get_group(build_app())
    assert set(command_index.COMMANDS) == set(group.commands)


def test_help_imports_no_heavy_library() -> None:
    loaded = _modules_loaded_by("--help")
    assert "typer" in loaded  # it did run
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


def test_a_command_help_imports_no_database_or_numerics() -> None:
    for command in (["agents", "--help"], ["enroll", "--help"]):
        loaded = _modules_loaded_by(*command)
        assert not loaded & {"sqlalchemy", "numpy", "scipy", "inspect_ai"}, (command, loaded & set(HEAVY))


def test_help_lists_every_command_with_its_summary() -> None:
    done = _cli("--help")
    assert done.returncode == 0, done.stderr
    for name, entry in command_index.COMMANDS.items():
        if not entry.hidden:
            assert f" {name} " in done.stdout, name
    assert "List the organization's agents" in done.stdout


def test_version_has_one_source() -> None:
    done = _cli("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"aaaf {aaaf.__version__}"
    assert importlib.metadata.version("aaaf") == aaaf.__version__


def test_db_is_accepted_before_the_command(tmp_path: Path) -> None:
    db = tmp_path / "front.db"
    assert _cli("--db", str(db), "enroll", "front-agent").returncode == 0
    listed = _cli("agents", "--db", str(db), "--json")
    assert listed.returncode == 0, listed.stderr
    assert [agent["name"] for agent in json.loads(listed.stdout)] == ["front-agent"]
    # --db after the command wins over --db before it, both over AAAF_DATABASE_URL
    other = tmp_path / "other.db"
    assert _cli("--db", str(other), "enroll", "second", "--db", str(db)).returncode == 0
    env = {"AAAF_DATABASE_URL": str(tmp_path / "env.db")}
    listed = _cli("--db", str(db), "agents", "--json", env=env)
    assert sorted(agent["name"] for agent in json.loads(listed.stdout)) == ["front-agent", "second"]
    assert not other.exists() and not (tmp_path / "env.db").exists()
