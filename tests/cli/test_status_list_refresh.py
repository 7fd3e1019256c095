"""The status list file an embedded installation publishes stays current (docs/security.md
"Badges"): a list is valid for AAAF_STATUS_LIST_VALID_HOURS (24 here), so `aaaf badge` and
`aaaf badge status-list --if-due` sign it anew once it is in its last quarter (from hour 18)
or expired, and leave it alone before.  The clock is moved by handing the commands a fixed
service context (`aaaf.services.context.default_context`, the one place the CLI reads it)."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from aaaf.badges.credential import split_token
from aaaf.badges.data import parse_datetime
from aaaf.badges.keys import parse_public_keys
from aaaf.badges.status_check import check_status
from aaaf.services.context import ServiceContext
from aaaf.settings import get_settings
from tests.badges.conftest import clock
from tests.cli.test_badge import assessment, db, run  # noqa: F401 (db is a fixture)


def _at(monkeypatch: pytest.MonkeyPatch, when: Any) -> None:
    monkeypatch.setattr(
        "aaaf.services.context.default_context", lambda: ServiceContext.fixed(when, get_settings())
    )


def _validity(path: Path) -> tuple[Any, Any]:
    _header, payload = split_token(path.read_text().strip())
    return parse_datetime(payload["validFrom"]), parse_datetime(payload["validUntil"])


def test_the_status_list_file_is_signed_anew_in_its_last_quarter(
    db: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    start = clock()
    assessment_id = assessment(db)
    _at(monkeypatch, start)
    first = run("badge", "status-list", "--db", db, "--json")
    assert first.exit_code == 0, first.output
    written = json.loads(first.stdout)
    path = Path(written["status_list"])
    assert path == db.parent / "aaaf-status-list.jwt" and written["signed_now"] is True
    assert _validity(path) == (start, start + timedelta(hours=24))
    signed = path.read_bytes()

    # hour 17: three quarters of its validity left and a little more — left as it is
    _at(monkeypatch, start + timedelta(hours=17))
    kept = json.loads(run("badge", "status-list", "--if-due", "--db", db, "--json").stdout)
    assert kept["signed_now"] is False and parse_datetime(kept["valid_until"]) == start + timedelta(hours=24)
    assert run("badge", assessment_id, "--format", "json", "--output", tmp_path, "--db", db).exit_code == 0
    assert path.read_bytes() == signed

    # hour 19: in the last quarter — issuing a badge signs it anew, valid 24 h from now
    later = start + timedelta(hours=19)
    _at(monkeypatch, later)
    issued = run("badge", assessment_id, "--format", "json", "--output", tmp_path, "--db", db)
    assert issued.exit_code == 0, issued.output
    assert _validity(path) == (later, later + timedelta(hours=24))
    # at hour 25 the first list has expired; the one signed at hour 19 still answers
    keys = parse_public_keys(run("issuer", "key", "--db", db).stdout.encode())
    credential = json.loads((tmp_path / "security-auditor.json").read_text())
    hour_25 = start + timedelta(hours=25)
    assert check_status(credential, path.read_bytes(), keys, hour_25).revoked is False
    assert "expired" in check_status(credential, signed, keys, hour_25).reason

    # two days on, long expired: --if-due signs it anew
    much_later = start + timedelta(hours=50)
    _at(monkeypatch, much_later)
    again = json.loads(run("badge", "status-list", "--if-due", "--db", db, "--json").stdout)
    assert again["signed_now"] is True
    assert _validity(path) == (much_later, much_later + timedelta(hours=24))

    # a file someone altered (not this installation's signature) is signed anew too
    path.write_text(signed.decode().replace(".", ".x", 1))
    assert json.loads(run("badge", "status-list", "--if-due", "--db", db, "--json").stdout)["signed_now"]
    assert _validity(path) == (much_later, much_later + timedelta(hours=24))
