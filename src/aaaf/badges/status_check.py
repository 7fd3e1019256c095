"""Is a verified badge revoked?  Its issuer's answer (issue 7 item 4; SCORING.md §2.4 and §7).

A :class:`StatusOutcome` answers, from one of two places: a signed W3C Bitstring Status List
of the badge's issuer (:func:`check_status`: the list is the issuer's, signed by the same key,
current, and the badge's bit is not set), or a :data:`StatusSource` — the issuing
installation's own database or its live status list (:mod:`aaaf.services.badge_status`).
:func:`status_of` combines them (the issuer's own answer first; a list can only add a
revocation); :func:`first_answer` asks several sources in turn.  When nothing can answer, the
outcome says in words that revocation was *not* checked (:func:`not_checked`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from aaaf.badges.data import parse_datetime, utc
from aaaf.badges.keys import PublicKey
from aaaf.badges.signature import credential_subject, issuer_id, verify_jws
from aaaf.badges.status_list import bit_is_set, decode_bitstring


@dataclass(frozen=True)
class StatusOutcome:
    """The revocation check: ``checked`` False when nothing could answer (then ``reason`` says why)."""

    ok: bool
    reason: str
    revoked: bool | None = None
    revoke_reason: str | None = None
    revoked_at: str | None = None
    checked: bool = True


# Who can say whether a verified credential is revoked: (credential, kid of the verifying key).
StatusSource = Callable[[Mapping[str, Any], str | None], StatusOutcome]


NOT_CHECKED = "revocation not checked: "


def not_checked(why: str) -> StatusOutcome:
    """Revocation could not be checked; ``why`` completes "revocation not checked: …"."""
    return StatusOutcome(True, NOT_CHECKED + why, checked=False)


def revocation_entry(credential: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The credential's revocation ``credentialStatus`` entry, if it has one."""
    entry = credential.get("credentialStatus")
    if isinstance(entry, list):
        entry = next(
            (e for e in entry if isinstance(e, Mapping) and e.get("statusPurpose") == "revocation"), None
        )
    return entry if isinstance(entry, Mapping) else None


def check_status(
    credential: Mapping[str, Any], status_list: bytes | str, keys: Sequence[PublicKey], now: datetime
) -> StatusOutcome:
    """The badge's revocation bit in the (signed) status list of its issuer."""
    entry = revocation_entry(credential)
    if entry is None:
        return StatusOutcome(False, "the credential has no credentialStatus to check")
    if entry.get("type") != "BitstringStatusListEntry" or entry.get("statusPurpose") != "revocation":
        return StatusOutcome(False, "credentialStatus is not a revocation BitstringStatusListEntry")
    try:
        index = int(str(entry.get("statusListIndex")))
    except ValueError:
        return StatusOutcome(False, f"invalid statusListIndex {entry.get('statusListIndex')!r}")
    text = status_list.decode("utf-8").strip() if isinstance(status_list, bytes) else status_list.strip()
    payload, _kid, why = verify_jws(text, keys)
    if payload is None:
        return StatusOutcome(False, f"the status list is not the issuer's: {why}")
    if payload.get("id") != entry.get("statusListCredential"):
        return StatusOutcome(
            False,
            f"the status list given is {payload.get('id')!r}, not {entry.get('statusListCredential')!r}",
        )
    if issuer_id(payload.get("issuer")) != issuer_id(credential.get("issuer")):
        return StatusOutcome(False, "the status list was issued by someone other than the badge's issuer")
    types = payload.get("type")
    if not isinstance(types, list) or "BitstringStatusListCredential" not in types:
        return StatusOutcome(False, "the status list is not a BitstringStatusListCredential")
    valid_until = payload.get("validUntil")
    if not isinstance(valid_until, str):
        return StatusOutcome(
            False, "the status list has no validUntil, so it may be stale; fetch a fresh one"
        )
    try:
        expired = parse_datetime(valid_until) <= utc(now)
    except ValueError:
        return StatusOutcome(False, f"the status list's validUntil {valid_until!r} is not a date")
    if expired:
        return StatusOutcome(False, f"the status list expired on {valid_until}; fetch a fresh one")
    subject = credential_subject(payload) or {}
    if subject.get("statusPurpose") != "revocation":
        return StatusOutcome(False, "the status list is not a revocation list")
    try:
        bits = decode_bitstring(str(subject.get("encodedList", "")))
        revoked = bit_is_set(bits, index)
    except (ValueError, IndexError) as error:
        return StatusOutcome(False, f"the status list cannot be read: {error}")
    if not revoked:
        return StatusOutcome(
            True, f"not revoked (bit {index} of the list issued {payload.get('validFrom')})", False
        )
    note = next(
        (
            r
            for r in subject.get("revocations", [])
            if isinstance(r, Mapping) and str(r.get("statusListIndex")) == str(index)
        ),
        {},
    )
    reason = note.get("reason") if isinstance(note.get("reason"), str) else None
    revoked_at = note.get("revokedAt") if isinstance(note.get("revokedAt"), str) else None
    when = f" on {revoked_at}" if revoked_at else ""
    return StatusOutcome(False, f"revoked{when}: {reason or 'no reason recorded'}", True, reason, revoked_at)


def status_of(
    credential: Mapping[str, Any],
    kid: str | None,
    keys: Sequence[PublicKey],
    now: datetime,
    status_list: bytes | str | None,
    status_source: StatusSource | None,
) -> StatusOutcome:
    """Revocation, the issuer's own answer first (docs/security.md "Badges").

    When ``status_source`` (the issuer's database, its live status list) can answer, its
    answer stands; a supplied ``status_list`` can then only add a revocation (a list that
    says "revoked" wins), never remove one — an old list cannot hide a later revocation.
    """
    answered = status_source(credential, kid) if status_source is not None else None
    supplied = check_status(credential, status_list, keys, now) if status_list is not None else None
    if answered is not None and answered.checked:
        if supplied is not None and supplied.revoked and not answered.revoked:
            return supplied
        return answered
    if supplied is not None:
        return supplied
    if answered is not None:
        return answered
    return not_checked("no status list was given (--status-list FILE|URL)")


def first_answer(*sources: StatusSource) -> StatusSource:
    """A :data:`StatusSource` asking each of ``sources`` in turn until one can answer; when none
    can, "not checked" with every source's reason, in order (the first says the most: whose
    badge it is)."""

    def ask(credential: Mapping[str, Any], kid: str | None) -> StatusOutcome:
        reasons: list[str] = []
        for source in sources:
            outcome = source(credential, kid)
            if outcome.checked:
                return outcome
            reasons.append(outcome.reason.removeprefix(NOT_CHECKED))
        return not_checked("; ".join(reasons) if reasons else "no status source was given")

    return ask


def revocation_words(outcome: StatusOutcome) -> str:
    """What a checked revocation found, in words (the ``revocation`` of a verification)."""
    if outcome.revoked:
        return outcome.reason
    if outcome.revoked is False:
        return f"checked: {outcome.reason}"
    return f"check failed: {outcome.reason}"
