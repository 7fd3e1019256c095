"""SVG, PNG and Markdown badges: the §4.1 layout, §4.2 colours, §4.3 fields, truncated scores."""

from __future__ import annotations

import io
from dataclasses import replace
from xml.dom import minidom

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from aaaf.badges.data import AxisSummary, tier_colour
from aaaf.badges.fonts import text_width
from aaaf.badges.markdown import markdown
from aaaf.badges.png import render_png
from aaaf.badges.svg import BOX_WIDTH, WIDTH, box_of, ink_for, layout, render_svg
from aaaf.scoring.defaults import CAPABILITY_TIERS, PERFORMANCE_TIERS
from tests.badges.conftest import sample_badge


def texts(svg: str) -> dict[str, str]:
    document = minidom.parseString(svg)
    return {
        node.getAttribute("id"): "".join(c.data for c in node.childNodes if c.nodeType == c.TEXT_NODE)
        for node in document.getElementsByTagName("text")
    }


def hex_rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def test_svg_is_300_by_150_with_every_section_4_3_field() -> None:
    data = sample_badge()
    svg = render_svg(data)
    root = minidom.parseString(svg).documentElement
    assert (root.getAttribute("width"), root.getAttribute("height")) == ("300", "150")
    assert root.getAttribute("viewBox") == "0 0 300 150"
    shown = texts(svg)
    assert shown["brand"] == "AAAF"
    assert shown["org-name"] == "Acme Agents"
    assert shown["agent-name"] == "security-auditor"
    assert shown["agent-id"] == f"ID: {data.agent_id}"
    assert shown["performance-label"] == "PERFORMANCE"
    assert shown["capability-label"] == "CAPABILITY"
    assert shown["performance-tier"] == "Expert"
    assert shown["capability-tier"] == "Functional"
    # truncated, never rounded (SCORING.md §0): 0.79123… shows 0.79, 0.3996 shows 0.39
    assert shown["performance-score"] == "0.79"
    assert shown["capability-score"] == "0.39"
    assert shown["certified"] == f"Certified: {data.completed_at:%Y-%m-%d}"
    assert shown["valid-until"] == f"Valid Until: {data.valid_until:%Y-%m-%d}"
    assert shown["assessment-id"] == f"Assessment ID: {data.assessment_id}"
    verify_text = "".join(v for k, v in sorted(shown.items()) if k.startswith("verify-"))
    assert verify_text == f"Verify: {data.verification_url}"
    # issue 17: a badge links the public verification page (document 004 §4.5)
    assert data.verification_url == f"https://assess.example.com/verify/{data.assessment_id}"
    # a badge signed before names the JSON answer; its longer URL wraps after a '/', not inside the UUID
    old_url = f"https://assess.example.com/api/v1/badges/{data.assessment_id}/verify"
    old = texts(render_svg(replace(data, signed_verification_url=old_url)))
    assert "".join(v for k, v in sorted(old.items()) if k.startswith("verify-")) == f"Verify: {old_url}"
    assert old["verify-1"].endswith("/badges/")


def test_tier_boxes_take_the_section_4_2_colours() -> None:
    svg = render_svg(sample_badge())
    document = minidom.parseString(svg)
    fills = {
        node.getAttribute("id"): node.getAttribute("fill") for node in document.getElementsByTagName("rect")
    }
    assert fills["performance-box"] == "#9C27B0"  # Expert: purple
    assert fills["capability-box"] == "#4CAF50"  # Functional: green


def test_a_null_composite_is_drawn_as_a_dash_in_a_neutral_box() -> None:
    data = sample_badge(capability=AxisSummary("capability", None, None, {}))
    shown = texts(render_svg(data))
    assert shown["capability-score"] == "—"
    assert shown["capability-tier"] == "Not rated"
    assert tier_colour(None) == "#E0E0E0"


def test_svg_escapes_names() -> None:
    data = sample_badge(agent_name="<script>&", organization_name='A "quoted" org')
    svg = render_svg(data)
    assert "<script>" not in svg
    assert texts(svg)["agent-name"] == "<script>&"


