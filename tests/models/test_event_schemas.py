"""The Evidence format page (docs/evidence-format.md) and the JSON Schema of each event type in
docs/schemas/events/ are generated from the validator's own payload shapes: they cannot drift
(regenerate with `.venv/bin/python scripts/gen_schemas.py`), and what they describe is what the
validator accepts."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from aaaf.evidence.event_schemas import event_schema, page_with_table, schema_text
from aaaf.evidence.payloads import PAYLOAD_SHAPES
from tests.cli.events_factory import agent_log

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "docs" / "schemas" / "events"
PAGE = ROOT / "docs" / "evidence-format.md"


@pytest.mark.parametrize("event_type", sorted(PAYLOAD_SHAPES))
def test_each_committed_event_schema_is_the_generated_one(event_type: str) -> None:
    path = COMMITTED / f"{event_type}.json"
    assert path.read_text(encoding="utf-8") == schema_text(event_type), "run `make regen`"


def test_no_schema_without_an_event_type_and_the_page_is_current() -> None:
    assert {path.stem for path in COMMITTED.glob("*.json")} == set(PAYLOAD_SHAPES)
    page = PAGE.read_text(encoding="utf-8")
    assert page == page_with_table(page), "run `make regen`"
    for event_type in PAYLOAD_SHAPES:
        assert f"(schemas/events/{event_type}.json)" in page


def test_valid_events_validate_and_a_broken_one_does_not() -> None:
    assigned, completed = agent_log("coder", 1)
    for event in (assigned, completed):
        jsonschema.validate(event, event_schema(event["type"]))
    broken = json.loads(json.dumps(completed))
    broken["data"]["time_to_complete_seconds"] = "soon"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, event_schema("task_completed"))
    del assigned["data"]["task_id"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(assigned, event_schema("task_assigned"))


def test_the_page_is_linked_from_the_readme_and_collect_help() -> None:
    assert "(docs/evidence-format.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
    from aaaf.cli.commands.collect import collect

    assert "docs/evidence-format.md" in (collect.__doc__ or "")
