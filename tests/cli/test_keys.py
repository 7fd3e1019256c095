"""`aaaf org create|list`, `aaaf keys create|list|revoke` and `--org` on every command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from aaaf.cli.main import app, hoist_org_option

runner = CliRunner()


@pytest.fixture()
def db(sqlite_at_head: Path) -> str:
    return str(sqlite_at_head)


def aaaf(db: str, *args: str):
    return runner.invoke(app, [*args, "--db", db])


def test_hoisting_moves_org_in_front_and_leaves_the_rest() -> None:
    assert hoist_org_option(["assess", "a", "--org", "acme", "--json"]) == [
        "--org",
        "acme",
        "assess",
        "a",
        "--json",
    ]
    assert hoist_org_option(["keys", "list", "--org=acme"]) == ["--org", "acme", "keys", "list"]
    assert hoist_org_option(["collect", "--", "--org"]) == ["collect", "--", "--org"]


def test_org_create_prints_a_key_once_and_keys_are_scoped_to_the_org(db: str) -> None:
    created = aaaf(db, "org", "create", "acme", "--json")
    assert created.exit_code == 0, created.output
    body = json.loads(created.stdout)
    assert body["name"] == "acme" and body["api_key"].startswith("ak_")
    assert set(body["key"]["scopes"]) == {"read", "events:write", "assessments:write", "auditor", "admin"}
    made = runner.invoke(app, ["--org", "acme", "keys", "create", "--scopes", "read", "--json", "--db", db])
    assert made.exit_code == 0, made.output
    key = json.loads(made.stdout)
    listed = json.loads(runner.invoke(app, ["--org", "acme", "keys", "list", "--json", "--db", db]).stdout)
    assert [k["id"] for k in listed["items"]] == [body["key"]["id"], key["id"]]
    assert body["api_key"] not in json.dumps(listed)
    # the default organization has none of acme's keys
    assert json.loads(aaaf(db, "keys", "list", "--json").stdout)["items"] == []
    # and cannot revoke them
    assert aaaf(db, "keys", "revoke", key["id"]).exit_code == 2
    revoked = runner.invoke(app, ["--org", "acme", "keys", "revoke", key["id"], "--json", "--db", db])
    assert json.loads(revoked.stdout)["revoked_at"] is not None
    orgs = json.loads(aaaf(db, "org", "list", "--json").stdout)["items"]
    assert {o["name"] for o in orgs} == {"acme", "default"}


def test_bad_scopes_duplicate_names_and_unknown_orgs_exit_2(db: str) -> None:
    assert aaaf(db, "org", "create", "acme").exit_code == 0
    duplicate = aaaf(db, "org", "create", "acme")
    assert duplicate.exit_code == 2 and "CONFLICT" in duplicate.output
    bogus = aaaf(db, "keys", "create", "--scopes", "read,root")
    assert bogus.exit_code == 2 and "root" in bogus.output
    unknown = runner.invoke(app, ["--org", "nope", "agents", "--db", db])
    assert unknown.exit_code == 2 and "nope" in unknown.output


def test_the_console_script_takes_org_after_the_command(db: str) -> None:
    """The real entry point: `aaaf enroll x --org acme` acts on acme, not the default org."""
    script = [sys.executable, "-c", "import sys; from aaaf.cli.main import run; sys.argv[0] = 'aaaf'; run()"]
    subprocess.run([*script, "org", "create", "acme", "--db", db], check=True, capture_output=True)
    subprocess.run([*script, "enroll", "coder", "--org", "acme", "--db", db], check=True, capture_output=True)
    in_acme = subprocess.run(
        [*script, "agents", "--json", "--db", db, "--org=acme"], check=True, capture_output=True, text=True
    )
    assert [a["name"] for a in json.loads(in_acme.stdout)] == ["coder"]
    in_default = subprocess.run(
        [*script, "agents", "--json", "--db", db], check=True, capture_output=True, text=True
    )
    assert json.loads(in_default.stdout) == []
