"""The badge as PNG: the SVG of :mod:`aaaf.badges.svg` rasterised by resvg, not a second drawing.

resvg is given DejaVu Sans explicitly and told to skip the system's fonts, so the same
SVG gives the same pixels on every machine (DESIGN.md, 'SVG → PNG').  At ``scale`` 1 the
PNG is the 300×150 of document 004 §4.1; a larger scale gives a sharper copy of the same
drawing.
"""

from __future__ import annotations

import resvg_py

from aaaf.badges.fonts import FONT_FAMILY, font_files


def render_png(svg: str, *, scale: float = 1.0) -> bytes:
    """Rasterise a badge SVG to PNG bytes."""
    if scale <= 0:
        raise ValueError(f"scale must be positive, got {scale}")
    regular, bold = font_files()
    png = resvg_py.svg_to_bytes(
        svg_string=svg,
        skip_system_fonts=True,
        font_files=[str(regular), str(bold)],
        font_family=FONT_FAMILY,
        sans_serif_family=FONT_FAMILY,
        zoom=scale if scale != 1.0 else None,
        text_rendering="optimize_legibility",
        shape_rendering="geometric_precision",
    )
    return bytes(png)
