"""An event's timestamp is written to PostgreSQL's ``COPY`` as the client spelt it when
PostgreSQL reads the same instant from that text (:func:`aaaf.evidence.timestamps.
same_instant_in_postgres`), else from the parsed datetime: either way every stored instant is
the one validation parsed, on both databases — also for spellings PostgreSQL would read
otherwise (more than six digits of fraction, which it rounds and the datetime truncates)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from aaaf.evidence.timestamps import parse_rfc3339, same_instant_in_postgres
from aaaf.evidence.validation import event_validator
from aaaf.store import OrgStore, Store
from aaaf.store.event_writer import Stored

from .factories import org_of

# (text, whether it is written as spelt)
SPELLINGS = [
    ("2026-11-28T10:00:00Z", True),
    ("2026-11-28T10:00:00.1Z", True),
    ("2026-11-28T10:00:00.123456Z", True),
    ("2026-11-28T10:00:00.123456+00:00", True),
    ("2026-11-28T10:00:00.123456-00:00", True),
    ("2026-11-28 10:00:00+05:30", True),
    ("2026-11-28T10:00:00.5-11:45", True),
    ("2026-11-28T10:00:00.1234567Z", False),  # PostgreSQL rounds the seventh digit
    ("2026-11-28T10:00:00.9999995+00:00", False),  # ... up to the next second
    ("2026-11-28T23:59:59.99999999Z", False),  # ... and the next day
    ("2026-11-28t10:00:00z", False),
]


def test_only_texts_read_alike_are_written_as_spelt() -> None:
    assert [same_instant_in_postgres(text) for text, _ in SPELLINGS] == [alike for _, alike in SPELLINGS]


@pytest.fixture()
def org(store: Store) -> OrgStore:
    return org_of(store)


def test_every_spelling_stores_the_instant_validation_parsed(org: OrgStore) -> None:
    agent = org.enroll_agent("a")
    validate = event_validator(now=datetime(2026, 11, 29, tzinfo=UTC))
    events = []
    for number, (text, alike) in enumerate(SPELLINGS):
        data = {"task_id": f"t{number}", "complexity_level": 1, "domain": "code", "assigned_at": text}
        raw = {"id": f"e{number}", "type": "task_assigned", "timestamp": text, "data": data}
        valid = validate({**raw, "agent_id": str(agent.id)})
        assert valid.timestamp_text == (text if alike else None)
        events.append((agent.id, valid))
    assert org.add_events(events) == [Stored.NEW] * len(events)
    stored = {event.key: event.timestamp for event in org.events(agent.id)}
    assert stored == {f"e{number}": parse_rfc3339(text) for number, (text, _) in enumerate(SPELLINGS)}
    # again: every key known, the batch goes through the staging table, nothing new or in conflict
    assert org.add_events(events) == [Stored.DUPLICATE] * len(events)
