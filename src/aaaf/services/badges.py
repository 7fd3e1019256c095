"""Badge issuance and the review hold (document 004 §4, §5.1 step 6; issue 7).

The shell around :mod:`aaaf.badges`: it reads the assessment, agent and organization
from the store, signs with the organization's issuer key, records the badge (and its
status-list bit) through ``OrgStore.upsert_badge`` and writes the files.

Rules kept here (SCORING.md §2.4, §6; issue 21 "badges only for what is current"):

* only a ``completed`` assessment earns a badge;
* an anomalous assessment held for review (``review_state`` ``pending_review``) gets no
  badge (``BADGE_HELD``) until a reviewer approves it; a rejected one never does;
* an expired assessment (``valid_until`` passed) and a superseded one (the agent has a
  later completed assessment) get no badge either (``CONFLICT``, the message says why
  and which assessment is current);
* the credential carries the SHA-256 of the SVG and PNG it is baked into, computed
  before signing (SCORING.md §7 "Badge images", :mod:`aaaf.badges.digest`);
* a badge is valid from completion to ``assessment.valid_until`` (completion + 90 days by
  default); expired badges stay on record and verify as ``expired: true``;
* a ``badges`` row is one issued credential (store migration 0003), signed and inserted
  in one transaction.  Issuing again while the assessment's current credential still
  says what the assessment says re-renders that credential (same bit, nothing signed);
  when the assessment's scores changed — an accepted appeal
  (:func:`aaaf.services.badge_revocation.supersede`) or any other re-scoring — the old credential
  is *superseded*: its bit is set with the reason ("superseded: appeal <id> accepted"),
  so copies already handed out verify as revoked and say why, and the new credential
  gets a fresh bit.  A credential revoked by hand is final: its assessment earns no
  new one.

Revocation, the status list and where the issuer key lives are
:mod:`aaaf.services.badge_revocation`.  The clock is the caller's (``now``).
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from aaaf.badges.bake import bake_png, bake_svg
from aaaf.badges.credential import (
    build_credential,
    credential_document,
    credential_of_payload,
    sign,
    split_token,
    status_entry,
)
from aaaf.badges.data import (
    BadgeData,
    badge_data_from_assessment,
    badge_data_from_credential,
    utc,
    xsd_datetime,
)
from aaaf.badges.digest import MEMBER as IMAGE_DIGESTS
from aaaf.badges.digest import image_digests
from aaaf.badges.keys import IssuerKey
from aaaf.badges.markdown import markdown
from aaaf.badges.png import render_png
from aaaf.badges.svg import render_svg
from aaaf.errors import AAAFError
from aaaf.services.badge_revocation import (
    SUPERSEDED_PREFIX,
    base_url,
    issuer_key,
    write_atomically,
    write_status_list,
)
from aaaf.services.org_session import OrgSession
from aaaf.store.records import Assessment, Badge, BadgeSlot, SignedCredential

log = logging.getLogger(__name__)

FORMATS = ("svg", "png", "json", "jwt", "md")


# -- issuing -----------------------------------------------------------------------------


def parse_formats(formats: Iterable[str]) -> list[str]:
    chosen = [f.strip().lower() for f in formats if f.strip()]
    unknown = [f for f in chosen if f not in FORMATS]
    if unknown:
        raise AAAFError(
            "INVALID_REQUEST",
            f"Unknown badge format(s) {', '.join(unknown)}; expected some of {', '.join(FORMATS)}.",
            {"field": "format"},
        )
    if not chosen:
        raise AAAFError("INVALID_REQUEST", f"No badge format given; expected some of {', '.join(FORMATS)}.")
    return list(dict.fromkeys(chosen))


def check_issuable(
    assessment: Assessment, *, now: datetime | None = None, latest: Assessment | None = None
) -> None:
    """Refuse a badge for an assessment that has not earned one, saying why (module docstring).

    ``now`` checks expiry; ``latest`` is the agent's latest completed assessment (a
    different one means this one is superseded).
    """
    if assessment.status != "completed":
        raise AAAFError(
            "CONFLICT",
            f"Assessment {assessment.id} is {assessment.status}; only a completed assessment earns a badge.",
            {"assessment_id": str(assessment.id), "status": assessment.status},
        )
    if assessment.review_state == "pending_review":
        raise AAAFError(
            "BADGE_HELD",
            f"The badge of assessment {assessment.id} is held: the assessment is {_held_because(assessment)} and awaits review "
            f"(`aaaf review approve|reject {assessment.id}`).",
            {"assessment_id": str(assessment.id), "review_state": assessment.review_state},
        )
    if assessment.review_state == "rejected":
        raise AAAFError(
            "CONFLICT",
            f"Assessment {assessment.id} was rejected on review; it earns no badge.",
            {"assessment_id": str(assessment.id), "review_state": assessment.review_state},
        )
    if now is not None and assessment.valid_until is not None and utc(assessment.valid_until) <= utc(now):
        raise AAAFError(
            "CONFLICT",
            f"Assessment {assessment.id} expired on {xsd_datetime(assessment.valid_until)}; an expired "
            f"assessment earns no badge (re-assess the agent: `aaaf assess {assessment.agent_name}`).",
            {"assessment_id": str(assessment.id), "valid_until": xsd_datetime(assessment.valid_until)},
        )
    if latest is not None and str(latest.id) != str(assessment.id):
        raise AAAFError(
            "CONFLICT",
            f"Assessment {assessment.id} is superseded by the later assessment {latest.id} of "
            f"{assessment.agent_name}{_completed(latest)}; only the agent's "
            f"current assessment earns a badge (`aaaf badge {latest.id}`).",
            {"assessment_id": str(assessment.id), "superseded_by": str(latest.id)},
        )


def _completed(assessment: Assessment) -> str:
    return "" if assessment.completed_at is None else f" (completed {xsd_datetime(assessment.completed_at)})"


@dataclass(frozen=True)
class IssuedBadge:
    """A badge as issued: its data, signed credential and every rendering."""

    data: BadgeData
    token: str
    status_index: int
    revoked: bool
    svg: str = field(repr=False)
    png: bytes = field(repr=False)

    def render(self, fmt: str) -> bytes:
        """One format's bytes: baked SVG/PNG, the JSON credential with proof, the JWT, Markdown."""
        if fmt == "svg":
            return bake_svg(self.svg, self.token).encode("utf-8")
        if fmt == "png":
            return bake_png(self.png, self.token)
        if fmt == "json":
            document = credential_document(self.token)
            return (json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n").encode(
                "utf-8"
            )
        if fmt == "jwt":
            return (self.token + "\n").encode("ascii")
        if fmt == "md":
            return markdown(self.data).encode("utf-8")
        raise AAAFError("INVALID_REQUEST", f"Unknown badge format {fmt!r}.")


