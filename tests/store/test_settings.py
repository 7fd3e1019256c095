"""Process settings come from AAAF_* environment variables (DESIGN.md 'Configuration')."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from aaaf.settings import Settings, get_settings
from aaaf.store import open_store


@pytest.fixture(autouse=True)
def fresh_settings() -> Iterator[None]:
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def test_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DATABASE_URL", "REDIS_URL", "JUDGE_MODEL", "PUBLIC_BASE_URL", "ISSUER_KEY_PATH"):
        monkeypatch.delenv(f"AAAF_{name}", raising=False)
    settings = Settings()
    assert settings.database_url == "sqlite:///./aaaf.db"
    assert settings.redis_url is None and settings.judge_model is None and settings.issuer_key_path is None
    assert settings.public_base_url == "http://localhost:8000"


def test_environment_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AAAF_REDIS_URL", "redis://127.0.0.1:6379/0")
    monkeypatch.setenv("AAAF_JUDGE_BASE_URL", "http://judge.local/v1")
    monkeypatch.setenv("AAAF_PUBLIC_BASE_URL", "https://assess.example.com")
    settings = get_settings()
    assert settings.redis_url == "redis://127.0.0.1:6379/0"
    assert settings.judge_base_url == "http://judge.local/v1"
    assert settings.public_base_url == "https://assess.example.com"
    assert get_settings() is settings  # read once


def test_open_store_without_url_uses_the_setting(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    database = tmp_path / "from-env" / "aaaf.db"
    database.parent.mkdir()  # a new SQLite file only in an existing folder (SCORING.md §7)
    monkeypatch.setenv("AAAF_DATABASE_URL", f"sqlite:///{database}")
    with open_store() as store:
        store.default_organization()
        assert store.dialect == "sqlite"
    assert database.exists()
