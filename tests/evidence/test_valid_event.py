"""``valid_event`` (the validator's builder) makes the very ValidEvent the dataclass makes."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest

from aaaf.evidence.models import ValidEvent, valid_event


def test_valid_event_builds_the_frozen_dataclass_field_for_field() -> None:
    when = datetime(2026, 4, 16, 14, 30, tzinfo=UTC)
    fields = (
        "agent-1",
        "task_completed",
        when,
        {"task_id": "t-1"},
        "t-1",
        "k-1",
        b'{"task_id":"t-1"}',
        "2026-04-16T14:30:00Z",
        True,
    )
    built, reference = valid_event(*fields), ValidEvent(*fields)
    assert type(built) is ValidEvent
    assert built == reference and repr(built) == repr(reference)
    assert [getattr(built, f.name) for f in dataclasses.fields(ValidEvent)] == list(fields)
    assert built.to_dict() == reference.to_dict()
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.agent = "other"  # type: ignore[misc]
    assert valid_event("a", "task_assigned", when, {}, None, None, None) == ValidEvent(
        "a", "task_assigned", when, {}
    )
