"""Organizations (document 004 §6.2; SCORING.md §7 "Admin and keys").

``POST /api/v1/organizations`` takes the installation's ``AAAF_ADMIN_KEY`` as a Bearer key
and answers the new organization's first API key — holding every scope — this once.  An
organization's own key reads only its own organization; any other id is 404.
"""

from __future__ import annotations

from fastapi import APIRouter, Depends

from aaaf.api.deps import Admin, NowDep, Reader, StoreDep, require_admin_key
from aaaf.api.models import OrganizationCreate, OrganizationCreated, OrganizationOut, OrganizationPatch
from aaaf.errors import AAAFError
from aaaf.scoring.results import iso
from aaaf.services import keys as key_service

router = APIRouter(prefix="/api/v1/organizations", tags=["organizations"])

CONFIG_FIELDS = (
    "performance_weights",
    "capability_weights",
    "assessment_window_days",
    "validity_period_days",
    "minimum_tasks_performance",
    "minimum_tasks_capability",
)


@router.post(
    "",
    status_code=201,
    response_model=OrganizationCreated,
    operation_id="create_organization",
    dependencies=[Depends(require_admin_key)],
)
def create_organization(body: OrganizationCreate, store: StoreDep, now: NowDep) -> OrganizationCreated:
    """Register an organization (admin key); the answer holds its API key, shown once."""
    config = {name: getattr(body, name) for name in CONFIG_FIELDS if getattr(body, name) is not None}
    organization, issued = key_service.create_organization(
        store, body.name, now=now, taxonomy=body.domain_taxonomy, config=config
    )
    return OrganizationCreated(
        id=str(organization.id),
        name=organization.name,
        api_key=issued.secret,
        created_at=iso(organization.created_at),
    )


@router.get("/{org_id}", response_model=OrganizationOut, operation_id="get_organization")
def get_organization(org_id: str, org: Reader) -> OrganizationOut:
    """The caller's own organization (another one's id is 404)."""
    if org_id != str(org.organization_id):
        raise AAAFError(
            "NOT_FOUND", f"Organization {org_id} not found.", {"resource": "organization", "id": org_id}
        )
    return key_service.own_organization(org)


@router.patch("/{org_id}", response_model=OrganizationOut, operation_id="update_organization")
def update_organization(org_id: str, body: OrganizationPatch, org: Admin, store: StoreDep) -> OrganizationOut:
    """Rename the caller's own organization (``admin``); a name already taken is 409."""
    if org_id != str(org.organization_id):
        raise AAAFError(
            "NOT_FOUND", f"Organization {org_id} not found.", {"resource": "organization", "id": org_id}
        )
    return key_service.rename_organization(store, org.organization_id, body.name)
