"""The badge's font: where it is, and how wide a string set in it will be.

resvg draws text only with a font it can find (DESIGN.md, 'SVG → PNG'), and a badge
must look the same on every machine, so the PNG is rendered with an explicit font file
rather than whatever the system has: DejaVu Sans (a free font, Bitstream Vera licence)
shipped inside this package (src/aaaf/fonts, with its licence), with the system's
copy as a fallback.  The SVG names the same family first, so a browser on a machine
with DejaVu draws the same glyphs.

Widths come from the font's own advance widths (``hmtx``), so the SVG layout can keep
long agent and organization names inside their boxes (issue 7, item 1) — kerning only
ever narrows a run of DejaVu text, so the measured width is an upper bound.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

FONT_FAMILY = "DejaVu Sans"
# What the SVG asks for: DejaVu first, then look-alikes a browser may have.
SVG_FONT_STACK = "'DejaVu Sans', Verdana, 'Bitstream Vera Sans', sans-serif"

_REGULAR = "DejaVuSans.ttf"
_BOLD = "DejaVuSans-Bold.ttf"
_SYSTEM_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/share/fonts/TTF"),
    Path("/Library/Fonts"),
)


def _candidate_dirs() -> list[Path]:
    return [Path(__file__).resolve().parent.parent / "fonts", *_SYSTEM_DIRS]


@functools.cache
def font_files() -> tuple[Path, Path]:
    """(regular, bold) DejaVu Sans files; a clear error when neither place has them."""
    for directory in _candidate_dirs():
        regular, bold = directory / _REGULAR, directory / _BOLD
        if regular.is_file() and bold.is_file():
            return regular, bold
    searched = ", ".join(str(d) for d in _candidate_dirs())
    raise FileNotFoundError(
        f"DejaVu Sans not found (looked in {searched}); reinstall aaaf or install fonts-dejavu"
    )


@dataclass(frozen=True)
class FontMetrics:
    """Advance widths of one face, in font units, and the units per em."""

    units_per_em: int
    advances: Mapping[int, int]
    fallback_advance: int

    def width(self, text: str, size: float) -> float:
        """Width in pixels of ``text`` set at ``size`` px (no kerning: an upper bound)."""
        units = sum(self.advances.get(ord(ch), self.fallback_advance) for ch in text)
        return units * size / self.units_per_em


@functools.cache
def metrics(bold: bool = False) -> FontMetrics:
    from fontTools.ttLib import TTFont

    path = font_files()[1 if bold else 0]
    font = TTFont(str(path), lazy=True)
    try:
        units_per_em = int(font["head"].unitsPerEm)
        hmtx = font["hmtx"].metrics
        cmap = font.getBestCmap() or {}
        advances = {code: int(hmtx[glyph][0]) for code, glyph in cmap.items() if glyph in hmtx}
        # an unknown character is drawn as .notdef; take the widest common glyph to stay safe
        fallback = max(advances.get(ord("W"), units_per_em), int(hmtx[".notdef"][0]))
    finally:
        font.close()
    return FontMetrics(units_per_em=units_per_em, advances=advances, fallback_advance=fallback)


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    return metrics(bold).width(text, size)


ELLIPSIS = "…"


def fit_text(
    text: str, max_width: float, size: float, *, bold: bool = False, min_size: float | None = None
) -> tuple[str, float]:
    """Make ``text`` fit ``max_width``: shrink the size down to ``min_size``, then cut it
    short with an ellipsis.  Returns (text to draw, font size)."""
    floor = size if min_size is None else min_size
    current = size
    while current > floor and text_width(text, current, bold=bold) > max_width:
        current = max(floor, round(current - 0.25, 2))
    if text_width(text, current, bold=bold) <= max_width:
        return text, current
    cut = len(text)
    while cut > 0 and text_width(text[:cut] + ELLIPSIS, current, bold=bold) > max_width:
        cut -= 1
    return text[:cut].rstrip() + ELLIPSIS, current


def wrap_text(
    text: str, max_width: float, size: float, *, max_lines: int, breaks: str = "/-_ ", bold: bool = False
) -> list[str]:
    """Split ``text`` over at most ``max_lines`` lines no wider than ``max_width``.

    Lines break after one of ``breaks`` when possible, trying them in order (a URL
    breaks after a '/' rather than inside a UUID), else anywhere; the last line is cut
    short with an ellipsis if the text still does not fit.
    """
    lines: list[str] = []
    rest = text
    while rest and len(lines) < max_lines - 1:
        if text_width(rest, size, bold=bold) <= max_width:
            break
        cut = len(rest)
        while cut > 1 and text_width(rest[:cut], size, bold=bold) > max_width:
            cut -= 1
        # prefer the earliest-listed break characters ('/' in a URL) if they leave the line
        # at least 40 % full; then any of the others
        for group in breaks:
            soft = rest.rfind(group, 0, cut)
            if soft > 0.4 * cut:
                cut = soft + 1
                break
        lines.append(rest[:cut])
        rest = rest[cut:]
    if rest:
        last, _ = fit_text(rest, max_width, size, bold=bold)
        lines.append(last)
    return lines
