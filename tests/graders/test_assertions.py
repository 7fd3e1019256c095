"""Code-based graders (SCORING.md §4): each assertion type passes, fails, and fails on missing input."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aaaf.errors import AAAFError
from aaaf.graders import ASSERTION_TYPES, BEHAVIOR_TYPES, FACT_TYPES, Grade, grade_assertion
from aaaf.scoring.layered import ASSERTION_LAYERS

SAMPLE: dict[str, Any] = {
    "sample_id": "s1",
    "input": "What is the capital of France?",
    "output": "The capital of France is Paris.",
    "tool_calls": [
        {"name": "search", "arguments": {"query": "capital of France", "limit": 3}},
        {"name": "read_page", "arguments": '{"url": "https://example.org/fr"}'},
        {"name": "answer"},
    ],
    "turns": 4,
    "cost_usd": 0.012,
    "latency_ms": 850.0,
}
BARE: dict[str, Any] = {"sample_id": "bare"}  # nothing any grader could read


def grade(assertion: dict[str, Any], sample: dict[str, Any] = SAMPLE) -> Grade:
    return grade_assertion(assertion, sample)


def test_the_classification_table_is_the_one_of_scoring_md() -> None:
    assert FACT_TYPES == ("contains", "icontains", "equals", "regex", "json_schema", "similar")
    assert BEHAVIOR_TYPES == (
        "tool_called",
        "tool_not_called",
        "tool_order",
        "max_turns",
        "max_cost",
        "max_latency",
    )
    assert {t: ASSERTION_LAYERS[t] for t in ASSERTION_TYPES} == {
        **{t: "fact" for t in FACT_TYPES},
        **{t: "behavior" for t in BEHAVIOR_TYPES},
    }


# (assertion, expected verdict) — one pass and one fail per type, on SAMPLE
CASES: list[tuple[dict[str, Any], bool]] = [
    ({"type": "contains", "value": "Paris"}, True),
    ({"type": "contains", "value": "paris"}, False),  # case matters
    ({"type": "icontains", "value": "PARIS"}, True),
    ({"type": "icontains", "value": "London"}, False),
    ({"type": "equals", "value": "The capital of France is Paris."}, True),
    ({"type": "equals", "value": "The capital of France is Paris"}, False),  # no trimming, no fuzz
    ({"type": "regex", "value": r"capital of \w+ is [A-Z]\w+\."}, True),
    ({"type": "regex", "value": r"^Paris"}, False),
    ({"type": "tool_called", "value": "search"}, True),
    ({"type": "tool_called", "value": "delete_file"}, False),
    ({"type": "tool_called", "value": {"name": "search", "arguments": {"limit": 3}}}, True),
    ({"type": "tool_called", "value": {"name": "search", "arguments": {"limit": 5}}}, False),
    (
        {
            "type": "tool_called",
            "value": {"name": "read_page", "arguments": {"url": "https://example.org/fr"}},
        },
        True,
    ),
    ({"type": "tool_not_called", "value": "delete_file"}, True),
    ({"type": "tool_not_called", "value": "answer"}, False),
    ({"type": "tool_order", "value": ["search", "answer"]}, True),  # gaps allowed
    ({"type": "tool_order", "value": ["search", "read_page", "answer"]}, True),
    ({"type": "tool_order", "value": ["answer", "search"]}, False),
    ({"type": "tool_order", "value": ["search", "search"]}, False),  # one call cannot match twice
    ({"type": "max_turns", "value": 4}, True),  # boundary: 4 ≤ 4
    ({"type": "max_turns", "value": 3}, False),
    ({"type": "max_cost", "value": 0.012}, True),  # boundary
    ({"type": "max_cost", "value": 0.01}, False),
    ({"type": "max_latency", "value": 1000}, True),
    ({"type": "max_latency", "value": 849.9}, False),
]


@pytest.mark.parametrize(
    ("assertion", "expected"), CASES, ids=lambda v: str(v) if isinstance(v, bool) else v["type"]
)
def test_each_type_passes_and_fails(assertion: dict[str, Any], expected: bool) -> None:
    outcome = grade(assertion)
    assert outcome.passed is expected, outcome.reason
    assert outcome.reason
    assert outcome.method.startswith(f"code:{assertion['type']}")


def test_every_type_has_a_pass_and_a_fail_case() -> None:
    covered = {(a["type"], verdict) for a, verdict in CASES}
    covered |= {("json_schema", True), ("json_schema", False), ("similar", True), ("similar", False)}  # below
    assert covered == {(t, v) for t in ASSERTION_TYPES for v in (True, False)}


MISSING: list[tuple[dict[str, Any], str]] = [
    ({"type": "contains", "value": "x"}, "no output"),
    ({"type": "icontains", "value": "x"}, "no output"),
    ({"type": "equals", "value": "x"}, "no output"),
    ({"type": "regex", "value": "x"}, "no output"),
    ({"type": "json_schema", "value": {"type": "object"}}, "no output"),
    ({"type": "similar", "value": "x", "method": "lexical"}, "no output"),
    ({"type": "tool_called", "value": "x"}, "no tool_calls trace"),
    ({"type": "tool_not_called", "value": "x"}, "no tool_calls trace"),
    ({"type": "tool_order", "value": ["x"]}, "no tool_calls trace"),
    ({"type": "max_turns", "value": 1}, "no turns"),
    ({"type": "max_cost", "value": 1}, "no cost_usd"),
    ({"type": "max_latency", "value": 1}, "no latency_ms"),
]


@pytest.mark.parametrize(
    ("assertion", "why"), MISSING, ids=lambda v: v["type"] if isinstance(v, dict) else ""
)
def test_missing_input_fails_with_the_reason(assertion: dict[str, Any], why: str) -> None:
    outcome = grade(assertion, BARE)
    assert outcome.passed is False
    assert why in outcome.reason


def test_missing_inputs_cover_every_type() -> None:
    assert {a["type"] for a, _ in MISSING} == set(ASSERTION_TYPES)


def test_tool_not_called_needs_a_trace_but_an_empty_trace_is_evidence() -> None:
    # no trace: we do not know, so it fails; an empty trace: nothing was called, so it passes
    assert grade({"type": "tool_not_called", "value": "rm"}, {"sample_id": "x"}).passed is False
    assert (
        grade({"type": "tool_not_called", "value": "rm"}, {"sample_id": "x", "tool_calls": []}).passed is True
    )
    assert grade({"type": "tool_called", "value": "rm"}, {"sample_id": "x", "tool_calls": []}).passed is False


def test_an_empty_output_is_graded_not_missing() -> None:
    outcome = grade({"type": "equals", "value": ""}, {"sample_id": "x", "output": ""})
    assert outcome.passed is True
    assert grade({"type": "contains", "value": "a"}, {"sample_id": "x", "output": ""}).reason == (
        'output does not contain "a"'
    )


SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "population": {"type": "integer", "minimum": 0}},
    "required": ["city"],
}


def test_json_schema_validates_a_json_text_output() -> None:
    ok = grade(
        {"type": "json_schema", "value": SCHEMA}, {"output": '{"city": "Paris", "population": 2102650}'}
    )
    assert ok.passed is True
    assert ok.method == "code:json_schema:Draft202012Validator"
    bad = grade({"type": "json_schema", "value": SCHEMA}, {"output": '{"city": "Paris", "population": -1}'})
    assert bad.passed is False
    assert "$.population" in bad.reason and "minimum" in bad.reason
    missing = grade({"type": "json_schema", "value": SCHEMA}, {"output": '{"population": 1}'})
    assert missing.passed is False and "'city' is a required property" in missing.reason


def test_json_schema_on_structured_output_and_on_text_that_is_not_json() -> None:
    assert grade({"type": "json_schema", "value": SCHEMA}, {"output": {"city": "Lyon"}}).passed is True
    prose = grade({"type": "json_schema", "value": SCHEMA}, {"output": "Paris"})
    assert prose.passed is False and prose.reason == "output is not valid JSON"
    # a schema given as a JSON string, and the validator chosen by $schema
    draft7 = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "array"}
    outcome = grade({"type": "json_schema", "value": '{"type": "array"}'}, {"output": "[1, 2]"})
    assert outcome.passed is True
    assert grade({"type": "json_schema", "value": draft7}, {"output": "[]"}).method.endswith(
        "Draft7Validator"
    )


def test_equals_compares_structured_values_as_json() -> None:
    assert grade(
        {"type": "equals", "value": {"a": 1, "b": [1, 2]}}, {"output": '{"b": [1, 2.0], "a": 1}'}
    ).passed
    assert grade({"type": "equals", "value": {"a": 1}}, {"output": {"a": 1}}).passed
    assert not grade({"type": "equals", "value": {"a": True}}, {"output": {"a": 1}}).passed  # true is not 1
    assert not grade({"type": "equals", "value": [1, 2]}, {"output": "[2, 1]"}).passed
    assert not grade({"type": "equals", "value": {"a": 1}}, {"output": "a = 1"}).passed
    assert grade({"type": "equals", "value": '{"a": 1}'}, {"output": {"a": 1}}).passed


def test_structured_output_is_searched_as_compact_json() -> None:
    sample = {"output": {"city": "Paris", "tags": ["capital"]}}
    assert grade({"type": "contains", "value": '"city":"Paris"'}, sample).passed
    assert grade({"type": "regex", "value": r'"tags":\["capital"\]'}, sample).passed


def test_icontains_uses_unicode_case_folding() -> None:
    assert grade({"type": "icontains", "value": "STRASSE"}, {"output": "Hauptstraße 1"}).passed


def test_regex_is_a_search_and_integers_are_text() -> None:
    assert grade({"type": "regex", "value": r"\d{4}"}, {"output": "in 2026."}).passed
    assert grade({"type": "contains", "value": 42}, {"output": "answer: 42"}).passed


@pytest.mark.parametrize(
    "assertion",
    [
        {"type": "contains"},
        {"type": "contains", "value": ["a", "b"]},
        {"type": "equals"},
        {"type": "regex", "value": "(unclosed"},
        {"type": "json_schema"},
        {"type": "json_schema", "value": {"type": "no-such-type"}},
        {"type": "json_schema", "value": "{not json"},
        {"type": "similar", "value": "x", "threshold": 1.5},
        {"type": "similar", "value": "x", "method": "telepathy"},
        {"type": "tool_called"},
        {"type": "tool_called", "value": {"arguments": {}}},
        {"type": "tool_order", "value": []},
        {"type": "tool_order", "value": "search"},
        {"type": "max_turns", "value": -1},
        {"type": "max_cost", "value": "cheap"},
        {"type": "max_latency", "value": float("nan")},
        {"type": "max_latency", "value": True},
        {"type": "no_such_type", "value": 1},
    ],
)
def test_a_malformed_assertion_is_the_evaluators_error_not_a_failed_sample(assertion: dict[str, Any]) -> None:
    with pytest.raises(AAAFError) as raised:
        grade(assertion)
    assert raised.value.code == "INVALID_REQUEST"
    assert repr(assertion["type"]) in raised.value.message


def test_limits_record_the_measured_quantity() -> None:
    outcome = grade({"type": "max_cost", "value": 0.05})
    assert outcome.measured == 0.012
    assert outcome.reason == "cost_usd 0.012 USD ≤ 0.05 USD"
    assert grade({"type": "max_turns", "value": 10}, {"turns": "many"}).passed is False


def test_tool_order_failure_says_where_it_stopped() -> None:
    outcome = grade({"type": "tool_order", "value": ["read_page", "search"]})
    assert outcome.reason == (
        "expected read_page → search; matched read_page, then no search (trace: search, read_page, answer)"
    )


# ---------------------------------------------------------------------------- invariants

texts = st.text(alphabet=st.characters(codec="utf-8"), max_size=40)


@given(output=texts, needle=texts)
def test_contains_is_python_substring(output: str, needle: str) -> None:
    outcome = grade({"type": "contains", "value": needle}, {"output": output})
    assert outcome.passed is (needle in output)


@given(output=texts, needle=texts)
def test_icontains_ignores_the_case_of_either_side(output: str, needle: str) -> None:
    base = grade({"type": "icontains", "value": needle}, {"output": output}).passed
    assert grade({"type": "icontains", "value": needle}, {"output": output.casefold()}).passed is base


@given(
    measured=st.floats(min_value=0, max_value=1e6, allow_nan=False),
    limit=st.floats(min_value=0, max_value=1e6, allow_nan=False),
    kind=st.sampled_from([("max_turns", "turns"), ("max_cost", "cost_usd"), ("max_latency", "latency_ms")]),
)
def test_limits_pass_exactly_when_within(measured: float, limit: float, kind: tuple[str, str]) -> None:
    assertion_type, field = kind
    outcome = grade({"type": assertion_type, "value": limit}, {field: measured})
    assert outcome.passed is (measured <= limit)
    assert outcome.measured == measured


@given(
    trace=st.lists(st.sampled_from(["a", "b", "c"]), max_size=8),
    wanted=st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=4),
)
def test_tool_order_is_subsequence_matching(trace: list[str], wanted: list[str]) -> None:
    iterator = iter(trace)
    expected = all(any(name == want for name in iterator) for want in wanted)  # classic subsequence test
    sample = {"tool_calls": [{"name": name} for name in trace]}
    assert grade({"type": "tool_order", "value": wanted}, sample).passed is expected


@given(output=texts)
def test_grading_is_deterministic(output: str) -> None:
    sample = {"output": output, "tool_calls": [], "turns": 1}
    for assertion in (
        {"type": "regex", "value": r"\w+"},
        {"type": "similar", "value": "a b", "method": "lexical"},
    ):
        assert grade(assertion, sample) == grade(assertion, sample)
