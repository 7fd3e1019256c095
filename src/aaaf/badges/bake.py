"""Baking: the signed credential inside the picture, so the image alone is the credential.

Open Badges 3.0 §5.3 (issue 7, item 3):

* PNG: an ``iTXt`` chunk with keyword ``openbadgecredential``, uncompressed, empty
  language tag and translated keyword, whose text is the compact VC-JWT; placed before
  ``IEND``.  Any earlier ``openbadgecredential`` chunk is dropped first, so re-baking
  replaces rather than stacks.
* SVG: an ``<openbadges:credential verify="JWT"/>`` element as the first child of the
  root ``<svg>``, with ``xmlns:openbadges="https://purl.imsglobal.org/ob/v3p0"`` declared
  on the root.

:func:`extract` reads back whichever form a file is in — PNG, SVG, the ``.json``
document (credential + proof) or a bare JWT — for :mod:`aaaf.badges.verify`.
"""

from __future__ import annotations

import json
import re
import struct
import zlib
from dataclasses import dataclass
from typing import Any
from xml.dom import minidom
from xml.parsers.expat import ExpatError

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
ITXT_KEYWORD = b"openbadgecredential"
SVG_NAMESPACE = "https://purl.imsglobal.org/ob/v3p0"
SVG_ELEMENT = "openbadges:credential"
MAX_ITXT_TEXT = 1024 * 1024

_SVG_ROOT = re.compile(r"<svg\b[^>]*>", re.DOTALL)
_EXISTING_SVG_CREDENTIAL = re.compile(
    r"\s*<openbadges:credential\b[^>]*?(?:/>|>.*?</openbadges:credential>)", re.DOTALL
)
_JWT = re.compile(r"^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$")


class BakingError(ValueError):
    """A file that is not what it claims to be, or carries no credential."""


# -- PNG ---------------------------------------------------------------------------------


def _png_chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    if not png.startswith(PNG_SIGNATURE):
        raise BakingError("not a PNG file")
    chunks: list[tuple[bytes, bytes]] = []
    offset = len(PNG_SIGNATURE)
    while offset < len(png):
        if offset + 8 > len(png):
            raise BakingError("truncated PNG chunk header")
        (length,) = struct.unpack(">I", png[offset : offset + 4])
        kind = png[offset + 4 : offset + 8]
        end = offset + 12 + length
        if end > len(png):
            raise BakingError(f"truncated PNG chunk {kind!r}")
        body = png[offset + 8 : offset + 8 + length]
        (crc,) = struct.unpack(">I", png[offset + 8 + length : end])
        if zlib.crc32(kind + body) & 0xFFFFFFFF != crc:
            raise BakingError(f"PNG chunk {kind.decode('latin-1')} has a bad CRC")
        chunks.append((kind, body))
        offset = end
        if kind == b"IEND":
            break
    if not chunks or chunks[-1][0] != b"IEND":
        raise BakingError("PNG has no IEND chunk")
    return chunks


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    return (
        struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    )


def _itxt_credential(body: bytes) -> str | None:
    """The text of an ``openbadgecredential`` iTXt chunk, or None for any other chunk."""
    keyword, sep, rest = body.partition(b"\x00")
    if not sep or keyword != ITXT_KEYWORD or len(rest) < 2:
        return None
    compressed, method = rest[0], rest[1]
    _language, sep1, rest = rest[2:].partition(b"\x00")
    _translated, sep2, text = rest.partition(b"\x00")
    if not sep1 or not sep2:
        raise BakingError("malformed openbadgecredential iTXt chunk")
    if compressed:
        if method != 0:
            raise BakingError("unknown iTXt compression method")
        inflator = zlib.decompressobj()
        text = inflator.decompress(text, MAX_ITXT_TEXT)
        if inflator.unconsumed_tail:
            raise BakingError("compressed credential is larger than the limit")
    return text.decode("utf-8")


