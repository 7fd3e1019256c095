"""``aaaf worker`` refuses what it cannot do, naming the problem, exit 2 (SCORING.md §7 "Secrets")."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.api.conftest import aaaf_script


def _worker(database_url: str, *, secret: bool) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "AAAF_DATABASE_URL": database_url}
    if not secret:
        env.pop("AAAF_SECRET_KEY", None)
    return subprocess.run(
        [aaaf_script(), "worker"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_a_worker_on_postgresql_needs_the_secret_key(store_url: str) -> None:
    result = _worker(store_url, secret=False)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "AAAF_SECRET_KEY" in result.stderr


def test_a_worker_needs_postgresql(tmp_path: Path) -> None:
    result = _worker(f"sqlite:///{tmp_path / 'aaaf.db'}", secret=True)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "PostgreSQL" in result.stderr and "aaaf serve" in result.stderr
