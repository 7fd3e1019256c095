"""The issuer key: created once, 0600, never overwritten or shown; public half as PEM and JWKS."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import stat
from pathlib import Path

import pytest

from aaaf.badges.keys import (
    IssuerKey,
    default_key_path,
    jwks,
    load_or_create_issuer_key,
    parse_public_keys,
)
from aaaf.errors import AAAFError


def test_created_with_0600_and_reused(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "aaaf-issuer.key"
    first = load_or_create_issuer_key(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert b"PRIVATE KEY" in path.read_bytes()
    second = load_or_create_issuer_key(path)
    assert second.kid == first.kid
    assert [p.name for p in path.parent.iterdir()] == ["aaaf-issuer.key"]  # no temporary left behind


def test_a_key_others_can_read_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "aaaf-issuer.key"
    load_or_create_issuer_key(path)
    os.chmod(path, 0o644)
    with pytest.raises(AAAFError, match="chmod 600"):
        load_or_create_issuer_key(path)


def test_never_overwrites_an_existing_key(tmp_path: Path) -> None:
    path = tmp_path / "aaaf-issuer.key"
    original = load_or_create_issuer_key(path)
    before = path.read_bytes()
    for _ in range(3):
        assert load_or_create_issuer_key(path).kid == original.kid
    assert path.read_bytes() == before


def test_repr_hides_the_private_key(tmp_path: Path) -> None:
    key = load_or_create_issuer_key(tmp_path / "k.key")
    shown = repr(key)
    assert key.kid in shown and "PRIVATE" not in shown and "private_key" not in shown


def test_kid_is_the_rfc_7638_thumbprint() -> None:
    key = IssuerKey.generate()
    jwk = key.public.jwk()
    # RFC 7638 §3.2: SHA-256 over {"crv","kty","x"} in lexicographic order, no whitespace
    canonical = json.dumps({"crv": jwk["crv"], "kty": jwk["kty"], "x": jwk["x"]}, separators=(",", ":"))
    expected = base64.urlsafe_b64encode(hashlib.sha256(canonical.encode()).digest()).rstrip(b"=").decode()
    assert key.kid == expected == jwk["kid"]
    assert jwk["kty"] == "OKP" and jwk["crv"] == "Ed25519" and "d" not in jwk


def test_parse_pem_jwk_and_jwks() -> None:
    key = IssuerKey.generate()
    from_pem = parse_public_keys(key.public.pem())
    from_jwks = parse_public_keys(json.dumps(jwks([key.public])))
    from_jwk = parse_public_keys(json.dumps(key.public.jwk()))
    assert [k.kid for k in from_pem + from_jwks + from_jwk] == [key.kid] * 3
    with pytest.raises(AAAFError, match="neither a PEM"):
        parse_public_keys("hello")
    with pytest.raises(AAAFError, match="Ed25519"):
        parse_public_keys(json.dumps({"kty": "EC", "crv": "P-256", "x": "a", "y": "b"}))


def test_default_path_is_beside_the_sqlite_database(tmp_path: Path) -> None:
    db = tmp_path / "data" / "aaaf.db"
    assert default_key_path(f"sqlite:///{db}") == db.parent / "aaaf-issuer.key"
    assert default_key_path(f"sqlite:///{db}", str(tmp_path / "k")) == tmp_path / "k"
    assert default_key_path("postgresql+psycopg://u@h/db") == Path.cwd() / "aaaf-issuer.key"
