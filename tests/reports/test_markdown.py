"""The per-agent Markdown report, rendered from hand-built stored assessments."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aaaf.reports.markdown import (
    ceil_display,
    format_value,
    next_tier,
    render_agent_report,
    required_for_covered,
    required_for_uncovered,
    tier_raise,
    title_of,
    trust_display,
)
from aaaf.scoring.core import composite
from aaaf.scoring.defaults import (
    CAPABILITY_TIERS,
    CAPABILITY_WEIGHTS,
    PERFORMANCE_TIERS,
    PERFORMANCE_WEIGHTS,
)
from aaaf.scoring.dimensions import BY_NAME, DIMENSIONS, names_of
from tests.reports.builders import axis, dim, stored_assessment

CONSISTENCY_REASON = "no (domain, level) group with ≥ 5 completed tasks"


def novice_performance() -> dict:
    """tcr 0.5, accuracy 0.4, speed 0.2, consistency null, review 0.3.

    Covered configured weights W = 0.25 + 0.25 + 0.15 + 0.15 = 0.80, renormalised
    0.3125 / 0.3125 / 0.1875 / 0.1875.
    C = 0.3125·0.5 + 0.3125·0.4 + 0.1875·0.2 + 0.1875·0.3 = 0.15625 + 0.125 + 0.0375 + 0.05625 = 0.375
    → Novice; Competent starts at 0.40, gap 0.025.
    """
    return axis(
        {
            "task_completion_rate": dim(0.5, 47, 47, {"weighted_credit": 19.1, "total_weight": 38.2}),
            "accuracy": dim(0.4, 44, 52, {"from_revisions": 0.5, "from_errors": 0.25, "revised_share": 0.5}),
            "speed": dim(
                0.2, 44, 44, {"per_level": {"1": {"tasks": 20, "mean_speed": 0.25}, "2": {"tasks": 24}}}
            ),
            "consistency": dim(None, 0, 0, {"groups_assessed": 0}, reason=CONSISTENCY_REASON),
            "review_compliance": dim(0.3, 44, 44, {"items_passed": 53}),
        },
        dict(PERFORMANCE_WEIGHTS),
        PERFORMANCE_TIERS,
    )


def versatile_capability() -> dict:
    """breadth 0.5, ceiling 0.8, tool 0.7, autonomy 0.0; learning, delegation, orchestration null.

    W = 0.15 + 0.20 + 0.15 + 0.10 = 0.60; renormalised 0.25 / 0.3333 / 0.25 / 0.1667.
    C = 0.25·0.5 + (1/3)·0.8 + 0.25·0.7 + (1/6)·0 = 0.125 + 0.26667 + 0.175 = 0.56667 → Versatile;
    Specialist starts at 0.70, gap 0.13333.
    """
    return axis(
        {
            "domain_breadth": dim(
                0.5,
                44,
                120,
                {
                    "qualified_domains": 6,
                    "qualified_domain_names": ["security", "code", "analysis", "testing", "design", "legal"],
                    "total_domains": 12,
                },
            ),
            "complexity_ceiling": dim(0.8, 44, 120, {"highest_level": 4}),
            "tool_proficiency": dim(0.7, 5, 118, {"tools_assessed": 5}),
            "autonomy_level": dim(0.0, 44, 44, {"highest_level": 0}),
            "learning_rate": dim(None, 0, 0, reason="no taxonomy domain with ≥ 15 completed tasks"),
            "delegation_capability": dim(None, 0, 0, reason="no delegation_decision or delegation_outcome"),
            "orchestration_skills": dim(None, 0, 0, reason="no orchestration_result"),
        },
        dict(CAPABILITY_WEIGHTS),
        CAPABILITY_TIERS,
    )


def test_hand_built_composites_are_what_the_docstrings_say() -> None:
    assert novice_performance()["composite_score"] == pytest.approx(0.375, abs=1e-15)
    assert novice_performance()["tier"] == "Novice"
    assert versatile_capability()["composite_score"] == pytest.approx(0.56666666666666667, abs=1e-15)
    assert versatile_capability()["tier"] == "Versatile"


def test_truncation_shows_0_3996_as_0_39_novice() -> None:
    performance = novice_performance()
    performance["composite_score"] = 0.3996
    text = render_agent_report(stored_assessment(performance, versatile_capability()))
    assert "| Performance | 0.39 | Novice (#9E9E9E) | 4/5 |" in text
    assert "0.40 |" not in text.split("## Performance dimensions")[0]
    # the gap to Competent is 0.0004, a requirement shown rounded up: 0.01
    assert "starts at 0.40: a gap of 0.01" in text


def test_null_dimension_is_a_dash_with_its_reason() -> None:
    text = render_agent_report(stored_assessment(novice_performance(), versatile_capability()))
    row = next(line for line in text.splitlines() if line.startswith("| Consistency |"))
    assert row.startswith("| Consistency | — | — | 0 | 0 |")
    assert CONSISTENCY_REASON in row
    assert "0.00" not in row


def test_dimension_rows_show_score_weight_sample_evidence_and_inputs() -> None:
    text = render_agent_report(stored_assessment(novice_performance(), versatile_capability()))
    row = next(line for line in text.splitlines() if line.startswith("| Accuracy |"))
    # weight in force 0.25 / 0.80 = 0.3125
    assert row.startswith("| Accuracy | 0.40 | 0.3125 | 44 | 52 |")
    assert "from revisions 0.5; from errors 0.25; revised share 0.5" in row
    # a nested breakdown becomes its own table
    assert "**Speed to delivery — per level**" in text
    assert "| 1 | 20 | 0.25 |" in text


def test_each_assessed_dimension_is_explained_in_plain_language_under_its_table() -> None:
    text = render_agent_report(stored_assessment(novice_performance(), versatile_capability()))
    for axis_title, axis_name in (("Performance", "performance"), ("Capability", "capability")):
        section = text.split(f"## {axis_title} dimensions")[1].split("\n## ")[0]
        for name in names_of(axis_name):
            assert f"- **{title_of(name)}**: {BY_NAME[name].explanation}" in section, name


def _learning_rate_report() -> str:
    """The report of a single-dimension assessment of learning rate."""
    learning = {
        "composite_score": None,
        "tier": None,
        "covered": 1,
        "total": 1,
        "weights_used": {},
        "dimensions": {"learning_rate": dim(0.42, 15, 60, {"improvement": 0.126})},
    }
    return render_agent_report(
        stored_assessment(None, learning, assessment_type="single_dimension", dimension="learning_rate")
    )


def test_a_single_dimension_report_explains_that_dimension_only() -> None:
    text = _learning_rate_report()
    assert f"- **Learning rate**: {BY_NAME['learning_rate'].explanation}" in text
    assert sum(d.explanation in text for d in DIMENSIONS) == 1


def test_tier_raise_arithmetic_for_a_novice_performance() -> None:
    raise_ = tier_raise("performance", novice_performance(), dict(PERFORMANCE_WEIGHTS))
    assert raise_ is not None
    assert raise_.next_tier == "Competent" and raise_.next_bound == 0.40
    assert raise_.gap == pytest.approx(0.025)
    needs = {need.dimension: need for need in raise_.needs}
    # covered: x = s + (T − C) / w
    assert needs["task_completion_rate"].required == pytest.approx(0.5 + 0.025 / 0.3125)  # 0.58
    assert needs["accuracy"].required == pytest.approx(0.4 + 0.025 / 0.3125)  # 0.48
    assert needs["speed"].required == pytest.approx(0.2 + 0.025 / 0.1875)  # 0.3333…
    assert needs["review_compliance"].required == pytest.approx(0.3 + 0.025 / 0.1875)  # 0.4333…
    # uncovered consistency (configured 0.20): x = (0.40·(0.80 + 0.20) − 0.80·0.375) / 0.20 = 0.10 / 0.20 = 0.5
    assert needs["consistency"].required == pytest.approx(0.5)
    assert not needs["consistency"].covered
    assert raise_.lowest_covered == ("speed", "review_compliance", "accuracy")
    assert raise_.uncovered == ("consistency",)


def test_tier_raise_is_rendered_with_requirements_rounded_up() -> None:
    text = render_agent_report(
        stored_assessment(novice_performance(), versatile_capability()),
        configured_weights={"performance": dict(PERFORMANCE_WEIGHTS), "capability": dict(CAPABILITY_WEIGHTS)},
    )
    section = text.split("## What would raise the tier")[1]
    assert "**Competent**, starts at 0.40: a gap of 0.03" in section  # 0.025 rounded up
    assert "| Task completion rate | 0.50 | 0.3125 | ≥ 0.58 |" in section
    assert "| Speed to delivery | 0.20 | 0.1875 | ≥ 0.34 |" in section  # 0.3333… → 0.34
    assert "| Review compliance | 0.30 | 0.1875 | ≥ 0.44 |" in section  # 0.4333… → 0.44
    assert "| Consistency | — (not covered) | 0.2 | ≥ 0.50 |" in section
    assert (
        "Lowest-scoring covered dimensions: Speed to delivery (0.20), Review compliance (0.30), Accuracy (0.40)"
        in section
    )
    assert f"Consistency: {CONSISTENCY_REASON}" in section


def test_unreachable_when_one_dimension_alone_would_need_more_than_one() -> None:
    raise_ = tier_raise("capability", versatile_capability(), dict(CAPABILITY_WEIGHTS))
    assert raise_ is not None and raise_.next_tier == "Specialist"
    gap = 0.70 - 0.56666666666666667
    needs = {need.dimension: need for need in raise_.needs}
    assert needs["domain_breadth"].required == pytest.approx(0.5 + gap / 0.25)  # 1.0333 → unreachable
    assert needs["complexity_ceiling"].required == pytest.approx(0.8 + gap / (1 / 3))  # 1.2
    assert needs["tool_proficiency"].required == pytest.approx(0.7 + gap / 0.25)  # 1.2333
    assert needs["autonomy_level"].required == pytest.approx(0.0 + gap / (1 / 6))  # 0.8
    # learning_rate (0.10): (0.70·0.70 − 0.60·0.56667) / 0.10 = (0.49 − 0.34) / 0.10 = 1.5
    assert needs["learning_rate"].required == pytest.approx(1.5)
    # delegation (0.15): (0.70·0.75 − 0.34) / 0.15 = 0.185 / 0.15 = 1.2333
    assert needs["delegation_capability"].required == pytest.approx(0.185 / 0.15)
    assert [n.dimension for n in raise_.needs if n.reachable] == ["autonomy_level"]
    text = render_agent_report(
        stored_assessment(novice_performance(), versatile_capability()),
        configured_weights={"capability": dict(CAPABILITY_WEIGHTS)},
    )
    assert "| Domain breadth | 0.50 | 0.25 | unreachable (would need 1.04) |" in text
    assert "| Autonomy level | 0.00 | 0.1666 | ≥ 0.80 |" in text
    assert "| Learning rate | — (not covered) | 0.1 | unreachable (would need 1.50) |" in text


def test_without_configured_weights_an_uncovered_need_is_unknown() -> None:
    text = render_agent_report(stored_assessment(novice_performance(), versatile_capability()))
    assert "| Consistency | — (not covered) | — | unknown (no configured weight) |" in text


def test_top_tier_says_so() -> None:
    elite = axis(
        {name: dim(0.95) for name in PERFORMANCE_WEIGHTS}, dict(PERFORMANCE_WEIGHTS), PERFORMANCE_TIERS
    )
    text = render_agent_report(stored_assessment(elite, versatile_capability()))
    assert "Performance is 0.95 — **Elite**, already the top tier." in text
    assert "Every dimension is covered." in text


def test_single_dimension_assessment_has_no_composite_or_tier() -> None:
    text = _learning_rate_report()
    assert "| Performance | — | not assessed | — |" in text
    assert "| Capability | — | — (a single dimension is not a composite) | 1/1 |" in text
    assert "- Dimension assessed: Learning rate" in text
    assert "A single-dimension assessment has no composite and no tier" in text
    assert "| Learning rate | 0.42 | — | 15 | 60 | improvement 0.126 |" in text


def test_standards_validity_review_and_appeals() -> None:
    appeal = {
        "id": "ap-1",
        "status": "accepted",
        "dimensions_challenged": ["accuracy"],
        "justification": "Revisions were scope changes, not errors.",
        "filed_at": "2026-11-21T09:00:00Z",
        "resolved_at": "2026-11-22T09:00:00Z",
        "resolution": {"accuracy": {"before": 0.4, "after": 0.55}},
    }
    text = render_agent_report(
        stored_assessment(
            novice_performance(),
            versatile_capability(),
            appeals=[appeal],
            anomalous=True,
            review_state="pending_review",
        )
    )
    assert "| Task completion rate | NIST AI 100-1 | MEASURE 2.6 (valid and reliable) |" in text
    assert "| Autonomy level | ISO/IEC 22989:2022 | Human-in/on/over-the-loop definitions |" in text
    assert "- Valid until: 2027-02-18T12:00:00Z" in text
    assert "**pending review**" in text
    assert "**anomalous**" in text and "performance 0.2" in text
    assert "| ap-1 | accepted | accuracy | 2026-11-21T09:00:00Z | 2026-11-22T09:00:00Z |" in text


def test_no_appeals_and_trust_note() -> None:
    text = render_agent_report(
        stored_assessment(novice_performance(), versatile_capability()),
        trust_note="No trust score: nothing yet.",
    )
    assert "### Appeals on record\n\nNone." in text
    assert "## Trust score (docs/scoring.md §4)\n\nNo trust score: nothing yet." in text


def test_trust_section_truncates_to_an_integer() -> None:
    trust = {
        "composite": 599.9999,
        "tier": "bronze",
        "covered": 11,
        "total": 16,
        "gated": True,
        "tier_reason": "security below 50: capped at 599, no tier above bronze",
        "at": "2026-11-20T12:00:00Z",
    }
    text = render_agent_report(stored_assessment(novice_performance(), versatile_capability()), trust=trust)
    assert "| 599 | bronze | 11/16 | yes — capped by the security gate |" in text
    assert "Why this tier: security below 50" in text


def test_rendering_is_deterministic_and_pure() -> None:
    record = stored_assessment(novice_performance(), versatile_capability())
    assert render_agent_report(record) == render_agent_report(record)


def test_small_helpers() -> None:
    assert ceil_display(0.3333333) == "0.34"
    assert ceil_display(0.5800000000000001) == "0.58"
    assert ceil_display(0.58) == "0.58"
    assert trust_display(None) == "—" and trust_display(749.99) == "749"
    assert format_value(0.89999) == "0.8999" and format_value(None) == "—" and format_value(True) == "yes"
    assert format_value(["a", "b"]) == "a, b" and format_value([]) == "none"
    assert next_tier(0.3996, PERFORMANCE_TIERS).name == "Competent"  # type: ignore[union-attr]
    assert next_tier(0.40, PERFORMANCE_TIERS).name == "Proficient"  # type: ignore[union-attr]
    assert next_tier(0.90, PERFORMANCE_TIERS) is None
    assert required_for_covered(0.5, 0.6, 0.5, 0.0) is None
    assert required_for_uncovered(0.5, 0.6, 0.8, 0.0) is None


unit = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


@given(st.lists(st.one_of(st.none(), unit), min_size=5, max_size=5))
def test_a_reachable_requirement_reaches_the_next_tier(values: list[float | None]) -> None:
    """Setting one dimension to its (unrounded) requirement lands on the next tier's bound."""
    names = list(PERFORMANCE_WEIGHTS)
    scores = dict(zip(names, values, strict=True))
    result = composite(scores, PERFORMANCE_WEIGHTS, PERFORMANCE_TIERS)
    if result.score is None:
        return
    data = {**result.to_dict(), "dimensions": {n: dim(scores[n]) for n in names}}
    raise_ = tier_raise("performance", data, dict(PERFORMANCE_WEIGHTS))
    assert raise_ is not None
    if raise_.next_bound is None:
        assert result.score >= 0.90
        return
    for need in raise_.needs:
        if need.required is None or not need.reachable:
            continue
        changed = dict(scores, **{need.dimension: need.required})
        after = composite(changed, PERFORMANCE_WEIGHTS, PERFORMANCE_TIERS)
        assert after.score is not None
        assert math.isclose(after.score, raise_.next_bound, abs_tol=1e-9)


def test_agent_header_and_evidence_line() -> None:
    agent = {
        "id": "agent-1",
        "name": "security-auditor",
        "claimed_domains": ["security", "code"],
        "tools": [],
        "description": "Identifies vulnerabilities.",
    }
    text = render_agent_report(stored_assessment(novice_performance(), versatile_capability()), agent=agent)
    assert "- Agent: security-auditor (agent-1)" in text
    assert "- Description: Identifies vulnerabilities." in text
    assert "- Claimed domains: security, code" in text
    assert "- Tools: none declared at enrolment" in text
    assert (
        "- Evidence: 47 window tasks, 44 completed; 212 events used "
        "(task_assigned 47, task_completed 47, tool_invoked 118)" in text
    )
