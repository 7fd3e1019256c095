"""The plain check of well-formed ``tool_invoked``/``task_assigned``/``task_completed``/
``delegation_decision`` payloads answers exactly
as the full check (storage limits, then the strict payload shape): the same ValidEvent for
every event it accepts, and for every other event the full check's own error.

The reference is the validator with the plain check switched off (the full path alone);
events are generated, valid and broken, field by field (hypothesis).
"""

from __future__ import annotations

import math
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aaaf.evidence import EventValidationError, validate_event
from aaaf.evidence import validation as validation_module
from aaaf.evidence.canonical import MAX_SAFE_INTEGER
from aaaf.evidence.fast_payloads import fast_document
from aaaf.evidence.limits import DEFAULT_LIMITS, EventLimits, checked_data
from aaaf.evidence.models import ValidEvent
from aaaf.evidence.payloads import PAYLOAD_ADAPTERS
from aaaf.evidence.vocabulary import COMPLETION_STATUSES
from tests.evidence.events import AGENT, NOW, TIMESTAMP
from tests.evidence.test_payload_rules import REQUIRED_FIELDS

# values a field may be given: good ones of every kind and the edges that are not
_SCALARS = st.one_of(
    st.integers(min_value=-3, max_value=7),
    st.sampled_from([MAX_SAFE_INTEGER, MAX_SAFE_INTEGER + 1, -MAX_SAFE_INTEGER - 1, 2**64]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, 0.5, 1.0, 1.5, -0.0, -1e-9, math.inf, -math.inf, math.nan, 0.1234567890123456]),
    st.booleans(),
    st.none(),
    st.sampled_from(["", "t-1", "x\x00y", "\ud800", "é", "accepted", "failed", "partial", "ACCEPTED"]),
    st.sampled_from(
        ["2026-04-16T14:00:00Z", "2026-04-16T14:00:00.123456+02:00", "2026-04-16", "2026-02-30T00:00:00Z"]
    ),
    st.text(max_size=6),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)
_CHECKLIST = st.dictionaries(
    st.sampled_from(["memory_search_performed", "output_format_correct", "x\x00", "\ud800"]),
    st.one_of(st.booleans(), _SCALARS),
    max_size=3,
)
_MILESTONES = st.lists(
    st.one_of(
        st.fixed_dictionaries(
            {"name": st.one_of(st.text(max_size=4), _SCALARS), "passed": st.one_of(st.booleans(), _SCALARS)}
        ),
        st.fixed_dictionaries({"name": st.text(max_size=4), "passed": st.booleans(), "note": _VALUES}),
        _VALUES,
    ),
    max_size=3,
)
_ERRORS = st.lists(
    st.one_of(
        st.text(max_size=5),
        st.fixed_dictionaries({"severity": st.sampled_from(["minor", "major", "x"])}),
        _SCALARS,
    ),
    max_size=3,
)

_GOOD: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "task_assigned": {
        "task_id": st.sampled_from(["t-1", "x" * 256, "x" * 257, "tâche"]),
        "complexity_level": st.integers(min_value=1, max_value=5),
        "domain": st.sampled_from(["code", "security", "é"]),
        "assigned_at": st.sampled_from(
            ["2026-04-16T14:00:00Z", "2026-04-16t14:00:00.5z", "2026-04-16 14:00:00-05:30"]
        ),
        "autonomy_level": st.integers(min_value=0, max_value=3),
    },
    "task_completed": {
        "task_id": st.sampled_from(["t-1", "x" * 256, "x" * 257]),
        "completion_status": st.sampled_from(COMPLETION_STATUSES),
        "time_to_complete_seconds": st.one_of(
            st.integers(min_value=0, max_value=10**6), st.floats(min_value=0, max_value=1e9)
        ),
        "revision_count": st.integers(min_value=0, max_value=9),
        "errors": st.lists(st.text(max_size=5), max_size=2),
        "milestone_fraction": st.one_of(st.sampled_from([0, 1]), st.floats(min_value=0, max_value=1)),
        "milestones": st.lists(
            st.fixed_dictionaries({"name": st.text(max_size=4), "passed": st.booleans()}), max_size=2
        ),
        "domain": st.sampled_from(["code", "testing"]),
        "complexity_level": st.integers(min_value=1, max_value=5),
        "autonomy_level": st.integers(min_value=0, max_value=3),
        "review_checklist": st.dictionaries(st.text(max_size=6), st.booleans(), max_size=3),
        "cost_usd": st.one_of(st.integers(min_value=0, max_value=100), st.floats(min_value=0, max_value=1e6)),
        "budget_usd": st.floats(min_value=0, max_value=1e6),
    },
    "tool_invoked": {
        "task_id": st.sampled_from(["t-1", "x" * 256, "x" * 257, "tâche"]),
        "tool": st.one_of(
            st.sampled_from(["web_search", "é", "x" * 120, "\ud800", "a\x00"]), st.text(max_size=6)
        ),
        "success": st.booleans(),
        "unnecessary": st.booleans(),
        "error_recovered": st.booleans(),
    },
    "delegation_decision": {
        "task_id": st.sampled_from(["t-1", "x" * 256, "x" * 257]),
        "task_fragment": st.one_of(st.sampled_from(["part", "x" * 120, "a\x00"]), st.text(max_size=4)),
        "decision": st.sampled_from(["self", "delegate"]),
        "delegate_to": st.one_of(st.none(), st.sampled_from(["helper", "", "é"])),
        "ground_truth": st.sampled_from(["self", "delegate"]),
        "optimal_delegate": st.one_of(st.none(), st.sampled_from(["helper", "\ud800"])),
        "correct": st.booleans(),
    },
}
_BAD_FIELD_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "errors": _ERRORS,
    "milestones": _MILESTONES,
    "review_checklist": _CHECKLIST,
}


