"""The issuer key lives in the database, sealed; processes share it (SCORING.md §7 "Secrets")."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from aaaf.badges.keys import load_or_create_issuer_key
from aaaf.errors import AAAFError
from aaaf.secret_box import generate_secret
from aaaf.services.issuer import issuer_key, issuer_public_keys
from aaaf.settings import Settings
from aaaf.store import open_store

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def test_every_process_on_the_database_signs_with_the_one_key(store_url: str) -> None:
    settings = Settings(secret_key=generate_secret())
    with open_store(store_url) as one, open_store(store_url) as two:
        first = issuer_key(one, now=NOW, settings=settings)
        assert issuer_key(two, now=NOW, settings=settings).kid == first.kid
        assert [key.kid for key in issuer_public_keys(two, settings)] == [first.kid]
        with pytest.raises(AAAFError) as wrong:
            issuer_key(two, now=NOW, settings=Settings(secret_key=generate_secret()))
        assert wrong.value.code == "INTERNAL_ERROR" and "AAAF_SECRET_KEY" in wrong.value.message


def test_a_server_database_without_the_secret_is_refused_by_name(store_url: str) -> None:
    if not store_url.startswith("postgresql"):
        pytest.skip("the SQLite default generates its secret (tested below)")
    with open_store(store_url) as store, pytest.raises(AAAFError) as missing:
        issuer_key(store, now=NOW, settings=Settings(secret_key=None))
    assert "AAAF_SECRET_KEY" in missing.value.message


def test_sqlite_without_a_setting_uses_the_generated_secret_file(tmp_path: Path) -> None:
    settings = Settings(secret_key=None, issuer_key_path=None)
    url = f"sqlite:///{tmp_path / 'aaaf.db'}"
    with open_store(url) as store:
        kid = issuer_key(store, now=NOW, settings=settings).kid
    with open_store(url) as store:
        assert issuer_key(store, now=NOW, settings=settings).kid == kid
    assert (tmp_path / "aaaf-secret.key").exists() and not (tmp_path / "aaaf-issuer.key").exists()


def test_an_earlier_key_file_is_imported_so_old_badges_keep_verifying(tmp_path: Path) -> None:
    legacy = load_or_create_issuer_key(tmp_path / "aaaf-issuer.key")
    settings = Settings(secret_key=generate_secret(), issuer_key_path=None)
    with open_store(f"sqlite:///{tmp_path / 'aaaf.db'}") as store:
        assert [key.kid for key in issuer_public_keys(store, settings)] == [legacy.kid]  # before import
        assert issuer_key(store, now=NOW, settings=settings).kid == legacy.kid
        assert [key.kid for key in issuer_public_keys(store, settings)] == [legacy.kid]


def test_two_processes_starting_at_once_agree_on_one_key(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'aaaf.db'}"
    open_store(url).close()
    code = (
        "import sys; from datetime import UTC, datetime; from aaaf.store import open_store;"
        " from aaaf.services.issuer import issuer_key; from aaaf.settings import Settings;"
        f" s = open_store({url!r}); print(issuer_key(s, now=datetime.now(UTC),"
        " settings=Settings(secret_key=sys.argv[1])).kid)"
    )
    secret = generate_secret()
    runs = [
        subprocess.Popen([sys.executable, "-c", code, secret], stdout=subprocess.PIPE, text=True)
        for _ in range(3)
    ]
    kids = {run.communicate(timeout=60)[0].strip() for run in runs}
    assert len(kids) == 1 and all(kids)