def bake_png(png: bytes, token: str) -> bytes:
    """The PNG with ``token`` in an ``openbadgecredential`` iTXt chunk (replacing any earlier one)."""
    chunks = [
        (kind, body) for kind, body in _png_chunks(png) if not (kind == b"iTXt" and _itxt_credential(body))
    ]
    itxt = ITXT_KEYWORD + b"\x00" + b"\x00\x00" + b"\x00" + b"\x00" + token.encode("utf-8")
    chunks.insert(len(chunks) - 1, (b"iTXt", itxt))
    return PNG_SIGNATURE + b"".join(_png_chunk(kind, body) for kind, body in chunks)


def extract_png(png: bytes) -> str:
    for kind, body in _png_chunks(png):
        if kind == b"iTXt":
            text = _itxt_credential(body)
            if text is not None:
                return text
    raise BakingError("the PNG carries no openbadgecredential iTXt chunk")


# -- SVG ---------------------------------------------------------------------------------


def bake_svg(svg: str, token: str) -> str:
    """The SVG with ``<openbadges:credential verify=token/>`` first inside its root."""
    if not _JWT.match(token):
        raise BakingError("only a compact JWT can be baked into the verify attribute")
    without = _EXISTING_SVG_CREDENTIAL.sub("", svg)
    match = _SVG_ROOT.search(without)
    if match is None:
        raise BakingError("not an SVG document (no <svg> element)")
    root = match.group(0)
    if "xmlns:openbadges" not in root:
        closing = "/>" if root.endswith("/>") else ">"
        root = root[: -len(closing)] + f' xmlns:openbadges="{SVG_NAMESPACE}"' + closing
    element = f'\n  <openbadges:credential verify="{token}"/>'
    baked = without[: match.start()] + root + element + without[match.end() :]
    try:
        minidom.parseString(baked.encode("utf-8")).unlink()
    except ExpatError as error:  # never hand out a broken picture
        raise BakingError(f"baking produced invalid XML: {error}") from error
    return baked


def extract_svg(svg: bytes | str) -> str:
    raw = svg.encode("utf-8") if isinstance(svg, str) else svg
    try:
        document = minidom.parseString(raw)
    except ExpatError as error:
        raise BakingError(f"the SVG is not well-formed XML: {error}") from error
    try:
        nodes = document.getElementsByTagName(SVG_ELEMENT)
        if not nodes:
            raise BakingError("the SVG carries no openbadges:credential element")
        node = nodes[0]
        if node.hasAttribute("verify"):
            return str(node.getAttribute("verify"))
        text = "".join(
            child.data
            for child in node.childNodes
            if child.nodeType in (child.TEXT_NODE, child.CDATA_SECTION_NODE)
        ).strip()
        if not text:
            raise BakingError("the openbadges:credential element is empty")
        return text
    finally:
        document.unlink()


# -- any file ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Extracted:
    """What a badge file holds: its kind, the compact JWT, and for ``.json`` the readable document."""

    kind: str  # "png" | "svg" | "json" | "jwt"
    token: str
    document: dict[str, Any] | None = None


def extract(content: bytes) -> Extracted:
    """The credential inside a PNG, SVG, ``.json`` document or bare JWT file."""
    if content.startswith(PNG_SIGNATURE):
        return Extracted("png", extract_png(content).strip())
    text = content.decode("utf-8-sig", errors="strict").strip() if content else ""
    if not text:
        raise BakingError("the file is empty")
    if text.startswith("{"):
        try:
            document = json.loads(text)
        except json.JSONDecodeError as error:
            raise BakingError(f"the JSON file cannot be parsed: {error}") from error
        if not isinstance(document, dict):
            raise BakingError("the JSON file is not a credential object")
        proof = document.get("proof")
        token = proof.get("jwt") if isinstance(proof, dict) else None
        if not isinstance(token, str):
            raise BakingError("the JSON credential carries no proof with a JWT")
        return Extracted("json", token.strip(), document)
    if text.startswith("<"):
        return Extracted("svg", extract_svg(text).strip())
    if _JWT.match(text):
        return Extracted("jwt", text)
    raise BakingError("not a PNG, SVG, JSON credential or compact JWT")
