"""The Bitstring Status List: bit order, length, encoding, and the signed list credential."""

from __future__ import annotations

import base64
import gzip
from datetime import timedelta

from hypothesis import given
from hypothesis import strategies as st
from openbadgeslib.ob3.status import decode_encoded_list as third_party_decode

from aaaf.badges.credential import split_token
from aaaf.badges.keys import IssuerKey
from aaaf.badges.status_list import (
    MIN_BITS,
    Revocation,
    bit_is_set,
    build_status_list_credential,
    decode_bitstring,
    encode_bitstring,
    list_length,
    sign_status_list,
)
from tests.badges.conftest import clock


def test_bits_are_most_significant_first() -> None:
    # index 0 → the 0x80 bit of byte 0; index 9 → 0x40 of byte 1 (9 = 8 + 1); index 15 → 0x01 of byte 1
    raw = decode_bitstring(encode_bitstring([0, 9, 15], MIN_BITS))
    assert raw[0] == 0x80 and raw[1] == 0x40 | 0x01 and raw[2] == 0
    assert len(raw) == MIN_BITS // 8 == 16_384


def test_encoding_is_multibase_base64url_gzip_without_padding() -> None:
    encoded = encode_bitstring([3], MIN_BITS)
    assert encoded.startswith("u") and "=" not in encoded
    body = encoded[1:]
    raw = gzip.decompress(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    assert raw[0] == 0x10  # index 3 → 0x80 >> 3
    # deterministic (GZIP mtime 0): the same bits give the same text
    assert encoded == encode_bitstring([3], MIN_BITS)


def test_list_length_is_whole_16_kib_blocks() -> None:
    assert list_length(0) == MIN_BITS
    assert list_length(MIN_BITS - 1) == MIN_BITS
    assert list_length(MIN_BITS) == 2 * MIN_BITS


@given(st.sets(st.integers(min_value=0, max_value=3 * MIN_BITS - 1), max_size=40))
def test_round_trip_and_third_party_agree(indices: set[int]) -> None:
    length = list_length(max(indices, default=0))
    encoded = encode_bitstring(indices, length)
    ours = decode_bitstring(encoded)
    assert ours == third_party_decode(encoded)
    probe = set(indices) | {0, length - 1}
    assert {i for i in probe if bit_is_set(ours, i)} == set(indices)


def test_signed_list_names_reasons(issuer: IssuerKey) -> None:
    now = clock()
    document = build_status_list_credential(
        issuer_id="https://x.example/api/v1/organizations/o",
        organization_name="X",
        list_url="https://x.example/api/v1/organizations/o/status-list",
        revocations=[Revocation(5, now - timedelta(hours=1), "gamed the evals", "a-1")],
        highest_index=9,
        now=now,
        valid_for=timedelta(hours=24),
    )
    header, payload = split_token(sign_status_list(document, issuer))
    assert header["alg"] == "EdDSA"
    assert payload["type"] == ["VerifiableCredential", "BitstringStatusListCredential"]
    assert payload["iss"] == document["issuer"]["id"] and payload["jti"] == document["id"]
    subject = payload["credentialSubject"]
    assert subject["statusPurpose"] == "revocation"
    assert bit_is_set(decode_bitstring(subject["encodedList"]), 5)
    assert not bit_is_set(decode_bitstring(subject["encodedList"]), 4)
    assert subject["revocations"] == [
        {
            "statusListIndex": "5",
            "revokedAt": (now - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "reason": "gamed the evals",
            "assessment_id": "a-1",
        }
    ]
