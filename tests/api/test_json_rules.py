"""The JSON body rule decides on what is outside strings, whatever the strings hold: escaped
quotes, brackets, NaN (docs/security.md "Input")."""

from __future__ import annotations

import json

import pytest

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