def test_ink_contrasts_with_every_tier_colour() -> None:
    # Elite gold and Novice grey are light → dark ink; Expert purple is dark → white ink
    assert ink_for("#FFD700") == "#212121"
    assert ink_for("#9E9E9E") == "#212121"
    assert ink_for("#9C27B0") == "#FFFFFF"


@settings(max_examples=40, deadline=None)
@given(
    agent=st.text(min_size=1, max_size=120).filter(str.strip),
    org=st.text(min_size=1, max_size=120).filter(str.strip),
)
def test_long_names_stay_inside_their_boxes(agent: str, org: str) -> None:
    placed = layout(sample_badge(agent_name=agent, organization_name=org))
    assert text_width(placed["agent"].text, placed["agent"].size, bold=True) <= WIDTH - 16
    room_for_org = WIDTH - 16 - text_width("AAAF", 11, bold=True) - 10
    assert text_width(placed["org"].text, placed["org"].size) <= room_for_org
    for line in placed["verify_lines"]:
        assert text_width(line, placed["verify_size"]) <= WIDTH - 16
    for box in placed["boxes"]:
        assert text_width(box["tier"], box["tier_size"], bold=True) <= BOX_WIDTH - 8
    # whatever the names hold, the SVG is well-formed XML
    minidom.parseString(render_svg(sample_badge(agent_name=agent, organization_name=org)).encode("utf-8"))


def test_a_very_long_name_is_shortened_with_an_ellipsis() -> None:
    placed = layout(sample_badge(agent_name="an-agent-whose-name-goes-on-" * 6))
    assert placed["agent"].text.endswith("…")
    assert placed["agent"].size == 9  # shrunk to the minimum first


def _png(data_changes: dict[str, object] | None = None) -> Image.Image:
    data = sample_badge(**(data_changes or {}))
    return Image.open(io.BytesIO(render_png(render_svg(data)))).convert("RGB")


def test_png_is_rendered_from_the_svg_at_300_by_150() -> None:
    image = _png()
    assert image.size == (300, 150)


@pytest.mark.parametrize(
    ("perf_tier", "cap_tier"),
    list(zip((t.name for t in PERFORMANCE_TIERS), (t.name for t in CAPABILITY_TIERS), strict=True)),
)
def test_png_shows_the_tier_colours_in_the_tier_boxes(perf_tier: str, cap_tier: str) -> None:
    data = sample_badge()
    image = _png(
        {
            "performance": replace(data.performance, tier=perf_tier),
            "capability": replace(data.capability, tier=cap_tier),
        }
    )
    for axis, tier in (("performance", perf_tier), ("capability", cap_tier)):
        x, y, width, height = box_of(axis)
        # corners inside the rounded box, away from the centred text
        for px, py in ((x + 4, y + 4), (x + width - 5, y + height - 5), (x + 4, y + height - 5)):
            assert image.getpixel((px, py)) == hex_rgb(tier_colour(tier)), (axis, tier, px, py)


def test_png_shows_text() -> None:
    """resvg draws text only with a font it finds: the name and scores must be there as ink."""
    image = _png().convert("L")
    name_box = image.crop((8, 24, 292, 38))  # agent name, drawn near-black on white
    dark = sum(name_box.histogram()[:100])
    assert dark > 150
    x, y, width, height = box_of("performance")  # white score on purple
    score_box = image.crop((x + 40, y + 20, x + width - 40, y + height - 2))
    light = sum(score_box.histogram()[201:])
    assert light > 40


def test_markdown_carries_the_same_fields_truncated() -> None:
    data = sample_badge()
    text = markdown(data)
    assert "### AAAF badge — security-auditor" in text
    assert "**Organization:** Acme Agents" in text
    assert f"`{data.agent_id}`" in text
    assert "| Tier | Expert | Functional |" in text
    assert "| Score | 0.79 | 0.39 |" in text
    assert "| speed | — |" in text  # null dimension
    assert "| tool_proficiency | 0.39 |" in text
    assert f"Assessment ID: `{data.assessment_id}`" in text
    assert f"<{data.verification_url}>" in text


def test_markdown_escapes_table_pipes() -> None:
    text = markdown(
        sample_badge(organization_name="a|b", capability=AxisSummary("capability", 0.5, "x|y", {}))
    )
    assert "| Tier | Expert | x\\|y |" in text
