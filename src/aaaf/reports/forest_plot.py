"""The forest plot of an A/B comparison, drawn as inline SVG by hand (no plotting library).

One row per compared quantity: its mean difference (treatment − control) as a dot, its
confidence interval as a bar, optionally a wider grey bar (the Bonferroni interval), and a
dashed line at 0.  The picture needs two shapes, so a few lines of SVG replace matplotlib (which
kept ~10 MB of dependencies in the core install): the same approach as the dashboard's charts
(:mod:`aaaf.api.web.charts`).  Every text is escaped; the SVG carries a ``<title>`` and a
``<desc>`` so a screen reader reads what the plot shows, and the report's table says the same.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import escape

_WIDTH = 640
_LABEL = 170  # the left column of row labels
_RIGHT = 24
_TOP = 34  # the title
_ROW = 34
_AXIS = 44  # tick labels and the axis caption
_ZERO = "#2d3748"
_GREY = "#a0aec0"


@dataclass(frozen=True)
class Row:
    """One row: its label, the difference, its interval and (optionally) a wider one."""

    label: str
    diff: float | None
    low: float | None = None
    high: float | None = None
    wide_low: float | None = None
    wide_high: float | None = None
    colour: str = "#2b6cb0"


def _nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering [low, high] (1, 2 or 5 times a power of ten apart)."""
    span = high - low
    raw = span / max(count - 1, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    first = math.ceil(low / step - 1e-9) * step
    ticks: list[float] = []
    value = first
    while value <= high + step * 1e-9:
        ticks.append(0.0 if abs(value) < step * 1e-9 else value)
        value += step
    return ticks


def _tick_text(value: float) -> str:
    return f"{value:g}"


def forest_plot_svg(rows: Sequence[Row], *, title: str, x_caption: str) -> str:
    """The plot as an ``<svg>`` element (text, deterministic: same rows, same bytes)."""
    values = [0.0]
    for row in rows:
        values.extend(v for v in (row.diff, row.low, row.high, row.wide_low, row.wide_high) if v is not None)
    low, high = min(values), max(values)
    if high - low < 1e-12:
        low, high = low - 1.0, high + 1.0
    margin = (high - low) * 0.06
    low, high = low - margin, high + margin
    plot_width = _WIDTH - _LABEL - _RIGHT
    height = _TOP + _ROW * max(len(rows), 1) + _AXIS

    def x(value: float) -> float:
        return round(_LABEL + (value - low) / (high - low) * plot_width, 2)

    bottom = _TOP + _ROW * max(len(rows), 1)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_WIDTH} {height}" width="{_WIDTH}"'
        f' height="{height}" role="img" aria-labelledby="forest-title forest-desc"'
        ' font-family="-apple-system, \'Segoe UI\', Helvetica, Arial, sans-serif" font-size="12">',
        f'<title id="forest-title">{escape(title)}</title>',
        f'<desc id="forest-desc">{escape(_description(rows))}</desc>',
        f'<text x="{_LABEL}" y="18" font-size="11" fill="#1a202c">{escape(title)}</text>',
    ]
    for tick in _nice_ticks(low, high):
        position = x(tick)
        parts.append(
            f'<line x1="{position}" y1="{bottom}" x2="{position}" y2="{bottom + 4}" stroke="#4a5568"/>'
            f'<text x="{position}" y="{bottom + 16}" text-anchor="middle" fill="#4a5568">'
            f"{escape(_tick_text(tick))}</text>"
        )
    parts.append(f'<line x1="{_LABEL}" y1="{bottom}" x2="{_WIDTH - _RIGHT}" y2="{bottom}" stroke="#4a5568"/>')
    parts.append(
        f'<text x="{_LABEL + plot_width / 2:.2f}" y="{bottom + 36}" text-anchor="middle" fill="#1a202c">'
        f"{escape(x_caption)}</text>"
    )
    zero = x(0.0)
    parts.append(
        f'<line x1="{zero}" y1="{_TOP - 4}" x2="{zero}" y2="{bottom}" stroke="{_ZERO}" stroke-dasharray="4 3"/>'
    )
    for index, row in enumerate(rows):
        middle = _TOP + _ROW * index + _ROW / 2
        parts.append(
            f'<text x="{_LABEL - 8}" y="{middle + 4}" text-anchor="end" fill="#1a202c">{escape(row.label)}</text>'
        )
        if row.wide_low is not None and row.wide_high is not None:
            parts.append(_bar(x(row.wide_low), x(row.wide_high), middle, _GREY, 6))
        if row.low is not None and row.high is not None:
            parts.append(_bar(x(row.low), x(row.high), middle, row.colour, 2.5))
        if row.diff is not None:
            parts.append(f'<circle cx="{x(row.diff)}" cy="{middle}" r="4.5" fill="{row.colour}"/>')
    parts.append("</svg>")
    return "".join(parts)


def _bar(start: float, end: float, middle: float, colour: str, width: float) -> str:
    return f'<line x1="{start}" y1="{middle}" x2="{end}" y2="{middle}" stroke="{colour}" stroke-width="{width}"/>'


def _description(rows: Sequence[Row]) -> str:
    said = []
    for row in rows:
        text = f"{row.label}: " + ("no difference" if row.diff is None else f"{row.diff:+.3g}")
        if row.low is not None and row.high is not None:
            text += f" [{row.low:.3g}, {row.high:.3g}]"
        said.append(text)
    return "; ".join(said) or "nothing to plot"
