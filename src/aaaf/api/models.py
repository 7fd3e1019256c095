"""Request and response bodies of the API (document 004 §6.2 shapes; SCORING.md §7).

Requests forbid unknown fields, so a misspelt field is a 400 naming it rather than
silently ignored.  The public results (the assessment, the audit object, errors, ...) are the
shapes of :mod:`aaaf.models`, shared with the CLI's ``--json``; this module holds only the
API's own bodies (requests, pages, created keys).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from pydantic import AfterValidator, AwareDatetime, BaseModel, ConfigDict, Field

from aaaf.models.assessment import AssessmentStarted
from aaaf.models.audit import AuditSample, AuditSampleTask
from aaaf.models.events import BatchResult, EventItemError, EventOut, EventStored
from aaaf.models.operations import Health
from aaaf.models.page import Page
from aaaf.models.tenancy import Agent as AgentOut
from aaaf.models.tenancy import ApiKey as KeyOut
from aaaf.models.tenancy import CreatedApiKey as KeyCreated
from aaaf.models.tenancy import Organization as OrganizationOut
from aaaf.models.tenancy import OrganizationCreated
from aaaf.names import normalised_name

# AgentOut, KeyOut, KeyCreated, OrganizationOut and the answers (pages, batch results, …): the
# public shapes of aaaf.models under the names the routes import
__all__ = [
    "AgentCreate",
    "AgentOut",
    "AgentPatch",
    "AssessmentCreate",
    "AssessmentStarted",
    "AuditFindings",
    "AuditSample",
    "AuditSampleRequest",
    "AuditSampleTask",
    "BatchResult",
    "EventItemError",
    "EventOut",
    "EventStored",
    "Health",
    "KeyCreate",
    "KeyCreated",
    "KeyOut",
    "OrganizationCreate",
    "OrganizationCreated",
    "OrganizationOut",
    "OrganizationPatch",
    "Page",
    "Request",
]

T = TypeVar("T")


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


# a name others read: NFKC-normalised, no invisible or control character (docs/security.md "Names")
Name = Annotated[str, Field(min_length=1, max_length=200), AfterValidator(normalised_name)]


# organizations ---------------------------------------------------------------------------
class OrganizationCreate(Request):
    """docs/api.md ``POST /api/v1/organizations``; configuration keys are optional."""

    name: Name
    domain_taxonomy: list[str] | None = None
    performance_weights: dict[str, float] | None = None
    capability_weights: dict[str, float] | None = None
    assessment_window_days: int | None = Field(default=None, ge=1)
    validity_period_days: int | None = Field(default=None, ge=1)
    minimum_tasks_performance: int | None = Field(default=None, ge=0)
    minimum_tasks_capability: int | None = Field(default=None, ge=0)


class OrganizationPatch(Request):
    name: Name


# agents ----------------------------------------------------------------------------------
class AgentCreate(Request):
    """docs/api.md ``POST /api/v1/agents``; ``organization_id`` defaults to the caller's."""

    organization_id: str | None = None
    name: Name
    claimed_domains: list[str] = Field(default_factory=list)
    tools: list[str] = Field(default_factory=list)
    description: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)


class AgentPatch(Request):
    """Fields to change; an absent field is left as it is."""

    name: Name | None = None
    claimed_domains: list[str] | None = None
    tools: list[str] | None = None
    description: str | None = None
    metadata: dict[str, Any] | None = None
    status: Literal["enrolled", "active", "suspended"] | None = None


# events ----------------------------------------------------------------------------------
# assessments -----------------------------------------------------------------------------
class AssessmentCreate(Request):
    """docs/api.md ``POST /api/v1/assessments``."""

    agent_id: str
    type: Literal["full", "passive_only", "stress_test_only", "single_dimension"] = "passive_only"
    dimension: str | None = None
    include_stress_test: bool = False
    window_start: str | None = None
    window_end: str | None = None


# keys ------------------------------------------------------------------------------------
class KeyCreate(Request):
    scopes: list[str] = Field(min_length=1)
    name: str | None = Field(default=None, max_length=200)


# audits (SCORING.md §2.6) ----------------------------------------------------------------
class AuditSampleRequest(Request):
    """What to draw: the share of completed tasks (default the organization's, 0.20), the
    seed (default 0) and the end of the window (default now)."""

    rate: float | None = Field(default=None, gt=0, le=1)
    seed: int = Field(default=0, ge=0)
    window_end: AwareDatetime | None = None


class AuditFindings(Request):
    """Findings: each a sampled task with its ``finding`` filled in (as ``POST …/audits``
    answers it) or a ``task_audited`` event; ``auditor`` names who audited where an item
    does not."""

    findings: list[Any]
    auditor: str | None = Field(default=None, min_length=1, max_length=200)
