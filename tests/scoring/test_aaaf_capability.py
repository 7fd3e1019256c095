"""The seven Capability dimensions (SCORING.md §2.3), each against a hand computation.

Where a test is about a capability rule rather than about perf(S) itself, it uses an org
configuration whose Performance weights put everything on task_completion_rate, so that
perf(S) is the recency-weighted mean credit of S (other dimensions stay covered with
weight 0; SCORING.md §0).
"""

from __future__ import annotations

import pytest

from aaaf.scoring.aaaf import assess
from aaaf.scoring.core import DimensionResult
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.records import EventRecord
from tests.scoring.factories import WINDOW_END, Events

CONFIG = AAAFConfig()
TCR_ONLY = CONFIG.with_overrides(
    performance_weights={
        "task_completion_rate": 1.0,
        "accuracy": 0.0,
        "speed": 0.0,
        "consistency": 0.0,
        "review_compliance": 0.0,
    }
)


def capability(events: list[EventRecord], name: str, config: AAAFConfig = CONFIG) -> DimensionResult:
    result = assess(
        events, config, WINDOW_END, assessment_type="single_dimension", dimension=name, enforce_minimums=False
    )
    assert result.capability is not None
    return result.capability.dimensions[name]


def tasks(ev: Events, prefix: str, statuses: list[str], **kwargs: object) -> list[EventRecord]:
    return [e for i, status in enumerate(statuses) for e in ev.task(f"{prefix}{i}", status, **kwargs)]  # type: ignore[arg-type]


# --------------------------------------------------------------------------- domain_breadth


def test_domain_breadth_counts_taxonomy_domains_with_three_completed_and_perf() -> None:
    ev = Events()
    events = [
        *tasks(ev, "code", ["accepted"] * 3, domain="code"),  # perf 1.0 → qualifies
        *tasks(ev, "res", ["accepted", "accepted", "rejected"], domain="research"),  # 2 completed → no
        *tasks(ev, "test", ["accepted"] * 4 + ["rejected"] * 6, domain="testing"),  # perf 4/10 = 0.40 → yes
        *tasks(ev, "sec", ["accepted"] * 4 + ["rejected"] * 7, domain="security"),  # perf 4/11 → no
        *tasks(ev, "x", ["accepted"] * 5, domain="underwater-basket-weaving"),  # not in the taxonomy
    ]
    result = capability(events, "domain_breadth", TCR_ONLY)
    # qualified: code, testing → 2 / 12
    assert result.score == pytest.approx(2 / 12)
    assert result.details["qualified_domains"] == 2
    assert result.details["qualified_domain_names"] == ["code", "testing"]
    assert result.details["total_domains"] == 12
    assert result.details["per_domain"]["testing"]["performance"] == 0.4
    assert result.details["domains_outside_taxonomy"] == ["underwater-basket-weaving"]


def test_domain_breadth_null_without_completed_tasks() -> None:
    ev = Events()
    result = capability(tasks(ev, "t", ["rejected", "failed"]), "domain_breadth")
    assert result.score is None
    assert result.reason == "no completed task in the assessment window"


def test_domain_breadth_zero_when_tasks_complete_but_no_domain_qualifies() -> None:
    ev = Events()
    result = capability(tasks(ev, "t", ["accepted"] * 2, domain="code"), "domain_breadth")
    assert result.score == 0.0


# --------------------------------------------------------------------------- complexity_ceiling


def test_complexity_ceiling_highest_level_with_three_completed_and_perf_060() -> None:
    ev = Events()
    events = [
        *tasks(ev, "l3-", ["accepted"] * 3, complexity=3),
        *tasks(ev, "l4-", ["accepted"] * 3 + ["rejected"] * 2, complexity=4),  # perf 3/5 = 0.60 → passes
        *tasks(ev, "l5-", ["accepted"] * 2, complexity=5),  # only 2 completed
    ]
    result = capability(events, "complexity_ceiling", TCR_ONLY)
    assert result.score == pytest.approx(4 / 5)
    assert result.details["highest_level"] == 4
    assert result.details["per_level"]["4"]["performance"] == 0.6
    assert result.details["per_level"]["5"] == {
        "tasks": 2,
        "completed_tasks": 2,
        "performance": None,
        "qualified": False,
    }


