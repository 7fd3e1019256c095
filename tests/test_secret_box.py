"""The installation's secret and the sealed values (SCORING.md §7 "Secrets")."""

from __future__ import annotations

import base64
import os
import stat
from pathlib import Path

import pytest

from aaaf.errors import AAAFError
from aaaf.secret_box import SECRET_FILE_NAME, SecretBox, generate_secret, parse_secret, resolve_secret


def test_a_sqlite_installation_generates_its_secret_once_beside_the_database(tmp_path: Path) -> None:
    db = tmp_path / "aaaf.db"
    first = resolve_secret(None, db)
    path = tmp_path / SECRET_FILE_NAME
    assert len(first) == 32 and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert resolve_secret(None, db) == first  # the same file, not a new secret
    assert sorted(p.name for p in tmp_path.iterdir()) == [SECRET_FILE_NAME]  # no temporary left
    path.chmod(0o644)
    with pytest.raises(AAAFError) as readable:
        resolve_secret(None, db)
    assert "chmod 600" in readable.value.message


def test_a_server_database_needs_the_secret_named(tmp_path: Path) -> None:
    with pytest.raises(AAAFError) as missing:
        resolve_secret(None, None)
    assert missing.value.code == "INVALID_REQUEST" and "AAAF_SECRET_KEY" in missing.value.message
    given = generate_secret()
    assert resolve_secret(given, None) == base64.b64decode(given)
    assert resolve_secret(given, tmp_path / "aaaf.db") == base64.b64decode(given)  # the setting wins
    assert not (tmp_path / SECRET_FILE_NAME).exists()


@pytest.mark.parametrize("text", ["", "c2hvcnQ=", base64.b64encode(b"x" * 31).decode(), "!!!not base64!!!"])
def test_short_or_malformed_secrets_are_refused(text: str) -> None:
    with pytest.raises(AAAFError) as refused:
        parse_secret(text)
    assert "at least 32" in refused.value.message


def test_urlsafe_and_standard_base64_both_parse() -> None:
    raw = bytes(range(256))[:48]
    assert parse_secret(base64.b64encode(raw).decode()) == raw
    assert parse_secret(base64.urlsafe_b64encode(raw).decode().rstrip("=")) == raw


def test_sealed_values_open_only_with_the_same_secret_and_purpose() -> None:
    secret = os.urandom(32)
    box = SecretBox(secret)
    sealed = box.seal(b"whsec_abc", purpose="webhook secret")
    assert b"whsec_abc" not in sealed.encode() and sealed.startswith("v1.")
    assert box.seal(b"whsec_abc", purpose="webhook secret") != sealed  # a fresh nonce each time
    assert SecretBox(secret).open(sealed, purpose="webhook secret") == b"whsec_abc"
    for opener, purpose in ((SecretBox(os.urandom(32)), "webhook secret"), (box, "issuer private key")):
        with pytest.raises(AAAFError) as refused:
            opener.open(sealed, purpose=purpose)
        assert "AAAF_SECRET_KEY" in refused.value.message
    tampered = sealed[:-2] + ("A" if sealed[-2] != "A" else "B") + sealed[-1]
    for bad in (tampered, "v2." + sealed[3:], "garbage"):
        with pytest.raises(AAAFError):
            box.open(bad, purpose="webhook secret")
    assert "secret" not in repr(box).replace("<secret>", "")
