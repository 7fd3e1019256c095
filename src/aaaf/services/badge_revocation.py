"""Revocation and the status list of badges, and verifying a badge on record (document 004 §4, §6.2; issue 7).

Where the installation keeps its issuer key and the status list file, and what sets a
credential's status-list bit (SCORING.md §2.4, §6):

* revoking sets the badge's bit in the organization's status list, records when and why
  in the ``badges`` table, and the list file is rewritten;
* when an assessment's scores changed — an accepted appeal (:func:`supersede`, called by
  ``services.appeals.resolve_appeal``) — its current credential is *superseded*: its bit
  is set with the reason ("superseded: appeal <id> accepted"), so copies already handed
  out verify as revoked and say why; :mod:`aaaf.services.badges` then issues a new
  credential with a fresh bit.  A credential revoked by hand is final.

The database is the truth, the status list file its signed export.  The clock is the
caller's (``now``).
"""

from __future__ import annotations

import logging
import os
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from sqlalchemy.engine import Engine

from aaaf.badges.data import issuer_id_for, status_list_url, utc
from aaaf.badges.keys import IssuerKey, default_key_path
from aaaf.badges.status_list import Revocation, build_status_list_credential, sign_status_list
from aaaf.badges.verify import VerificationResult, verify
from aaaf.errors import AAAFError
from aaaf.services.context import ServiceContext, context_or_default
from aaaf.services.issuer import Database, sqlite_file_url
from aaaf.services.org_session import OrgSession, ScopedOrg
from aaaf.store.org_store import OrgStore
from aaaf.store.records import Badge
from aaaf.store.store import Store

log = logging.getLogger(__name__)

STATUS_LIST_FILE_NAME = "aaaf-status-list.jwt"
# the reason of every credential set aside because its assessment changed (not revoked by hand)
SUPERSEDED_PREFIX = "superseded: "


# -- where things live -------------------------------------------------------------------


def issuer_key_path(store: Database, *, context: ServiceContext | None = None) -> Path:
    """``AAAF_ISSUER_KEY_PATH``, else ``aaaf-issuer.key`` beside the SQLite database."""
    settings = context_or_default(context).settings
    return default_key_path(sqlite_file_url(store.url), settings.issuer_key_path)


def issuer_key(store: Database, *, context: ServiceContext | None = None) -> IssuerKey:
    """The installation's signing key, kept sealed in the database (SCORING.md §7 "Secrets";
    an earlier installation's key file is imported on first use)."""
    from aaaf.services.issuer import issuer_key as stored_issuer_key

    context = context_or_default(context)
    return stored_issuer_key(store, now=context.now(), settings=context.settings)


def default_status_list_path(store: Database) -> Path:
    """The status list file the CLI keeps current: beside the issuer key."""
    return issuer_key_path(store).parent / STATUS_LIST_FILE_NAME


def base_url(context: ServiceContext | None = None) -> str:
    """``AAAF_PUBLIC_BASE_URL``: where badges, credentials and the status list are served."""
    return context_or_default(context).settings.public_base_url


def write_atomically(path: Path, content: bytes) -> None:
    """Write ``content`` to ``path`` through a temporary file beside it, so a reader never sees half of it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        temporary.write_bytes(content)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def appeal_reason(appeal_id: str | uuid.UUID) -> str:
    """The revocation reason of a credential superseded by an accepted appeal."""
    return f"{SUPERSEDED_PREFIX}appeal {appeal_id} accepted"


# -- revocation and the status list ------------------------------------------------------


def status_list_token(session: OrgSession, now: datetime, *, key: IssuerKey | None = None) -> str:
    """The organization's signed revocation list as it stands now."""
    organization = session.organization
    badges = session.org.badges()
    revocations = [
        Revocation(
            index=b.status_index,
            revoked_at=b.revoked_at or now,
            reason=b.revoke_reason or "",
            assessment_id=str(b.assessment_id),
        )
        for b in badges
        if b.revoked
    ]
    document = build_status_list_credential(
        issuer_id=issuer_id_for(base_url(), str(organization.id)),
        organization_name=organization.name,
        list_url=status_list_url(base_url(), str(organization.id)),
        revocations=revocations,
        highest_index=max((b.status_index for b in badges), default=0),
        now=now,
        valid_for=timedelta(hours=context_or_default(None).settings.status_list_valid_hours),
    )
    return sign_status_list(document, key or issuer_key(session.store))


