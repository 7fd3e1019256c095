"""Usage counters (issue 13 §4): adding increments, so several server processes add to one row."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from aaaf.errors import AAAFError
from aaaf.services import keys as key_service
from aaaf.store import Store
from aaaf.store.usage import add_usage, organization_rate_limit, usage_between


def test_adding_usage_increments_the_day(store: Store) -> None:
    organization, _ = key_service.create_organization(store, "metered", now=datetime.now(UTC))
    day, next_day = date(2026, 11, 23), date(2026, 11, 24)
    add_usage(store.engine, {(organization.id, day): {"api_calls": 3, "events_accepted": 1000}})
    add_usage(
        store.engine,
        {
            (organization.id, day): {"api_calls": 2, "assessments_run": 1},
            (organization.id, next_day): {"api_calls": 1},
        },
    )
    add_usage(store.engine, {})
    rows = usage_between(store.engine, organization.id, day, next_day)
    assert [row.to_dict() for row in rows] == [
        {"date": "2026-11-23", "api_calls": 5, "events_accepted": 1000, "assessments_run": 1},
        {"date": "2026-11-24", "api_calls": 1, "events_accepted": 0, "assessments_run": 0},
    ]
    assert usage_between(store.engine, organization.id, next_day, next_day)[0].api_calls == 1


def test_the_rate_limit_setting_is_read_from_the_configuration(store: Store) -> None:
    organization, _ = key_service.create_organization(store, "limited", now=datetime.now(UTC))
    assert organization_rate_limit(store.engine, organization.id) is None
    store.scope(organization.id).update_config(rate_limit_per_minute=250)
    assert organization_rate_limit(store.engine, organization.id) == 250
    assert store.scope(organization.id).config().rate_limit_per_minute == 250


def test_a_key_is_read_with_its_organizations_rate_limit(store: Store) -> None:
    now = datetime.now(UTC)
    organization, issued = key_service.create_organization(store, "keyed", now=now)
    assert key_service.authenticate(store, issued.secret, now=now).rate_limit_per_minute is None
    store.scope(organization.id).update_config(rate_limit_per_minute=250)
    principal = key_service.authenticate(store, issued.secret, now=now)
    assert principal.organization_id == organization.id and principal.rate_limit_per_minute == 250
    key_service.revoke_key(store, organization.id, str(issued.key.id), now=now)
    with pytest.raises(AAAFError) as refused:
        key_service.authenticate(store, issued.secret, now=now)
    assert refused.value.code == "UNAUTHORIZED"