def test_complexity_ceiling_zero_versus_null() -> None:
    ev = Events()
    # completed tasks, none at a passing level: 0 (3 accepted + 3 rejected at L2 → perf 0.5 < 0.6)
    weak = tasks(ev, "t", ["accepted"] * 3 + ["rejected"] * 3, complexity=2)
    zero = capability(weak, "complexity_ceiling", TCR_ONLY)
    assert zero.score == 0.0 and zero.details["highest_level"] is None
    # no completed task at all: null
    none = capability(tasks(Events(), "t", ["failed"] * 4, complexity=2), "complexity_ceiling")
    assert none.score is None


# --------------------------------------------------------------------------- tool_proficiency


def test_tool_proficiency_per_tool_minimum_and_formula() -> None:
    ev = Events()
    events = ev.task("host")
    # grep: 10 invocations, 8 successes, 2 failures (1 recovered), 1 unnecessary
    for i in range(8):
        events.append(ev.tool("host", "grep", unnecessary=i == 0))
    events.append(ev.tool("host", "grep", success=False, recovered=True))
    events.append(ev.tool("host", "grep", success=False))
    # bash: 9 invocations only → not assessed
    events += [ev.tool("host", "bash") for _ in range(9)]
    # web_search from a tools_used summary on another task: no failures → recovery 1.0
    events += ev.task(
        "rich", tools_used=[{"tool": "web_search", "invocations": 12, "successes": 12, "unnecessary": 3}]
    )
    result = capability(events, "tool_proficiency")
    grep = 0.5 * 0.8 + 0.3 * 0.5 + 0.2 * (1 - 0.1)  # = 0.73
    web = 0.5 * 1.0 + 0.3 * 1.0 + 0.2 * (1 - 0.25)  # = 0.95
    assert result.score == pytest.approx((grep + web) / 2)  # 0.84
    assert result.details["tools_assessed"] == 2
    assert result.sample_size == 2
    assert result.details["tools"]["bash"] == {
        "invocations": 9,
        "successes": 9,
        "failures": 0,
        "recovered": 0,
        "unnecessary": 0,
        "qualified": False,
    }
    assert result.details["tools"]["web_search"]["recovery"] == 1.0
    # events used: the 10 grep invocations + the rich completion carrying web_search
    assert result.evidence_count == 11


def test_tool_proficiency_granular_wins_per_task() -> None:
    ev = Events()
    events = ev.task(
        "t1", tools_used=[{"tool": "grep", "invocations": 100, "successes": 0, "unnecessary": 0}]
    )
    events += [ev.tool("t1", "grep") for _ in range(10)]  # these replace the summary above
    result = capability(events, "tool_proficiency")
    # 10 invocations, all successful: 0.5·1 + 0.3·1 + 0.2·1 = 1.0
    assert result.details["tools"]["grep"]["invocations"] == 10
    assert result.score == 1.0


def test_tool_proficiency_null_without_a_tool_reaching_ten() -> None:
    ev = Events()
    events = ev.task("t1") + [ev.tool("t1", "grep") for _ in range(9)]
    result = capability(events, "tool_proficiency")
    assert result.score is None and result.reason == "no tool with ≥ 10 invocations"


# --------------------------------------------------------------------------- autonomy_level


def test_autonomy_level_highest_passing_level() -> None:
    ev = Events()
    events = [
        *tasks(ev, "a1-", ["accepted"] * 3, autonomy=1),
        *tasks(ev, "a2-", ["accepted"] * 3, autonomy=2),
        *tasks(ev, "a3-", ["accepted", "rejected", "rejected"], autonomy=3),  # perf 1/3 < 0.6
    ]
    result = capability(events, "autonomy_level", TCR_ONLY)
    assert result.score == pytest.approx(2 / 3)
    assert result.details["highest_level"] == 2


def test_autonomy_level_zero_and_null() -> None:
    ev = Events()
    # level 0 passes: the highest passing level is 0 → 0/3 = 0
    zero = capability(tasks(ev, "t", ["accepted"] * 3, autonomy=0), "autonomy_level")
    assert zero.score == 0.0 and zero.details["highest_level"] == 0
    # completed tasks, but none carries an autonomy level → null
    none = capability(tasks(Events(), "t", ["accepted"] * 3), "autonomy_level")
    assert none.score is None and none.reason == "no completed task carries an autonomy level"


