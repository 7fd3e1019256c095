"""The gate's pure decisions (issue 20 §1): --fail-on, the eval-run gate on the verdict engine's
comparison, the agent gate on two assessments, and the Markdown / JUnit / HTML it writes."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pytest
from junitparser import Failure, JUnitXml, Skipped

from aaaf.errors import AAAFError
from aaaf.scoring.layered import GradedAssertion, JudgeScore, LayeredConfig, LayeredRun, LayeredSample
from aaaf.scoring.verdict import Verdict, compare_runs
from aaaf.services.gate import (
    DEFAULT_FAIL_ON,
    GateVerdict,
    decide_agent,
    decide_eval,
    parse_fail_on,
)
from aaaf.services.gate_checks import Z95, difference_interval
from aaaf.services.gate_report import agent_html, check_status, junit_xml, markdown_summary

DEFAULT = parse_fail_on(DEFAULT_FAIL_ON)
CONFIG = LayeredConfig(resamples=2000)


def _sample(sid: str, fact: int, behavior: int, judge: float) -> LayeredSample:
    assertions = [GradedAssertion("contains", i < fact) for i in range(4)]
    assertions += [GradedAssertion("tool_called", i < behavior) for i in range(4)]
    return LayeredSample(sid, tuple(assertions), (JudgeScore("j1", judge), JudgeScore("j2", judge)), None)


def _run(name: str, rows: Sequence[tuple[int, int, float]]) -> LayeredRun:
    return LayeredRun(name, name, tuple(_sample(f"s{i}", *row) for i, row in enumerate(rows)))


def _pair(control: Sequence[tuple[int, int, float]], treatment: Sequence[tuple[int, int, float]]) -> Any:
    return compare_runs(_run("c", control), _run("t", treatment), CONFIG)


def test_fail_on_parses_names_case_insensitively_and_refuses_unknown_ones() -> None:
    assert DEFAULT == ("regress", "tier-drop")
    assert parse_fail_on(" Regress , INCONCLUSIVE,regress") == ("regress", "inconclusive")
    assert parse_fail_on("none") == ()
    assert parse_fail_on("any-layer-regress,cautious") == ("any-layer-regress", "cautious")
    for bad in ("regresss", "", "none,regress", "tier_drop"):
        with pytest.raises(AAAFError) as caught:
            parse_fail_on(bad)
        assert caught.value.code == "INVALID_REQUEST" and caught.value.exit_code == 2
        assert "tier-drop" in caught.value.message  # says what is known


def test_the_eval_gate_takes_the_verdict_engines_verdict_and_fails_on_regress() -> None:
    control = [(2, 3, 3.0 + (i % 3 == 0)) for i in range(30)]
    better = [(3, 3 + (i % 2), 4.0) for i in range(30)]
    up = _pair(control, better)
    down = _pair(better, control)
    passed, failed = decide_eval(up, DEFAULT), decide_eval(down, DEFAULT)
    assert (
        (passed.verdict, failed.verdict) == (up.verdict, down.verdict) == (Verdict.PROGRESS, Verdict.REGRESS)
    )
    assert passed.passed and passed.exit_code == 0 and passed.failing == ()
    assert not failed.passed and failed.exit_code == 1
    assert failed.failing[0] == "regress: the verdict is REGRESS"
    assert [c.name for c in failed.checks] == ["composite", "fact", "behavior", "judge"]
    composite = failed.checks[0]
    assert composite.regressed and composite.interval == (down.composite.ci.low, down.composite.ci.high)
    # fact 4 → 3 of 4 assertions: 4.0 → 3.0 passes the 3.5 gate in the baseline, fails it now
    fact = failed.checks[1]
    assert fact.tier_drop and fact.regressed and fact.tier_baseline == "passes gate"
    assert decide_eval(down, parse_fail_on("none")).passed  # --fail-on none never fails


def test_a_gate_lost_without_a_significant_drop_fails_only_on_tier_drop() -> None:
    # the verdict engine's own example (tests/scoring/test_verdict.py): fact 3.53 → 3.43, noise
    c_fact, t_fact = [3, 2] * 15, [2, 3] * 15
    c_fact[0], t_fact[1] = 4, 1
    comparison = _pair([(c_fact[i], 3, 4.0) for i in range(30)], [(t_fact[i], 3, 4.0) for i in range(30)])
    assert comparison.verdict is not Verdict.REGRESS
    result = decide_eval(comparison, DEFAULT)
    fact = next(c for c in result.checks if c.name == "fact")
    assert fact.tier_drop and not fact.regressed
    assert result.failing == ("tier-drop: fact",) and result.exit_code == 1
    assert decide_eval(comparison, parse_fail_on("regress")).exit_code == 0


def test_any_layer_regress_catches_a_layer_that_fell_under_a_flat_composite() -> None:
    # fact 5 → 4 (still above its gate), judge 3 → 4: the composite does not move, fact falls
    comparison = _pair([(4, 3, 3.0)] * 20, [(3, 3, 4.0)] * 20)
    assert comparison.verdict is Verdict.CAUTIOUS
    assert decide_eval(comparison, DEFAULT).passed
    strict = decide_eval(comparison, parse_fail_on("any-layer-regress"))
    assert strict.failing == ("any-layer-regress: fact",)
    assert decide_eval(comparison, parse_fail_on("cautious")).failing == (
        "cautious: the verdict is CAUTIOUS",
    )


def test_an_unchanged_run_is_equivalent_and_passes_the_strict_gate() -> None:
    same = [(3 + (i % 2), 3, 4.0) for i in range(30)]
    noise = _pair(same, same)
    assert noise.verdict is Verdict.NOISE  # the engine: no difference found
    strict = decide_eval(noise, parse_fail_on("regress,tier-drop,inconclusive"))
    assert strict.verdict is GateVerdict.EQUIVALENT and strict.passed  # the gate: shown within ±0.25
    assert strict.action == "SHIP" and "within ±0.25 points" in strict.reason
    composite = strict.checks[0]
    assert composite.equivalent and composite.equivalence == (0.0, 0.0) and composite.margin == 0.25
    # a NOISE whose interval is wider than the margin stays NOISE: inconclusive fails it
    swapped = [(3 + ((i + 1) % 2), 3, 4.0) for i in range(30)]  # each sample ±1 fact point, mean 0
    wide = _pair(same, swapped)
    assert wide.verdict is Verdict.NOISE
    tight = decide_eval(wide, parse_fail_on("inconclusive"), margin=0.05)
    assert tight.verdict is GateVerdict.NOISE and tight.checks[0].equivalent is False
    assert tight.failing == ("inconclusive: the verdict is NOISE",)
    few = _pair(same[:3], same[:3])
    assert few.verdict is Verdict.UNDERPOWERED
    underpowered = decide_eval(few, parse_fail_on("inconclusive"))
    assert underpowered.verdict is GateVerdict.UNDERPOWERED and not underpowered.passed


def test_the_eval_equivalence_is_tost_on_the_paired_composite_differences() -> None:
    from scipy import stats as scipy_stats

    control = [(2 + (i % 3 == 0), 3, 3.0 + (i % 4 == 0)) for i in range(40)]
    treatment = [(2 + (i % 5 == 0), 3, 3.0 + (i % 3 == 0)) for i in range(40)]
    comparison = _pair(control, treatment)
    diffs = comparison.composite.differences
    assert len(diffs) == 40 and math.isclose(sum(diffs) / 40, comparison.composite.diff or 0.0)
    check = decide_eval(comparison, DEFAULT, margin=0.3).checks[0]
    low, high = scipy_stats.t.interval(0.90, 39, loc=sum(diffs) / 40, scale=scipy_stats.sem(diffs))
    assert check.equivalence == pytest.approx((low, high))
    assert check.equivalent == (low > -0.3 and high < 0.3)


# ------------------------------------------------------------------ agent


def _axis(composite: float | None, tier: str | None, ci: Sequence[float] | None, **dims: float | None) -> dict[str, Any]:  # fmt: skip
    return {
        "composite_score": composite,
        "tier": tier,
        "uncertainty": None if ci is None else {"ci": list(ci), "tier_probabilities": {}, "resamples": 1000},
        "dimensions": {name: {"score": score} for name, score in dims.items()},
    }


def _assessment(ident: str, perf: dict[str, Any], cap: dict[str, Any]) -> dict[str, Any]:
    return {"id": ident, "performance": perf, "capability": cap}


BASE = _assessment(
    "base",
    _axis(0.80, "Expert", (0.76, 0.84), accuracy=0.8, speed=0.9),
    _axis(0.55, "Versatile", (0.50, 0.60), domain_breadth=0.5),
)


def test_difference_interval_combines_two_independent_intervals() -> None:
    low, high = difference_interval((0.76, 0.84), (0.66, 0.74), -0.10)  # type: ignore[misc]
    se = 0.08 / (2 * Z95)
    assert math.isclose(high - low, 2 * Z95 * math.sqrt(2) * se)
    assert math.isclose((low + high) / 2, -0.10)
    assert difference_interval(None, (0.1, 0.2), 0.0) is None


def test_agent_regress_when_an_axis_difference_lies_below_zero() -> None:
    candidate = _assessment(
        "cand",
        _axis(0.62, "Proficient", (0.58, 0.66), accuracy=0.6, speed=0.9),
        _axis(0.55, "Versatile", (0.50, 0.60), domain_breadth=0.5),
    )
    result = decide_agent(BASE, candidate, DEFAULT)
    assert result.verdict is GateVerdict.REGRESS and result.exit_code == 1
    perf = result.checks[0]
    assert perf.name == "performance" and perf.regressed and perf.tier_drop
    assert perf.interval is not None and perf.interval[1] < 0
    assert result.failing == ("regress: the verdict is REGRESS", "tier-drop: performance")
    accuracy = next(c for c in result.checks if c.name == "performance.accuracy")
    assert accuracy.regressed and math.isclose(accuracy.diff or 0, -0.2)
    assert result.headline.startswith("REGRESS · DO NOT SHIP — performance 0.80→0.62 (Expert→Proficient)")


def test_agent_tier_drop_inside_the_noise_fails_by_default_only() -> None:
    candidate = _assessment(
        "cand",
        _axis(0.74, "Proficient", (0.68, 0.80), accuracy=0.78, speed=0.88),
        _axis(0.55, "Versatile", (0.50, 0.60), domain_breadth=0.5),
    )
    result = decide_agent(BASE, candidate, DEFAULT)
    assert result.verdict is GateVerdict.CAUTIOUS and result.reason.startswith("tier dropped: performance")
    assert result.failing == ("tier-drop: performance",)
    assert decide_agent(BASE, candidate, parse_fail_on("regress")).passed


def test_agent_noise_progress_underpowered_and_solo() -> None:
    same = decide_agent(BASE, {**BASE, "id": "again"}, DEFAULT)
    assert same.verdict is GateVerdict.EQUIVALENT and same.passed  # ±0.10, from the stored intervals
    narrow = decide_agent(BASE, {**BASE, "id": "again"}, parse_fail_on("inconclusive"), margin=0.05)
    assert narrow.verdict is GateVerdict.NOISE and not narrow.passed  # capability's interval is too wide
    better = _assessment(
        "up",
        _axis(0.92, "Elite", (0.89, 0.95), accuracy=0.9, speed=0.95),
        _axis(0.56, "Versatile", (0.51, 0.61), domain_breadth=0.5),
    )
    assert decide_agent(BASE, better, DEFAULT).verdict is GateVerdict.PROGRESS
    no_interval = _assessment("n", _axis(0.80, "Expert", None), _axis(0.55, "Versatile", None))
    underpowered = decide_agent(BASE, no_interval, parse_fail_on("inconclusive"))
    assert underpowered.verdict is GateVerdict.UNDERPOWERED and underpowered.exit_code == 1
    first = decide_agent(None, BASE, DEFAULT)
    assert first.verdict is GateVerdict.SOLO and first.passed and first.baseline == "—"
    assert not decide_agent(None, BASE, parse_fail_on("solo")).passed


def test_a_dimension_falls_only_beyond_the_tolerance() -> None:
    candidate = _assessment(
        "cand",
        _axis(0.79, "Expert", (0.75, 0.83), accuracy=0.72, speed=0.9),
        _axis(0.55, "Versatile", (0.50, 0.60), domain_breadth=None),
    )
    loose = decide_agent(BASE, candidate, parse_fail_on("any-layer-regress"))
    assert loose.passed  # accuracy fell by 0.08 ≤ 0.10; breadth has no evidence now: absent
    breadth = next(c for c in loose.checks if c.name == "capability.domain_breadth")
    assert breadth.absent and breadth.note == "no evidence on one side"
    tight = decide_agent(BASE, candidate, parse_fail_on("any-layer-regress"), dimension_tolerance=0.05)
    assert tight.failing == ("any-layer-regress: performance.accuracy",)
    assert tight.verdict is GateVerdict.CAUTIOUS


# ------------------------------------------------------------------ outputs


def test_junit_has_one_case_per_check_and_a_gate_case(tmp_path: Any) -> None:
    down = decide_eval(_pair([(4, 3, 4.0)] * 20, [(3, 3, 3.0)] * 20), DEFAULT)
    path = tmp_path / "junit.xml"
    path.write_text(junit_xml(down), encoding="utf-8")
    xml = JUnitXml.fromfile(str(path))
    suites = list(xml)
    assert len(suites) == 1
    cases = {case.name: case for case in suites[0]}
    assert list(cases) == ["composite", "fact", "behavior", "judge", "gate"]
    failed = {name for name, case in cases.items() if any(isinstance(r, Failure) for r in case.result)}
    assert failed == {"composite", "fact", "judge", "gate"}  # behavior did not move
    assert suites[0].tests == 5 and suites[0].failures == 4 and suites[0].errors == 0
    gate = next(r for r in cases["gate"].result if isinstance(r, Failure))
    assert gate.message == "; ".join(down.failing)
    # an agent's absent dimension is skipped, not failed
    agent = decide_agent(BASE, {**BASE, "id": "x"}, DEFAULT)
    path.write_text(junit_xml(agent), encoding="utf-8")
    cases = {case.name: case for suite in JUnitXml.fromfile(str(path)) for case in suite}
    assert any(isinstance(r, Skipped) for r in cases["performance.consistency"].result)
    assert not cases["gate"].result


def test_markdown_and_html_say_what_decided() -> None:
    candidate = _assessment(
        "cand<script>",
        _axis(0.62, "Proficient", (0.58, 0.66), accuracy=0.6, speed=0.9),
        _axis(0.55, "Versatile", (0.50, 0.60), domain_breadth=0.5),
    )
    result = decide_agent(BASE, candidate, DEFAULT)
    text = markdown_summary(result)
    assert text.startswith("## AAAF gate ❌ failed: REGRESS · DO NOT SHIP")
    assert "| performance | 0.80 | 0.62 | -0.18 |" in text and "**regressed, tier drop**" in text
    page = agent_html(result)
    assert "cand&lt;script&gt;" in page and "<script>" not in page
    assert "Expert → Proficient" in page


def test_the_summary_says_when_the_baseline_scored_other_evidence() -> None:
    from dataclasses import replace

    result = decide_agent(BASE, {**BASE, "id": "again"}, DEFAULT)
    assert "Note: the baseline" not in markdown_summary(
        replace(result, extra={"baseline_type": "stress_test_only"})
    )
    text = markdown_summary(replace(result, extra={"baseline_type": "passive_only"}))
    assert "Note: the baseline is a `passive_only` assessment" in text


# ------------------------------------------------------------------ agent, paired


def _difference(shifts: dict[str, float], *, spread: float = 0.01, seed: int = 0) -> Any:
    """A paired AssessmentDifference: each name's resamples ~ N(shift, spread)."""
    import numpy as np

    from aaaf.scoring.assessment_difference import AssessmentDifference

    rng = np.random.default_rng(seed)
    names = [
        "performance",
        "capability",
        "performance.accuracy",
        "performance.speed",
        "capability.domain_breadth",
    ]
    resampled = {n: rng.normal(shifts.get(n, 0.0), spread, size=2000) for n in names}
    observed = {n: shifts.get(n, 0.0) for n in names}
    return AssessmentDifference(True, 2000, 40, 40, observed, resampled)


