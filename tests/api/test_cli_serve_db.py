"""``aaaf db upgrade`` on an empty database of each dialect, and ``aaaf serve --print-openapi``."""

from __future__ import annotations

import json
import subprocess

from tests.api.conftest import aaaf_script


def test_db_upgrade_migrates_an_empty_database_to_head(unmigrated_database_url: str) -> None:
    from aaaf.store.migrate import SCHEMA_HEAD

    def upgrade() -> dict:
        done = subprocess.run(
            [aaaf_script(), "db", "upgrade", "--db", unmigrated_database_url, "--json"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    first = upgrade()
    assert first["from"] == [] and set(first["to"]) == SCHEMA_HEAD
    again = upgrade()
    assert set(again["from"]) == set(again["to"]) == SCHEMA_HEAD


def test_serve_prints_the_committed_openapi_document() -> None:
    from tests.api.test_openapi_contract import COMMITTED

    done = subprocess.run(
        [aaaf_script(), "serve", "--print-openapi"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads(COMMITTED.read_text(encoding="utf-8"))
