"""Organizations and their API keys (SCORING.md §7 "Admin and keys"; issue 13 §3).

A key is ``ak_`` + 43 URL-safe characters (256 random bits), shown once at creation and
stored only as its SHA-256.  Each key holds scopes: ``read``, ``events:write``,
``assessments:write``, ``auditor`` (audit findings, appeal resolution) and ``admin``
(keys, configuration, webhooks).  The key returned when an organization is created holds
every scope.  The CLI, the API and the dashboard authenticate through :func:`authenticate`.
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from aaaf.errors import AAAFError
from aaaf.settings import get_settings
from aaaf.store import Organization, OrgStore, Store
from aaaf.store.api_keys import ApiKey, ApiKeys

if TYPE_CHECKING:
    from aaaf.models.tenancy import Organization as OrganizationOut

KEY_PREFIX = "ak_"
SCOPES: tuple[str, ...] = ("read", "events:write", "assessments:write", "auditor", "admin")
KEY_PREFIX_SHOWN = len(KEY_PREFIX) + 8
#: how stale a key's recorded last use may be (a write transaction per request would
#: serialise every request on SQLite)
LAST_USED_RESOLUTION = timedelta(minutes=1)


@dataclass(frozen=True)
class IssuedKey:
    """A key just created: ``secret`` is the key itself, shown this once and never stored."""

    key: ApiKey
    secret: str


@dataclass(frozen=True)
class Principal:
    """Who a request (or a command) acts as: an organization and the scopes it holds."""

    organization_id: uuid.UUID
    scopes: frozenset[str]
    key_id: uuid.UUID | None = None
    #: the OAuth client whose token the request presented (issue 13 §3), else None
    client_id: str | None = None
    #: the organization's ``rate_limit_per_minute`` setting, read with the credential (None:
    #: not set, the default applies)
    rate_limit_per_minute: int | None = None

    @property
    def rate_limit_identity(self) -> str:
        """What a rate limit counts against: the API key, or the OAuth client (issue 13 §4)."""
        if self.client_id is not None:
            return f"client:{self.client_id}"
        return f"key:{self.key_id}"

    def holds(self, scope: str) -> bool:
        """Whether this principal holds ``scope`` (``admin`` holds every scope)."""
        return scope in self.scopes or "admin" in self.scopes

    def require(self, scope: str) -> None:
        """``FORBIDDEN`` unless this principal holds ``scope`` (``admin`` holds every scope)."""
        if not self.holds(scope):
            raise AAAFError(
                "FORBIDDEN",
                f"This API key lacks the {scope!r} scope.",
                {"required_scope": scope, "scopes": sorted(self.scopes)},
            )


def hash_key(secret: str) -> str:
    """The stored form of a key: SHA-256, hex."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def check_scopes(scopes: Sequence[str]) -> tuple[str, ...]:
    """The scopes, de-duplicated in the canonical order; ``INVALID_REQUEST`` naming an unknown one."""
    unknown = sorted(set(scopes) - set(SCOPES))
    if unknown:
        raise AAAFError(
            "INVALID_REQUEST",
            f"Unknown scope(s) {', '.join(unknown)}; known scopes: {', '.join(SCOPES)}.",
            {"field": "scopes", "unknown": unknown},
        )
    if not scopes:
        raise AAAFError("INVALID_REQUEST", "A key needs at least one scope.", {"field": "scopes"})
    return tuple(scope for scope in SCOPES if scope in set(scopes))


def organization_named(store: Store, name: str) -> Organization:
    """The organization with this name (``NOT_FOUND`` naming it otherwise)."""
    for organization in store.organizations():
        if organization.name == name:
            return organization
    raise AAAFError(
        "NOT_FOUND", f"Organization {name!r} not found.", {"resource": "organization", "name": name}
    )


def create_organization(
    store: Store,
    name: str,
    *,
    now: datetime,
    taxonomy: Sequence[str] | None = None,
    config: Mapping[str, object] | None = None,
) -> tuple[Organization, IssuedKey]:
    """A new organization and its first key, holding every scope (``CONFLICT`` when the name
    is taken).  ``taxonomy`` and ``config`` (document 004 §6.2 names; weights checked:
    ``WEIGHT_SUM_INVALID``) are stored with it, or nothing is created."""
    if any(organization.name == name for organization in store.organizations()):
        raise AAAFError("CONFLICT", f"An organization named {name!r} already exists.", {"name": name})
    organization = store.create_organization(name, taxonomy=taxonomy, config=config)
    return organization, create_key(
        store, organization.id, SCOPES, name="created with the organization", now=now
    )


