"""Names others read: organizations and agents (docs/security.md "Names").

A name is shown on public pages, badges and verification answers, so it must read as what
it is.  It is stored NFKC-normalised (so look-alike compatibility forms — fullwidth
letters, ligatures — become one spelling, and uniqueness holds on that spelling), and a
name holding an invisible or direction-changing character (format characters such as
U+200B ZERO WIDTH SPACE or U+202E RIGHT-TO-LEFT OVERRIDE, control characters such as a
newline or NUL, line and paragraph separators, private-use or unassigned code points) is
refused, naming the field and the character.
"""

from __future__ import annotations

import unicodedata

# Cf format (zero-width, bidi controls), Cc control, Co private use, Cs surrogate,
# Cn unassigned, Zl/Zp line and paragraph separators
REFUSED_CATEGORIES = frozenset({"Cf", "Cc", "Co", "Cs", "Cn", "Zl", "Zp"})


def name_problem(value: str) -> str | None:
    """Why ``value`` cannot be a name (completes "FIELD …"), or None."""
    for index, char in enumerate(value):
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            label = unicodedata.name(char, "a control character")
            return (
                f"contains an invisible or control character (U+{ord(char):04X} {label}) at character "
                f"{index}; names are shown to others and must read as they are"
            )
    return None


def name_key(value: str) -> str:
    """The spelling a name is stored and looked up by: ``value`` NFKC-normalised, so that
    "ｃｌａｉｍｓ-bot" (fullwidth) and "claims-bot" find the same agent wherever a name is
    given — the API, the CLI, an event's ``agent`` or an OpenTelemetry span."""
    return unicodedata.normalize("NFKC", value)


def normalised_name(value: str) -> str:
    """``value`` NFKC-normalised; ``ValueError`` saying why when it cannot be a name."""
    text = name_key(value)
    problem = name_problem(text)
    if problem is not None:
        raise ValueError(problem)
    return text
