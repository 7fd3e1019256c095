"""The installation's issuer key, kept in the database (SCORING.md §7 "Secrets"; issue 10 §4).

Every process that shares the database — the CLI, ``aaaf serve``, workers on other
machines — signs badges and status lists with the one key in the ``issuer_keys`` table,
whose private half is sealed with ``AAAF_SECRET_KEY`` (:mod:`aaaf.secret_box`) and never
written anywhere in clear.  The first process to need it stores it: the key file of an
earlier installation (``aaaf-issuer.key`` beside the SQLite database, or
``AAAF_ISSUER_KEY_PATH``) when there is one, so that badges already issued keep verifying,
else a new Ed25519 key.  Verification needs only the public half, hence no secret.
"""

from __future__ import annotations

import logging
from datetime import datetime
from pathlib import Path
from typing import Protocol

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import Engine
from sqlalchemy.engine import make_url

from aaaf.badges.keys import IssuerKey, PublicKey, default_key_path, parse_public_keys, read_issuer_key
from aaaf.errors import AAAFError
from aaaf.secret_box import SecretBox, resolve_secret
from aaaf.services.context import ServiceContext, context_or_default, default_context
from aaaf.settings import Settings
from aaaf.store.issuer_keys import IssuerKeys, StoredIssuerKey

log = logging.getLogger(__name__)


class Database(Protocol):
    """What the issuer needs of a store: its URL (where the SQLite file is) and its engine."""

    @property
    def url(self) -> str: ...

    @property
    def engine(self) -> Engine: ...


ISSUER_SLOT = "issuer"
PURPOSE = "issuer private key"


def sqlite_file(store: Database) -> Path | None:
    """The SQLite database file of ``store``, or None for a server database / in-memory."""
    url = sqlite_file_url(store.url)
    return None if url is None else Path(url[len("sqlite:///") :])


def secret_box(store: Database, settings: Settings | None = None) -> SecretBox:
    """The box sealed with this installation's secret (``AAAF_SECRET_KEY`` or the SQLite key file)."""
    settings = settings or default_context().settings
    return SecretBox(resolve_secret(settings.secret_key, sqlite_file(store)))


def _legacy_key(store: Database, settings: Settings) -> IssuerKey | None:
    database = sqlite_file(store)
    path = default_key_path(None if database is None else f"sqlite:///{database}", settings.issuer_key_path)
    if not path.exists():
        return None
    log.info("importing the issuer key file %s into the database", path)
    return read_issuer_key(path)


def _pkcs8(key: Ed25519PrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def issuer_key(store: Database, *, now: datetime, settings: Settings | None = None) -> IssuerKey:
    """The installation's signing key: read from the database, stored there on first use."""
    settings = settings or default_context().settings
    box = secret_box(store, settings)
    keys = IssuerKeys(store.engine)
    stored = keys.get(ISSUER_SLOT)
    if stored is None:
        candidate = _legacy_key(store, settings) or IssuerKey.generate()
        stored = keys.add_unless_present(
            StoredIssuerKey(
                name=ISSUER_SLOT,
                kid=candidate.kid,
                public_pem=candidate.public.pem(),
                private_key_sealed=box.seal(_pkcs8(candidate.private_key), purpose=PURPOSE),
                created_at=now,
            )
        )
        log.info("issuer key %s stored in the database", stored.kid)
    private = serialization.load_der_private_key(box.open(stored.private_key_sealed, purpose=PURPOSE), None)
    if not isinstance(private, Ed25519PrivateKey):
        raise AAAFError("INTERNAL_ERROR", "The stored issuer key is not an Ed25519 key.")
    key = IssuerKey(private_key=private)
    if key.kid != stored.kid:
        raise AAAFError(
            "INTERNAL_ERROR", "The stored issuer key does not match its key id.", {"kid": stored.kid}
        )
    return key


def issuer_public_keys(store: Database, settings: Settings | None = None) -> list[PublicKey]:
    """The installation's public keys, for verification (no secret needed): the database's,
    or, before the first badge of a database that has none yet, an earlier key file's."""
    found = [key for _, pem in IssuerKeys(store.engine).public_keys() for key in parse_public_keys(pem)]
    if found:
        return found
    legacy = _legacy_key(store, settings or default_context().settings)
    return [] if legacy is None else [legacy.public]


def sqlite_file_url(store_url: str) -> str | None:
    """``sqlite:///<absolute path>`` of a SQLite file URL, None for anything else."""
    try:
        url = make_url(store_url)
    except Exception:
        return None
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    return "sqlite:///" + str(Path(url.database).expanduser().resolve())


def local_public_keys(
    store_url: str | None, *, required: bool = True, context: ServiceContext | None = None
) -> list[PublicKey]:
    """The local issuer's public keys (from the database; an earlier installation's key file
    when the database has none yet), for ``aaaf verify`` — never creates one, needs no secret.
    None found is ``INVALID_REQUEST`` when ``required``, else an empty list."""
    from aaaf.store import open_store

    settings = context_or_default(context).settings
    url = store_url or settings.database_url
    sqlite = sqlite_file_url(url)
    if sqlite is None or Path(sqlite[len("sqlite:///") :]).exists():
        with open_store(url) as store:
            keys = issuer_public_keys(store, settings)
    else:
        path = default_key_path(sqlite, settings.issuer_key_path)
        keys = [read_issuer_key(path).public] if path.exists() else []
    if not keys and required:
        raise AAAFError(
            "INVALID_REQUEST",
            "No local issuer key (this database has issued no badge); pass the issuer's public key"
            " with --key PEM|JWKS.",
            {"database": url},
        )
    return keys
