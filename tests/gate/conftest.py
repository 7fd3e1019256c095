"""Shared helpers of the gate tests (issue 20 §1): the installed ``aaaf`` run as a user or a CI runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AAAF = str(Path(sys.executable).with_name("aaaf"))
EXAMPLE = ROOT / "examples" / "ci"


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The test process's environment without anything a CI runner would set for the gate."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("INPUT_", "GITHUB_")) and k not in ("AAAF_DB", "AAAF_DATABASE_URL")
    }
    env["NO_COLOR"] = "1"
    return {**env, **(extra or {})}


def aaaf(*args: str, cwd: Path, env: Mapping[str, str] | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:  # fmt: skip
    return subprocess.run(
        [AAAF, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=clean_env(env)
    )