RESCORED_REASON = SUPERSEDED_PREFIX + "assessment re-scored"
REDRAWN_REASON = SUPERSEDED_PREFIX + "badge pictures re-drawn (new image digests)"
AUDIT_REASON = SUPERSEDED_PREFIX + "re-issued to carry the assessment's audit"
# what a credential must keep saying to stay current: the assessment and every score
_CURRENT_MEMBERS = ("assessment", "performance", "capability")


def _revoked_by_hand(badge: Badge) -> bool:
    return bool(badge.revoked) and not (badge.revoke_reason or "").startswith(SUPERSEDED_PREFIX)


def _still_says(badge: Badge, data: BadgeData) -> bool:
    """Whether a stored credential says what the assessment now says (scores, tiers, dates)."""
    if not badge.credential_jwt:
        return False
    subject = credential_of_payload(split_token(badge.credential_jwt)[1]).get("credentialSubject", {})
    section = data.to_section_4_5()
    return all(subject.get(name) == section[name] for name in _CURRENT_MEMBERS)


def _still_audits(badge: Badge, data: BadgeData) -> bool:
    """Whether a stored credential carries the assessment's ``audit`` (SCORING.md §2.6) —
    one signed before badges carried it does not."""
    if not badge.credential_jwt:
        return False
    subject = credential_of_payload(split_token(badge.credential_jwt)[1]).get("credentialSubject", {})
    return bool(subject.get("audit") == data.to_section_4_5().get("audit"))


def _still_pictures(badge: Badge, digests: dict[str, Any]) -> bool:
    """Whether a stored credential carries the digests of the pictures drawn now."""
    if not badge.credential_jwt:
        return False
    credential = credential_of_payload(split_token(badge.credential_jwt)[1])
    return bool(credential.get(IMAGE_DIGESTS) == digests)