def test_autonomy_from_rich_task_completed_only_without_task_assigned() -> None:
    ev = Events()
    events = [ev.completed(f"t{i}", autonomy_level=3, domain="code", complexity_level=2) for i in range(3)]
    assert capability(events, "autonomy_level").score == 1.0


# --------------------------------------------------------------------------- learning_rate


def learning_events(count: int, domain: str = "code") -> list[EventRecord]:
    """``count`` completed tasks in one domain, oldest first, all within 7 days (weight 1).

    The 15 most recent: the first 5 partial at 0.8, the middle 5 accepted, the last 5
    accepted.  Anything older than those 15 is a worthless partial (credit 0).
    """
    ev = Events()
    events: list[EventRecord] = []
    for i in range(count):
        position = i - (count - 15)  # 0..14 for the 15 most recent
        days_ago = 6.9 - i * 0.4
        if position < 0:
            events += ev.task(
                f"t{i:02d}", "partial", domain=domain, days_ago=days_ago, milestone_fraction=0.0
            )
        elif position < 5:
            events += ev.task(
                f"t{i:02d}", "partial", domain=domain, days_ago=days_ago, milestone_fraction=0.8
            )
        else:
            events += ev.task(f"t{i:02d}", "accepted", domain=domain, days_ago=days_ago)
    return events


def test_learning_rate_compares_first_and_last_five_of_fifteen_most_recent() -> None:
    result = capability(learning_events(16), "learning_rate", TCR_ONLY)
    # perf(first 5) = 0.8, perf(last 5) = 1.0, improvement = 0.2 → 0.2 / 0.30
    assert result.details["improvement"] == pytest.approx(0.2)
    assert result.score == pytest.approx(0.2 / 0.3)
    per_domain = result.details["per_domain"]["code"]
    assert per_domain["earlier_tasks"] == ["t01", "t02", "t03", "t04", "t05"]  # t00 is the 16th most recent
    assert per_domain["later_tasks"] == ["t11", "t12", "t13", "t14", "t15"]


def test_learning_rate_needs_fifteen_completed_tasks_in_a_taxonomy_domain() -> None:
    assert capability(learning_events(15), "learning_rate", TCR_ONLY).score == pytest.approx(0.2 / 0.3)
    fourteen = capability(learning_events(14), "learning_rate", TCR_ONLY)
    assert fourteen.score is None
    assert capability(learning_events(15, domain="not-in-taxonomy"), "learning_rate").score is None


def test_learning_rate_is_clamped_to_zero_for_a_decline() -> None:
    ev = Events()
    events: list[EventRecord] = []
    for i in range(15):
        status = "accepted" if i < 5 else "partial"
        events += ev.task(f"t{i:02d}", status, days_ago=6.9 - i * 0.4, milestone_fraction=0.5)
    result = capability(events, "learning_rate", TCR_ONLY)
    assert result.details["improvement"] == pytest.approx(-0.5)
    assert result.score == 0.0


# --------------------------------------------------------------------------- delegation_capability


def test_delegation_capability_judgment_selection_management() -> None:
    ev = Events()
    events = ev.task("host")
    events += [
        ev.decision("host", "self", "self"),  # judged right; delegate_to null is fine with self
        ev.decision("host", "delegate", "delegate", delegate_to="a", optimal_delegate="a"),  # right, right
        ev.decision("host", "delegate", "self", delegate_to="b", optimal_delegate="a"),  # wrong, wrong
        ev.decision("host", "self", "delegate", optimal_delegate="a"),  # wrong; self → no selection
        ev.decision("host", "delegate", "delegate", delegate_to="c"),  # right; no optimal → skipped
        ev.outcome("host", "success"),  # 1
        ev.outcome("host", "partial", revision_needed=True),  # 0.5 × 0.5 = 0.25
        ev.outcome("host", "failure"),  # 0
        ev.outcome("host", "success", revision_needed=True),  # 0.5
    ]
    result = capability(events, "delegation_capability")
    # judgment 3/5 = 0.6 ; selection 1/2 = 0.5 ; management 1.75/4 = 0.4375
    assert result.details["judgment"] == pytest.approx(0.6)
    assert result.details["selection"] == pytest.approx(0.5)
    assert result.details["management"] == pytest.approx(0.4375)
    # 0.4·0.6 + 0.3·0.5 + 0.3·0.4375 = 0.24 + 0.15 + 0.13125
    assert result.score == pytest.approx(0.52125)
    assert result.details["decisions_assessed"] == 5
    assert result.evidence_count == 9


