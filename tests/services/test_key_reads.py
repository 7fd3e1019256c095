"""A key found active is trusted for a few seconds without reading its row again
(docs/security.md "Keys"): a revocation here is in force at once, one made by another
process (another server worker, the CLI) within ``VERIFIED_KEY_SECONDS``."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import update

from aaaf.errors import AAAFError
from aaaf.services.configuration import change_config
from aaaf.services.keys import authenticate, create_key, create_organization, revoke_key
from aaaf.store import Store
from aaaf.store import tables_access as t
from aaaf.store import verified_keys as key_store
from tests.sql_statements import statements

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.seconds = 1000.0

    def __call__(self) -> float:
        return self.seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(key_store.verified_keys, "clock", clock)
    return clock


def _of_keys(sent: list[str], verb: str) -> list[str]:
    """The statements of ``sent`` that ``verb`` (SELECT, UPDATE) the api_keys table."""
    return [s for s in sent if s.upper().startswith(verb) and "api_keys" in s]


@pytest.fixture
def sent(store: Store) -> Iterator[list[str]]:
    """The statements the store sends during the test."""
    with statements(store) as recorded:
        yield recorded


def _refused(store: Store, secret: str, now: datetime) -> bool:
    try:
        authenticate(store, secret, now=now)
    except AAAFError as error:
        assert error.code == "UNAUTHORIZED"
        return True
    return False


def test_a_key_is_read_once_within_the_bound_and_again_after_it(
    store: Store, clock: Clock, sent: list[str]
) -> None:
    organization, issued = create_organization(store, "cached", now=NOW)
    sent.clear()
    for second in range(5):
        principal = authenticate(store, issued.secret, now=NOW + timedelta(seconds=second))
        assert principal.organization_id == organization.id
    assert len(_of_keys(sent, "SELECT")) == 1
    clock.seconds += key_store.VERIFIED_KEY_SECONDS
    authenticate(store, issued.secret, now=NOW + timedelta(seconds=6))
    assert len(_of_keys(sent, "SELECT")) == 2


def test_a_key_revoked_by_this_process_is_refused_at_once(store: Store, clock: Clock) -> None:
    organization, issued = create_organization(store, "revoked-here", now=NOW)
    spare = create_key(store, organization.id, ["read"], now=NOW)
    authenticate(store, spare.secret, now=NOW)
    revoke_key(store, organization.id, str(spare.key.id), now=NOW)
    assert _refused(store, spare.secret, NOW)
    assert not _refused(store, issued.secret, NOW)


def test_a_key_revoked_by_another_process_is_refused_within_the_bound(store: Store, clock: Clock) -> None:
    _, issued = create_organization(store, "revoked-elsewhere", now=NOW)
    authenticate(store, issued.secret, now=NOW)
    with store.engine.begin() as connection:  # what another process's revocation writes
        connection.execute(update(t.api_keys).where(t.api_keys.c.id == issued.key.id).values(revoked_at=NOW))
    clock.seconds += key_store.VERIFIED_KEY_SECONDS - 0.5
    assert not _refused(store, issued.secret, NOW)  # still trusted: within the documented bound
    clock.seconds += 0.5
    assert _refused(store, issued.secret, NOW)


def test_a_rate_limit_change_is_read_with_the_key_at_once(store: Store, clock: Clock) -> None:
    organization, issued = create_organization(store, "limited", now=NOW)
    assert authenticate(store, issued.secret, now=NOW).rate_limit_per_minute is None
    change_config(store.scope(organization.id), {"rate_limit_per_minute": 42}, changed_by="test")
    assert authenticate(store, issued.secret, now=NOW).rate_limit_per_minute == 42


def test_the_last_use_is_still_written_once_a_minute(store: Store, clock: Clock) -> None:
    _organization, issued = create_organization(store, "used", now=NOW)
    with statements(store) as sent:
        for second in range(0, 150, 2):
            authenticate(store, issued.secret, now=NOW + timedelta(seconds=second))
    assert len(_of_keys(sent, "UPDATE")) == 3  # at 0, 60 and 120 s