def write_status_list(session: OrgSession, output: Path | None, now: datetime) -> Path:
    """Write the signed status list (default: beside the issuer key)."""
    path = Path(output) if output is not None else default_status_list_path(session.store)
    write_atomically(path, (status_list_token(session, now) + "\n").encode("ascii"))
    return path


def revoke(
    session: OrgSession,
    assessment_id: str | uuid.UUID,
    *,
    reason: str,
    now: datetime,
    status_list_output: Path | None = None,
) -> tuple[Badge, Path]:
    """Revoke a badge (its bit, when and why) and rewrite the status list file."""
    if not reason.strip():
        raise AAAFError("INVALID_REQUEST", "A revocation needs a reason (--reason).", {"field": "reason"})
    assessment = session.org.get_assessment(assessment_id)
    if not session.org.badge_credentials(assessment.id):
        raise AAAFError(
            "NOT_FOUND",
            f"No badge has been issued for assessment {assessment.id}.",
            {"assessment_id": str(assessment.id)},
        )
    badge = session.org.revoke_badge(assessment.id, reason=reason.strip(), at=utc(now))
    path = write_status_list(session, status_list_output, now)
    log.info("revoked badge of assessment %s (bit %s): %s", assessment.id, badge.status_index, reason)
    return badge, path


def supersede(
    org: OrgStore,
    assessment_id: str | uuid.UUID,
    *,
    reason: str,
    now: datetime,
    status_list_output: Path | None = None,
) -> tuple[Badge | None, Path | None]:
    """Supersede the assessment's current credential and rewrite the status list file.

    For an accepted appeal (``reason`` = :func:`appeal_reason`): the scores the credential
    carries are no longer the assessment's, so its bit is set with that reason and the
    list beside the issuer key is rewritten; ``aaaf badge`` then issues a new credential
    with a fresh bit.  (None, None) when the assessment has no current credential.
    """
    badge = org.supersede_badge(assessment_id, reason=reason, at=utc(now))
    if badge is None:
        return None, None
    path = rewrite_status_list(org, now, status_list_output)
    log.info(
        "superseded badge of assessment %s (bit %s): %s", badge.assessment_id, badge.status_index, reason
    )
    return badge, path


def rewrite_status_list(org: OrgStore, now: datetime, output: Path | None = None) -> Path:
    """Rewrite the organization's status list file from the database (after a credential's
    bit was set): the database is the truth, the file its signed export."""
    scoped = ScopedOrg(
        store=_DatabaseAt(_engine_url(org), org.engine), org=org, organization=org.organization()
    )
    return write_status_list(scoped, output, now)


def _engine_url(org: OrgStore) -> str:
    return str(org.engine.url.render_as_string(hide_password=False))


@dataclass(frozen=True)
class _DatabaseAt:
    """The database an organization's repositories use: the issuer key is in it, and the
    status list file is written beside it (derived from its URL)."""

    url: str
    engine: Engine


# -- verifying a stored badge (the public verification endpoint) ---------------------------


def verify_issued(store: Store, assessment_id: str | uuid.UUID, now: datetime) -> VerificationResult:
    """Verify the badge on record with the issuer key and the organization's current status list.

    What ``GET /api/v1/badges/{assessment_id}/verify`` answers (document 004 §6.2): public,
    so it looks the badge up in any organization.
    """
    badge = store.find_badge(assessment_id)
    if badge is None or not badge.credential_jwt:
        raise AAAFError(
            "NOT_FOUND", f"No badge for assessment {assessment_id}.", {"assessment_id": str(assessment_id)}
        )
    key = issuer_key(store)
    organization = store.get_organization(badge.organization_id)
    scoped = ScopedOrg(store=store, org=store.scope(badge.organization_id), organization=organization)
    status = status_list_token(scoped, now, key=key)
    return verify(badge.credential_jwt, [key.public], now=now, status_list=status)
