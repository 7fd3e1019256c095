"""Organizations and API keys (SCORING.md §7 "Admin and keys") on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from aaaf.errors import AAAFError
from aaaf.services import keys as key_service
from aaaf.services.keys import SCOPES, authenticate, create_key, create_organization, hash_key

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def test_an_organization_comes_with_one_key_holding_every_scope(store) -> None:
    organization, issued = create_organization(store, "acme", now=NOW)
    assert issued.secret.startswith("ak_") and len(issued.secret) == 3 + 43
    assert issued.key.scopes == SCOPES
    assert issued.key.prefix == issued.secret[:11]
    principal = authenticate(store, issued.secret, now=NOW)
    assert principal.organization_id == organization.id
    assert principal.scopes == frozenset(SCOPES)
    with pytest.raises(AAAFError) as taken:
        create_organization(store, "acme", now=NOW)
    assert taken.value.code == "CONFLICT"


def test_only_the_hash_is_stored_and_never_shown(store) -> None:
    organization, issued = create_organization(store, "acme", now=NOW)
    from sqlalchemy import select

    from aaaf.store import tables_access as t

    with store.engine.connect() as connection:
        stored = connection.execute(select(t.api_keys.c.key_hash, t.api_keys.c.prefix)).all()
    assert [row.key_hash for row in stored] == [hash_key(issued.secret)]
    assert all(issued.secret not in str(tuple(row)) for row in stored)
    listed = key_service.list_keys(store, organization.id)
    assert issued.secret not in str([key.to_dict() for key in listed])
    assert "hash" not in str(listed[0].to_dict())


def test_scopes_are_checked_and_required(store) -> None:
    organization, _ = create_organization(store, "acme", now=NOW)
    with pytest.raises(AAAFError) as unknown:
        create_key(store, organization.id, ["read", "root"], now=NOW)
    assert unknown.value.code == "INVALID_REQUEST" and "root" in unknown.value.message
    with pytest.raises(AAAFError):
        create_key(store, organization.id, [], now=NOW)
    reader = create_key(store, organization.id, ["events:write", "read", "read"], now=NOW)
    assert reader.key.scopes == ("read", "events:write")  # canonical order, no duplicates
    principal = authenticate(store, reader.secret, now=NOW)
    principal.require("read")
    with pytest.raises(AAAFError) as forbidden:
        principal.require("auditor")
    assert forbidden.value.code == "FORBIDDEN" and "auditor" in forbidden.value.message
    admin = authenticate(store, create_key(store, organization.id, ["admin"], now=NOW).secret, now=NOW)
    admin.require("auditor")  # admin holds every scope


def test_revoked_unknown_and_malformed_keys_do_not_authenticate(store) -> None:
    organization, issued = create_organization(store, "acme", now=NOW)
    other = create_key(store, organization.id, ["read"], now=NOW)
    later = NOW + timedelta(minutes=5)
    revoked = key_service.revoke_key(store, organization.id, str(other.key.id), now=later)
    assert revoked.revoked_at == later
    again = key_service.revoke_key(store, organization.id, str(other.key.id), now=later + timedelta(days=1))
    assert again.revoked_at == later  # the first revocation stands
    for secret in (other.secret, issued.secret + "x", "ak_", "", None, "Bearer " + issued.secret):
        with pytest.raises(AAAFError) as refused:
            authenticate(store, secret, now=later)
        assert refused.value.code == "UNAUTHORIZED"
    assert authenticate(store, issued.secret, now=later).organization_id == organization.id
    used = {key.id: key for key in key_service.list_keys(store, organization.id)}
    assert used[issued.key.id].last_used_at == later


def test_a_key_of_another_organization_cannot_be_revoked(store) -> None:
    acme, _ = create_organization(store, "acme", now=NOW)
    globex, globex_key = create_organization(store, "globex", now=NOW)
    for ref in (str(globex_key.key.id), "not-a-uuid"):
        with pytest.raises(AAAFError) as missing:
            key_service.revoke_key(store, acme.id, ref, now=NOW)
        assert missing.value.code == "NOT_FOUND"
    assert authenticate(store, globex_key.secret, now=NOW).organization_id == globex.id


def test_last_use_is_recorded_to_the_minute_not_on_every_request(store) -> None:
    organization, issued = create_organization(store, "acme", now=NOW)
    authenticate(store, issued.secret, now=NOW)
    authenticate(store, issued.secret, now=NOW + timedelta(seconds=59))  # within the minute: no write
    (key,) = key_service.list_keys(store, organization.id)
    assert key.last_used_at == NOW
    authenticate(store, issued.secret, now=NOW + timedelta(seconds=60))
    (key,) = key_service.list_keys(store, organization.id)
    assert key.last_used_at == NOW + timedelta(seconds=60)


def test_a_rename_to_a_name_taken_in_another_spelling_is_refused(store) -> None:
    """``PATCH /api/v1/organizations/{id}``'s service: uniqueness on the NFKC form, an older
    name stored in another spelling included; an organization may keep its own name."""
    acme, _ = create_organization(store, "acme", now=NOW)
    other, _ = create_organization(store, "other", now=NOW)
    store.update_organization(acme.id, name="ａｃｍｅ")  # as a row written before names were normalised
    with pytest.raises(AAAFError) as taken:
        key_service.rename_organization(store, other.id, "acme")
    assert taken.value.code == "CONFLICT"
    assert key_service.rename_organization(store, acme.id, "acme").name == "acme"
    assert key_service.rename_organization(store, other.id, "renamed").model_dump()["name"] == "renamed"
