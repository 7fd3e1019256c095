"""Agents (document 004 §6.2; SCORING.md §7 "Shapes").

``organization_id`` in ``POST /agents`` is optional: it defaults to the caller's
organization, and any other organization's id is 404 (as if it did not exist).  ``DELETE``
archives: the agent stops being listed by default and takes no new evidence-driven
assessments, but its events, assessments and badges stay on record.
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query

from aaaf.api.deps import AssessmentWriter, Reader
from aaaf.api.models import AgentCreate, AgentOut, AgentPatch, Page
from aaaf.api.pagination import CursorQuery, LimitQuery, decode_cursor, keyset_page
from aaaf.errors import AAAFError
from aaaf.services import agents as agent_service

router = APIRouter(prefix="/api/v1/agents", tags=["agents"])

# enrolling and changing agents is part of setting up assessments
Writer = AssessmentWriter


@router.post("", status_code=201, response_model=AgentOut, operation_id="create_agent")
def create_agent(body: AgentCreate, org: Writer) -> AgentOut:
    """Register an agent for assessment (docs/stress-tests.md)."""
    if body.organization_id is not None and body.organization_id != str(org.organization_id):
        raise AAAFError(
            "NOT_FOUND",
            f"Organization {body.organization_id} not found.",
            {"resource": "organization", "id": body.organization_id, "field": "organization_id"},
        )
    return agent_service.enroll_agent(
        org,
        body.name,
        claimed_domains=body.claimed_domains,
        tools=body.tools,
        description=body.description,
        metadata=body.metadata,
    )


@router.get("/{agent_id}", response_model=AgentOut, operation_id="get_agent")
def get_agent(agent_id: str, org: Reader) -> AgentOut:
    """One agent of the caller's organization, by id (or by its unique name)."""
    return agent_service.get_agent(org, agent_id)


@router.get("", response_model=Page[AgentOut], operation_id="list_agents")
def list_agents(
    org: Reader,
    status: Annotated[
        Literal["enrolled", "active", "suspended", "archived"] | None,
        Query(description="Only agents with this status (default: every agent but archived ones)."),
    ] = None,
    org_id: Annotated[
        str | None, Query(description="The organization filter: must be the caller's organization.")
    ] = None,
    cursor: CursorQuery = None,
    limit: LimitQuery = 100,
) -> Page[AgentOut]:
    """The organization's agents by name."""
    if org_id is not None and org_id != str(org.organization_id):
        raise AAAFError(
            "NOT_FOUND", f"Organization {org_id} not found.", {"resource": "organization", "id": org_id}
        )
    after = decode_cursor(cursor)
    if after is not None and len(after) != 1:
        raise AAAFError("INVALID_REQUEST", "cursor: not a cursor this server returned.", {"field": "cursor"})
    rows = agent_service.agents_by_name(
        org, status=status, after_name=None if after is None else after[0], limit=limit + 1
    )
    return keyset_page(
        rows, limit=limit, key=lambda a: [a.name], render=agent_service.agent_out, page=Page[AgentOut]
    )


@router.patch("/{agent_id}", response_model=AgentOut, operation_id="update_agent")
def update_agent(agent_id: str, body: AgentPatch, org: Writer) -> AgentOut:
    """Change an agent's name, domains, tools, description, metadata or status."""
    return agent_service.update_agent(
        org,
        agent_id,
        name=body.name,
        claimed_domains=body.claimed_domains,
        tools=body.tools,
        description=body.description,
        metadata=body.metadata,
        status=body.status,
    )


@router.delete("/{agent_id}", response_model=AgentOut, operation_id="archive_agent")
def archive_agent(agent_id: str, org: Writer) -> AgentOut:
    """Archive an agent: its history (events, assessments, badges) is kept."""
    return agent_service.archive_agent(org, agent_id)
