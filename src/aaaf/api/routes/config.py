"""An organization's scoring configuration (document 004 §6.2 "Configuration"; SCORING.md §7
"Shapes").

Keys are the §6.2 names (``assessment_window_days``, ``validity_period_days``,
``minimum_tasks_performance``, ``minimum_tasks_capability``, ``recency_weights``,
``reassessment_task_threshold``, and the other keys ``GET …/config`` shows); weights are set
with ``{"performance_weights": {...}}`` and/or ``{"capability_weights": {...}}`` and must sum to
1.0 ± 0.001 (422 ``WEIGHT_SUM_INVALID`` naming the sum).  Nothing is stored unless every change
is valid (:mod:`aaaf.services.configuration`).  Reading takes
``read``; changing takes ``admin``.  Only the caller's own organization id is found.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body

from aaaf.api.deps import Admin, AdminCaller, Reader
from aaaf.api.models import Request
from aaaf.errors import AAAFError
from aaaf.models.org_config import ConfigWeights, OrgConfig, Taxonomy
from aaaf.services import configuration
from aaaf.services.changes import author_of
from aaaf.settings import get_settings
from aaaf.store import OrgStore

router = APIRouter(prefix="/api/v1/organizations/{org_id}/config", tags=["configuration"])


class WeightsUpdate(Request):
    performance_weights: dict[str, float] | None = None
    capability_weights: dict[str, float] | None = None


class TaxonomyUpdate(Request):
    domain_taxonomy: list[str]


def _own(org: OrgStore, org_id: str) -> OrgStore:
    if org_id != str(org.organization_id):
        raise AAAFError(
            "NOT_FOUND", f"Organization {org_id} not found.", {"resource": "organization", "id": org_id}
        )
    return org


@router.get("", response_model=OrgConfig, operation_id="get_config")
def get_config(org_id: str, org: Reader) -> OrgConfig:
    """The organization's configuration: stored values over the defaults."""
    return configuration.config_of(_own(org, org_id))


@router.patch("", response_model=OrgConfig, operation_id="update_config")
def update_config(
    org_id: str,
    org: Admin,
    caller: AdminCaller,
    changes: Annotated[dict[str, Any], Body(description="Configuration keys to change.")],
) -> OrgConfig:
    """Change configuration values; the answer is the whole configuration."""
    return configuration.change_config(
        _own(org, org_id),
        changes,
        changed_by=author_of(caller),
        max_rate_limit_per_minute=get_settings().max_rate_limit_per_minute,
    )


@router.get("/weights", response_model=ConfigWeights, operation_id="get_weights")
def get_weights(org_id: str, org: Reader) -> ConfigWeights:
    return configuration.weights_of(_own(org, org_id))


@router.put("/weights", response_model=ConfigWeights, operation_id="set_weights")
def set_weights(org_id: str, body: WeightsUpdate, org: Admin, caller: AdminCaller) -> ConfigWeights:
    """Replace one or both axes' weights (checked: ``WEIGHT_SUM_INVALID``, docs/scoring.md §1)."""
    return configuration.set_weights(
        _own(org, org_id),
        performance=body.performance_weights,
        capability=body.capability_weights,
        changed_by=author_of(caller),
    )


@router.get("/taxonomy", response_model=Taxonomy, operation_id="get_taxonomy")
def get_taxonomy(org_id: str, org: Reader) -> Taxonomy:
    return configuration.taxonomy_of(_own(org, org_id))


@router.put("/taxonomy", response_model=Taxonomy, operation_id="set_taxonomy")
def set_taxonomy(org_id: str, body: TaxonomyUpdate, org: Admin, caller: AdminCaller) -> Taxonomy:
    """Replace the domain taxonomy (docs/scoring.md §3.5 domain_breadth)."""
    return configuration.set_taxonomy(_own(org, org_id), body.domain_taxonomy, changed_by=author_of(caller))
