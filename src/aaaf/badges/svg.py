"""The badge as SVG, exactly the layout of document 004 §4.1 (300×150) with the §4.2 colours.

Every §4.3 field is on it: organization, agent name and id, each axis's tier and
composite (2 decimals, truncated — SCORING.md §0: 0.3996 shows 0.39, so a shown score
never sits in a higher tier than its own), certification date, validity, assessment id
and verification URL.  Text is fitted with the font's real advance widths
(:mod:`aaaf.badges.fonts`): a long name shrinks, then is cut with an ellipsis, and the
verification URL wraps over two lines, so nothing leaves its box.  The full values are
in the ``<title>``/``<desc>`` and, once baked, in the credential itself.

Each ``<text>`` has an ``id`` naming its field, so :mod:`aaaf.badges.verify` can redraw
the badge from the signed credential and tell a hand-edited picture from a true one.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

import jinja2

from aaaf.badges.data import BadgeData, tier_colour, utc
from aaaf.badges.fonts import SVG_FONT_STACK, fit_text, text_width, wrap_text
from aaaf.scoring.core import display

WIDTH, HEIGHT = 300, 150
MARGIN = 8
BOX_WIDTH = 136
BOX_X = {"performance": 8, "capability": 156}
BOX_TOP, BOX_HEIGHT = 61, 36
VERIFY_SIZE = 6.5


@functools.cache
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("aaaf.badges", "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )


def _relative_luminance(colour: str) -> float:
    """WCAG 2.x relative luminance of a #RRGGBB colour."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def ink_for(background: str) -> str:
    """Near-black or white, whichever contrasts more with the tier colour (legible at 1×)."""
    lum = _relative_luminance(background)
    dark, light = "#212121", "#FFFFFF"
    contrast_dark = (lum + 0.05) / (_relative_luminance(dark) + 0.05)
    contrast_light = (1.05) / (lum + 0.05)
    return dark if contrast_dark >= contrast_light else light


@dataclass(frozen=True)
class FittedText:
    text: str
    size: float


def date_shown(ts: datetime) -> str:
    """A §4.3 date as shown on the badge: the UTC calendar day."""
    return utc(ts).strftime("%Y-%m-%d")


_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def xml_safe(text: str) -> str:
    """Text XML 1.0 can carry: characters it forbids become U+FFFD (names are user input)."""
    return _XML_INVALID.sub("\ufffd", text)


def layout(data: BadgeData) -> dict[str, Any]:
    """Every value the template draws, fitted to its box (exposed for tests and verify)."""
    data = replace(
        data, agent_name=xml_safe(data.agent_name), organization_name=xml_safe(data.organization_name)
    )
    brand_width = text_width("AAAF", 11, bold=True)
    org_room = WIDTH - 2 * MARGIN - brand_width - 10
    org_text, org_size = fit_text(data.organization_name, org_room, 9, min_size=7)
    agent_text, agent_size = fit_text(data.agent_name, WIDTH - 2 * MARGIN, 13, bold=True, min_size=9)

    boxes = []
    for axis, label in (("performance", "PERFORMANCE"), ("capability", "CAPABILITY")):
        summary = data.axis(axis)
        colour = tier_colour(summary.tier)
        tier_text, tier_size = fit_text(summary.tier or "Not rated", BOX_WIDTH - 8, 11, bold=True, min_size=8)
        boxes.append(
            {
                "axis": axis,
                "label": label,
                "x": BOX_X[axis],
                "width": BOX_WIDTH,
                "centre": BOX_X[axis] + BOX_WIDTH / 2,
                "colour": colour,
                "ink": ink_for(colour),
                "tier": tier_text,
                "tier_size": tier_size,
                "score": display(summary.composite_score),
            }
        )

    verify_lines = wrap_text("Verify: " + data.verification_url, WIDTH - 2 * MARGIN, VERIFY_SIZE, max_lines=2)
    perf, cap = data.performance, data.capability
    title = f"AAAF badge of {data.agent_name} ({data.organization_name})"
    description = (
        f"Performance {perf.tier or 'not rated'} {display(perf.composite_score)}; "
        f"capability {cap.tier or 'not rated'} {display(cap.composite_score)}; "
        f"certified {date_shown(data.completed_at)}, valid until {date_shown(data.valid_until)}; "
        f"assessment {data.assessment_id}; verify at {data.verification_url}"
    )
    return {
        "font_stack": SVG_FONT_STACK,
        "title": title,
        "description": description,
        "org": FittedText(org_text, org_size),
        "agent": FittedText(agent_text, agent_size),
        "agent_id": data.agent_id,
        "boxes": boxes,
        "certified": date_shown(data.completed_at),
        "valid_until": date_shown(data.valid_until),
        "assessment_id": data.assessment_id,
        "verification_url": data.verification_url,
        "verify_lines": verify_lines,
        "verify_size": VERIFY_SIZE,
    }


def render_svg(data: BadgeData) -> str:
    """The badge as an SVG document (UTF-8 text, no XML declaration)."""
    return str(_environment().get_template("badge.svg.j2").render(**layout(data)))


def box_of(axis: str) -> tuple[int, int, int, int]:
    """(x, y, width, height) of an axis's tier box in SVG units (tests probe the PNG there)."""
    return BOX_X[axis], BOX_TOP, BOX_WIDTH, BOX_HEIGHT
