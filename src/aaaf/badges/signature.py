"""The signature of a badge or status list: a compact JWS (VC-JWT) signed with EdDSA by one of the
issuer's keys, and who a signed credential names as its issuer and subject (issue 7; SCORING.md
§7 "Badges").  Used by the verification of a badge (:mod:`aaaf.badges.verify`) and of its
issuer's status list (:mod:`aaaf.badges.status_check`).
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from joserfc import jws
from joserfc.errors import JoseError
from joserfc.jwk import OKPKey

from aaaf.badges.credential import JWT_ALG, split_token
from aaaf.badges.keys import PublicKey


def issuer_id(issuer: Any) -> str | None:
    """The id of a credential's ``issuer`` (a URL, or a ``Profile`` with an ``id``); None when it has none."""
    if isinstance(issuer, str):
        return issuer
    if isinstance(issuer, Mapping) and isinstance(issuer.get("id"), str):
        return str(issuer["id"])
    return None


def credential_subject(credential: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The credential's (first) ``credentialSubject`` object, if it has one."""
    subject = credential.get("credentialSubject")
    if isinstance(subject, list) and subject:
        subject = subject[0]
    return subject if isinstance(subject, Mapping) else None


def verify_jws(token: str, keys: Sequence[PublicKey]) -> tuple[dict[str, Any] | None, str | None, str]:
    """(payload, kid of the key that verified it, reason) — payload None when it does not verify."""
    try:
        header, _ = split_token(token)
    except ValueError as error:
        return None, None, f"malformed JWT: {error}"
    alg = header.get("alg")
    if alg != JWT_ALG:
        return None, None, f"header alg is {alg!r}; badges are signed with {JWT_ALG} (Ed25519)"
    if not keys:
        return None, None, "no issuer key to verify with"
    kid = header.get("kid")
    named = [key for key in keys if key.kid == kid]
    candidates = named or list(keys)
    for key in candidates:
        jose_key = OKPKey.import_key(key.pem())
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # RFC 9864's deprecation of the EdDSA name
                obj = jws.deserialize_compact(token, jose_key, algorithms=[JWT_ALG])
        except (JoseError, ValueError):
            continue
        try:
            payload = json.loads(obj.payload)
        except ValueError as error:
            return None, key.kid, f"signed payload is not JSON: {error}"
        if not isinstance(payload, dict):
            return None, key.kid, "signed payload is not a JSON object"
        return payload, key.kid, f"EdDSA signature verifies with issuer key {key.kid}"
    known = ", ".join(key.kid for key in keys)
    if kid is not None and not named:
        return None, None, f"signed with key {kid}, which is not the issuer key given ({known})"
    return None, None, f"signature does not verify with the issuer key ({known}): the credential was altered"
