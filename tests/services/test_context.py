"""Settings and clock are handed in (issue 10 §4): a service and the store use the time and
settings of the context they are given, never the wall clock or the environment."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from aaaf.secret_box import generate_secret
from aaaf.services import assess as assess_service
from aaaf.services import badge_revocation as revocation
from aaaf.services.collect import collect
from aaaf.services.context import ServiceContext
from aaaf.settings import Settings
from aaaf.store import open_store
from aaaf.store.issuer_keys import IssuerKeys
from tests.cli.events_factory import agent_log

# a time no test run happens at: the wall clock cannot produce it
FIXED = datetime(2031, 2, 3, 4, 5, 6, tzinfo=UTC)


def _context(**settings: object) -> ServiceContext:
    return ServiceContext.fixed(FIXED, Settings(secret_key=generate_secret(), **settings))  # type: ignore[arg-type]


def test_the_store_stamps_rows_with_the_handed_in_clock(store_url: str) -> None:
    context = _context()
    with open_store(store_url, clock=context.clock) as store:
        org = store.scope(store.default_organization().id)
        agent = org.enroll_agent("timekeeper")
        assert agent.created_at == FIXED and agent.updated_at == FIXED
        organization = store.create_organization("acme")
        assert organization.created_at == FIXED


def test_the_issuer_key_is_stored_at_the_context_time(store_url: str) -> None:
    context = _context()
    with open_store(store_url) as store:
        key = revocation.issuer_key(store, context=context)
        stored = IssuerKeys(store.engine).get("issuer")
        assert stored is not None and stored.kid == key.kid
        assert stored.created_at == FIXED


def test_assessment_shape_uses_the_context_settings(store_url: str) -> None:
    context = _context(public_base_url="https://badges.example.org/")
    with open_store(store_url, clock=context.clock) as store:
        org = store.scope(store.default_organization().id)
        org.enroll_agent("coder")
        report = collect(org, enumerate(agent_log("coder", 30, now=FIXED)), now=FIXED, context=context)
        assert report.accepted == 60 and report.rejected == 0
        record = assess_service.assess_agent(org, "coder", now=FIXED)
    shape = assess_service.assessment_model(record, context=context)
    assert shape.badge_urls.svg == f"https://badges.example.org/api/v1/badges/{record.id}.svg"
    assert shape.created_at == "2031-02-03T04:05:06Z"


def test_collect_takes_its_limits_from_the_context(store_url: str) -> None:
    context = _context(event_max_id_chars=8)
    with open_store(store_url) as store:
        org = store.scope(store.default_organization().id)
        org.enroll_agent("coder")
        report = collect(org, enumerate(agent_log("coder", 1)), now=FIXED, context=context)
    # the events' ids ("coder-000-a") are longer than the handed-in limit of 8 characters
    assert report.accepted == 0 and report.rejected == 2


def test_a_fixed_clock_needs_a_timezone() -> None:
    with pytest.raises(ValueError):
        ServiceContext.fixed(datetime(2031, 1, 1))
