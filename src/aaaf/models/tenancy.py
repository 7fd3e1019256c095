"""Organizations, agents and API keys as the CLI's ``--json`` and the API show them
(docs/api.md, §7.2; docs/api.md).  A key's secret never appears
here but in the answer that creates it (``api_key``, shown once)."""

from __future__ import annotations

from pydantic import BaseModel

from aaaf.models._base import Number, PublicModel


class Organization(PublicModel):
    """A tenant; its API key hash is never shown."""

    id: str
    name: str
    domain_taxonomy: list[str]
    status: str
    created_at: str
    updated_at: str


class Agent(PublicModel):
    """An enrolled agent (docs/api.md ``/agents``)."""

    id: str
    organization_id: str
    name: str
    claimed_domains: list[str]
    tools: list[str]
    description: str | None
    metadata: dict[str, object]
    status: str
    created_at: str
    updated_at: str


class Enrollment(PublicModel):
    """What ``aaaf enroll --json`` prints: the agents enrolled now and those already enrolled
    (by name, in the order of the file)."""

    enrolled: list[str]
    already_enrolled: list[str]


class LatestAssessment(PublicModel):
    id: str
    performance_composite: Number | None
    performance_tier: str | None
    capability_composite: Number | None
    capability_tier: str | None


class AgentListing(Agent):
    """An agent with its latest completed assessment (``aaaf agents --json``)."""

    latest_assessment: LatestAssessment | None


class ApiKey(PublicModel):
    """An API key's record: prefix and scopes, never the key."""

    id: str
    organization_id: str
    name: str | None
    prefix: str
    scopes: list[str]
    created_at: str
    revoked_at: str | None
    last_used_at: str | None


class CreatedApiKey(ApiKey):
    """A new key: ``api_key`` is the key itself, shown this once."""

    api_key: str


class OAuthClient(PublicModel):
    """An OAuth 2.0 client's record: its public ``client_id`` and scopes, never the secret."""

    id: str
    organization_id: str
    client_id: str
    name: str | None
    scopes: list[str]
    created_at: str
    revoked_at: str | None


class CreatedOAuthClient(OAuthClient):
    """A new client: ``client_secret`` is shown this once."""

    client_secret: str


class OAuthClientPage(PublicModel):
    items: list[OAuthClient]
    next_cursor: str | None


class CreatedOrganization(Organization):
    """``aaaf org create --json``: the organization, its first key (shown once) and the key's record."""

    api_key: str
    key: ApiKey


class ApiKeyPage(PublicModel):
    items: list[ApiKey]
    next_cursor: str | None


class OrganizationPage(PublicModel):
    items: list[Organization]
    next_cursor: str | None


class OrganizationCreated(BaseModel):
    """The answer to creating an organization: its first API key, shown this once."""

    id: str
    name: str
    api_key: str
    created_at: str