def test_delegation_capability_renormalises_without_selection() -> None:
    ev = Events()
    events = ev.task("host")
    events += [
        ev.decision("host", "self", "self"),
        ev.decision("host", "self", "delegate"),
        ev.outcome("host", "partial"),  # 0.5
    ]
    result = capability(events, "delegation_capability")
    assert result.details["selection"] is None
    # (0.4·0.5 + 0.3·0.5) / (0.4 + 0.3)
    assert result.score == pytest.approx((0.4 * 0.5 + 0.3 * 0.5) / 0.7)


def test_delegation_capability_counts_embedded_decisions_and_unattached_ones_by_time() -> None:
    ev = Events()
    embedded = [
        {"task_fragment": "a", "decision": "self", "ground_truth": "self", "correct": True},
        {"task_fragment": "b", "decision": "delegate", "delegate_to": "doc", "ground_truth": "self"},
    ]
    events = ev.task("rich", delegation_decisions=embedded)
    events.append(ev.decision(None, "self", "self", days_ago=3))  # inside the window: counts
    events.append(ev.decision(None, "self", "delegate", days_ago=31))  # outside: does not
    result = capability(events, "delegation_capability")
    # judgment 2/3 ; nothing else → the score is the judgment
    assert result.details["decisions_assessed"] == 3
    assert result.score == pytest.approx(2 / 3)


# --------------------------------------------------------------------------- orchestration_skills


def test_orchestration_skills_with_missing_graded_scores_renormalised() -> None:
    ev = Events()
    events = ev.task("o1") + ev.task("o2")
    events += [
        ev.plan("o1"),  # a plan is evidence of the work, not an input of the formula
        # failure handling 1/2; (0.8 + 0.6 + 0.5 + 0.9) / 4 = 0.7
        ev.orchestration(
            "o1", failures_injected=2, failures_recovered=1, workflow=0.8, communication=0.6, synthesis=0.9
        ),
        # nothing injected → 1.0; workflow and communication missing: (1.0 + 0.5) / 2 = 0.75
        ev.orchestration("o2", synthesis=0.5),
    ]
    result = capability(events, "orchestration_skills")
    assert result.score == pytest.approx((0.7 + 0.75) / 2)
    assert result.details["scenarios_assessed"] == 2
    assert result.details["failure_handling"] == pytest.approx(0.75)
    assert result.details["workflow_design"] == pytest.approx(0.8)
    assert result.evidence_count == 2


def test_orchestration_skills_null_without_results() -> None:
    ev = Events()
    result = capability([*ev.task("t"), ev.plan("t")], "orchestration_skills")
    assert result.score is None


# --------------------------------------------------------------------------- composite


def test_capability_composite_renormalised_with_tier() -> None:
    ev = Events()
    events: list[EventRecord] = []
    for i in range(30):
        events += ev.task(f"t{i:02d}", domain="code", complexity=3, autonomy=2, seconds=600)
    result = assess(events, CONFIG, WINDOW_END)
    axis = result.capability
    assert axis is not None
    scores = {name: d.score for name, d in axis.dimensions.items()}
    # 30 perfect L3 tasks in 'code' at autonomy 2, all within the last day:
    # domain_breadth 1/12, complexity 3/5, autonomy 2/3, learning 0 (no improvement), no tools,
    # delegation or orchestration evidence → those three null
    assert scores["domain_breadth"] == pytest.approx(1 / 12)
    assert scores["complexity_ceiling"] == pytest.approx(0.6)
    assert scores["autonomy_level"] == pytest.approx(2 / 3)
    assert scores["learning_rate"] == 0.0
    assert scores["tool_proficiency"] is None
    assert scores["delegation_capability"] is None
    assert scores["orchestration_skills"] is None
    # (0.15/12 + 0.20·0.6 + 0.10·2/3 + 0.10·0) / (0.15 + 0.20 + 0.10 + 0.10)
    expected = (0.15 / 12 + 0.20 * 0.6 + 0.10 * 2 / 3) / 0.55
    assert axis.composite.score == pytest.approx(expected)  # ≈ 0.3621
    assert axis.composite.tier == "Functional"
    assert (axis.composite.covered, axis.composite.total) == (4, 7)