def organization_out(organization: Organization) -> OrganizationOut:
    """An organization as the API answers it (its key hash never shown)."""
    from aaaf.models.tenancy import Organization as OrganizationOut

    return OrganizationOut(**organization.to_dict())


def own_organization(org: OrgStore) -> OrganizationOut:
    """The organization ``org`` is scoped to."""
    return organization_out(org.organization())


def rename_organization(store: Store, organization_id: uuid.UUID, name: str) -> OrganizationOut:
    """Rename an organization; ``CONFLICT`` when another one's name, normalised
    (docs/security.md "Names"), is ``name`` — an older name spelled otherwise included."""
    taken = (
        unicodedata.normalize("NFKC", other.name) == name
        for other in store.organizations()
        if other.id != organization_id
    )
    if any(taken):
        raise AAAFError("CONFLICT", f"An organization named {name!r} already exists.", {"name": name})
    return organization_out(store.update_organization(organization_id, name=name))


def create_key(
    store: Store,
    organization_id: uuid.UUID,
    scopes: Sequence[str],
    *,
    name: str | None = None,
    now: datetime,
) -> IssuedKey:
    """A new key of the organization with these scopes; its secret is returned once."""
    store.get_organization(organization_id)
    canonical = check_scopes(scopes)
    keys = ApiKeys(store.engine)
    cap = get_settings().max_keys_per_organization
    if keys.active_count(organization_id) >= cap:
        raise AAAFError(
            "CONFLICT",
            f"The organization already has {cap} active API keys, this installation's limit "
            "(AAAF_MAX_KEYS_PER_ORGANIZATION); revoke one first.",
            {"limit": cap},
        )
    secret = KEY_PREFIX + secrets.token_urlsafe(32)
    key = keys.add(
        organization_id,
        key_hash=hash_key(secret),
        prefix=secret[:KEY_PREFIX_SHOWN],
        scopes=canonical,
        name=name,
        at=now,
    )
    return IssuedKey(key=key, secret=secret)


def list_keys(
    store: Store,
    organization_id: uuid.UUID,
    *,
    after: tuple[datetime, uuid.UUID] | None = None,
    limit: int | None = None,
) -> list[ApiKey]:
    """The organization's keys, oldest first (a keyset page: after ``(created_at, id)``)."""
    return ApiKeys(store.engine).of_organization(organization_id, after=after, limit=limit)


def revoke_key(store: Store, organization_id: uuid.UUID, key_id: str, *, now: datetime) -> ApiKey:
    try:
        wanted = uuid.UUID(str(key_id))
    except ValueError:
        raise AAAFError("NOT_FOUND", f"API key {key_id} not found.", {"resource": "api key"}) from None
    return ApiKeys(store.engine).revoke(organization_id, wanted, at=now)


def authenticate(store: Store, secret: str | None, *, now: datetime) -> Principal:
    """The principal a key stands for; ``UNAUTHORIZED`` for a missing, unknown or revoked key
    (the message does not say which, so a key cannot be probed).  An OAuth access token (a
    JWT from ``POST /oauth/token``) is accepted wherever a key is (issue 13 §3)."""
    if secret and secret.count(".") == 2 and not secret.startswith(KEY_PREFIX):
        from aaaf.services.oauth import principal_from_token

        return principal_from_token(store, secret, now=now)
    if not secret or not secret.startswith(KEY_PREFIX):
        raise AAAFError("UNAUTHORIZED", "Missing or invalid API key.", {})
    keys = ApiKeys(store.engine)
    found = keys.for_request(hash_key(secret))  # the key and its organization's rate limit, one read
    if found is None or not found[0].active:
        raise AAAFError("UNAUTHORIZED", "Missing or invalid API key.", {})
    key, per_minute = found
    if key.last_used_at is None or now - key.last_used_at >= LAST_USED_RESOLUTION:
        keys.touch(key.id, at=now)  # not a write per request: last use to the minute is enough
    return Principal(
        organization_id=key.organization_id,
        scopes=frozenset(key.scopes),
        key_id=key.id,
        rate_limit_per_minute=per_minute,
    )
