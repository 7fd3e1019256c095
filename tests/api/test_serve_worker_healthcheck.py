"""``aaaf serve --workers N`` hands ``AAAF_HTTP_WORKER_HEALTHCHECK_SECONDS`` to uvicorn's
supervisor (docs/api.md): its own default of 5 s restarts busy, healthy processes."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner

from aaaf.cli.main import app


class _Supervisor:
    """Stands in for uvicorn's ``Multiprocess``: keeps the Config instead of forking."""

    configs: ClassVar[list[Any]] = []

    def __init__(self, config: Any, sockets: list[Any]) -> None:
        self.configs.append(config)
        for sock in sockets:
            sock.close()

    def run(self) -> None:
        return None


@pytest.mark.parametrize(
    ("env", "expected"), [({}, 30), ({"AAAF_HTTP_WORKER_HEALTHCHECK_SECONDS": "45"}, 45)]
)
def test_the_worker_healthcheck_timeout_reaches_uvicorns_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, env: dict[str, str], expected: int
) -> None:
    import importlib

    from aaaf.settings import get_settings

    # ``uvicorn.main`` the attribute is the click command; the module is what ``run`` looks in
    monkeypatch.setattr(importlib.import_module("uvicorn.main"), "Multiprocess", _Supervisor)
    monkeypatch.delenv("AAAF_HTTP_WORKER_HEALTHCHECK_SECONDS", raising=False)
    monkeypatch.delenv("AAAF_ADMIN_KEY", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    # serve exports the database for its worker processes: monkeypatch restores it afterwards
    monkeypatch.setenv("AAAF_DATABASE_URL", f"sqlite:///{tmp_path / 'aaaf.db'}")
    _Supervisor.configs = []
    try:
        done = CliRunner().invoke(
            app, ["serve", "--db", str(tmp_path / "aaaf.db"), "--port", "0", "--workers", "2"]
        )
    finally:
        get_settings.cache_clear()
    assert done.exit_code == 0, done.output
    [config] = _Supervisor.configs
    assert config.workers == 2
    assert config.timeout_worker_healthcheck == expected
