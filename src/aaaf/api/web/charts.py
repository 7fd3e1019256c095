"""Charts drawn on the server as inline SVG (issue 17 §1), the way the badges are drawn.

A small module of our own rather than a plotting library: the dashboard needs two shapes
(horizontal bars of scores in [0, 1] and trend lines over an agent's assessments), each must
carry its text alternative (``<title>``/``<desc>``, ``role="img"``) and a data-table fallback,
and must render in well under a millisecond per chart so the agent page stays fast
(benchmarks/bench_dashboard.py).  matplotlib (which the compare report uses for its plot) is
an order of magnitude slower per figure and writes no accessible markup.  Every text goes
through :func:`markupsafe.escape`.

Values are shown as the reports show them (:func:`aaaf.scoring.core.display`, truncated,
never rounded, SCORING.md §0).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from markupsafe import Markup, escape

from aaaf.scoring.core import display

# line colours with ≥ 3:1 contrast on white (WCAG 1.4.11 non-text contrast)
PALETTE = ("#1f5fa8", "#b3400a", "#2e7d32", "#6a1b9a", "#00695c", "#8d6e00", "#ad1457", "#37474f")
_ids = itertools.count(1)
MAX_MARKED_POINTS = 40  # beyond this a line shows only its last point as a dot


@dataclass(frozen=True)
class Chart:
    """An SVG chart and the table that says the same in text."""

    svg: Markup
    title: str
    columns: Sequence[str]
    rows: Sequence[Sequence[str]] = field(default_factory=tuple)

    def table(self) -> Markup:
        """The data-table fallback: the first column as row headers, the rest as numbers
        (built here rather than in a template loop: a trend of 100 assessments has
        hundreds of cells)."""
        head = "".join(f'<th scope="col">{escape(column)}</th>' for column in self.columns)
        body = "".join(
            f'<tr><th scope="row">{escape(row[0])}</th>'
            + "".join(f'<td class="num">{escape(cell)}</td>' for cell in row[1:])
            + "</tr>"
            for row in self.rows
        )
        return Markup(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")


def _shown(value: float | None) -> str:
    return "—" if value is None else display(value)


def bar_chart(
    title: str, bars: Sequence[tuple[str, float | None]], *, maximum: float = 1.0, width: int = 520
) -> Chart:
    """Horizontal bars, one per (label, value); a missing value is drawn as "no score"."""
    number = next(_ids)
    row_h, label_w, pad = 26, 190, 8
    plot_w = width - label_w - 60
    height = row_h * len(bars) + pad * 2
    described = "; ".join(f"{label} {_shown(value)}" for label, value in bars) or "no data"
    parts = [
        f'<svg class="chart" role="img" viewBox="0 0 {width} {height}" width="100%" '
        f'aria-labelledby="c{number}t c{number}d" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="c{number}t">{escape(title)}</title><desc id="c{number}d">{escape(described)}</desc>',
    ]
    for index, (label, value) in enumerate(bars):
        y = pad + index * row_h
        parts.append(
            f'<text x="{label_w - 6}" y="{y + 17}" text-anchor="end" class="lbl">{escape(label)}</text>'
            f'<rect x="{label_w}" y="{y + 4}" width="{plot_w}" height="{row_h - 8}" class="track"/>'
        )
        if value is None:
            parts.append(f'<text x="{label_w + 6}" y="{y + 17}" class="none">no score</text>')
            continue
        filled = max(0.0, min(1.0, value / maximum)) * plot_w
        parts.append(
            f'<rect x="{label_w}" y="{y + 4}" width="{filled:.1f}" height="{row_h - 8}" class="bar"/>'
            f'<text x="{label_w + plot_w + 6}" y="{y + 17}" class="val">{escape(_shown(value))}</text>'
        )
    parts.append("</svg>")
    rows = [(label, _shown(value)) for label, value in bars]
    return Chart(Markup("".join(parts)), title, ("Item", "Score"), rows)


def line_chart(
    title: str,
    points: Sequence[str],
    series: Mapping[str, Sequence[float | None]],
    *,
    maximum: float = 1.0,
    width: int = 560,
    height: int = 220,
    times: Sequence[float] | None = None,
    bands: Mapping[str, Sequence[tuple[float, float] | None]] | None = None,
    levels: Sequence[tuple[str, float]] = (),
    small: bool = False,
) -> Chart:
    """One line per series over ``points`` (x labels, oldest first); gaps where a value is None.

    ``times`` (seconds, one per point) places the points by time rather than evenly; ``bands``
    draws each named series' interval (low, high) per point as a shaded band behind its line;
    ``levels`` (name, value) draws a labelled dashed line at each value (the tier thresholds).
    ``small`` draws one of :func:`small_multiples`: the first and last evidence windows on two
    lines under the plot, so that both fit its narrow width."""
    number = next(_ids)
    left, right, top, bottom = 48, 12, 12, 44 if small else 28
    plot_w, plot_h = width - left - right, height - top - bottom
    step = plot_w / max(1, len(points) - 1)
    first = min(times) if times else 0.0  # once: x_of runs for every point of every line
    span = (max(times) - first) if times and len(times) > 1 else 0.0

    def x_of(index: int) -> float:
        if len(points) <= 1:
            return left + plot_w / 2
        if times is not None and span > 0:
            return left + plot_w * (times[index] - first) / span
        return left + index * step

    def y_of(value: float) -> float:
        return top + plot_h * (1 - max(0.0, min(1.0, value / maximum)))

    def xy(index: int, value: float) -> tuple[float, float]:
        return x_of(index), y_of(value)

    # each value as shown, once for the text alternative and the table
    shown = {name: [_shown(v) for v in values] for name, values in series.items()}
    lines = [f"{name}: {', '.join(texts)}" for name, texts in shown.items()]
    described = (
        f"{len(points)} assessments from {points[0]} to {points[-1]}. " + "; ".join(lines)
        if points
        else "no assessments yet"
    )
    if levels:
        described += ". Tier lines: " + ", ".join(f"{name} from {display(value)}" for name, value in levels)
    parts = [
        f'<svg class="chart{" small" if small else ""}" role="img" viewBox="0 0 {width} {height}" '
        f'width="100%" aria-labelledby="c{number}t c{number}d" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="c{number}t">{escape(title)}</title><desc id="c{number}d">{escape(described)}</desc>',
    ]
    for fraction in (0.0, 0.5, 1.0):
        y = top + plot_h * (1 - fraction)
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>'
            f'<text x="{left - 4}" y="{y + 4:.1f}" text-anchor="end" class="axis">'
            f"{escape(display(fraction * maximum, 1 if maximum <= 1 else 0))}</text>"
        )
    for level_name, level in levels:
        y = y_of(level)
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y:.1f}" y2="{y:.1f}" class="tierline"/>'
            f'<text x="{width - right - 4}" y="{y - 4:.1f}" text-anchor="end" class="tierlbl">'
            f"{escape(level_name)} {escape(display(level))}</text>"
        )
    if points:
        first_y = height - 22 if small and len(points) > 1 else height - 6
        parts.append(f'<text x="{left}" y="{first_y}" class="axis">{escape(points[0])}</text>')
        if len(points) > 1:
            parts.append(
                f'<text x="{width - right}" y="{height - 6}" text-anchor="end" class="axis">'
                f"{escape(points[-1])}</text>"
            )
    for colour, name in zip(itertools.cycle(PALETTE), series, strict=False):
        intervals = (bands or {}).get(name)
        if not intervals:
            continue
        upper = [(x_of(i), y_of(band[1])) for i, band in enumerate(intervals) if band is not None]
        lower = [(x_of(i), y_of(band[0])) for i, band in enumerate(intervals) if band is not None]
        if len(upper) > 1:
            outline = " ".join(f"{x:.1f},{y:.1f}" for x, y in upper + lower[::-1])
            parts.append(f'<polygon points="{outline}" fill="{colour}" fill-opacity="0.15" class="band"/>')
    for colour, (name, values) in zip(itertools.cycle(PALETTE), series.items(), strict=False):
        segment: list[str] = []
        segments = []
        for index, value in enumerate(values):
            if value is None:
                if segment:
                    segments.append(segment)
                segment = []
                continue
            x, y = xy(index, value)
            segment.append(f"{x:.1f},{y:.1f}")
        if segment:
            segments.append(segment)
        for seg in segments:
            if len(seg) > 1:
                parts.append(
                    f'<polyline points="{" ".join(seg)}" fill="none" stroke="{colour}" stroke-width="2"/>'
                )
            for point in seg if len(points) <= MAX_MARKED_POINTS else seg[-1:]:
                x_text, y_text = point.split(",")
                parts.append(f'<circle cx="{x_text}" cy="{y_text}" r="3" fill="{colour}"/>')
        del name
    parts.append("</svg>")
    columns = ("Evidence window", *series.keys())
    rows = [(point, *(texts[index] for texts in shown.values())) for index, point in enumerate(points)]
    return Chart(Markup("".join(parts)), title, columns, rows)


SMALL_WIDTH, SMALL_HEIGHT = 300, 170
"""A small multiple's drawing size: at its CSS minimum width (``svg.chart.small``) its 13-unit
text is drawn at 12 px or more."""


def small_multiples(
    subject: str,
    points: Sequence[str],
    series: Mapping[str, Sequence[float | None]],
    *,
    times: Sequence[float] | None = None,
    bands: Mapping[str, Sequence[tuple[float, float] | None]] | None = None,
) -> list[Chart]:
    """One small chart per series (a dimension) on the same time axis and scale, instead of
    every series as a line of one plot: each reads on its own, with its own title, text
    alternative and data table.  ``bands`` gives a series' intervals where they are stored."""
    return [
        line_chart(
            f"{name} over {subject}",
            points,
            {name: values},
            times=times,
            bands={name: (bands or {})[name]} if name in (bands or {}) else None,
            width=SMALL_WIDTH,
            height=SMALL_HEIGHT,
            small=True,
        )
        for name, values in series.items()
    ]


def legend(series: Sequence[str]) -> list[tuple[str, str]]:
    """(name, colour) of each series, in the colours :func:`line_chart` gives them."""
    return list(zip(series, itertools.cycle(PALETTE), strict=False))


def contrast_text(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (WCAG relative luminance), so a
    tier's colour is always a fill behind text that meets AA, never text on white."""

    def channel(hex_pair: str) -> float:
        c = int(hex_pair, 16) / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    text = fill.lstrip("#")
    if len(text) != 6:
        return "#000000"
    lum = 0.2126 * channel(text[0:2]) + 0.7152 * channel(text[2:4]) + 0.0722 * channel(text[4:6])
    on_black = (lum + 0.05) / 0.05
    on_white = 1.05 / (lum + 0.05)
    return "#000000" if on_black >= on_white else "#ffffff"
