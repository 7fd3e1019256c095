"""The status list file of an embedded installation, kept current (docs/security.md "Badges").

``aaaf badge revoke`` (and an accepted appeal) write the organization's signed status list
beside the issuer key, for whoever publishes the installation's badges to serve at the URL the
badges name.  A list is valid for ``AAAF_STATUS_LIST_VALID_HOURS`` and verifiers refuse it
afterwards, so a file written once would stop working a day after the last revocation.
:func:`refresh_status_list` re-signs it from the database when it is expired, in the last
quarter of its validity (:func:`aaaf.badges.status_list.renewal_due`), unreadable or not signed
by this installation's key; every command that issues badges calls it, and
``aaaf badge status-list --if-due`` does it alone (for a scheduler: run it hourly).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aaaf.badges.signature import verify_jws
from aaaf.badges.status_list import renewal_due

if TYPE_CHECKING:
    from aaaf.badges.keys import IssuerKey
    from aaaf.services.org_session import OrgSession


@dataclass(frozen=True)
class StatusListRefresh:
    """Where the list is, whether it was signed anew now, and until when it is valid."""

    path: Path
    refreshed: bool
    valid_until: str | None


def refresh_status_list(
    session: OrgSession,
    now: datetime,
    output: Path | None = None,
    *,
    create: bool = False,
    force: bool = False,
) -> StatusListRefresh | None:
    """Re-sign the status list file (default: beside the issuer key) when it is due at
    ``now`` (always with ``force``); a missing file is written only with ``create`` (else None:
    nothing is published)."""
    from aaaf.services.badge_revocation import default_status_list_path, issuer_key, write_status_list

    path = Path(output) if output is not None else default_status_list_path(session.store)
    if not path.is_file() and not create:
        return None
    current = _signed_document(path, issuer_key(session.store)) if path.is_file() and not force else None
    if current is not None and not renewal_due(current, now):
        return StatusListRefresh(path, False, current.get("validUntil"))
    write_status_list(session, path, now)
    written = _signed_document(path, issuer_key(session.store)) or {}
    return StatusListRefresh(path, True, written.get("validUntil"))


def _signed_document(path: Path, key: IssuerKey) -> dict[str, Any] | None:
    """The list in ``path`` when this installation's key signed it, else None."""
    try:
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    payload, _kid, _why = verify_jws(text, [key.public])
    return payload
