"""``aaaf db upgrade`` on an empty database of each dialect, and ``aaaf serve --print-openapi``."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

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


@pytest.mark.postgres
def test_serve_on_postgresql_without_the_secret_refuses_to_start_naming_it() -> None:
    """SCORING.md §7 "Secrets": a start-up error naming AAAF_SECRET_KEY, exit 2, before listening."""
    from tests.conftest import _PostgresSchema, _require_postgres

    _require_postgres()
    schema = _PostgresSchema()
    try:
        env = {key: value for key, value in os.environ.items() if key != "AAAF_SECRET_KEY"}
        done = subprocess.run(
            [aaaf_script(), "serve", "--db", schema.url, "--port", "1"],
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
        )
    finally:
        schema.drop()
    assert done.returncode == 2, done.stdout + done.stderr
    assert "AAAF_SECRET_KEY" in done.stderr