@st.composite
def payloads(draw: st.DrawFn, event_type: str, broken: bool) -> dict[str, Any]:
    """A payload of ``event_type``: every field well formed, or (``broken``) some given any
    value, some required ones left out, unknown ones added."""
    fields = _GOOD[event_type]
    optional = sorted(set(fields) - set(REQUIRED_FIELDS[event_type]))
    names = list(REQUIRED_FIELDS[event_type]) + (
        draw(st.lists(st.sampled_from(optional), unique=True)) if optional else []
    )
    data = {name: draw(fields[name]) for name in names}
    if broken:
        for name in draw(st.lists(st.sampled_from(sorted(fields)), unique=True, max_size=3)):
            data[name] = draw(st.one_of(_BAD_FIELD_VALUES.get(name, _VALUES), _VALUES))
        for name in draw(st.lists(st.sampled_from(REQUIRED_FIELDS[event_type]), unique=True, max_size=1)):
            data.pop(name, None)
        data.update(
            draw(st.dictionaries(st.sampled_from(["extra", "note", "tools_used"]), _VALUES, max_size=1))
        )
    return data


def _full_path(raw: dict[str, Any], limits: EventLimits, monkeypatch: pytest.MonkeyPatch) -> Any:
    with monkeypatch.context() as patch:
        patch.setattr(validation_module, "fast_document", lambda *_: None)
        return _outcome(raw, limits)


def _outcome(raw: dict[str, Any], limits: EventLimits) -> Any:
    try:
        return validate_event(raw, now=NOW, limits=limits)
    except EventValidationError as error:
        return ("error", error.code, error.field, error.message, error.details)


def _same_as_the_full_check(
    event_type: str, data: dict[str, Any], limits: EventLimits, monkeypatch: Any, same_stamp: bool = False
) -> None:
    """``same_stamp``: the event's timestamp is its payload's ``assigned_at`` (when text)."""
    stamp = data.get("assigned_at") if same_stamp and isinstance(data.get("assigned_at"), str) else TIMESTAMP
    raw = {"agent_id": AGENT, "type": event_type, "timestamp": stamp, "data": data}
    document = fast_document(event_type, data, limits)
    fast, full = _outcome(raw, limits), _full_path(raw, limits, monkeypatch)
    assert fast == full
    if document is not None:  # accepted by the plain check: the full check accepts it too
        assert checked_data(data, limits)[0] is None
        PAYLOAD_ADAPTERS[event_type].validator.validate_python(data)
        assert document == orjson.dumps(data)
        if isinstance(fast, ValidEvent):  # (the event's timestamp may be in the future)
            assert fast.data_json == document


@pytest.mark.parametrize("event_type", sorted(_GOOD))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_well_formed_payload_is_proven_valid_as_the_full_check_does(
    event_type: str, data: st.DataObject, monkeypatch: pytest.MonkeyPatch
) -> None:
    payload = data.draw(payloads(event_type, broken=False))
    _same_as_the_full_check(event_type, payload, DEFAULT_LIMITS, monkeypatch, data.draw(st.booleans()))


@pytest.mark.parametrize("event_type", sorted(_GOOD))
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_broken_payload_gets_the_full_checks_error(
    event_type: str, data: st.DataObject, monkeypatch: pytest.MonkeyPatch
) -> None:
    payload = data.draw(payloads(event_type, broken=True))
    limits = data.draw(st.sampled_from([DEFAULT_LIMITS, EventLimits(id_chars=4, string_bytes=120)]))
    _same_as_the_full_check(event_type, payload, limits, monkeypatch, data.draw(st.booleans()))