def issue(
    session: OrgSession, assessment_id: str | uuid.UUID, *, now: datetime, key: IssuerKey | None = None
) -> IssuedBadge:
    """The assessment's badge: its current credential, or a new one (module docstring).

    A new credential's row — status bit reserved, credential signed, JWT stored — is
    written in one transaction (``OrgStore.issue_badge``); a current credential whose
    scores are no longer the assessment's is superseded in that same transaction.

    The assessment is read once (the current one is loaded too only when it is another) and
    its credentials once: the write reads the current one again only when it changed since.
    """
    org, organization = session.org, session.organization
    assessment = org.get_assessment(assessment_id)
    check_issuable(assessment, now=now, latest=_latest(session, assessment))
    data = badge_data_from_assessment(
        assessment, agent_name=assessment.agent_name, organization_name=organization.name, base_url=base_url()
    )
    credentials = org.badge_credentials(assessment.id)
    revoked = [b for b in credentials if _revoked_by_hand(b)]
    if revoked:
        raise AAAFError(
            "CONFLICT",
            f"The badge of assessment {assessment.id} was revoked ({revoked[-1].revoke_reason}); "
            "a revoked badge is not issued again.",
            {"assessment_id": str(assessment.id), "revoke_reason": revoked[-1].revoke_reason},
        )
    current = next((b for b in credentials if b.current), None)
    svg = render_svg(data)
    png = render_png(svg)
    digests = image_digests(svg, png)
    says = current is not None and _still_says(current, data)
    audits = current is not None and says and _still_audits(current, data)
    if current is not None and says and audits and _still_pictures(current, digests):
        return stored_badge(current)
    signing_key = key or issuer_key(session.store)

    def sign_for(slot: BadgeSlot) -> SignedCredential:
        credential = build_credential(
            data,
            status=status_entry(data.status_list_url, slot.status_index),
            now=now,
            credential_id=slot.credential_id,
            images=digests,
        )
        token = sign(credential, signing_key)
        return SignedCredential(
            json_data=credential_document(token),
            credential_jwt=token,
            svg_url=f"{data.credential_id}.svg",
            png_url=f"{data.credential_id}.png",
        )

    badge = org.issue_badge(
        assessment.id,
        assessment.agent_id,
        sign=sign_for,
        valid_until=data.valid_until,
        issued_at=utc(now),
        supersede_reason=None if current is None else _supersede_reason(says=says, audits=audits),
        assessment=assessment,
        credentials=credentials,
    )
    if current is not None:  # a bit changed: the published list must say so
        write_status_list(session, None, now)
    log.info("issued badge of assessment %s (status index %s)", assessment.id, badge.status_index)
    if badge.credential_jwt is None:  # OrgStore.issue_badge stores what sign_for signed
        raise AAAFError("INTERNAL_ERROR", f"The badge of assessment {assessment.id} was stored unsigned.")
    return IssuedBadge(
        data=data,
        token=badge.credential_jwt,
        status_index=badge.status_index,
        revoked=badge.revoked,
        svg=svg,
        png=png,
    )


def _latest(session: OrgSession, assessment: Assessment) -> Assessment | None:
    """The agent's current assessment: ``assessment`` itself when it is (not read again)."""
    latest_id = session.org.latest_completed_id(assessment.agent_id)
    if latest_id is None or latest_id == assessment.id:
        return None if latest_id is None else assessment
    return session.org.get_assessment(latest_id)


def _supersede_reason(*, says: bool, audits: bool) -> str:
    if not says:
        return RESCORED_REASON
    return REDRAWN_REASON if audits else AUDIT_REASON


def issue_badge(
    session: OrgSession,
    assessment_id: str | uuid.UUID,
    formats: Sequence[str],
    output_dir: Path,
    now: datetime,
    *,
    key: IssuerKey | None = None,
) -> list[Path]:
    """Issue the badge and write ``output_dir/<agent>.<ext>`` for each format.

    ``assessment_id`` is an assessment id or an agent's name (its latest completed
    assessment); files are named after the agent (:func:`aaaf.services.agent_badges.badge_file_stem`),
    so a re-assessment's badge replaces the agent's previous files instead of adding more."""
    from aaaf.services.agent_badges import assessment_for, badge_file_stem

    chosen = parse_formats(formats)
    issued = issue(session, assessment_for(session.org, str(assessment_id)), now=now, key=key)
    paths = []
    stem = badge_file_stem(issued.data.agent_name)
    for fmt in chosen:
        path = Path(output_dir) / f"{stem}.{fmt}"
        write_atomically(path, issued.render(fmt))
        paths.append(path)
    return paths


