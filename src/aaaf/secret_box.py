"""The installation's secret (SCORING.md §7 "Secrets") and what it encrypts.

``AAAF_SECRET_KEY`` — at least 32 random bytes, base64 — encrypts what the database must
hold but must not show (the issuer's private key, webhook secrets) and signs session
cookies and OAuth tokens, so any number of servers and workers on any machines share one
issuer.  With the embedded SQLite default it is generated once into ``aaaf-secret.key``
beside the database (mode 0600); with PostgreSQL it must be given (an error names it).

:class:`SecretBox` seals with AES-256-GCM under a key derived by HKDF-SHA256 from the
secret, binding each value to its purpose (associated data), so a sealed webhook secret
cannot be passed off as the issuer key.  Sealed text: ``v1.`` + base64url(nonce ‖ ciphertext).

The private-file helpers (create once, atomically, never overwriting; refuse a file that
group or others can read, as ssh does) serve this secret and the legacy issuer-key file.
"""

from __future__ import annotations

import base64
import binascii
import os
import stat
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from aaaf.errors import AAAFError

SECRET_KEY_ENV = "AAAF_SECRET_KEY"
SECRET_FILE_NAME = "aaaf-secret.key"
MIN_SECRET_BYTES = 32
_SEALED_PREFIX = "v1."
_NONCE_BYTES = 12


# ------------------------------------------------------------------ private files
def check_private(path: Path, what: str) -> None:
    """Refuse a secret file that group or others can read (whoever reads it is the issuer)."""
    if os.name != "posix":
        return
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        raise AAAFError(
            "INTERNAL_ERROR",
            f"The {what} {path} is readable by others (mode {mode:04o}); run `chmod 600 {path}`.",
            {"path": str(path), "mode": f"{mode:04o}"},
        )


def read_private_file(path: Path, what: str) -> bytes:
    check_private(path, what)
    return path.read_bytes()


def create_private_file_once(path: Path, content: bytes, what: str) -> tuple[bytes, bool]:
    """Write ``content`` to ``path`` (0600) unless it exists; return what the file holds and
    whether this call created it.  Atomic: a private temporary file is hard-linked into
    place, so two processes starting at once end up with the same content and nobody ever
    reads half a file."""
    if path.exists():
        return read_private_file(path, what), False
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(temporary, path)
        except FileExistsError:  # another process won the race: its content, not ours
            return read_private_file(path, what), False
    finally:
        temporary.unlink(missing_ok=True)
    return content, True


# ------------------------------------------------------------------ the secret
def generate_secret() -> str:
    """A fresh secret in the form ``AAAF_SECRET_KEY`` takes: base64 of 32 random bytes."""
    return base64.b64encode(os.urandom(MIN_SECRET_BYTES)).decode("ascii")


def parse_secret(text: str, source: str = SECRET_KEY_ENV) -> bytes:
    """The secret's bytes; ``INVALID_REQUEST`` naming ``source`` unless it is base64 of ≥ 32 bytes."""
    cleaned = "".join(text.split())
    try:
        raw = base64.b64decode(cleaned + "=" * (-len(cleaned) % 4), altchars=b"-_", validate=False)
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) < MIN_SECRET_BYTES:
        raise AAAFError(
            "INVALID_REQUEST",
            f"{source} must be base64 of at least {MIN_SECRET_BYTES} random bytes"
            f' (got {len(raw)} bytes); make one with: python -c "import base64, os;'
            ' print(base64.b64encode(os.urandom(32)).decode())"',
            {"setting": SECRET_KEY_ENV},
        )
    return raw


def secret_file_path(sqlite_database: Path) -> Path:
    return sqlite_database.expanduser().resolve().parent / SECRET_FILE_NAME


def resolve_secret(configured: str | None, sqlite_database: Path | None) -> bytes:
    """The installation's secret: ``AAAF_SECRET_KEY`` when set; else, for a SQLite file, the
    key file beside it (generated once); else (a server database) ``INVALID_REQUEST`` naming
    ``AAAF_SECRET_KEY`` — SCORING.md §7 "Secrets"."""
    if configured:
        return parse_secret(configured)
    if sqlite_database is None:
        raise AAAFError(
            "INVALID_REQUEST",
            f"{SECRET_KEY_ENV} is not set: with a server database every process that signs or"
            " decrypts (serve, worker, badge) needs the same secret (docs/api.md).",
            {"setting": SECRET_KEY_ENV},
        )
    path = secret_file_path(sqlite_database)
    content, _ = create_private_file_once(path, (generate_secret() + "\n").encode("ascii"), "secret key file")
    return parse_secret(content.decode("ascii", "replace"), str(path))


class SecretBox:
    """Seal and open values with the installation's secret (AES-256-GCM, purpose-bound)."""

    def __init__(self, secret: bytes) -> None:
        if len(secret) < MIN_SECRET_BYTES:
            raise ValueError(f"a secret needs at least {MIN_SECRET_BYTES} bytes")
        derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"aaaf secret box v1").derive(
            secret
        )
        self._aead = AESGCM(derived)
        self._secret = secret

    def derive_key(self, purpose: str, length: int = 32) -> bytes:
        """A key for one purpose (HKDF-SHA256 of the secret, ``info`` naming the purpose): what
        signs OAuth tokens (issue 13 §3), independent of the sealing key."""
        return HKDF(
            algorithm=hashes.SHA256(), length=length, salt=None, info=f"aaaf {purpose} v1".encode()
        ).derive(self._secret)

    def __repr__(self) -> str:
        return "SecretBox(<secret>)"

    def seal(self, plaintext: bytes, *, purpose: str) -> str:
        nonce = os.urandom(_NONCE_BYTES)
        sealed = self._aead.encrypt(nonce, plaintext, purpose.encode("utf-8"))
        return _SEALED_PREFIX + base64.urlsafe_b64encode(nonce + sealed).decode("ascii")

    def open(self, token: str, *, purpose: str) -> bytes:
        """The plaintext; ``INTERNAL_ERROR`` when the token was sealed under another secret or
        for another purpose, or was altered."""
        try:
            if not token.startswith(_SEALED_PREFIX):
                raise ValueError("not a sealed value")
            raw = base64.urlsafe_b64decode(token[len(_SEALED_PREFIX) :])
            return self._aead.decrypt(raw[:_NONCE_BYTES], raw[_NONCE_BYTES:], purpose.encode("utf-8"))
        except (InvalidTag, ValueError, binascii.Error):
            raise AAAFError(
                "INTERNAL_ERROR",
                f"Cannot decrypt the stored {purpose}: {SECRET_KEY_ENV} is not the secret it was"
                " encrypted with (or the stored value was altered).",
                {"setting": SECRET_KEY_ENV, "purpose": purpose},
            ) from None
