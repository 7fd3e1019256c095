"""Badges anyone can verify (document 004 §4, issue 7).

One :class:`BadgeData` drawn four ways — SVG (document 004 §4.1), PNG rendered from that
SVG, Markdown, and an Open Badges 3.0 ``OpenBadgeCredential`` signed as an EdDSA VC-JWT
— with the credential baked into the PNG and SVG, a Bitstring Status List for
revocation, and offline verification.
"""

from aaaf.badges.bake import bake_png, bake_svg, extract
from aaaf.badges.credential import build_credential, credential_document, sign, status_entry
from aaaf.badges.data import AxisSummary, BadgeData, badge_data_from_assessment, badge_data_from_credential
from aaaf.badges.keys import IssuerKey, PublicKey, load_or_create_issuer_key, parse_public_keys
from aaaf.badges.markdown import markdown
from aaaf.badges.png import render_png
from aaaf.badges.status_list import Revocation, build_status_list_credential, sign_status_list
from aaaf.badges.svg import render_svg
from aaaf.badges.verify import Check, VerificationResult, verify

__all__ = [
    "AxisSummary",
    "BadgeData",
    "Check",
    "IssuerKey",
    "PublicKey",
    "Revocation",
    "VerificationResult",
    "badge_data_from_assessment",
    "badge_data_from_credential",
    "bake_png",
    "bake_svg",
    "build_credential",
    "build_status_list_credential",
    "credential_document",
    "extract",
    "load_or_create_issuer_key",
    "markdown",
    "parse_public_keys",
    "render_png",
    "render_svg",
    "sign",
    "sign_status_list",
    "status_entry",
    "verify",
]
