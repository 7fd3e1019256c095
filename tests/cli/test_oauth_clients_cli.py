"""`aaaf oauth-clients create|list|revoke` and `aaaf config set rate_limit_per_minute` (issue 13 §3, §4)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from aaaf.cli.main import app
from aaaf.services import oauth
from aaaf.store import open_store

runner = CliRunner()


@pytest.fixture()
def db(tmp_path: Path) -> str:
    return str(tmp_path / "aaaf.db")


def aaaf(db: str, *args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, [*args, "--db", db])


def test_clients_are_created_listed_and_revoked(db: str) -> None:
    assert aaaf(db, "oauth-clients", "list").exit_code == 0  # creates the database (and says so)
    created = aaaf(
        db, "oauth-clients", "create", "--scopes", "read,events:write", "--name", "ingest", "--json"
    )
    assert created.exit_code == 0, created.output
    client = json.loads(created.output)
    assert client["scopes"] == ["read", "events:write"] and client["client_secret"].startswith("ocs_")
    listed = json.loads(aaaf(db, "oauth-clients", "list", "--json").output)
    assert [item["client_id"] for item in listed["items"]] == [client["client_id"]]
    assert client["client_secret"] not in aaaf(db, "oauth-clients", "list").output
    store = open_store(f"sqlite:///{db}")
    try:
        token = oauth.issue_token(
            store, client["client_id"], client["client_secret"], None, now=datetime.now(UTC)
        )
        assert token["scope"] == "read events:write"
    finally:
        store.close()
    revoked = aaaf(db, "oauth-clients", "revoke", client["client_id"], "--json")
    assert revoked.exit_code == 0 and json.loads(revoked.output)["revoked_at"] is not None
    assert aaaf(db, "oauth-clients", "revoke", "oc_nobody").exit_code != 0
    bad = aaaf(db, "oauth-clients", "create", "--scopes", "root")
    assert bad.exit_code != 0 and "root" in bad.output


def test_the_rate_limit_is_set_like_any_configuration_key(db: str) -> None:
    assert aaaf(db, "oauth-clients", "list").exit_code == 0  # creates the database (and says so)
    assert aaaf(db, "config", "set", "rate_limit_per_minute", "1000").exit_code == 0
    shown = json.loads(aaaf(db, "config", "show", "--json").output)
    assert shown["config"]["rate_limit_per_minute"] == 1000
    refused = aaaf(db, "config", "set", "rate_limit_per_minute", "0")
    assert refused.exit_code != 0 and "at least 1" in refused.output