def test_the_plain_check_takes_the_common_payloads_and_leaves_the_rest() -> None:
    assigned = {
        "task_id": "t-1",
        "complexity_level": 3,
        "domain": "code",
        "assigned_at": "2026-04-16T14:00:00Z",
    }
    completed = {
        "task_id": "t-1",
        "completion_status": "accepted",
        "time_to_complete_seconds": 60,
        "revision_count": 0,
        "errors": [],
        "cost_usd": 0.25,
        "review_checklist": {"memory_search_performed": True},
    }
    invoked = {
        "task_id": "t-1",
        "tool": "web_search",
        "success": True,
        "unnecessary": False,
        "error_recovered": True,
    }
    assert fast_document("task_assigned", assigned, DEFAULT_LIMITS) == orjson.dumps(assigned)
    assert fast_document("tool_invoked", invoked, DEFAULT_LIMITS) == orjson.dumps(invoked)
    assert fast_document("task_completed", completed, DEFAULT_LIMITS) == orjson.dumps(completed)
    # left to the full check: a field it does not check by hand, an unknown one, a bool for an int
    assert fast_document("task_completed", {**completed, "tools_used": []}, DEFAULT_LIMITS) is None
    assert fast_document("task_assigned", {**assigned, "note": 1}, DEFAULT_LIMITS) is None
    assert fast_document("task_assigned", {**assigned, "complexity_level": True}, DEFAULT_LIMITS) is None
    assert fast_document("tool_invoked", {"task_id": "t-1"}, DEFAULT_LIMITS) is None
    assert fast_document("tool_invoked", {**invoked, "note": 1}, DEFAULT_LIMITS) is None
    assert fast_document("tool_invoked", {**invoked, "success": 1}, DEFAULT_LIMITS) is None
    decided = {"task_id": "t-1", "task_fragment": "part", "decision": "self", "ground_truth": "self"}
    assert fast_document("delegation_decision", decided, DEFAULT_LIMITS) == orjson.dumps(decided)
    delegated = {**decided, "decision": "delegate"}  # without its delegate: the full check words it
    assert fast_document("delegation_decision", delegated, DEFAULT_LIMITS) is None
    assert fast_document("delegation_decision", {**delegated, "delegate_to": None}, DEFAULT_LIMITS) is None
    assert fast_document("task_revised", {"task_id": "t-1"}, DEFAULT_LIMITS) is None


_EDGES: list[Any] = [
    0, 1, 3, 5, 6, -1, MAX_SAFE_INTEGER, MAX_SAFE_INTEGER + 1, -MAX_SAFE_INTEGER - 1, 2**64,
    0.0, -0.0, 0.5, 1.0, 1.5, -1e-9, 1e308, math.inf, -math.inf, math.nan,
    True, False, None, "", "t-1", "x" * 257, "x\x00", "\ud800", "accepted", "failed", "2026-04-16T14:00:00Z",
    "2026-04-16", [], ["e"], [1], [{"severity": "minor"}], {}, {"a": True}, {"a": 1}, {1: True},
    [{"name": "m", "passed": True}], [{"name": "m", "passed": 1}], ("a",), {"a"}, {"a": None},
    [{"name": "m", "passed": True, "x": math.nan}], [{"name": "m", "passed": None}], ["e", None],
    "self", "delegate", "Self",
]  # fmt: skip
_EVERY_FIELD: dict[str, dict[str, Any]] = {
    "task_assigned": {
        "task_id": "t-1", "complexity_level": 3, "domain": "code",
        "assigned_at": "2026-04-16T14:00:00Z", "autonomy_level": 2,
    },
    "task_completed": {
        "task_id": "t-1", "completion_status": "accepted", "time_to_complete_seconds": 60,
        "revision_count": 0, "errors": [], "milestone_fraction": 0.5,
        "milestones": [{"name": "m", "passed": True}], "domain": "code", "complexity_level": 3,
        "autonomy_level": 1, "review_checklist": {"memory_search_performed": True},
        "cost_usd": 0.25, "budget_usd": 2.0,
    },
    "tool_invoked": {
        "task_id": "t-1", "tool": "web_search", "success": True, "unnecessary": False,
        "error_recovered": False,
    },
    "delegation_decision": {
        "task_id": "t-1", "task_fragment": "part", "decision": "delegate", "delegate_to": "helper",
        "ground_truth": "self", "optimal_delegate": None, "correct": False,
    },
}  # fmt: skip


