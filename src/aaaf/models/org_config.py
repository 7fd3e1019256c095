"""An organization's scoring configuration (docs/scoring.md §7 "Configuration"), as
``GET /api/v1/organizations/{id}/config`` and its parts answer it."""

from __future__ import annotations

from aaaf.models._base import Number, PublicModel


class OrgConfig(PublicModel):
    """Every setting: the stored values over the defaults."""

    assessment_window_days: int
    recency_weights: list[list[Number]]
    minimum_tasks_performance: int
    minimum_tasks_capability: int
    performance_weights: dict[str, Number]
    capability_weights: dict[str, Number]
    domain_taxonomy: list[str]
    review_checklist: list[object]
    speed_baselines: dict[str, object]
    baseline_errors_per_task: Number
    calibration_threshold: Number
    validity_period_days: int
    reassessment_task_threshold: int
    rate_limit_per_minute: int
    benchmark_opt_in: bool


class ConfigWeights(PublicModel):
    """Both axes' dimension weights (each sums to 1.0 ± 0.001; docs/scoring.md §1)."""

    performance_weights: dict[str, Number]
    capability_weights: dict[str, Number]


class Taxonomy(PublicModel):
    """The domains the organization's agents may claim (docs/scoring.md §3.5 domain_breadth)."""

    domain_taxonomy: list[str]
