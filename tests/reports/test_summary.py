"""The fleet summary, rendered from hand-built entries."""

from __future__ import annotations

import pytest

from aaaf.reports.summary import (
    FleetEntry,
    capability_gaps,
    render_fleet_summary,
    tier_distribution,
    unqualified_domains,
)
from aaaf.scoring.defaults import (
    CAPABILITY_TIERS,
    CAPABILITY_WEIGHTS,
    DEFAULT_TAXONOMY,
    PERFORMANCE_TIERS,
    PERFORMANCE_WEIGHTS,
)
from tests.reports.builders import axis, dim, stored_assessment


def performance(score: float) -> dict:
    return axis(
        {name: dim(score) for name in PERFORMANCE_WEIGHTS}, dict(PERFORMANCE_WEIGHTS), PERFORMANCE_TIERS
    )


def capability(scores: dict[str, float | None], domains: list[str]) -> dict:
    dims = {}
    for name in CAPABILITY_WEIGHTS:
        score = scores.get(name)
        details = {"qualified_domains": len(domains), "qualified_domain_names": domains, "total_domains": 12}
        dims[name] = dim(score, details=details if name == "domain_breadth" else {})
    return axis(dims, dict(CAPABILITY_WEIGHTS), CAPABILITY_TIERS)


@pytest.fixture()
def fleet() -> list[FleetEntry]:
    alpha = stored_assessment(
        performance(0.95),
        capability(
            {
                "domain_breadth": 0.25,
                "complexity_ceiling": 0.8,
                "tool_proficiency": 0.9,
                "autonomy_level": 2 / 3,
                "delegation_capability": 0.4,
            },
            ["security", "code", "analysis"],
        ),
        name="alpha",
    )
    beta = stored_assessment(
        performance(0.3996),
        capability(
            {
                "domain_breadth": 1 / 12,
                "complexity_ceiling": 0.2,
                "tool_proficiency": 0.5,
                "autonomy_level": 0.0,
            },
            ["code"],
        ),
        name="beta",
    )
    return [
        FleetEntry("beta", beta),
        FleetEntry(
            "alpha",
            alpha,
            trust={"composite": 812.7, "tier": "gold", "covered": 12, "total": 16, "gated": False},
        ),
        FleetEntry(
            "gamma",
            None,
            failure={
                "code": "INSUFFICIENT_EVIDENCE",
                "message": "Agent has 12 tasks in assessment window. Minimum required: 20.",
                "details": {"axis": "performance", "current_count": 12, "required_count": 20},
            },
        ),
        FleetEntry("delta", None),
    ]


def test_tier_distribution_lists_every_tier(fleet: list[FleetEntry]) -> None:
    assert tier_distribution(fleet, "performance") == {
        "Novice": 1,  # 0.3996 is Novice: tiers are decided unrounded
        "Competent": 0,
        "Proficient": 0,
        "Expert": 0,
        "Elite": 1,
    }
    capability_tiers = tier_distribution(fleet, "capability")
    assert list(capability_tiers) == ["Narrow", "Functional", "Versatile", "Specialist", "Full-Stack"]
    assert sum(capability_tiers.values()) == 2


def test_capability_gaps_mean_nulls_and_below_half(fleet: list[FleetEntry]) -> None:
    gaps = {gap.dimension: gap for gap in capability_gaps(fleet)}
    # domain_breadth: mean(0.25, 1/12) = (0.25 + 0.083333) / 2 = 0.166667; both below 0.5
    assert gaps["domain_breadth"].mean == pytest.approx((0.25 + 1 / 12) / 2)
    assert gaps["domain_breadth"].below_threshold == 2 and gaps["domain_breadth"].null_agents == 0
    # tool_proficiency: mean(0.9, 0.5) = 0.7; 0.5 is not below 0.5
    assert gaps["tool_proficiency"].mean == pytest.approx(0.7)
    assert gaps["tool_proficiency"].below_threshold == 0
    # delegation: only alpha scored (0.4, below 0.5); beta null
    assert gaps["delegation_capability"].mean == pytest.approx(0.4)
    assert (
        gaps["delegation_capability"].null_agents == 1 and gaps["delegation_capability"].below_threshold == 1
    )
    # learning_rate: null for both, no mean (not 0)
    assert gaps["learning_rate"].mean is None and gaps["learning_rate"].null_agents == 2
    assert gaps["learning_rate"].assessed_agents == 2 and gaps["learning_rate"].scored_agents == 0


def test_domains_no_agent_qualifies_in(fleet: list[FleetEntry]) -> None:
    assert unqualified_domains(fleet, DEFAULT_TAXONOMY) == [
        "research",
        "testing",
        "design",
        "documentation",
        "communication",
        "orchestration",
        "content",
        "infrastructure",
        "legal",
    ]


def test_rendered_summary(fleet: list[FleetEntry]) -> None:
    text = render_fleet_summary(fleet)
    assert text.startswith(
        "# Fleet assessment summary\n\n4 agents enrolled, 2 with a completed assessment, 2 without."
    )
    table_rows = [
        line for line in text.splitlines() if line.startswith("| alpha") or line.startswith("| beta")
    ]
    # alphabetical; scores truncated; trust an integer, truncated
    assert table_rows[0].startswith("| alpha | 0.95 | Elite | 0.")
    assert "| 812 | gold |" in table_rows[0]
    assert table_rows[1].startswith("| beta | 0.39 | Novice |")
    assert "| gamma | — | — | — | — | — | — | — |" in text
    assert "| Novice | #9E9E9E | 1 |" in text and "| Elite | #FFD700 | 1 |" in text
    assert "| Domain breadth | 0.16 | 2/2 | 0 | 2 |" in text  # 0.1666… truncated
    assert "| Learning rate | — | 0/2 | 2 | 0 |" in text
    assert "| gold | 1 |" in text
    assert "Taxonomy domains in which no agent qualifies" in text and "research, testing, design" in text
    assert "- `gamma` — INSUFFICIENT_EVIDENCE: 12 tasks in the window, 20 required (performance)" in text
    assert "- `delta` — never assessed" in text


def test_without_trust_the_columns_go_and_the_note_stays(fleet: list[FleetEntry]) -> None:
    no_trust = [FleetEntry(e.agent, e.assessment, None, e.failure) for e in fleet]
    text = render_fleet_summary(no_trust, trust_note="The trust scheme is not available.")
    assert "| Agent | Performance | Tier | Capability | Tier | Assessed at |" in text
    assert "The trust scheme is not available." in text
    assert "### Trust" not in text


def test_every_domain_covered_and_nobody_short() -> None:
    everyone = stored_assessment(
        performance(0.8), capability({"domain_breadth": 1.0}, list(DEFAULT_TAXONOMY))
    )
    text = render_fleet_summary([FleetEntry("omni", everyone)])
    assert "Every taxonomy domain has at least one qualified agent." in text
    assert "None: every agent has a completed assessment." in text
