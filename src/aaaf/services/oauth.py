"""OAuth 2.0 client credentials (RFC 6749 §4.4; issue 13 §3; SCORING.md §7 "Secrets").

An organization creates clients, each with scopes (the API keys' scopes).  A client trades
its ``client_id`` and secret at ``POST /oauth/token`` for an access token: a JWT (RFC 9068
``at+jwt``) signed with HS256 under a key derived from ``AAAF_SECRET_KEY``
(:meth:`aaaf.secret_box.SecretBox.derive_key`, purpose "oauth access token"), so every
server process accepts every other's tokens.  It lives :data:`TOKEN_LIFETIME` (15 minutes)
and is accepted wherever an API key is, with its scopes; an expired, altered or foreign
token, or one of a revoked client, is 401 ``UNAUTHORIZED``.

Client secrets are shown once and stored only as SHA-256 (256 random bits: nothing to guess).
Errors of the token endpoint are RFC 6749 §5.2's (:class:`TokenError`), not §6.4's.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from aaaf.errors import AAAFError
from aaaf.services.keys import SCOPES, Principal, check_scopes
from aaaf.store import Store
from aaaf.store.oauth_clients import OAuthClient, OAuthClients
from aaaf.store.usage import organization_rate_limit

CLIENT_ID_PREFIX = "oc_"
CLIENT_SECRET_PREFIX = "ocs_"
TOKEN_LIFETIME = timedelta(minutes=15)
TOKEN_PURPOSE = "oauth access token"
ISSUER = "aaaf"
ALGORITHM = "HS256"

_signing_keys: dict[tuple[str, str | None], bytes] = {}


@dataclass(frozen=True)
class IssuedClient:
    """A client just created: ``secret`` is shown this once and never stored."""

    client: OAuthClient
    secret: str


class TokenError(Exception):
    """An RFC 6749 §5.2 error of the token endpoint: ``{"error", "error_description"}``."""

    def __init__(self, error: str, description: str, status: int = 400) -> None:
        super().__init__(description)
        self.error = error
        self.description = description
        self.status = status


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def create_client(
    store: Store, organization_id: uuid.UUID, scopes: Sequence[str], *, name: str | None = None, now: datetime
) -> IssuedClient:
    """A new client of the organization with these scopes; its secret is returned once."""
    store.get_organization(organization_id)
    canonical = check_scopes(scopes)
    client_id = CLIENT_ID_PREFIX + secrets.token_urlsafe(16)
    secret = CLIENT_SECRET_PREFIX + secrets.token_urlsafe(32)
    client = OAuthClients(store.engine).add(
        organization_id, client_id=client_id, secret_hash=_hash(secret), scopes=canonical, name=name, at=now
    )
    return IssuedClient(client=client, secret=secret)


def list_clients(
    store: Store,
    organization_id: uuid.UUID,
    *,
    after: tuple[datetime, uuid.UUID] | None = None,
    limit: int | None = None,
) -> list[OAuthClient]:
    return OAuthClients(store.engine).of_organization(organization_id, after=after, limit=limit)


def _row_id(client_ref: str) -> uuid.UUID:
    try:
        return uuid.UUID(str(client_ref))
    except ValueError:
        raise AAAFError(
            "NOT_FOUND",
            f"OAuth client {client_ref} not found.",
            {"resource": "oauth client", "id": client_ref},
        ) from None


def revoke_client(store: Store, organization_id: uuid.UUID, client_ref: str, *, now: datetime) -> OAuthClient:
    """Revoke a client by its record id or its ``client_id`` (``NOT_FOUND`` in another organization)."""
    clients = OAuthClients(store.engine)
    if client_ref.startswith(CLIENT_ID_PREFIX):
        found = clients.by_client_id(client_ref)
        if found is None or found.organization_id != organization_id:
            raise AAAFError(
                "NOT_FOUND",
                f"OAuth client {client_ref} not found.",
                {"resource": "oauth client", "id": client_ref},
            )
        return clients.revoke(organization_id, found.id, at=now)
    return clients.revoke(organization_id, _row_id(client_ref), at=now)


def _signing_key(store: Store) -> bytes:
    """The HS256 key of this installation (derived from ``AAAF_SECRET_KEY``; cached per database)."""
    from aaaf.services.issuer import secret_box
    from aaaf.settings import get_settings

    cache_key = (store.url, get_settings().secret_key)
    key = _signing_keys.get(cache_key)
    if key is None:
        key = secret_box(store).derive_key(TOKEN_PURPOSE)
        _signing_keys[cache_key] = key
    return key


def issue_token(
    store: Store, client_id: str | None, client_secret: str | None, scope: str | None, *, now: datetime
) -> dict[str, object]:
    """RFC 6749 §5.1's answer for a client-credentials grant: ``access_token``,
    ``token_type`` ("Bearer"), ``expires_in`` (seconds) and ``scope`` (granted, space-separated).
    :class:`TokenError` ``invalid_client`` (401) for an unknown or revoked client or a wrong
    secret (not saying which), ``invalid_scope`` for a scope the client does not hold."""
    from joserfc import jwt
    from joserfc.jwk import OctKey

    if not client_id or not client_secret:
        raise TokenError("invalid_client", "Client authentication failed.", 401)
    client = OAuthClients(store.engine).by_client_id(client_id)
    expected = client.secret_hash if client is not None else _hash("")
    matches = hmac.compare_digest(_hash(client_secret), expected)
    if client is None or not matches or not client.active:
        raise TokenError("invalid_client", "Client authentication failed.", 401)
    granted = client.scopes
    if scope is not None and scope.strip():
        asked = scope.split()
        unknown = [name for name in asked if name not in client.scopes]
        if unknown:
            raise TokenError(
                "invalid_scope",
                f"Scope(s) not granted to this client: {' '.join(unknown)} (it holds {' '.join(client.scopes)}).",
            )
        granted = tuple(name for name in SCOPES if name in set(asked))
    issued_at = int(now.timestamp())
    lifetime = int(TOKEN_LIFETIME.total_seconds())
    claims = {
        "iss": ISSUER,
        "sub": client.client_id,
        "client_id": client.client_id,
        "org": str(client.organization_id),
        "scope": " ".join(granted),
        "iat": issued_at,
        "exp": issued_at + lifetime,
        "jti": str(uuid.uuid4()),
    }
    token = jwt.encode({"alg": ALGORITHM, "typ": "at+jwt"}, claims, OctKey.import_key(_signing_key(store)))
    return {"access_token": token, "token_type": "Bearer", "expires_in": lifetime, "scope": " ".join(granted)}


def _unauthorized() -> AAAFError:
    return AAAFError("UNAUTHORIZED", "Missing or invalid API key or access token.", {})


def principal_from_token(store: Store, token: str, *, now: datetime) -> Principal:
    """Who an access token stands for; ``UNAUTHORIZED`` when it is altered, signed by
    another installation, expired, or its client is revoked."""
    from joserfc import jwt
    from joserfc.errors import JoseError
    from joserfc.jwk import OctKey

    try:
        decoded = jwt.decode(token, OctKey.import_key(_signing_key(store)), algorithms=[ALGORITHM])
    except (JoseError, ValueError):
        raise _unauthorized() from None
    claims = decoded.claims
    expires = claims.get("exp")
    if decoded.header.get("typ") != "at+jwt" or claims.get("iss") != ISSUER:
        raise _unauthorized()
    if not isinstance(expires, int) or expires <= now.timestamp():
        raise _unauthorized()
    client = OAuthClients(store.engine).by_client_id(str(claims.get("client_id")))
    if client is None or not client.active or str(client.organization_id) != claims.get("org"):
        raise _unauthorized()
    scopes = frozenset(str(claims.get("scope", "")).split()) & frozenset(client.scopes)
    return Principal(
        organization_id=client.organization_id,
        scopes=scopes,
        client_id=client.client_id,
        rate_limit_per_minute=organization_rate_limit(store.engine, client.organization_id),
    )
