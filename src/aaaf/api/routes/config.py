"""An organization's scoring configuration (document 004 §6.2 "Configuration"; SCORING.md §7
"Shapes").

Keys are the §6.2 names (``assessment_window_days``, ``validity_period_days``,
``minimum_tasks_performance``, ``minimum_tasks_capability``, ``recency_weights``,
``reassessment_task_threshold``, and the other keys ``GET …/config`` shows); weights are set
with ``{"performance_weights": {...}}`` and/or ``{"capability_weights": {...}}`` and must sum to
1.0 ± 0.001 (422 ``WEIGHT_SUM_INVALID`` naming the sum).  Nothing is stored unless every change
is valid (the store validates, :meth:`aaaf.store.OrgStore.update_config`).  Reading takes
``read``; changing takes ``admin``.  Only the caller's own organization id is found.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body

from aaaf.api.deps import Admin, AdminCaller, Reader
from aaaf.api.models import Request
from aaaf.errors import AAAFError
from aaaf.models.org_config import ConfigWeights, OrgConfig, Taxonomy
from aaaf.services.changes import author_of
from aaaf.settings import get_settings
from aaaf.store import OrgStore

router = APIRouter(prefix="/api/v1/organizations/{org_id}/config", tags=["configuration"])

WEIGHT_KEYS = ("performance_weights", "capability_weights")


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


def _weights(config: dict[str, Any]) -> dict[str, Any]:
    return {key: config[key] for key in WEIGHT_KEYS}


@router.get("", response_model=OrgConfig, operation_id="get_config")
def get_config(org_id: str, org: Reader) -> dict[str, Any]:
    """The organization's configuration: stored values over the defaults."""
    return _own(org, org_id).config_dict()


@router.patch("", response_model=OrgConfig, operation_id="update_config")
def update_config(
    org_id: str,
    org: Admin,
    caller: AdminCaller,
    changes: Annotated[dict[str, Any], Body(description="Configuration keys to change.")],
) -> dict[str, Any]:
    """Change configuration values; the answer is the whole configuration."""
    if not changes:
        raise AAAFError(
            "INVALID_REQUEST", "Give at least one configuration key to change.", {"field": "body"}
        )
    cap = get_settings().max_rate_limit_per_minute
    asked = changes.get("rate_limit_per_minute")
    if isinstance(asked, int | float) and not isinstance(asked, bool) and asked > cap:
        raise AAAFError(
            "INVALID_REQUEST",
            f"rate_limit_per_minute: at most {cap} on this installation (AAAF_MAX_RATE_LIMIT_PER_MINUTE).",
            {"field": "rate_limit_per_minute", "value": asked, "limit": cap},
        )
    return _own(org, org_id).update_config(changed_by=author_of(caller), **changes).to_dict()


@router.get("/weights", response_model=ConfigWeights, operation_id="get_weights")
def get_weights(org_id: str, org: Reader) -> dict[str, Any]:
    return _weights(_own(org, org_id).config_dict())


@router.put("/weights", response_model=ConfigWeights, operation_id="set_weights")
def set_weights(org_id: str, body: WeightsUpdate, org: Admin, caller: AdminCaller) -> dict[str, Any]:
    """Replace one or both axes' weights (checked: ``WEIGHT_SUM_INVALID``, docs/scoring.md §1)."""
    changes = {key: getattr(body, key) for key in WEIGHT_KEYS if getattr(body, key) is not None}
    if not changes:
        raise AAAFError(
            "INVALID_REQUEST",
            "Give performance_weights and/or capability_weights.",
            {"field": "performance_weights"},
        )
    return _weights(_own(org, org_id).update_config(changed_by=author_of(caller), **changes).to_dict())


@router.get("/taxonomy", response_model=Taxonomy, operation_id="get_taxonomy")
def get_taxonomy(org_id: str, org: Reader) -> dict[str, Any]:
    return {"domain_taxonomy": _own(org, org_id).config_dict()["domain_taxonomy"]}


@router.put("/taxonomy", response_model=Taxonomy, operation_id="set_taxonomy")
def set_taxonomy(org_id: str, body: TaxonomyUpdate, org: Admin, caller: AdminCaller) -> dict[str, Any]:
    """Replace the domain taxonomy (docs/scoring.md §3.5 domain_breadth)."""
    config = _own(org, org_id).set_taxonomy(body.domain_taxonomy, changed_by=author_of(caller))
    return {"domain_taxonomy": config.to_dict()["domain_taxonomy"]}
