"""Every default of SCORING.md in one place; org configuration overrides the marked ones.

The dimensions, their default weights and standards come from their declarations
(:mod:`aaaf.scoring.dimensions`).

Built-in weight tables are guarded when this module loads (SCORING.md §0): a wrong table
crashes the import rather than producing wrong scores.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from aaaf.scoring.core import Tier, check_weights, guard_builtin_weights
from aaaf.scoring.dimensions import DIMENSIONS, default_weights, names_of

PERFORMANCE_DIMENSIONS: tuple[str, ...] = names_of("performance")
CAPABILITY_DIMENSIONS: tuple[str, ...] = names_of("capability")
AXES: dict[str, tuple[str, ...]] = {
    "performance": PERFORMANCE_DIMENSIONS,
    "capability": CAPABILITY_DIMENSIONS,
}

PERFORMANCE_WEIGHTS: Mapping[str, float] = guard_builtin_weights(
    default_weights("performance"), "PERFORMANCE_WEIGHTS"
)
CAPABILITY_WEIGHTS: Mapping[str, float] = guard_builtin_weights(
    default_weights("capability"), "CAPABILITY_WEIGHTS"
)

PERFORMANCE_TIERS: tuple[Tier, ...] = (
    Tier("Novice", 0.0),
    Tier("Competent", 0.40),
    Tier("Proficient", 0.60),
    Tier("Expert", 0.75),
    Tier("Elite", 0.90),
)
CAPABILITY_TIERS: tuple[Tier, ...] = (
    Tier("Narrow", 0.0),
    Tier("Functional", 0.30),
    Tier("Versatile", 0.50),
    Tier("Specialist", 0.70),
    Tier("Full-Stack", 0.85),
)
TIER_COLOURS: Mapping[str, str] = {
    "Novice": "#9E9E9E",
    "Competent": "#4CAF50",
    "Proficient": "#2196F3",
    "Expert": "#9C27B0",
    "Elite": "#FFD700",
    "Narrow": "#9E9E9E",
    "Functional": "#4CAF50",
    "Versatile": "#2196F3",
    "Specialist": "#9C27B0",
    "Full-Stack": "#FFD700",
}

DEFAULT_TAXONOMY: tuple[str, ...] = (
    "research",
    "code",
    "security",
    "testing",
    "design",
    "documentation",
    "communication",
    "orchestration",
    "analysis",
    "content",
    "infrastructure",
    "legal",
)
DEFAULT_CHECKLIST: tuple[str, ...] = (
    "memory_search_performed",
    "output_format_correct",
    "verification_evidence_provided",
    "memory_written",
)
# SCORING.md §2.2 speed baselines, seconds per complexity level
SPEED_BASELINES: Mapping[int, float] = {1: 600.0, 2: 3600.0, 3: 14400.0, 4: 43200.0, 5: 86400.0}
# SCORING.md §2.1 recency weights: (max age in days inclusive, weight)
RECENCY_WEIGHTS: tuple[tuple[int, float], ...] = ((7, 1.0), (14, 0.8), (30, 0.6))
ERROR_SEVERITY_WEIGHTS: Mapping[str, float] = {"critical": 3.0, "major": 1.0, "minor": 0.5}

STANDARDS_ALIGNMENT: Mapping[str, tuple[str, str]] = {d.name: d.standard for d in DIMENSIONS}
BADGE_STANDARDS: tuple[str, ...] = (
    "NIST AI 100-1",
    "ISO/IEC 42001:2023",
    "ISO/IEC 25059:2023",
    "ISO/IEC 22989:2022",
)

# issue 20 §2 (k-anonymity of the cross-organization benchmark; installation-wide, not per
# organization, and never lowered by configuration): a (domain, dimension) cell is published
# only when it aggregates at least this many organizations and agents.
BENCHMARK_MIN_ORGANIZATIONS = 5
BENCHMARK_MIN_AGENTS = 20
BENCHMARK_ALL_DOMAINS = "all"  # the cell of every agent whatever its domains
COMPOSITE_DIMENSIONS: Mapping[str, str] = {
    "performance_composite": "performance",
    "capability_composite": "capability",
}


@dataclass(frozen=True)
class AAAFConfig:
    """An organization's scoring configuration (the *(config)* items of SCORING.md §1-§2).

    Built from the org's config rows by the shell; the core only reads it.
    """

    window_days: int = 30
    recency_weights: tuple[tuple[int, float], ...] = RECENCY_WEIGHTS
    min_tasks_performance: int = 20
    min_tasks_capability: int = 30
    performance_weights: Mapping[str, float] = field(default_factory=lambda: dict(PERFORMANCE_WEIGHTS))
    capability_weights: Mapping[str, float] = field(default_factory=lambda: dict(CAPABILITY_WEIGHTS))
    taxonomy: tuple[str, ...] = DEFAULT_TAXONOMY
    checklist: tuple[str, ...] = DEFAULT_CHECKLIST
    speed_baselines: Mapping[int, float] = field(default_factory=lambda: dict(SPEED_BASELINES))
    baseline_errors_per_task: float = 1.0
    consistency_min_group: int = 5
    calibration_threshold: float = 0.15
    validity_days: int = 90
    expiring_notice_days: int = 14
    reassessment_task_threshold: int = 50
    appeal_window_days: int = 14
    future_tolerance_seconds: float = 300.0
    audit_rate: float = 0.20  # SCORING.md §2.6: max(0.10 review spot checks, 0.20 error annotations)
    audit_honesty_threshold: float = 0.90  # §2.6: below it (with enough audits) self-reports are unreliable
    audit_min_tasks: int = 5  # §2.6: audited tasks needed before the flag can be raised
    uncertainty_seed: int = 0  # SCORING.md §2.5: the bootstrap's seed
    uncertainty_resamples: int = 1000  # §2.5: B, resamples per assessment (0 = no uncertainty)
    borderline_probability: float = 0.8  # §2.5: a tier less probable than this is "borderline"
    rate_limit_per_minute: int = 100  # issue 13 §4: API requests per minute per key (service, not scoring)
    # document 004 §5.2 step 5: the organization reviews every result before its badge is issued
    review_before_issue: bool = False
    event_retention_days: int = 180  # SCORING.md §6 "Retention": events older than this are deleted
    stress_result_retention_days: int = 365  # §6: stress-test results older than this are deleted
    # issue 20 §2: the organization's latest valid assessments join the anonymised
    # cross-organization benchmark (service, not scoring; off unless the organization opts in)
    benchmark_opt_in: bool = False

    def weights(self, axis: str) -> Mapping[str, float]:
        return self.performance_weights if axis == "performance" else self.capability_weights

    def with_overrides(self, **changes: Any) -> AAAFConfig:
        """A copy with user overrides applied; weights are checked (WEIGHT_SUM_INVALID)."""
        if "performance_weights" in changes:
            changes["performance_weights"] = check_weights(
                changes["performance_weights"], PERFORMANCE_DIMENSIONS
            )
        if "capability_weights" in changes:
            changes["capability_weights"] = check_weights(
                changes["capability_weights"], CAPABILITY_DIMENSIONS
            )
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "assessment_window_days": self.window_days,
            "recency_weights": [list(pair) for pair in self.recency_weights],
            "minimum_tasks_performance": self.min_tasks_performance,
            "minimum_tasks_capability": self.min_tasks_capability,
            "performance_weights": dict(self.performance_weights),
            "capability_weights": dict(self.capability_weights),
            "domain_taxonomy": list(self.taxonomy),
            "review_checklist": list(self.checklist),
            "speed_baselines": {str(k): v for k, v in self.speed_baselines.items()},
            "baseline_errors_per_task": self.baseline_errors_per_task,
            "calibration_threshold": self.calibration_threshold,
            "validity_period_days": self.validity_days,
            "reassessment_task_threshold": self.reassessment_task_threshold,
            "rate_limit_per_minute": self.rate_limit_per_minute,
            "benchmark_opt_in": self.benchmark_opt_in,
        }
