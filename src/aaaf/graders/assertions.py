"""Code-based graders: every assertion type of SCORING.md §4, evaluated on the sample itself.

Document 004 §3.4 puts code-based graders first: deterministic checks of what an agent
produced (its output) and of how it worked (its tool-call trace, turns, cost, latency).
:func:`grade_assertion` is a pure function of the assertion and the sample — no clock,
no network, no randomness — so the same run always grades the same way.  (The one
exception to "no I/O" is ``similar`` with the optional embedding model, which reads
its weights from disk once; its result is still deterministic on a machine, and the
grade names the method.)

Two kinds of trouble are kept apart:

* the sample lacks what the grader needs (no ``output``, no ``tool_calls`` trace, no
  ``turns``/``cost_usd``/``latency_ms``, an output that is not JSON for ``json_schema``)
  ⇒ the assertion **fails**, and the reason says what was missing (SCORING.md §4);
* the assertion itself is malformed (no ``value``, a regex that does not compile, an
  invalid JSON Schema, a negative limit) ⇒ ``AAAFError("INVALID_REQUEST")`` naming it:
  an evaluator's mistake must not be scored as the agent's failure.

Semantics, per type (``value`` is the assertion's ``value``; "the text" is the output
itself when it is a string, else its compact JSON serialisation, as JavaScript's
``JSON.stringify`` writes it):

=================  ==========================================================================
``contains``       the text contains ``value`` (a string; an integer is taken as its digits)
``icontains``      the same after Unicode case folding of both
``equals``         string ``value`` and string output: exact equality (no trimming).
                   Otherwise both are read as JSON and compared as JSON values (``1`` equals
                   ``1.0``; ``true`` never equals ``1``; object key order is irrelevant)
``regex``          Python ``re.search(value, text)`` finds a match
``json_schema``    the output (parsed when it is a string) validates against the JSON Schema
                   ``value`` with the validator its ``$schema`` names (Draft 2020-12 by default)
``similar``        similarity of the text to the reference ``value`` ≥ ``threshold`` (default
                   0.8); ``method`` ``auto``/``embedding``/``lexical`` (see
                   :mod:`aaaf.graders.similarity`)
``tool_called``    some call in ``tool_calls`` has the name ``value`` (or matches
                   ``{"name", "arguments"}``: every given argument equal, as JSON)
``tool_not_called`` no call matches ``value``
``tool_order``     the tools of the list ``value`` appear in the trace in that order (other
                   calls may come between them)
``max_turns``      ``turns`` ≤ ``value``
``max_cost``       ``cost_usd`` ≤ ``value`` (USD)
``max_latency``    ``latency_ms`` ≤ ``value`` (milliseconds)
=================  ==========================================================================

The assertion's ``weight`` is not read here: it weighs the verdict in the layer score
(``aaaf.scoring.layered``), it does not change the verdict.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import jsonschema
from jsonschema.exceptions import SchemaError, best_match

from aaaf.errors import AAAFError
from aaaf.graders.similarity import SIMILARITY_METHODS, similarity
from aaaf.scoring.layered import BEHAVIOR_ASSERTION_TYPES, FACT_ASSERTION_TYPES

FACT_TYPES: tuple[str, ...] = FACT_ASSERTION_TYPES
BEHAVIOR_TYPES: tuple[str, ...] = BEHAVIOR_ASSERTION_TYPES
ASSERTION_TYPES: tuple[str, ...] = FACT_TYPES + BEHAVIOR_TYPES
DEFAULT_SIMILAR_THRESHOLD = 0.8
_QUOTE_LIMIT = 80


@dataclass(frozen=True)
class Grade:
    """One assertion's verdict, why, and how it was reached.

    ``method`` names the grader (``code:contains``, ``code:similar:lexical:…``…);
    ``measured`` is the quantity compared against the limit where there is one
    (similarity, turns, cost, latency), None otherwise.
    """

    passed: bool
    reason: str
    method: str
    measured: float | None = None


def _malformed(assertion_type: str, problem: str, **details: Any) -> AAAFError:
    return AAAFError(
        "INVALID_REQUEST",
        f"Assertion {assertion_type!r}: {problem}.",
        {"assertion_type": assertion_type, **details},
    )


def _quote(text: str) -> str:
    shown = text if len(text) <= _QUOTE_LIMIT else text[: _QUOTE_LIMIT - 1] + "…"
    return json.dumps(shown, ensure_ascii=False)


def _number(value: float) -> str:
    return format(value, ".10g")


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


# ---------------------------------------------------------------------------- inputs


def _output_text(sample: Mapping[str, Any]) -> str | None:
    """The output as text: itself when a string, else compact JSON; None when absent."""
    output = sample.get("output")
    if output is None:
        return None
    if isinstance(output, str):
        return output
    return json.dumps(output, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _text_value(assertion: Mapping[str, Any], assertion_type: str) -> str:
    value = assertion.get("value")
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if value is None:
        raise _malformed(assertion_type, "needs a `value` (the text to look for)", field="value")
    raise _malformed(assertion_type, f"`value` must be a string, got {type(value).__name__}", field="value")


def _limit(assertion: Mapping[str, Any], assertion_type: str) -> float:
    value: Any = assertion.get("value")
    if not _is_number(value) or not math.isfinite(value) or value < 0:
        raise _malformed(
            assertion_type,
            f"`value` must be a finite number ≥ 0 (the limit), got {value!r}",
            field="value",
        )
    return float(value)


def _no_output(assertion_type: str) -> Grade:
    return Grade(False, "the sample has no output to grade", f"code:{assertion_type}")


# ---------------------------------------------------------------------------- JSON values


def json_equal(a: Any, b: Any) -> bool:
    """Equality of JSON values: numbers by value, booleans never equal to numbers."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if _is_number(a) and _is_number(b):
        return bool(a == b)
    if isinstance(a, str) and isinstance(b, str):
        return a == b
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(json_equal(a[key], b[key]) for key in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    return False


def _parse_json(text: str) -> tuple[bool, Any]:
    try:
        return True, json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return False, None


# ---------------------------------------------------------------------------- fact graders


def _contains(assertion: Mapping[str, Any], sample: Mapping[str, Any]) -> Grade:
    needle = _text_value(assertion, "contains")
    text = _output_text(sample)
    if text is None:
        return _no_output("contains")
    if needle in text:
        return Grade(True, f"output contains {_quote(needle)}", "code:contains")
    return Grade(False, f"output does not contain {_quote(needle)}", "code:contains")


def _icontains(assertion: Mapping[str, Any], sample: Mapping[str, Any]) -> Grade:
    needle = _text_value(assertion, "icontains")
    text = _output_text(sample)
    if text is None:
        return _no_output("icontains")
    if needle.casefold() in text.casefold():
        return Grade(True, f"output contains {_quote(needle)} (ignoring case)", "code:icontains")
    return Grade(False, f"output does not contain {_quote(needle)} (ignoring case)", "code:icontains")


def _equals(assertion: Mapping[str, Any], sample: Mapping[str, Any]) -> Grade:
    if "value" not in assertion or assertion.get("value") is None:
        raise _malformed("equals", "needs a `value` (the expected output)", field="value")
    expected = assertion["value"]
    output = sample.get("output")
    if output is None:
        return _no_output("equals")
    if isinstance(expected, str) and isinstance(output, str):
        if output == expected:
            return Grade(True, "output equals the expected text", "code:equals:text")
        return Grade(False, f"output {_quote(output)} is not {_quote(expected)}", "code:equals:text")
    # at least one side is structured: compare as JSON values
    if isinstance(output, str):
        ok, output = _parse_json(output)
        if not ok:
            return Grade(
                False, "output is not JSON, so it cannot equal the expected JSON value", "code:equals:json"
            )
    if isinstance(expected, str):
        ok, expected = _parse_json(expected)
        if not ok:
            return Grade(
                False, "output is structured and the expected value is plain text", "code:equals:json"
            )
    if json_equal(output, expected):
        return Grade(True, "output equals the expected JSON value", "code:equals:json")
    return Grade(False, "output differs from the expected JSON value", "code:equals:json")


def _regex(assertion: Mapping[str, Any], sample: Mapping[str, Any]) -> Grade:
    pattern_text = _text_value(assertion, "regex")
    try:
        pattern = re.compile(pattern_text)
    except re.error as error:
        raise _malformed(
            "regex", f"`value` is not a valid regular expression: {error}", field="value"
        ) from None
    text = _output_text(sample)
    if text is None:
        return _no_output("regex")
    match = pattern.search(text)
    if match is not None:
        return Grade(
            True,
            f"output matches /{pattern_text}/ at {match.start()}: {_quote(match.group(0))}",
            "code:regex",
        )
    return Grade(False, f"output does not match /{pattern_text}/", "code:regex")


def _schema_validator(assertion: Mapping[str, Any]) -> Any:
    schema = assertion.get("value")
    if isinstance(schema, str):
        ok, schema = _parse_json(schema)
        if not ok:
            raise _malformed("json_schema", "`value` is a string that is not JSON", field="value")
    if not isinstance(schema, Mapping | bool):
        raise _malformed("json_schema", "`value` must be a JSON Schema (an object)", field="value")
    validator_class = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    try:
        validator_class.check_schema(schema)
    except SchemaError as error:
        raise _malformed(
            "json_schema", f"`value` is not a valid JSON Schema: {error.message}", field="value"
        ) from None
    return validator_class(schema)


def _json_path(path: Sequence[Any]) -> str:
    return "$" + "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in path)


def _json_schema(assertion: Mapping[str, Any], sample: Mapping[str, Any]) -> Grade:
    validator = _schema_validator(assertion)
    method = f"code:json_schema:{type(validator).__name__}"
    output = sample.get("output")
    if output is None:
        return _no_output("json_schema")
    if isinstance(output, str):
        ok, output = _parse_json(output)
        if not ok:
            return Grade(False, "output is not valid JSON", method)
    error = best_match(validator.iter_errors(output))
    if error is None:
        return Grade(True, "output is valid against the schema", method)
    return Grade(
        False,
        f"output does not match the schema at {_json_path(error.absolute_path)}: {error.message}",
        method,
    )


def _similar(assertion: Mapping[str, Any], sample: Mapping[str, Any], similarity_method: str | None) -> Grade:
    reference = _text_value(assertion, "similar")
    threshold = assertion.get("threshold", DEFAULT_SIMILAR_THRESHOLD)
    if threshold is None:
        threshold = DEFAULT_SIMILAR_THRESHOLD
    if not _is_number(threshold) or not 0.0 <= threshold <= 1.0:
        raise _malformed(
            "similar", f"`threshold` must be a number in [0, 1], got {threshold!r}", field="threshold"
        )
    method = assertion.get("method") or similarity_method or "auto"
    if method not in SIMILARITY_METHODS:
        raise _malformed(
            "similar",
            f"`method` must be one of {', '.join(SIMILARITY_METHODS)}, got {method!r}",
            field="method",
        )
    text = _output_text(sample)
    if text is None:
        return Grade(False, "the sample has no output to grade", f"code:similar:{method}")
    result = similarity(text, reference, method)
    verdict = result.value >= threshold
    relation = "≥" if verdict else "<"
    return Grade(
        verdict,
        f"similarity {result.value:.4f} {relation} threshold {_number(threshold)} ({result.method})",
        f"code:similar:{result.method}",
        result.value,
    )


# ---------------------------------------------------------------------------- behavior graders


def _tool_name(call: Any) -> str | None:
    if isinstance(call, Mapping):
        name = call.get("name")
        return name if isinstance(name, str) else None
    return None


def _call_arguments(call: Mapping[str, Any]) -> Any:
    arguments = call.get("arguments")
    if isinstance(arguments, str):  # OpenAI-style: arguments as a JSON string
        ok, parsed = _parse_json(arguments)
        return parsed if ok else arguments
    return arguments


def _tool_matcher(value: Any, assertion_type: str) -> tuple[str, Callable[[Any], bool]]:
    """(description, predicate) for a tool given by name or by {name, arguments}."""
    if isinstance(value, str) and value:
        return value, lambda call: _tool_name(call) == value
    if isinstance(value, Mapping) and isinstance(value.get("name"), str) and value["name"]:
        name: str = value["name"]
        expected = value.get("arguments")
        if expected is None:
            return name, lambda call: _tool_name(call) == name
        if not isinstance(expected, Mapping):
            raise _malformed(assertion_type, "a tool's `arguments` must be an object", field="value")

        def matches(call: Any) -> bool:
            if _tool_name(call) != name:
                return False
            actual = _call_arguments(call)
            return isinstance(actual, Mapping) and all(
                key in actual and json_equal(actual[key], want) for key, want in expected.items()
            )

        shown = json.dumps(dict(expected), ensure_ascii=False, sort_keys=True, default=str)
        return f"{name}({shown})", matches
    raise _malformed(
        assertion_type, f"`value` must be a tool name or {{name, arguments}}, got {value!r}", field="value"
    )


def _trace(sample: Mapping[str, Any]) -> list[Any] | None:
    calls = sample.get("tool_calls")
    if calls is None:
        return None
    if isinstance(calls, Sequence) and not isinstance(calls, str | bytes):
        return list(calls)
    return None


def _trace_names(calls: Sequence[Any]) -> str:
    names = [_tool_name(call) or "?" for call in calls]
    return ", ".join(names) if names else "no calls"


def _no_trace(assertion_type: str) -> Grade:
    return Grade(False, "the sample has no tool_calls trace", f"code:{assertion_type}")


def _tool_called(assertion: Mapping[str, Any], sample: Mapping[str, Any]) -> Grade:
    shown, matches = _tool_matcher(assertion.get("value"), "tool_called")
    calls = _trace(sample)
    if calls is None:
        return _no_trace("tool_called")
    for position, call in enumerate(calls, start=1):
        if matches(call):
            return Grade(True, f"{shown} was called (call #{position})", "code:tool_called")
    return Grade(False, f"{shown} was not called (trace: {_trace_names(calls)})", "code:tool_called")


def _tool_not_called(assertion: Mapping[str, Any], sample: Mapping[str, Any]) -> Grade:
    shown, matches = _tool_matcher(assertion.get("value"), "tool_not_called")
    calls = _trace(sample)
    if calls is None:
        return _no_trace("tool_not_called")
    for position, call in enumerate(calls, start=1):
        if matches(call):
            return Grade(False, f"{shown} was called (call #{position})", "code:tool_not_called")
    return Grade(True, f"{shown} was not called", "code:tool_not_called")


def _tool_order(assertion: Mapping[str, Any], sample: Mapping[str, Any]) -> Grade:
    value = assertion.get("value")
    if not isinstance(value, Sequence) or isinstance(value, str | bytes) or not value:
        raise _malformed("tool_order", "`value` must be a non-empty list of tools", field="value")
    steps = [_tool_matcher(item, "tool_order") for item in value]
    calls = _trace(sample)
    if calls is None:
        return _no_trace("tool_order")
    wanted = " → ".join(shown for shown, _ in steps)
    position = 0
    for index, (shown, matches) in enumerate(steps):
        while position < len(calls) and not matches(calls[position]):
            position += 1
        if position == len(calls):
            done = " → ".join(s for s, _ in steps[:index]) or "nothing"
            return Grade(
                False,
                f"expected {wanted}; matched {done}, then no {shown} (trace: {_trace_names(calls)})",
                "code:tool_order",
            )
        position += 1
    return Grade(True, f"tools called in the order {wanted}", "code:tool_order")


def _at_most(
    field: str, unit: str, assertion_type: str
) -> Callable[[Mapping[str, Any], Mapping[str, Any]], Grade]:
    def grade(assertion: Mapping[str, Any], sample: Mapping[str, Any]) -> Grade:
        limit = _limit(assertion, assertion_type)
        measured = sample.get(field)
        method = f"code:{assertion_type}"
        if measured is None:
            return Grade(False, f"the sample has no {field}", method)
        if not _is_number(measured) or not math.isfinite(measured):
            return Grade(False, f"the sample's {field} is not a finite number: {measured!r}", method)
        measured = float(measured)
        if measured <= limit:
            return Grade(
                True, f"{field} {_number(measured)}{unit} ≤ {_number(limit)}{unit}", method, measured
            )
        return Grade(False, f"{field} {_number(measured)}{unit} > {_number(limit)}{unit}", method, measured)

    return grade


_GRADERS: dict[str, Callable[[Mapping[str, Any], Mapping[str, Any]], Grade]] = {
    "contains": _contains,
    "icontains": _icontains,
    "equals": _equals,
    "regex": _regex,
    "json_schema": _json_schema,
    "tool_called": _tool_called,
    "tool_not_called": _tool_not_called,
    "tool_order": _tool_order,
    "max_turns": _at_most("turns", "", "max_turns"),
    "max_cost": _at_most("cost_usd", " USD", "max_cost"),
    "max_latency": _at_most("latency_ms", " ms", "max_latency"),
}
if set(_GRADERS) | {"similar"} != set(ASSERTION_TYPES):  # checked at import: a missing grader is a crash
    raise RuntimeError("every assertion type of docs/scoring.md §5 needs a grader")


def grade_assertion(
    assertion: Mapping[str, Any], sample: Mapping[str, Any], *, similarity_method: str | None = None
) -> Grade:
    """Grade one assertion against one sample (SCORING.md §4).

    ``similarity_method`` is the default method for ``similar`` assertions that do not
    name one (``auto`` when None).  Raises INVALID_REQUEST for an unknown type or a
    malformed assertion; a sample missing the grader's input fails with the reason.
    """
    assertion_type = assertion.get("type")
    if assertion_type == "similar":
        return _similar(assertion, sample, similarity_method)
    grader = _GRADERS.get(assertion_type) if isinstance(assertion_type, str) else None
    if grader is None:
        raise AAAFError(
            "INVALID_REQUEST",
            f"Unknown assertion type {assertion_type!r}; known types: {', '.join(ASSERTION_TYPES)}.",
            {"field": "type", "value": assertion_type},
        )
    return grader(assertion, sample)
