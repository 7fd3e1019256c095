"""OAuth access tokens (issue 13 §3): signed with a key derived from the installation's secret,
short-lived, bound to their client; on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from aaaf.errors import AAAFError
from aaaf.services import keys as key_service
from aaaf.services import oauth
from aaaf.store import Store


def _org_client(store: Store, scopes: list[str]) -> tuple[object, oauth.IssuedClient]:
    organization, _ = key_service.create_organization(store, "oauth-org", now=datetime.now(UTC))
    return organization, oauth.create_client(store, organization.id, scopes, name="ci", now=datetime.now(UTC))


def test_a_token_stands_for_its_client_until_it_expires(store: Store) -> None:
    organization, issued = _org_client(store, ["read", "auditor"])
    now = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
    answer = oauth.issue_token(store, issued.client.client_id, issued.secret, None, now=now)
    principal = key_service.authenticate(store, answer["access_token"], now=now + timedelta(minutes=14))
    assert principal.organization_id == organization.id  # type: ignore[attr-defined]
    assert principal.scopes == frozenset({"read", "auditor"})
    assert principal.rate_limit_identity == f"client:{issued.client.client_id}"
    with pytest.raises(AAAFError) as expired:
        key_service.authenticate(store, answer["access_token"], now=now + oauth.TOKEN_LIFETIME)
    assert expired.value.code == "UNAUTHORIZED"


def test_secrets_are_stored_hashed_and_wrong_ones_refused(store: Store) -> None:
    _, issued = _org_client(store, ["read"])
    from sqlalchemy import select

    from aaaf.store import tables_access as t

    with store.engine.connect() as connection:
        stored = connection.execute(select(t.oauth_clients)).one()
    assert issued.secret not in str(tuple(stored)) and len(stored.secret_hash) == 64
    now = datetime.now(UTC)
    for client_id, secret in (
        (issued.client.client_id, "ocs_wrong"),
        ("oc_unknown", issued.secret),
        (None, None),
    ):
        with pytest.raises(oauth.TokenError) as refused:
            oauth.issue_token(store, client_id, secret, None, now=now)
        assert (refused.value.error, refused.value.status) == ("invalid_client", 401)
    with pytest.raises(oauth.TokenError) as scope:
        oauth.issue_token(store, issued.client.client_id, issued.secret, "read admin", now=now)
    assert scope.value.error == "invalid_scope"


def test_a_token_signed_with_another_secret_is_refused(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    _, issued = _org_client(store, ["read"])
    now = datetime.now(UTC)
    token = oauth.issue_token(store, issued.client.client_id, issued.secret, None, now=now)["access_token"]
    from joserfc import jwt
    from joserfc.jwk import OctKey

    claims = jwt.decode(token, OctKey.import_key(oauth._signing_key(store)), algorithms=["HS256"]).claims
    forged = jwt.encode(
        {"alg": "HS256", "typ": "at+jwt"}, {**claims, "scope": "admin"}, OctKey.import_key(b"k" * 32)
    )
    with pytest.raises(AAAFError) as refused:
        key_service.authenticate(store, forged, now=now)
    assert refused.value.code == "UNAUTHORIZED"
    unsigned = token.rsplit(".", 1)[0] + "."  # signature stripped
    with pytest.raises(AAAFError):
        key_service.authenticate(store, unsigned, now=now)
