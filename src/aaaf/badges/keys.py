"""The issuer's Ed25519 key: created on first use, kept in a 0600 file, never shown but its public half.

Issue 7, item 2: the CLI keeps the key beside the SQLite database
(``<db dir>/aaaf-issuer.key``) unless ``AAAF_ISSUER_KEY_PATH`` names another file.
Creation is atomic and never overwrites: the PEM is written to a private temporary file
and hard-linked into place, so two processes starting at once end up with the same key
and nobody ever reads half a file.  A key file that group or others can read is refused
(as ssh refuses such a key), because whoever reads it can issue badges in the
organization's name.

Public keys are identified by their RFC 7638 JWK thumbprint (the JWS ``kid``) and
exported as PEM (SubjectPublicKeyInfo) or as a JWKS.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from joserfc.jwk import OKPKey

from aaaf.errors import AAAFError
from aaaf.secret_box import create_private_file_once, read_private_file

log = logging.getLogger(__name__)

KEY_FILE_NAME = "aaaf-issuer.key"


def default_key_path(database_url: str | None, configured: str | None = None) -> Path:
    """Where the issuer key lives: the configured path, else beside the SQLite file.

    For a server database (PostgreSQL) without a configured path the key is kept in the
    working directory, beside where the default SQLite database would be.
    """
    if configured:
        return Path(configured).expanduser()
    url = database_url or "sqlite:///./aaaf.db"
    if url.startswith("sqlite:///"):
        db_path = url[len("sqlite:///") :]
        if db_path and db_path != ":memory:":
            return Path(db_path).expanduser().resolve().parent / KEY_FILE_NAME
    return Path.cwd() / KEY_FILE_NAME


@dataclass(frozen=True)
class PublicKey:
    """One verification key and its RFC 7638 thumbprint."""

    key: Ed25519PublicKey
    kid: str

    @classmethod
    def of(cls, key: Ed25519PublicKey) -> PublicKey:
        return cls(key=key, kid=_thumbprint(key))

    def pem(self) -> str:
        return self.key.public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        ).decode("ascii")

    def jwk(self) -> dict[str, Any]:
        raw = self.key.public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
        jwk = OKPKey.import_key(raw).as_dict(private=False)
        return {
            "kty": jwk["kty"],
            "crv": jwk["crv"],
            "x": jwk["x"],
            "kid": self.kid,
            "alg": "EdDSA",
            "use": "sig",
        }


@dataclass(frozen=True)
class IssuerKey:
    """The organization's signing key.  ``repr`` never shows the private half."""

    private_key: Ed25519PrivateKey
    path: Path | None = None

    def __repr__(self) -> str:
        return f"IssuerKey(kid={self.kid!r}, path={str(self.path)!r})"

    @property
    def public(self) -> PublicKey:
        return PublicKey.of(self.private_key.public_key())

    @property
    def kid(self) -> str:
        return self.public.kid

    def jose_key(self) -> OKPKey:
        pem = self.private_key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        return OKPKey.import_key(pem)

    @classmethod
    def generate(cls) -> IssuerKey:
        return cls(private_key=Ed25519PrivateKey.generate())


def _thumbprint(key: Ed25519PublicKey) -> str:
    raw = key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    return str(OKPKey.import_key(raw).thumbprint())


def _private_pem(key: Ed25519PrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def read_issuer_key(path: Path) -> IssuerKey:
    """Load an existing issuer key file (refusing a file others can read)."""
    loaded = serialization.load_pem_private_key(read_private_file(path, "issuer key"), password=None)
    if not isinstance(loaded, Ed25519PrivateKey):
        raise AAAFError("INTERNAL_ERROR", f"The issuer key {path} is not an Ed25519 private key.")
    return IssuerKey(private_key=loaded, path=path)


def load_or_create_issuer_key(path: Path) -> IssuerKey:
    """The key file at ``path``, created (0600, atomically, never overwriting) if missing.

    The installation's key lives in the database (:mod:`aaaf.services.issuer`); a key file is
    what earlier installations kept, and what a user may point ``--key`` at."""
    path.parent.mkdir(parents=True, exist_ok=True)
    _, created = create_private_file_once(path, _private_pem(Ed25519PrivateKey.generate()), "issuer key")
    issued = read_issuer_key(path)
    if created:
        log.info("created issuer key %s (kid %s)", path, issued.kid)
    return issued


def jwks(keys: Iterable[PublicKey]) -> dict[str, Any]:
    return {"keys": [key.jwk() for key in keys]}


def parse_public_keys(text: str | bytes) -> list[PublicKey]:
    """Verification keys from a PEM (public, or private: its public half), a JWK or a JWKS.

    Raises ``AAAFError(INVALID_REQUEST)`` naming what was wrong.
    """
    raw = text.encode("utf-8") if isinstance(text, str) else text
    stripped = raw.strip()
    if stripped.startswith(b"{"):
        try:
            document = json.loads(stripped)
        except json.JSONDecodeError as error:
            raise AAAFError("INVALID_REQUEST", f"The key file is not valid JSON: {error}.") from error
        entries: Sequence[Any] = document.get("keys", [document]) if isinstance(document, dict) else []
        keys = [_public_from_jwk(entry) for entry in entries]
        if not keys:
            raise AAAFError("INVALID_REQUEST", "The JWKS holds no keys.")
        return keys
    if b"-----BEGIN" in stripped:
        return [_public_from_pem(stripped)]
    raise AAAFError("INVALID_REQUEST", "The key is neither a PEM nor a JWK/JWKS document.")


def _public_from_pem(pem: bytes) -> PublicKey:
    try:
        if b"PRIVATE KEY" in pem:
            private = serialization.load_pem_private_key(pem, password=None)
            if not isinstance(private, Ed25519PrivateKey):
                raise AAAFError("INVALID_REQUEST", "The key is not an Ed25519 key.")
            return PublicKey.of(private.public_key())
        public = serialization.load_pem_public_key(pem)
    except ValueError as error:
        raise AAAFError("INVALID_REQUEST", f"The PEM key cannot be read: {error}.") from error
    if not isinstance(public, Ed25519PublicKey):
        raise AAAFError("INVALID_REQUEST", "The key is not an Ed25519 key (badges are signed with EdDSA).")
    return PublicKey.of(public)


def _public_from_jwk(entry: Any) -> PublicKey:
    if not isinstance(entry, dict) or entry.get("kty") != "OKP" or entry.get("crv") != "Ed25519":
        raise AAAFError("INVALID_REQUEST", "A JWK that is not an Ed25519 (OKP) key was given.")
    public_only = {k: entry[k] for k in ("kty", "crv", "x") if k in entry}
    try:
        jose = OKPKey.import_key(public_only)
    except Exception as error:
        raise AAAFError("INVALID_REQUEST", f"The JWK cannot be read: {error}.") from error
    pem = jose.as_pem(private=False)
    return _public_from_pem(pem)
