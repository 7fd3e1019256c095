"""What the server built at start-up is kept out of the garbage collector's full passes while it
serves (``gc.freeze``), and handed back when it stops: a full pass walked all of it, about
every 20 pages of the dashboard, at 110 ms each."""

from __future__ import annotations

import gc
from pathlib import Path

from fastapi.testclient import TestClient

from aaaf.api.app import create_app


def test_the_objects_of_start_up_are_frozen_while_serving(sqlite_at_head: Path) -> None:
    app = create_app(f"sqlite:///{sqlite_at_head}")
    assert gc.get_freeze_count() == 0
    with TestClient(app) as client:
        assert client.get("/health").status_code == 200
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0  # handed back to the collector at shutdown
