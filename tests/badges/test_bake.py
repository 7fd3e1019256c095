"""Baking (OB 3.0 §5.3): the credential inside the PNG and SVG, and back out again."""

from __future__ import annotations

import json
import struct
import zlib

import pytest
from openbadgeslib import baking as third_party

from aaaf.badges.bake import BakingError, bake_png, bake_svg, extract, extract_png, extract_svg
from aaaf.badges.credential import build_credential, credential_document, sign
from aaaf.badges.keys import IssuerKey
from aaaf.badges.png import render_png
from aaaf.badges.svg import render_svg
from tests.badges.conftest import clock, sample_badge


@pytest.fixture()
def token(issuer: IssuerKey) -> str:
    return sign(build_credential(sample_badge(), status=None, now=clock()), issuer)


def chunk_types(png: bytes) -> list[bytes]:
    out, offset = [], 8
    while offset < len(png):
        (length,) = struct.unpack(">I", png[offset : offset + 4])
        out.append(png[offset + 4 : offset + 8])
        offset += 12 + length
    return out


def test_png_round_trip(token: str) -> None:
    png = render_png(render_svg(sample_badge()))
    baked = bake_png(png, token)
    assert extract_png(baked) == token
    kinds = chunk_types(baked)
    assert kinds[-1] == b"IEND" and kinds[-2] == b"iTXt"
    # the third-party reader finds it under the OB 3.0 keyword too
    assert third_party.extract_png(baked, keyword=b"openbadgecredential") == token


def test_png_rebaking_replaces_the_credential(token: str, issuer: IssuerKey) -> None:
    png = render_png(render_svg(sample_badge()))
    other = sign(build_credential(sample_badge(agent_name="other"), status=None, now=clock()), issuer)
    twice = bake_png(bake_png(png, token), other)
    assert chunk_types(twice).count(b"iTXt") == 1
    assert extract_png(twice) == other


def test_png_reads_a_compressed_itxt_chunk(token: str) -> None:
    png = render_png(render_svg(sample_badge()))
    body = b"openbadgecredential\x00" + b"\x01\x00" + b"en\x00" + b"\x00" + zlib.compress(token.encode())
    chunk = struct.pack(">I", len(body)) + b"iTXt" + body + struct.pack(">I", zlib.crc32(b"iTXt" + body))
    iend = png.rindex(b"IEND") - 4
    assert extract_png(png[:iend] + chunk + png[iend:]) == token


def test_png_with_a_bad_crc_is_refused(token: str) -> None:
    baked = bytearray(bake_png(render_png(render_svg(sample_badge())), token))
    baked[-20] ^= 0xFF  # inside the iTXt text
    with pytest.raises(BakingError, match="CRC"):
        extract_png(bytes(baked))


def test_png_without_credential() -> None:
    with pytest.raises(BakingError, match="no openbadgecredential"):
        extract_png(render_png(render_svg(sample_badge())))


def test_svg_round_trip(token: str, issuer: IssuerKey) -> None:
    baked = bake_svg(render_svg(sample_badge()), token)
    assert 'xmlns:openbadges="https://purl.imsglobal.org/ob/v3p0"' in baked
    assert extract_svg(baked) == token
    assert third_party.extract_svg(baked.encode(), element="openbadges:credential") == token
    # the credential is the root's first child
    assert baked.index("<openbadges:credential") < baked.index("<title")
    other = sign(build_credential(sample_badge(agent_name="other"), status=None, now=clock()), issuer)
    rebaked = bake_svg(baked, other)
    assert rebaked.count("<openbadges:credential") == 1
    assert extract_svg(rebaked) == other
    with pytest.raises(BakingError, match="compact JWT"):
        bake_svg(baked, "not a jwt")


def test_extract_any_file_kind(token: str, issuer: IssuerKey) -> None:
    svg = render_svg(sample_badge())
    document = credential_document(token)
    assert extract(bake_png(render_png(svg), token)).kind == "png"
    assert extract(bake_svg(svg, token).encode()).kind == "svg"
    as_json = extract(json.dumps(document).encode())
    assert as_json.kind == "json" and as_json.token == token and as_json.document == document
    assert extract((token + "\n").encode()).kind == "jwt"
    with pytest.raises(BakingError):
        extract(b"hello")
    with pytest.raises(BakingError, match="no proof"):
        extract(b'{"id": "x"}')
