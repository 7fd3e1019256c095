"""A badge per agent: files named after the agent, a command that takes an agent's name, and one
URL per agent that always serves its current badge (docs/api.md "A badge per agent").

A badge certifies one assessment, so its credential and verification page are the
assessment's; but a README embeds an *agent's* badge and should not be re-linked at every
re-assessment.  So:

* ``aaaf badge NAME`` takes an agent's name (its latest completed assessment) as well as an
  assessment id, and writes ``NAME.svg``, ``NAME.png``, … (:func:`badge_file_stem`);
* ``GET /badges/{organization}/{agent}.svg`` serves the agent's current badge — the newest
  current credential that is neither revoked nor private — the way shields-style badges work
  (:func:`current_public_badge`); a private badge, a revoked one or none is a 404 for everyone.
"""

from __future__ import annotations

import difflib
import hashlib
import re
import uuid
from typing import TYPE_CHECKING

from aaaf.errors import AAAFError

if TYPE_CHECKING:
    from aaaf.store.org_store import OrgStore
    from aaaf.store.records import Badge
    from aaaf.store.store import Store

_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def badge_file_stem(agent_name: str) -> str:
    """The file name (without extension) of an agent's badge files.

    The agent's name when it is a safe file name; otherwise its safe characters plus 8 hex
    digits of its SHA-256, so that two hostile names never write one file and no name
    escapes the output folder (``../x``, ``a/b``, a leading dot)."""
    safe = _SAFE.sub("_", agent_name).lstrip(".")
    if safe == agent_name and safe:
        return safe
    digest = hashlib.sha256(agent_name.encode("utf-8")).hexdigest()[:8]
    return f"{safe[:64] or 'agent'}-{digest}"


def _as_uuid(text: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(text)
    except ValueError:
        return None


def nearest_agent_names(org: OrgStore, name: str) -> list[str]:
    """Up to three enrolled agents whose names are closest to ``name`` (a "did you mean")."""
    return difflib.get_close_matches(name, [agent.name for agent in org.agents()], n=3, cutoff=0.6)


def assessment_for(org: OrgStore, reference: str) -> uuid.UUID:
    """The assessment ``reference`` names: an assessment id, or an agent's name (its latest
    completed assessment).  ``NOT_FOUND`` says which, with the nearest agent names."""
    as_id = _as_uuid(reference)
    if as_id is not None:
        try:
            return org.get_assessment(as_id).id
        except AAAFError:
            pass
    agent = org.find_agent(reference)
    if agent is None:
        near = nearest_agent_names(org, reference)
        hint = f" Did you mean {', '.join(near)}?" if near else ""
        raise AAAFError(
            "NOT_FOUND",
            f"No agent or assessment named {reference!r}.{hint}",
            {"resource": "agent", "name": reference, "did_you_mean": near},
        )
    latest = org.latest_completed_assessment(agent.id)
    if latest is None:
        raise AAAFError(
            "NOT_FOUND",
            f"Agent {agent.name} has no completed assessment: run `aaaf assess {agent.name}` first.",
            {"resource": "assessment", "agent": agent.name},
        )
    return latest.id


def current_public_badge(store: Store, organization: str, agent: str) -> Badge:
    """The badge ``/badges/{organization}/{agent}.svg`` serves: the agent's newest current,
    unrevoked, public credential.  ``organization`` and ``agent`` are names (or ids).
    ``NOT_FOUND`` (the same answer for every reason, so nothing private leaks) otherwise."""
    from aaaf.store.repositories.badge_visibility import public_badge_visibility

    missing = AAAFError(
        "NOT_FOUND",
        f"No public badge for agent {agent!r} of organization {organization!r}.",
        {"resource": "badge", "organization": organization, "agent": agent},
    )
    found = next((o for o in store.organizations() if organization in (o.name, str(o.id))), None)
    if found is None:
        raise missing
    org = store.scope(found.id)
    record = org.find_agent(agent)
    if record is None:
        raise missing
    badges = [b for b in org.badges(agent_id=record.id, current_only=True) if b.credential_jwt]
    if not badges:
        raise missing
    newest = max(badges, key=lambda b: b.issued_at)
    # the newest is the agent's current badge: revoked or private, nothing is shown (an older
    # badge shown in its place would claim what the agent no longer holds)
    if newest.revoked or public_badge_visibility(store.engine, newest.assessment_id)[0] != "public":
        raise missing
    return newest
