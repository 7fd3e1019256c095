"""Revocation checked by default: the issuing installation answers from its own database (issue 21).

``aaaf verify`` checks a badge's status without being handed a status list whenever it
runs on the installation that issued the badge.  "Issued by this installation" is decided
by the key id (SCORING.md §7 "Badge images"): the key that verified the credential's
signature is this installation's issuer key.  Then the badge's row in the database says
whether it was revoked — by hand, or superseded when an appeal changed its scores — and
when and why.  Any other badge needs its issuer's status list (``--status-list FILE|URL``);
without one the result says in words that revocation was not checked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import SQLAlchemyError

from aaaf.badges.data import xsd_datetime
from aaaf.badges.keys import PublicKey
from aaaf.badges.status_check import StatusOutcome, StatusSource, check_status, not_checked, revocation_entry
from aaaf.badges.verify import member
from aaaf.errors import AAAFError
from aaaf.services.context import ServiceContext, context_or_default

if TYPE_CHECKING:
    from aaaf.store.store import Store

ASK_FOR_LIST = "give its issuer's status list with --status-list FILE|URL"


def local_status_source(
    store_url: str | None, local: PublicKey | None, *, context: ServiceContext | None = None
) -> StatusSource:
    """A :data:`StatusSource` answering for badges this installation issued (module docstring)."""

    def lookup(credential: Mapping[str, Any], kid: str | None) -> StatusOutcome:
        if local is None:
            return not_checked(
                f"this installation has no issuer key, so the badge (key {kid}) was issued elsewhere; "
                + ASK_FOR_LIST
            )
        if kid != local.kid:
            return not_checked(
                f"the badge was issued by another installation (signed with key {kid}; this "
                f"installation's key is {local.kid}); " + ASK_FOR_LIST
            )
        return status_on_record(store_url, credential, context=context)

    return lookup


def live_status_source(
    keys: Sequence[PublicKey], now: datetime, fetch: Callable[[str], bytes]
) -> StatusSource:
    """A :data:`StatusSource` reading the issuer's live status list: the ``statusListCredential``
    URL the badge names, fetched with ``fetch`` now (docs/security.md "Badges")."""

    def lookup(credential: Mapping[str, Any], kid: str | None) -> StatusOutcome:
        url = (revocation_entry(credential) or {}).get("statusListCredential")
        if not isinstance(url, str) or not url:
            return not_checked("the badge names no status list URL")
        try:
            content = fetch(url)
        except AAAFError as error:
            return not_checked(f"its issuer's status list {url} could not be fetched ({error.message})")
        outcome = check_status(credential, content, keys, now)
        if not outcome.ok and outcome.revoked is None:
            return not_checked(f"its issuer's status list {url} cannot be used: {outcome.reason}")
        return outcome

    return lookup


def _sqlite_file(url: str) -> Path | None:
    from sqlalchemy.engine import make_url

    try:
        parsed = make_url(url)
    except Exception:
        return None
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return None
    return Path(parsed.database).expanduser()


def status_on_record(
    store_url: str | None, credential: Mapping[str, Any], *, context: ServiceContext | None = None
) -> StatusOutcome:
    """The badge's revocation as this installation's database records it (``store_url``,
    default the context's ``database_url``)."""
    from aaaf.store import open_store

    url = store_url or context_or_default(context).settings.database_url
    sqlite = _sqlite_file(url)
    if sqlite is not None and not sqlite.is_file():
        return not_checked(f"this installation signed the badge but there is no database at {sqlite}")
    try:
        with open_store(url) as store:
            return _lookup(store, credential)
    except (AAAFError, SQLAlchemyError) as error:
        message = error.message if isinstance(error, AAAFError) else type(error).__name__
        return not_checked(f"this installation signed the badge but its database cannot be read ({message})")


def _lookup(store: Store, credential: Mapping[str, Any]) -> StatusOutcome:
    subject = member(credential, "credentialSubject")
    agent, assessment = member(subject, "agent"), member(subject, "assessment")
    org_id, assessment_id = agent.get("organization_id"), assessment.get("id")
    credential_id = credential.get("id")
    try:
        org = store.scope(str(org_id))
        records = org.badge_credentials(str(assessment_id))
    except AAAFError:
        return not_checked(
            f"this installation signed the badge but its organization {org_id} is not in the database"
        )
    record = next((b for b in records if b.credential_id == credential_id), None)
    if record is None:
        return not_checked(
            f"this installation signed the badge but no credential {credential_id} is on record "
            f"for assessment {assessment_id}"
        )
    entry = revocation_entry(credential) or {}
    if str(entry.get("statusListIndex")) != str(record.status_index):
        return StatusOutcome(
            False,
            f"the credential names status bit {entry.get('statusListIndex')!r}, "
            f"but bit {record.status_index} is on record",
        )
    if record.revoked:
        revoked_at = None if record.revoked_at is None else xsd_datetime(record.revoked_at)
        when = f" on {revoked_at}" if revoked_at else ""
        reason = record.revoke_reason or "no reason recorded"
        return StatusOutcome(False, f"revoked{when}: {reason}", True, record.revoke_reason, revoked_at)
    return StatusOutcome(
        True,
        f"not revoked (checked in this installation's database, status bit {record.status_index})",
        False,
    )
