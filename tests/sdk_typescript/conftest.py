"""The TypeScript SDK's tests run Node against a live ``aaaf serve`` (issue 18 §2-3).

``node_sdk`` finds ``node`` and ``npm`` — missing, the tests are skipped, except under
``CI=true`` where they fail: CI must not pass by skipping the SDK — and makes sure
``sdk/typescript`` has its dependencies (``npm ci``) and its build (``npm run build``), under
a file lock, since xdist workers share the one directory.  The ``live`` server fixture
(SQLite, then PostgreSQL) comes from the API tests.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.api.conftest import live  # noqa: F401  (the live-server fixture, shared)
from tests.browser.conftest import browser, page  # noqa: F401  (Chromium, for test_browser.py)

REPO = Path(__file__).resolve().parents[2]
SDK = REPO / "sdk" / "typescript"
NPM_TIMEOUT_S = 900


@dataclass(frozen=True)
class NodeSDK:
    """Where ``node`` and ``npm`` are, and the SDK's directory (built)."""

    node: str
    npm: str
    root: Path

    @contextmanager
    def locked(self) -> Iterator[None]:
        """One user of ``sdk/typescript`` at a time (``npm test`` rebuilds ``dist/``)."""
        digest = hashlib.sha256(str(self.root).encode()).hexdigest()[:16]  # the same in every worker
        lock_path = Path(tempfile.gettempdir()) / f"aaaf-sdk-typescript-{digest}.lock"
        with lock_path.open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def run(self, *args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
        """Run a command; its output, or a failure that shows it."""
        result = subprocess.run(
            list(args),
            cwd=cwd or self.root,
            env={**os.environ, **(env or {})},
            capture_output=True,
            text=True,
            timeout=NPM_TIMEOUT_S,
            check=False,
        )
        output = result.stdout + result.stderr
        assert result.returncode == 0, f"{' '.join(args)} exited with {result.returncode}:\n{output[-20000:]}"
        return output


@pytest.fixture(scope="session")
def node_sdk() -> NodeSDK:
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        message = "node and npm are needed for the TypeScript SDK's tests (Node >= 20)"
        if os.environ.get("CI") == "true":
            pytest.fail(message + " (CI=true: these tests may not be skipped)")
        pytest.skip(message)
    sdk = NodeSDK(node, npm, SDK)
    with sdk.locked():
        if not (SDK / "node_modules").is_dir():
            sdk.run(npm, "ci", "--no-audit", "--no-fund")
        sdk.run(npm, "run", "build")
    return sdk
