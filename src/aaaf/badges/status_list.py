"""The organization's revocation list: a W3C Bitstring Status List credential, signed like a badge.

Every badge carries a ``BitstringStatusListEntry`` naming its bit in this list (issue 7,
item 5).  The list is a ``BitstringStatusListCredential`` whose ``encodedList`` is the
multibase base64url (``u`` prefix, no padding) of the GZIP of the bitstring, index 0 the
most significant bit of the first byte, at least 131 072 bits long (16 KiB, the
Bitstring Status List v1.0 minimum, so one bit says little about how many badges
exist).  It is signed as a VC-JWT by the same key as the badges, so a verifier can
check the list before trusting a bit in it.

A bit cannot say *why* a badge was revoked, so the list also carries ``revocations``:
for each set bit, when and why (what ``aaaf verify`` prints).  It is plain data beside
the standard members; verifiers that do not know it ignore it.
"""

from __future__ import annotations

import base64
import gzip
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from aaaf.badges.credential import VC2_CONTEXT, sign_document
from aaaf.badges.data import parse_datetime, utc, xsd_datetime
from aaaf.badges.keys import IssuerKey

MIN_BITS = 131_072
MAX_DECODED_BYTES = 16 * 1024 * 1024
STATUS_LIST_TYPES = ["VerifiableCredential", "BitstringStatusListCredential"]


@dataclass(frozen=True)
class Revocation:
    """One revoked badge: its bit, when, why, and which assessment it was."""

    index: int
    revoked_at: datetime
    reason: str
    assessment_id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "statusListIndex": str(self.index),
            "revokedAt": xsd_datetime(self.revoked_at),
            "reason": self.reason,
        }
        if self.assessment_id is not None:
            out["assessment_id"] = self.assessment_id
        return out


def list_length(highest_index: int) -> int:
    """Bits needed to hold ``highest_index``: a whole number of 131 072-bit blocks."""
    blocks = max(1, -(-(highest_index + 1) // MIN_BITS))
    return blocks * MIN_BITS


def encode_bitstring(set_indices: Iterable[int], length: int) -> str:
    """``u`` + base64url(no padding) of GZIP(bitstring), MSB first (Bitstring Status List §3)."""
    if length % 8:
        raise ValueError("a status list length must be a whole number of bytes")
    bits = bytearray(length // 8)
    for index in set_indices:
        if not 0 <= index < length:
            raise ValueError(f"status index {index} is outside a list of {length} bits")
        bits[index // 8] |= 0x80 >> (index % 8)
    compressed = gzip.compress(bytes(bits), compresslevel=9, mtime=0)
    return "u" + base64.urlsafe_b64encode(compressed).decode("ascii").rstrip("=")


def decode_bitstring(encoded: str) -> bytes:
    """The raw bitstring of an ``encodedList`` (bounded, so a GZIP bomb cannot exhaust memory)."""
    if not encoded.startswith("u"):
        raise ValueError("encodedList must be multibase base64url ('u' prefix)")
    body = encoded[1:]
    compressed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    inflator = zlib.decompressobj(wbits=31)
    out = inflator.decompress(compressed, MAX_DECODED_BYTES)
    if inflator.unconsumed_tail:
        raise ValueError("status list bitstring is larger than the limit")
    return out


def bit_is_set(bitstring: bytes, index: int) -> bool:
    if not 0 <= index < len(bitstring) * 8:
        raise IndexError(f"status index {index} is outside the list ({len(bitstring) * 8} bits)")
    return bool(bitstring[index // 8] & (0x80 >> (index % 8)))


def build_status_list_credential(
    *,
    issuer_id: str,
    organization_name: str,
    list_url: str,
    revocations: Iterable[Revocation],
    highest_index: int,
    now: datetime,
    valid_for: timedelta,
) -> dict[str, Any]:
    """The unsigned revocation list of an organization, valid from ``now`` for ``valid_for``
    (its ``validUntil``: a verifier refuses it afterwards, so an old list cannot hide a
    revocation made since)."""
    revoked = sorted(revocations, key=lambda r: r.index)
    top = max([highest_index, *(r.index for r in revoked)], default=0)
    length = list_length(top)
    return {
        "@context": [VC2_CONTEXT],
        "id": list_url,
        "type": list(STATUS_LIST_TYPES),
        "name": f"Revocation list of {organization_name}'s AAAF badges",
        "issuer": {"id": issuer_id, "type": ["Profile"], "name": organization_name},
        "validFrom": xsd_datetime(utc(now)),
        "validUntil": xsd_datetime(utc(now) + valid_for),
        "credentialSubject": {
            "id": f"{list_url}#list",
            "type": "BitstringStatusList",
            "statusPurpose": "revocation",
            "encodedList": encode_bitstring((r.index for r in revoked), length),
            "revocations": [r.to_dict() for r in revoked],
        },
    }


def sign_status_list(document: Mapping[str, Any], key: IssuerKey) -> str:
    return sign_document(document, key)


RENEW_IN_LAST = 0.25  # a list is re-signed once in the last quarter of its validity


def renewal_due(document: Mapping[str, Any], now: datetime) -> bool:
    """Whether a signed status list ``document`` should be signed anew at ``now``: it has
    expired, is in the last quarter of its validity (:data:`RENEW_IN_LAST`), or carries no
    readable ``validFrom``/``validUntil`` (docs/security.md "Badges").  A list 24 hours valid is
    re-signed from its 18th hour, so whoever publishes it never serves an expired one."""
    try:
        valid_from = parse_datetime(str(document["validFrom"]))
        valid_until = parse_datetime(str(document["validUntil"]))
    except (KeyError, ValueError):
        return True
    return utc(now) >= valid_until - (valid_until - valid_from) * RENEW_IN_LAST
