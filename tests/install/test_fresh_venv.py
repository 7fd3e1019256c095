"""The user's install path (README "Install"): the wheel built from this checkout, installed into
a fresh virtual environment with nothing else, gives a working CLI (`enroll → collect → assess →
badge → verify`); a command that needs an extra names it and exits 2; with the `service` extra
`aaaf serve` answers.  uv builds and installs from its local cache, so the test stays bounded
(about a minute); every step has its own time-out."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
UV = shutil.which("uv") or str(Path(sys.executable).with_name("uv"))


def _run(
    args: list[str], *, cwd: Path, env: dict[str, str], timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    """(work directory, environment) with `aaaf` from the wheel alone on the PATH."""
    work = tmp_path_factory.mktemp("fresh-install")
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("AAAF_", "VIRTUAL_ENV", "PYTHON"))
    }
    built = _run([UV, "build", "--wheel", "--out-dir", str(work / "dist"), str(ROOT)], cwd=work, env=env)
    assert built.returncode == 0, built.stderr[-3000:]
    wheels = list((work / "dist").glob("aaaf-*.whl"))
    assert len(wheels) == 1, wheels
    venv = work / "venv"
    made = _run([UV, "venv", "--python", sys.executable, str(venv)], cwd=work, env=env)
    assert made.returncode == 0, made.stderr
    installed = _run(
        [UV, "pip", "install", "--python", str(venv / "bin" / "python"), str(wheels[0])], cwd=work, env=env
    )
    assert installed.returncode == 0, installed.stderr[-3000:]
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env['PATH']}"
    env["WHEEL"] = str(wheels[0])
    env["VENV_PYTHON"] = str(venv / "bin" / "python")
    yield work, env


def _aaaf(
    fresh: tuple[Path, dict[str, str]], *args: str, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    work, env = fresh
    return _run(["aaaf", *args], cwd=work, env=env, timeout=timeout)


def test_the_core_install_runs_enroll_collect_assess_badge_verify(fresh: tuple[Path, dict[str, str]]) -> None:
    work, env = fresh
    python = env["VENV_PYTHON"]
    # nothing of the service, the stress harness or the dev tooling came with the core
    probe = _run(
        [
            python,
            "-c",
            "import importlib.util as u; print([m for m in ('fastapi','uvicorn','psycopg','inspect_ai','matplotlib','pytest') if u.find_spec(m)])",
        ],
        cwd=work,
        env=env,
    )
    assert probe.stdout.strip() == "[]", probe.stdout + probe.stderr
    # the metadata: the licence as an SPDX expression with its text, classifiers, one version
    meta = _run(
        [
            python,
            "-c",
            "import importlib.metadata as m, json, aaaf; d = m.distribution('aaaf');"
            " print(json.dumps([d.metadata['License-Expression'], d.metadata.get_all('Classifier'),"
            " d.version, aaaf.__version__, sorted(str(f) for f in d.files if 'LICENSE' in str(f))]))",
        ],
        cwd=work,
        env=env,
    )
    license_expression, classifiers, version, module_version, licence_files = json.loads(meta.stdout)
    assert license_expression == "Apache-2.0" and version == module_version
    assert "Programming Language :: Python :: 3.11" in classifiers
    assert any(f.endswith("licenses/LICENSE") for f in licence_files), licence_files
    version = _aaaf(fresh, "--version")
    assert version.returncode == 0 and version.stdout.startswith("aaaf "), version.stderr
    fleet = _run(
        [
            python,
            "-m",
            "aaaf.demo.fleet",
            "--output",
            "fleet.jsonl",
            "--enrollment",
            "agents.json",
            "--only",
            "security-auditor",
        ],
        cwd=work,
        env=env,
    )
    assert fleet.returncode == 0, fleet.stderr
    assert _aaaf(fresh, "enroll", "--file", "agents.json").returncode == 0
    collected = _aaaf(fresh, "collect", "--source", "task_logs", "fleet.jsonl")
    assert collected.returncode == 0, collected.stdout + collected.stderr
    assessed = _aaaf(fresh, "assess", "security-auditor", "--json")
    assert assessed.returncode == 0, assessed.stdout + assessed.stderr
    assert json.loads(assessed.stdout)["status"] == "completed"
    badge = _aaaf(fresh, "badge", "security-auditor", "--format", "svg,png,md", "--output", "badges")
    assert badge.returncode == 0, badge.stdout + badge.stderr
    png = work / "badges" / "security-auditor.png"
    assert png.is_file(), sorted(p.name for p in (work / "badges").iterdir())
    verified = _aaaf(fresh, "verify", str(png), "--json")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert json.loads(verified.stdout)["valid"] is True


def test_a_command_that_needs_a_missing_extra_names_it(fresh: tuple[Path, dict[str, str]]) -> None:
    serve = _aaaf(fresh, "serve", "--port", "1")
    assert serve.returncode == 2, serve.stdout + serve.stderr
    assert "pip install 'aaaf[service]'" in serve.stderr and "Traceback" not in serve.stderr
    stress = _aaaf(fresh, "stress-test", "nobody", "--agent-cmd", "true")
    assert stress.returncode == 2 and "pip install 'aaaf[stress]'" in stress.stderr, stress.stderr
    postgres = _aaaf(fresh, "agents", "--db", "postgresql://127.0.0.1:5432/test")
    assert postgres.returncode == 2 and "aaaf[service]" in postgres.stderr, postgres.stderr


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_the_service_extra_gives_a_working_serve(fresh: tuple[Path, dict[str, str]]) -> None:
    work, env = fresh
    added = _run(
        [UV, "pip", "install", "--python", env["VENV_PYTHON"], f"{env['WHEEL']}[service]"], cwd=work, env=env
    )
    assert added.returncode == 0, added.stderr[-3000:]
    port = _free_port()
    server = subprocess.Popen(
        ["aaaf", "serve", "--port", str(port), "--db", str(work / "serve.db")],
        cwd=work,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        answer = None
        while time.monotonic() < deadline and server.poll() is None:
            try:
                answer = httpx.get(f"http://127.0.0.1:{port}/health", timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.2)
        assert answer is not None, (
            server.stdout.read() if server.poll() is not None and server.stdout else "no answer"
        )
        assert answer.status_code == 200 and answer.json()["status"] == "ok", answer.text
    finally:
        server.terminate()
        server.wait(timeout=30)
