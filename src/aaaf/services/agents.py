"""Agents of an organization: enrolled, read, listed, changed and archived (docs/api.md
"Agents"); ``/api/v1/agents`` and ``aaaf agents enroll`` come here.

Archiving keeps an agent's history (events, assessments, badges) and stops it being listed
by default; an archived agent cannot be changed (409 ``CONFLICT``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from aaaf.errors import AAAFError
from aaaf.models.tenancy import Agent as AgentOut

if TYPE_CHECKING:
    from aaaf.store.org_store import OrgStore
    from aaaf.store.records import Agent


def agent_out(agent: Agent) -> AgentOut:
    """An agent as ``--json`` prints it and the API answers it."""
    return AgentOut(**agent.to_dict())


def enroll_agent(
    org: OrgStore,
    name: str,
    *,
    claimed_domains: Sequence[str] = (),
    tools: Sequence[str] = (),
    description: str | None = None,
    metadata: Mapping[str, object] | None = None,
) -> AgentOut:
    """Register an agent for assessment (``CONFLICT`` when the name is taken)."""
    return agent_out(
        org.enroll_agent(
            name, claimed_domains=claimed_domains, tools=tools, description=description, metadata=metadata
        )
    )


def get_agent(org: OrgStore, agent_ref: str) -> AgentOut:
    """One agent of the organization, by id or by its unique name (``NOT_FOUND`` otherwise)."""
    return agent_out(org.get_agent(agent_ref))


def assessable_agent(org: OrgStore, agent_ref: str) -> Agent:
    """The agent (by id or name) an assessment is triggered for: ``CONFLICT`` when archived."""
    agent = org.get_agent(agent_ref)
    if agent.status == "archived":
        raise AAAFError(
            "CONFLICT", f"Agent {agent.id} is archived and cannot be assessed.", {"status": "archived"}
        )
    return agent


def agents_by_name(org: OrgStore, *, status: str | None, after_name: str | None, limit: int) -> list[Agent]:
    """Up to ``limit`` agents by name after ``after_name`` (every status but archived unless
    ``status`` names one)."""
    return org.agents_page(status=status, include_archived=False, after_name=after_name, limit=limit)


def update_agent(
    org: OrgStore,
    agent_ref: str,
    *,
    name: str | None = None,
    claimed_domains: Sequence[str] | None = None,
    tools: Sequence[str] | None = None,
    description: str | None = None,
    metadata: Mapping[str, object] | None = None,
    status: str | None = None,
) -> AgentOut:
    """Change an agent's name, domains, tools, description, metadata or status (what is None stays)."""
    agent = org.get_agent(agent_ref)
    if agent.status == "archived":
        raise AAAFError(
            "CONFLICT", f"Agent {agent.id} is archived and cannot be changed.", {"status": "archived"}
        )
    agent = org.update_agent(
        agent.id,
        name=name,
        claimed_domains=claimed_domains,
        tools=tools,
        description=description,
        metadata=metadata,
    )
    if status is not None and status != agent.status:
        agent = org.set_agent_status(agent.id, status)
    return agent_out(agent)


def archive_agent(org: OrgStore, agent_ref: str) -> AgentOut:
    """Archive an agent: its history (events, assessments, badges) is kept."""
    agent = org.get_agent(agent_ref)
    return agent_out(org.set_agent_status(agent.id, "archived"))