def stored_badge(badge: Badge) -> IssuedBadge:
    """A recorded badge, ready to render in any format without signing anything again.

    What ``GET /api/v1/badges/{assessment_id}.svg|.png|.json`` serves: the pictures are
    redrawn from the signed credential on record, so they always match it.
    """
    if not badge.credential_jwt:
        raise AAAFError(
            "NOT_FOUND",
            f"The badge of assessment {badge.assessment_id} has no signed credential.",
            {"assessment_id": str(badge.assessment_id)},
        )
    data = badge_data_from_credential(credential_of_payload(split_token(badge.credential_jwt)[1]))
    svg = render_svg(data)
    return IssuedBadge(
        data=data,
        token=badge.credential_jwt,
        status_index=badge.status_index,
        revoked=badge.revoked,
        svg=svg,
        png=render_png(svg),
    )


@dataclass
class IssueOutcome:
    """One agent's result in ``aaaf badge --all``: files written, or why not."""

    agent: str
    assessment_id: str | None
    paths: list[Path] = field(default_factory=list)
    error: AAAFError | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "agent": self.agent,
            "assessment_id": self.assessment_id,
            "files": [str(p) for p in self.paths],
        }
        if self.error is not None:
            out.update(self.error.to_dict())
        return out


def issue_all(
    session: OrgSession, formats: Sequence[str], output_dir: Path, now: datetime
) -> list[IssueOutcome]:
    """Badges of every agent's latest completed assessment; held or rejected ones are reported."""
    chosen = parse_formats(formats)
    key = issuer_key(session.store)
    outcomes = []
    for agent in session.org.agents():
        latest = session.org.latest_completed_assessment(agent.id)
        if latest is None:
            outcomes.append(
                IssueOutcome(
                    agent.name,
                    None,
                    error=AAAFError("NOT_FOUND", f"{agent.name} has no completed assessment."),
                )
            )
            continue
        try:
            paths = issue_badge(session, latest.id, chosen, output_dir, now, key=key)
            outcomes.append(IssueOutcome(agent.name, str(latest.id), paths))
        except AAAFError as error:
            outcomes.append(IssueOutcome(agent.name, str(latest.id), error=error))
    return outcomes


# -- the review hold (SCORING.md §2.4) ---------------------------------------------------


def review(
    session: OrgSession,
    assessment_id: str | uuid.UUID,
    *,
    approve: bool,
    reviewer: str | None = None,
    now: datetime | None = None,
) -> Assessment:
    """Approve (the badge may be issued) or reject (it never will be) a held assessment.

    ``reviewer`` and ``now`` are recorded on the assessment (``reviewed_by``, ``reviewed_at``).
    """
    assessment = session.org.get_assessment(assessment_id)
    if assessment.review_state != "pending_review":
        raise AAAFError(
            "CONFLICT",
            f"Assessment {assessment.id} is not awaiting review (review state: {assessment.review_state}).",
            {"assessment_id": str(assessment.id), "review_state": assessment.review_state},
        )
    if reviewer is not None and not reviewer.strip():
        raise AAAFError("INVALID_REQUEST", "A reviewer name cannot be blank.", {"field": "reviewer"})
    decided = session.org.set_review_state(
        assessment.id,
        "approved" if approve else "rejected",
        reviewer=None if reviewer is None else reviewer.strip(),
        at=None if now is None else utc(now),
    )
    log.info("assessment %s %s on review by %s", assessment.id, decided.review_state, decided.reviewed_by)
    return decided


def _held_because(assessment: Assessment) -> str:
    """Why a held assessment is held: calibration (SCORING.md §2.4) and/or audit (§2.6)."""
    audit = (assessment.result or {}).get("audit") or {}
    reasons = ["anomalous"] if assessment.anomalous else []
    if audit.get("self_report_unreliable") is True:
        reasons.append("flagged self_report_unreliable by its audit")
    if ((assessment.result or {}).get("config") or {}).get("review_before_issue") is True:
        reasons.append("held by the organization's review-before-issue policy")
    return " and ".join(reasons) or "held"