@pytest.mark.parametrize("event_type", sorted(_EVERY_FIELD))
def test_every_field_at_every_edge_gets_the_full_checks_answer(
    event_type: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    full = _EVERY_FIELD[event_type]
    assert fast_document(event_type, full, DEFAULT_LIMITS) is not None
    for name in [*full, "note"]:  # and an unknown field
        for value in _EDGES:
            for same_stamp in (False, True):
                _same_as_the_full_check(
                    event_type, {**full, name: value}, DEFAULT_LIMITS, monkeypatch, same_stamp
                )
        if name in full:
            rest = {key: item for key, item in full.items() if key != name}
            _same_as_the_full_check(event_type, rest, DEFAULT_LIMITS, monkeypatch)


# JSON text as a task log carries it: what only the parser makes of it (1e400, integers past
# 64 bits, escapes, a repeated key — the last one wins) reaches the checks as parsed
_BASE = '"task_id":"t-{n}","task_fragment":"part","decision":"self","ground_truth":"self"'
_INVOKED = '"task_id":"t-{n}","tool":"grep","success":true,"unnecessary":false,"error_recovered":false'
_ADDED = [
    "", '"note":null', '"note":{"x":{"y":null}}', '"note":1e400', '"note":123456789012345678901234567890',
    '"note":9007199254740992', '"note":"\\u0000"', '"note":"\\ud800"', '"correct":1', '"correct":0',
    '"correct":null', '"correct":1.0', '"correct":true', '"delegate_to":""', '"delegate_to":null',
    '"delegate_to":false', '"delegate_to":"\\u00e9\\u0301"', '"delegate_to":"\\ud83d\\ude00"',
    '"optimal_delegate":"\\\\u0000"', '"optimal_delegate":"1234567890123456"', '"decision":"Self"',
    '"decision":true', '"decision":"delegate"', '"decision":"delegate","delegate_to":"h"',
    '"task_fragment":""', '"task_fragment":1e400', '"task_id":1', '"task_id":""', '"task_id":"' + "é" * 257 + '"',
    '"task_fragment":"' + "x" * 65_450 + '"', '"task_fragment":"' + "x" * 65_537 + '"', '"success":1',
]  # fmt: skip


def _log_lines() -> list[str]:
    lines = []
    for number, added in enumerate(_ADDED, start=1):
        for event_type, base in (("delegation_decision", _BASE), ("tool_invoked", _INVOKED)):
            data = base.format(n=number) + ("," + added if added else "")
            key = f'"id":"{event_type}-{number}",' if number % 5 else ""  # some keyed by their content
            lines.append(
                f'{{"agent":"edge",{key}"type":"{event_type}","timestamp":"{TIMESTAMP}","data":{{{data}}}}}'
            )
    return lines


def _collected(url: str, path: Any, plain_check: bool, monkeypatch: pytest.MonkeyPatch) -> Any:
    from aaaf.evidence.collectors.task_logs import read_jsonl
    from aaaf.services.collect import collect
    from aaaf.store import open_store

    with monkeypatch.context() as patch, open_store(url) as store:
        if not plain_check:
            patch.setattr(validation_module, "fast_document", lambda *_: None)
        org = store.scope(store.default_organization().id)
        report = collect(org, read_jsonl(path), now=NOW, enroll=True).to_dict()
        report.pop("enrolled")
        with store.engine.connect() as connection:
            rows = connection.exec_driver_sql(
                "SELECT type, task_id, CASE WHEN content_digest IS NULL THEN idempotency_key END, "
                "timestamp, data FROM events ORDER BY task_id, type"
            ).all()
        return report, rows


def test_a_log_collects_the_same_with_and_without_the_plain_check(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The counts, errors, warnings and every stored column are the full check's; collected again
    with the plain check into what the full check stored, each event is a duplicate of itself."""
    log = tmp_path / "edge.jsonl"
    log.write_text("\n".join(_log_lines()) + "\n", encoding="utf-8")
    full = _collected(f"sqlite:///{tmp_path / 'full.db'}", log, False, monkeypatch)
    plain = _collected(f"sqlite:///{tmp_path / 'plain.db'}", log, True, monkeypatch)
    assert plain == full
    report, rows = full
    assert report["accepted"] == len(rows) > 20 and report["rejected"] > 20
    again, _ = _collected(f"sqlite:///{tmp_path / 'full.db'}", log, True, monkeypatch)
    assert (again["accepted"], again["duplicates"]) == (0, report["accepted"])
    assert again["errors"] == report["errors"]
