"""An event validation marks ``quiet`` is one the warnings would find nothing in (README "A tour
of the CLI"): collect skips the warnings' pass for it, so the mark must never hide a finding."""

from __future__ import annotations

import copy
import itertools
from datetime import UTC, datetime
from typing import Any

from aaaf.evidence.fast_payloads import _DECISION_FIELDS, _TOOL_FIELDS, FAST_CHECKS, fast_document
from aaaf.evidence.limits import DEFAULT_LIMITS
from aaaf.evidence.validation import event_validator
from aaaf.evidence.warnings import _KNOWN_FIELDS, _findings, payload_warnings
from aaaf.scoring.defaults import DEFAULT_CHECKLIST, DEFAULT_TAXONOMY

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
STAMP = "2026-11-20T11:00:00Z"
TAXONOMY, CHECKLIST = frozenset(DEFAULT_TAXONOMY), frozenset(DEFAULT_CHECKLIST)

PAYLOADS: dict[str, dict[str, Any]] = {
    "task_assigned": {"task_id": "t", "complexity_level": 2, "domain": "code", "assigned_at": STAMP},
    "task_completed": {
        "task_id": "t",
        "completion_status": "accepted",
        "time_to_complete_seconds": 60.0,
        "revision_count": 0,
        "errors": [],
        "domain": "code",
        "review_checklist": dict.fromkeys(sorted(CHECKLIST)[:2], True),
    },
    "tool_invoked": {
        "task_id": "t",
        "tool": "grep",
        "success": True,
        "unnecessary": False,
        "error_recovered": False,
    },
    "delegation_decision": {
        "task_id": "t",
        "task_fragment": "f",
        "decision": "delegate",
        "delegate_to": "helper",
        "ground_truth": "delegate",
        "correct": True,
    },
}


def _variants() -> list[dict[str, Any]]:
    """Each plain-check payload well formed, then with each kind of finding."""
    out: list[dict[str, Any]] = []
    for event_type, data in PAYLOADS.items():
        plain = {
            "id": f"{event_type}-1",
            "agent_id": "a",
            "type": event_type,
            "timestamp": STAMP,
            "data": data,
        }
        out.append(plain)
        for change in ("envelope", "domain", "review", "checklist", "agent", "unknown"):
            event = copy.deepcopy(plain)
            if change == "envelope":
                event["note"] = "top-level"
            elif change == "domain":
                event["data"]["domain"] = "cooking"
            elif change == "review":
                event["data"]["review_checklist"] = {"memroy_search_performed": True}
            elif change == "checklist":
                event["data"]["checklist"] = {"memroy_search_performed": True}
            elif change == "agent":
                event["agent"] = event.pop("agent_id")
            else:
                event["data"]["priorty"] = 3
            out.append(event)
    return out


def test_quiet_exactly_when_the_warnings_find_nothing() -> None:
    checked = quiet_ones = 0
    for event, (taxonomy, checklist) in itertools.product(
        _variants(), [(TAXONOMY, CHECKLIST), (frozenset(), frozenset()), (TAXONOMY, frozenset())]
    ):
        validate = event_validator(now=NOW, words=(taxonomy, checklist))
        valid = validate(event)
        findings = list(_findings(event, event["type"], taxonomy, checklist))
        assert payload_warnings(event, event["type"], taxonomy, checklist) == findings
        if valid.quiet:
            assert findings == [], event
            quiet_ones += 1
        elif fast_document(event["type"], event["data"], DEFAULT_LIMITS) is not None:
            assert findings, event  # the plain check passed it: only a finding keeps the mark off
        checked += 1
    assert quiet_ones >= 4 and checked == 3 * 28


def test_without_the_words_nothing_is_marked() -> None:
    validate = event_validator(now=NOW)
    assert not any(validate(event).quiet for event in _variants())


def test_every_field_the_plain_check_accepts_is_a_known_one() -> None:
    """quiet does not look at the payload's names: the plain check's acceptance must imply them known."""
    fullest = {
        **PAYLOADS,
        "task_assigned": {**PAYLOADS["task_assigned"], "autonomy_level": 1},
        "task_completed": {
            **PAYLOADS["task_completed"],
            "cost_usd": 1.0,
            "budget_usd": 2.0,
            "milestone_fraction": 0.5,
            "milestones": [{"name": "m", "passed": True}],
            "complexity_level": 2,
            "autonomy_level": 1,
        },
    }
    assert fullest.keys() == FAST_CHECKS.keys()
    for event_type, data in fullest.items():
        assert fast_document(event_type, data, DEFAULT_LIMITS) is not None, event_type
        assert data.keys() <= _KNOWN_FIELDS[event_type]
    assert _KNOWN_FIELDS["delegation_decision"] == _DECISION_FIELDS
    assert _KNOWN_FIELDS["tool_invoked"] == frozenset(_TOOL_FIELDS)