def _flips(lost_by_domain: dict[str, int], gained: int = 0) -> Any:
    from aaaf.scoring.assessment_difference import PairedTask
    from aaaf.scoring.task_flips import task_flips

    tasks = []
    for domain in ("code", "legal"):
        for k in range(20):
            lost = k < lost_by_domain.get(domain, 0)
            back = domain == "legal" and 10 <= k < 10 + gained
            tasks.append(
                PairedTask(f"{domain}-{k:02d}", domain, "rejected" if back else "accepted",
                           "rejected" if lost else "accepted", 1.0, 0.0 if lost else 1.0)
            )  # fmt: skip
    return task_flips(tasks, {t.key: "probe" for t in tasks})


def test_paired_checks_say_equivalent_within_interval_and_name_the_broken_domain() -> None:
    strict = parse_fail_on("regress,tier-drop,inconclusive,any-layer-regress")
    unchanged = decide_agent(
        BASE, {**BASE, "id": "again"}, strict,
        difference=_difference({"performance.accuracy": -0.02}, spread=0.02), flips=_flips({"code": 1}, gained=1),
    )  # fmt: skip
    assert unchanged.verdict is GateVerdict.EQUIVALENT and unchanged.passed
    assert unchanged.method.startswith("paired bootstrap")
    accuracy = next(c for c in unchanged.checks if c.name == "performance.accuracy")
    assert not accuracy.regressed and accuracy.within_interval
    assert check_status(accuracy) == "within interval" and "noise" in accuracy.note
    # k = 3 dimensions present on both sides + all tasks + 2 domains: each at 1 − 0.05/6
    assert accuracy.level == pytest.approx(1 - 0.05 / 6)
    performance = unchanged.checks[0]
    assert performance.equivalent and check_status(performance) == "equivalent (±0.1)"
    broken = decide_agent(
        BASE, {**BASE, "id": "broken"}, DEFAULT, difference=_difference({}), flips=_flips({"code": 12})
    )
    assert broken.verdict is GateVerdict.REGRESS and not broken.passed
    assert "tasks.code" in broken.reason and "12 lost, 0 gained of 20" in broken.reason
    assert "12 task(s) lost, 12 in code / probe" in broken.headline
    names = {c.name for c in broken.checks if c.regressed}
    assert names == {"accepted tasks", "tasks.code"}
    text = markdown_summary(broken)
    assert (
        "| code | probe | 20 | `code-00`, `code-01`" in text
        and "12 lost, 0 gained of 40 tasks both ran" in text
    )


def test_a_tier_lost_on_a_boundary_is_not_a_drop_unless_it_is_real() -> None:
    boundary = _assessment(
        "edge",
        _axis(0.74, "Proficient", (0.70, 0.78), accuracy=0.8, speed=0.9),
        _axis(0.55, "Versatile", (0.50, 0.60), domain_breadth=0.5),
    )
    noise = decide_agent(BASE, boundary, DEFAULT, difference=_difference({"performance": -0.01}))
    performance = noise.checks[0]
    assert not performance.tier_drop and "a composite on a tier boundary" in performance.note
    assert noise.passed and noise.verdict is GateVerdict.EQUIVALENT
    real = decide_agent(BASE, boundary, DEFAULT, difference=_difference({"performance": -0.06}))
    assert real.checks[0].tier_drop and real.checks[0].regressed and real.verdict is GateVerdict.REGRESS
    wide = decide_agent(BASE, boundary, DEFAULT, difference=_difference({"performance": -0.03}, spread=0.05))
    assert wide.checks[0].tier_drop and not wide.checks[0].regressed  # not shown within ±0.10
    assert wide.failing == ("tier-drop: performance",)
