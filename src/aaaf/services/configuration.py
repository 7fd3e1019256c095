"""An organization's scoring configuration, read and changed (docs/api.md "Configuration").

The stored values over the defaults, as :class:`aaaf.models.OrgConfig` and its parts; a change
is validated by the store as a whole (nothing is stored unless every change is valid) and
recorded with its author.  ``GET|PATCH …/config``, its ``/weights`` and ``/taxonomy`` parts,
the dashboard's settings page and ``aaaf config set`` all come here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from aaaf.errors import AAAFError
from aaaf.models.org_config import ConfigWeights, OrgConfig, Taxonomy

if TYPE_CHECKING:
    from aaaf.store.org_store import OrgStore


def config_of(org: OrgStore) -> OrgConfig:
    """Every setting: the stored values over the defaults."""
    return OrgConfig.model_validate(org.config_dict())


def change_config(
    org: OrgStore,
    changes: Mapping[str, object],
    *,
    changed_by: str,
    max_rate_limit_per_minute: int | None = None,
) -> OrgConfig:
    """Change configuration values (at least one); the whole configuration after.
    ``rate_limit_per_minute`` may not exceed ``max_rate_limit_per_minute`` when given (the
    installation's cap on what an organization may set over HTTP)."""
    if not changes:
        raise AAAFError(
            "INVALID_REQUEST", "Give at least one configuration key to change.", {"field": "body"}
        )
    cap = max_rate_limit_per_minute
    asked = changes.get("rate_limit_per_minute")
    if cap is not None and isinstance(asked, int | float) and not isinstance(asked, bool) and asked > cap:
        raise AAAFError(
            "INVALID_REQUEST",
            f"rate_limit_per_minute: at most {cap} on this installation (AAAF_MAX_RATE_LIMIT_PER_MINUTE).",
            {"field": "rate_limit_per_minute", "value": asked, "limit": cap},
        )
    return OrgConfig.model_validate(org.update_config(changed_by=changed_by, **changes).to_dict())


def _weights(config: OrgConfig) -> ConfigWeights:
    return ConfigWeights(
        performance_weights=config.performance_weights, capability_weights=config.capability_weights
    )


def weights_of(org: OrgStore) -> ConfigWeights:
    """Both axes' dimension weights."""
    return _weights(config_of(org))


def set_weights(
    org: OrgStore,
    *,
    performance: Mapping[str, float] | None,
    capability: Mapping[str, float] | None,
    changed_by: str,
) -> ConfigWeights:
    """Replace one or both axes' weights (each must sum to 1.0 ± 0.001: ``WEIGHT_SUM_INVALID``)."""
    changes = {
        key: dict(value)
        for key, value in (("performance_weights", performance), ("capability_weights", capability))
        if value is not None
    }
    if not changes:
        raise AAAFError(
            "INVALID_REQUEST",
            "Give performance_weights and/or capability_weights.",
            {"field": "performance_weights"},
        )
    return _weights(change_config(org, changes, changed_by=changed_by))


def taxonomy_of(org: OrgStore) -> Taxonomy:
    """The domains the organization's agents may claim."""
    return Taxonomy(domain_taxonomy=config_of(org).domain_taxonomy)


def set_taxonomy(org: OrgStore, domains: Sequence[str], *, changed_by: str) -> Taxonomy:
    """Replace the domain taxonomy."""
    config = org.set_taxonomy(domains, changed_by=changed_by)
    return Taxonomy(domain_taxonomy=config.to_dict()["domain_taxonomy"])
