"""The server's app factory (``aaaf serve``)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from aaaf.cli.service_app import create_service_app
from aaaf.settings import get_settings


def test_the_objects_of_start_up_are_frozen_out_of_the_collector(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AAAF_DATABASE_URL", f"sqlite:///{tmp_path / 'served.db'}")
    get_settings.cache_clear()
    gc.unfreeze()
    try:
        app = create_service_app()
        assert gc.get_freeze_count() > 0
        assert all(tracked is not app for tracked in gc.get_objects())  # frozen: not collected
    finally:
        gc.unfreeze()
        get_settings.cache_clear()
