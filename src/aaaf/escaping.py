"""Tenant text made inert where it is written into a spreadsheet or Markdown
(docs/security.md "Tenant text").

* :func:`csv_cell` — OWASP's rule for CSV injection: a cell starting with ``=``, ``+``,
  ``-``, ``@``, a tab or a carriage return is a formula to a spreadsheet, so it is prefixed
  with ``'``; :func:`csv_value` reads such a cell back as it was.
* :func:`markdown_text` — a name, description or id as plain Markdown text on one line: no
  raw HTML (``<``, ``>``, ``&`` become entities), no link, image, emphasis, code span or
  table cell boundary (their characters are backslash-escaped), no heading, list or quote
  (a leading marker is escaped; newlines become spaces).  Every place tenant text enters
  Markdown (reports, ``.md`` badges, audit worksheets) goes through it.
"""

from __future__ import annotations

import re
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_MARKDOWN_INLINE = re.compile(r"([\\`*_\[\]|~!#])")
_LIST_START = re.compile(r"^([+\-=])|^(\d+)([.)])")


def csv_cell(value: Any) -> str:
    """``value`` as a CSV cell a spreadsheet will not evaluate."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_value(cell: str | None) -> str | None:
    """The value :func:`csv_cell` wrote (its ``'`` taken off again)."""
    if cell is not None and cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS):
        return cell[1:]
    return cell


def markdown_text(value: Any) -> str:
    """``value`` as literal, single-line Markdown text (module docstring)."""
    text = " ".join(str(value).split())
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _MARKDOWN_INLINE.sub(r"\\\1", text)
    return _LIST_START.sub(_escaped_marker, text, count=1)


def _escaped_marker(match: re.Match[str]) -> str:
    if match.group(1):
        return "\\" + match.group(1)
    return match.group(2) + "\\" + match.group(3)
