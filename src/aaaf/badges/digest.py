"""The digest binding a badge picture to its credential (SCORING.md §7 "Badge images").

A baked PNG or SVG must show what its credential says.  Re-drawing the badge at verify
time would tie verification to one renderer and one set of fonts, so instead the
credential carries the SHA-256 of the picture it is baked into, computed *before*
signing, and ``verify`` recomputes it from the file in hand:

* PNG: the decoded pixels as 8-bit RGBA, row by row (the ``openbadgecredential`` iTXt
  chunk, or any other ancillary chunk, does not change them);
* SVG: the document without its ``openbadges:credential`` element, in Canonical XML 2.0
  form (W3C C14N 2.0: attributes sorted, unused namespace declarations and comments
  dropped) with whitespace around text trimmed, so baking — which adds the element and
  its namespace declaration — leaves the digest unchanged.

Both digests go into the credential (one credential is baked into both pictures) as the
member ``imageDigests``::

    {"svg": {"algorithm": "SHA-256", "digest": "<hex>", "covers": "…"},
     "png": {"algorithm": "SHA-256", "digest": "<hex>", "covers": "…"}}

A picture of agent A carrying agent B's credential, or a hand-edited picture, gives
another digest: "image does not match credential".
"""

from __future__ import annotations

import hashlib
import io
import warnings
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from PIL import Image

from aaaf.badges.bake import SVG_NAMESPACE
from aaaf.badges.credential import IMAGE_DIGESTS

MEMBER = IMAGE_DIGESTS
ALGORITHM = "SHA-256"
SVG_COVERS = (
    "the SVG document without its openbadges:credential element, as Canonical XML 2.0 "
    "with whitespace around text trimmed"
)
PNG_COVERS = "the decoded PNG pixels as 8-bit RGBA, row by row"
# A badge is 300×150 (document 004 §4.1); larger scales are allowed, absurd sizes are not.
MAX_PIXELS = 16_000_000
_CREDENTIAL_TAG = f"{{{SVG_NAMESPACE}}}credential"


class ImageDigestError(ValueError):
    """A picture whose digest cannot be computed (not decodable, too large)."""


def svg_canonical(svg: bytes | str) -> bytes:
    """The SVG's canonical form without its credential element (module docstring)."""
    text = svg.decode("utf-8") if isinstance(svg, bytes) else svg
    try:
        canonical = ET.canonicalize(text, strip_text=True, exclude_tags={_CREDENTIAL_TAG})
    except ET.ParseError as error:
        raise ImageDigestError(f"the SVG is not well-formed XML: {error}") from error
    return canonical.encode("utf-8")


def svg_digest(svg: bytes | str) -> str:
    """SHA-256 (hex) of :func:`svg_canonical`."""
    return hashlib.sha256(svg_canonical(svg)).hexdigest()


def png_pixels(png: bytes) -> bytes:
    """The PNG's decoded pixels as 8-bit RGBA bytes, row-major."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(png), formats=["PNG"]) as image:
                width, height = image.size
                if width * height > MAX_PIXELS:
                    raise ImageDigestError(f"the PNG is {width}×{height}, larger than a badge can be")
                return image.convert("RGBA").tobytes()
    except ImageDigestError:
        raise
    except (
        OSError,
        ValueError,
        SyntaxError,
        Image.DecompressionBombWarning,
        Image.DecompressionBombError,
    ) as error:
        raise ImageDigestError(f"the PNG cannot be decoded: {error}") from error


def png_digest(png: bytes) -> str:
    """SHA-256 (hex) of :func:`png_pixels`."""
    return hashlib.sha256(png_pixels(png)).hexdigest()


def image_digests(svg: str, png: bytes) -> dict[str, Any]:
    """The ``imageDigests`` member of a credential for the pictures it will be baked into."""
    return {
        "svg": {"algorithm": ALGORITHM, "digest": svg_digest(svg), "covers": SVG_COVERS},
        "png": {"algorithm": ALGORITHM, "digest": png_digest(png), "covers": PNG_COVERS},
    }


def digest_of(kind: str, content: bytes) -> str:
    """The digest of a baked file of ``kind`` ("svg" or "png")."""
    if kind == "svg":
        return svg_digest(content)
    if kind == "png":
        return png_digest(content)
    raise ValueError(f"no image digest for a {kind} file")


def claimed_digest(credential: Mapping[str, Any], kind: str) -> str | None:
    """The SHA-256 the credential carries for a picture of ``kind``, or None."""
    digests = credential.get(MEMBER)
    entry = digests.get(kind) if isinstance(digests, Mapping) else None
    if not isinstance(entry, Mapping) or entry.get("algorithm") != ALGORITHM:
        return None
    digest = entry.get("digest")
    return digest if isinstance(digest, str) else None


def check_image(kind: str, content: bytes, credential: Mapping[str, Any]) -> str | None:
    """None when the picture is the one the credential names; else why not (in words)."""
    claimed = claimed_digest(credential, kind)
    if claimed is None:
        return (
            "image does not match credential: the credential carries no SHA-256 of its "
            f"{kind.upper()} picture, so nothing binds this picture to it (re-issue the badge)"
        )
    try:
        actual = digest_of(kind, content)
    except ImageDigestError as error:
        return f"image does not match credential: {error}"
    if actual != claimed:
        return (
            f"image does not match credential: the {kind.upper()} shows another picture than the one "
            f"the credential was issued for (SHA-256 {actual[:16]}…, credential {claimed[:16]}…)"
        )
    return None
