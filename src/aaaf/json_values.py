"""The JSON rule for data already parsed (docs/security.md "Input").

The API refuses a JSON body that nests deeper than :data:`MAX_JSON_DEPTH` levels, holds
``NaN`` or ``Infinity``, or holds a NUL character in a string (:mod:`aaaf.api.json_rules`,
on the bytes, before any route parses them).  A file uploaded inside a multipart body — an eval
run as JSON, JSON Lines or an inspect_ai ``.eval`` archive of JSON members — is parsed by its
importer instead; :func:`value_problem` applies the same rule to what the importer read, so
that such data is refused with 400 naming where the problem is, never stored (PostgreSQL cannot
store a NUL or a non-finite number in JSON) and never a 500.
"""

from __future__ import annotations

import math

MAX_JSON_DEPTH = 64


def value_problem(value: object, *, max_depth: int = MAX_JSON_DEPTH) -> str | None:
    """Why parsed JSON ``value`` breaks the rule (naming the place, e.g. ``samples[3].score``),
    or None.  Walked without recursion, so no depth makes it fail."""
    stack: list[tuple[object, int, str]] = [(value, 1, "")]
    while stack:
        item, depth, where = stack.pop()
        if isinstance(item, dict | list | tuple):
            if depth > max_depth:
                return f"{where or 'the document'} nests deeper than {max_depth} levels"
            if isinstance(item, dict):
                for key, member in item.items():
                    if isinstance(key, str) and "\x00" in key:
                        return f"a key in {where or 'the document'} contains a NUL character"
                    stack.append((member, depth + 1, f"{where}.{key}" if where else str(key)))
            else:
                stack.extend((member, depth + 1, f"{where}[{index}]") for index, member in enumerate(item))
        elif isinstance(item, str) and "\x00" in item:
            return f"{where or 'the document'} contains a NUL character"
        elif isinstance(item, float) and not math.isfinite(item):
            return f"{where or 'the document'} is {item}, not a finite number"
    return None
