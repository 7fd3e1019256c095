"""The image digest of SCORING.md §7 "Badge images": what it covers, worked by hand."""

from __future__ import annotations

import hashlib
import io

import pytest
from PIL import Image

from aaaf.badges.bake import bake_png, bake_svg
from aaaf.badges.digest import (
    ImageDigestError,
    check_image,
    image_digests,
    png_digest,
    png_pixels,
    svg_canonical,
    svg_digest,
)
from aaaf.badges.png import render_png
from aaaf.badges.svg import render_svg
from tests.badges.conftest import sample_badge

TOKEN = "eyJhbGciOiJFZERTQSJ9.eyJpZCI6MX0.c2lnbmF0dXJl"
OTHER_TOKEN = "eyJhbGciOiJFZERTQSJ9.eyJpZCI6Mn0.b3RoZXI"


def tiny_png(mode: str, pixels: list[tuple[int, ...]]) -> bytes:
    image = Image.new(mode, (len(pixels), 1))
    image.putdata(pixels)  # type: ignore[arg-type]
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def test_png_digest_is_sha256_of_the_rgba_pixels_worked_by_hand() -> None:
    # two pixels: opaque red, half-transparent blue → bytes FF 00 00 FF 00 00 FF 80
    png = tiny_png("RGBA", [(255, 0, 0, 255), (0, 0, 255, 128)])
    assert png_pixels(png) == bytes([0xFF, 0x00, 0x00, 0xFF, 0x00, 0x00, 0xFF, 0x80])
    assert png_digest(png) == hashlib.sha256(bytes.fromhex("FF0000FF0000FF80")).hexdigest()
    # an RGB PNG decodes to the same pixels with alpha 255: (10, 20, 30) → 0A 14 1E FF
    assert png_pixels(tiny_png("RGB", [(10, 20, 30)])) == bytes.fromhex("0A141EFF")


def test_baking_a_png_does_not_change_its_digest_but_a_pixel_does() -> None:
    png = render_png(render_svg(sample_badge()))
    digest = png_digest(png)
    assert png_digest(bake_png(png, TOKEN)) == digest
    assert png_digest(bake_png(bake_png(png, TOKEN), OTHER_TOKEN)) == digest
    image = Image.open(io.BytesIO(png)).convert("RGBA")
    r, g, b, a = image.getpixel((150, 75))  # type: ignore[misc]
    image.putpixel((150, 75), (r ^ 1, g, b, a))
    out = io.BytesIO()
    image.save(out, format="PNG")
    assert png_digest(out.getvalue()) != digest


def test_svg_canonical_form_drops_the_credential_element_worked_by_hand() -> None:
    baked = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="2" xmlns:openbadges="https://purl.imsglobal.org/ob/v3p0">\n'
        f'  <openbadges:credential verify="{TOKEN}"/>\n'
        '  <text id="tier" x="1">  Elite </text><!-- a comment -->\n'
        "</svg>"
    )
    expected = '<svg xmlns="http://www.w3.org/2000/svg" width="2"><text id="tier" x="1">Elite</text></svg>'
    assert svg_canonical(baked) == expected.encode()
    assert svg_digest(baked) == hashlib.sha256(expected.encode()).hexdigest()


def test_baking_an_svg_does_not_change_its_digest_but_an_edit_does() -> None:
    svg = render_svg(sample_badge())
    digest = svg_digest(svg)
    assert svg_digest(bake_svg(svg, TOKEN)) == digest
    assert svg_digest(bake_svg(bake_svg(svg, TOKEN), OTHER_TOKEN)) == digest
    assert svg_digest(svg.replace(">Expert<", ">Elite<")) != digest


def test_check_image_names_the_mismatch_and_a_missing_digest() -> None:
    svg = render_svg(sample_badge())
    png = render_png(svg)
    credential = {"imageDigests": image_digests(svg, png)}
    assert check_image("png", bake_png(png, TOKEN), credential) is None
    assert check_image("svg", bake_svg(svg, TOKEN).encode(), credential) is None
    other_svg = render_svg(sample_badge(agent_name="someone-else"))
    mismatch = check_image("svg", bake_svg(other_svg, TOKEN).encode(), credential)
    assert mismatch is not None and mismatch.startswith("image does not match credential: the SVG")
    missing = check_image("png", bake_png(png, TOKEN), {})
    assert missing is not None and "carries no SHA-256" in missing
    broken = check_image("png", b"\x89PNG\r\n\x1a\nnot a png", credential)
    assert broken is not None and "cannot be decoded" in broken


def test_undecodable_pictures_raise() -> None:
    with pytest.raises(ImageDigestError):
        png_digest(b"not a png")
    with pytest.raises(ImageDigestError):
        svg_digest("<svg><unclosed></svg>")
