"""The JSON body rule decides on what is outside strings, whatever the strings hold: escaped
quotes, brackets, NaN (docs/security.md "Input")."""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from aaaf.api.json_rules import json_problem
from aaaf.json_values import MAX_JSON_DEPTH

DEEP = MAX_JSON_DEPTH + 1


@pytest.mark.parametrize(
    "value",
    [
        "[" * 500,  # brackets inside a string nest nothing
        "]" * 500 + "{" * 500,
        "NaN and Infinity",
        'a "quoted" [' * 100,  # escaped quotes: the string pattern decides
        "back\\slash\\",
        '\\"]]]]\\"' * 50,
    ],
)
def test_what_a_string_holds_breaks_no_rule(value: str) -> None:
    body = json.dumps({"events": [{"data": {"note": value, "n": [1, [2, {"x": value}]]}}] * 20}).encode()
    assert json_problem(body) is None


@pytest.mark.parametrize("note", ["plain", 'with "quotes" inside', "[[[["])
def test_what_is_outside_strings_is_refused(note: str) -> None:
    text = json.dumps(note)
    assert json_problem(f'{{"a": {text}, "b": NaN}}'.encode()) is not None
    assert json_problem(f'{{"a": {text}, "b": -Infinity}}'.encode()) is not None
    deep = "[" * DEEP + text + "]" * DEEP
    assert json_problem(deep.encode()) is not None
    # closing brackets inside strings do not hide the nesting of the brackets outside them
    hidden = "[" * DEEP + json.dumps("]" * DEEP) + "]" * DEEP
    assert json_problem(hidden.encode()) is not None
    assert json_problem(("[" * MAX_JSON_DEPTH + text + "]" * MAX_JSON_DEPTH).encode()) is None


def test_an_unterminated_string_hides_nothing_before_it() -> None:
    assert json_problem(b"[" * DEEP + b'"open') is not None
    assert json_problem(b'{"a": NaN, "b": "open') is not None


def _by_the_rule(body: bytes) -> tuple[str, str] | None:
    """The rule as written (docs/security.md "Input"), the slow way: strings emptied by the
    string pattern, NaN and Infinity looked for outside them, the depth counted bracket by
    bracket."""
    import re
    from itertools import accumulate

    if re.search(rb"(?<!\\)(?:\\\\)*\\u0000", body):
        return ("nul", "body")
    outside = re.sub(rb'"[^"\\]*(?:\\.[^"\\]*)*"', b'""', body, flags=re.DOTALL)
    if re.search(rb"(?<![A-Za-z0-9_])-?(?:NaN|Infinity)(?![A-Za-z0-9_])", outside):
        return ("nan", "body")
    depth = max(accumulate(1 if byte in b"[{" else -1 for byte in outside if byte in b"[]{}"), default=0)
    return ("deep", "body") if depth > MAX_JSON_DEPTH else None


_PIECES = [
    b'"',
    b"[",
    b"]",
    b"{",
    b"}",
    b'\\"',
    b"\\\\",
    b"NaN",
    b"-Infinity",
    b"Na",
    b"N",
    b"I",
    b"a",
    b", ",
]
_PIECES += [b"[" * 40, b"]" * 40, b"{" * 40, b"}" * 40, b'"]]]"', b'"[[["', b'{"x": ', b'"ok"', b"\\u0000"]
# a string whose escaped quotes hide brackets; a nesting just past the limit; unbalanced ones
_ESCAPED = b'"\\"' + b"]" * 40 + b'\\""'
_PIECES += [_ESCAPED, b"[" * DEEP, b"]" * DEEP, b"}[" * 3]


@given(st.lists(st.sampled_from(_PIECES), max_size=40))
@example([_ESCAPED, b"[" * DEEP, b"]" * DEEP])  # the brackets between escaped quotes are a string's
@settings(max_examples=1500, deadline=None)
def test_the_shortcuts_decide_as_the_rule_does(pieces: list[bytes]) -> None:
    """Whatever the body — strings with brackets or not, quotes paired or not, escaped or not,
    brackets balanced or not — the check refuses exactly what the rule refuses, for its reason."""
    body = b"".join(pieces)
    found, expected = json_problem(body), _by_the_rule(body)
    assert (found is None) == (expected is None)
    if found is not None and expected is not None:
        reason = {"nul": "NUL", "nan": "NaN", "deep": "deeper"}[expected[0]]
        assert reason in found[0]
