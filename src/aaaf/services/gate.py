"""The CI/CD gate (issue 20 §1; document 004 §8 phase 3 "assess agents on every deployment").

A gate compares a *baseline* with a *candidate* and decides whether a pipeline may go on.
Two kinds of pair:

* **Two eval runs** (any format ``aaaf compare`` reads): the verdict is the verdict engine's
  (SCORING.md §4, :func:`aaaf.scoring.verdict.compare_runs`) — nothing here re-decides it;
  :func:`decide_eval` only reads the :class:`~aaaf.scoring.verdict.Comparison` into checks.
  One check per layer: *regressed* when its Bonferroni-level CI lies entirely below 0 (what
  the rules call a significant drop), *tier drop* when it passed its gate (3.5) in the
  baseline and fails it in the candidate.
* **An agent** put through the stress suite and assessed ``stress_test_only``, against its
  stored baseline assessment (:func:`decide_agent`, pure, on the two assessments' public
  JSON).  Per axis (Performance, Capability): the *tier drop* (the candidate's tier is lower
  than the baseline's) and the composite difference d = C − B with an interval built from
  the two assessments' SCORING.md §2.5 bootstrap intervals.  The two assessments score
  different tasks (each run's own), so their estimates are independent: each 95 % percentile
  interval is read as ±1.96 standard errors, se = (hi − lo) / (2 · 1.96), and the
  difference's interval is d ± 1.96 · √(se_B² + se_C²).  An axis *regressed* when that
  interval lies entirely below 0.  Per dimension (no interval is stored for one): regressed
  when its score fell by more than ``dimension_tolerance`` (0.10 by default).  The agent
  verdict, in the verdict engine's words, first match wins: no baseline → SOLO; an axis
  without a composite or an interval on either side → UNDERPOWERED; an axis regressed →
  REGRESS; nothing moved (every interval contains 0, no tier changed, no dimension
  regressed) → NOISE; an axis rose significantly, no tier dropped and no dimension regressed
  → PROGRESS; anything else → CAUTIOUS.

What fails the gate is configurable (``--fail-on``, :func:`parse_fail_on`): a comma-separated
list of verdict names (``regress``, ``cautious``, ``noise``, ``underpowered``, ``progress``,
``solo``) and of the conditions ``tier-drop`` (a layer lost its gate / an axis its tier),
``any-layer-regress`` (any layer, axis or dimension check regressed, whatever the verdict)
and ``inconclusive`` (NOISE or UNDERPOWERED); ``none`` alone never fails.  The default is
``regress,tier-drop``.  The pure parts (parsing, deciding) take no store and no clock;
:func:`run_agent_gate` runs the suite and the assessment, :func:`write_outputs` the files.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from aaaf.errors import AAAFError
from aaaf.reports import verdict_text
from aaaf.scoring.core import display
from aaaf.scoring.defaults import AXES, CAPABILITY_TIERS, PERFORMANCE_TIERS
from aaaf.scoring.layered import LAYERS
from aaaf.scoring.verdict import VERDICT_ACTIONS, Comparison, Verdict

DEFAULT_FAIL_ON = "regress,tier-drop"
CONDITIONS: Mapping[str, str] = {
    "tier-drop": "a layer lost its gate (eval runs) or an axis its tier (agent)",
    "any-layer-regress": "any layer, axis or dimension regressed, whatever the verdict",
    "inconclusive": "the verdict is NOISE or UNDERPOWERED",
}
INCONCLUSIVE = frozenset({Verdict.NOISE, Verdict.UNDERPOWERED})
Z95 = 1.959963984540054
"""The standard normal's 97.5 % quantile: a 95 % interval is ±Z95 standard errors."""
DIMENSION_TOLERANCE = 0.10
TIERS = {"performance": PERFORMANCE_TIERS, "capability": CAPABILITY_TIERS}


def parse_fail_on(text: str) -> tuple[str, ...]:
    """'regress, Tier-Drop' → ('regress', 'tier-drop'); 'none' → (); unknown names are an
    ``INVALID_REQUEST`` naming them and what is known."""
    names = [part.strip().lower() for part in text.split(",") if part.strip()]
    if names == ["none"]:
        return ()
    known = [v.value.lower() for v in Verdict] + list(CONDITIONS)
    unknown = [name for name in names if name not in known]
    if not names or unknown:
        raise AAAFError(
            "INVALID_REQUEST",
            f"--fail-on: unknown condition(s) {', '.join(unknown) or '(none given)'}; "
            f"expected some of {', '.join(known)} (comma-separated) or none",
            {"field": "fail_on", "value": text},
        )
    return tuple(dict.fromkeys(names))


@dataclass(frozen=True)
class GateCheck:
    """One thing the gate looked at, one JUnit test case: a layer (eval runs), an axis's
    composite or a dimension (agent)."""

    group: str  # "composite", "layer", "axis" or "dimension"
    name: str
    baseline: float | None
    candidate: float | None
    diff: float | None = None
    interval: tuple[float, float] | None = None
    regressed: bool = False
    tier_drop: bool = False
    tier_baseline: str | None = None
    tier_candidate: str | None = None
    absent: bool = False
    note: str = ""

    @property
    def failed(self) -> bool:
        return self.regressed or self.tier_drop

    def to_dict(self) -> dict[str, Any]:
        return {
            "group": self.group,
            "name": self.name,
            "baseline": self.baseline,
            "candidate": self.candidate,
            "diff": self.diff,
            "interval": list(self.interval) if self.interval else None,
            "regressed": self.regressed,
            "tier_drop": self.tier_drop,
            "tier": {"baseline": self.tier_baseline, "candidate": self.tier_candidate},
            "absent": self.absent,
            "note": self.note,
        }


@dataclass(frozen=True)
class GateResult:
    """What the gate decided, and why."""

    mode: str  # "eval-runs" or "agent"
    verdict: Verdict
    headline: str
    reason: str
    baseline: str
    candidate: str
    checks: tuple[GateCheck, ...]
    fail_on: tuple[str, ...]
    failing: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return not self.failing

    @property
    def exit_code(self) -> int:
        return 0 if self.passed else 1

    @property
    def action(self) -> str:
        return VERDICT_ACTIONS[self.verdict]

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "passed": self.passed,
            "exit_code": self.exit_code,
            "verdict": self.verdict.value,
            "action": self.action,
            "headline": self.headline,
            "reason": self.reason,
            "baseline": self.baseline,
            "candidate": self.candidate,
            "fail_on": list(self.fail_on),
            "failing": list(self.failing),
            "checks": [check.to_dict() for check in self.checks],
            **dict(self.extra),
        }


def failing_conditions(
    verdict: Verdict, checks: Sequence[GateCheck], fail_on: Sequence[str]
) -> tuple[str, ...]:
    """The ``fail_on`` conditions that hold, each worded (empty: the gate passes)."""
    hits: list[str] = []
    for condition in fail_on:
        if condition == "tier-drop":
            dropped = [c.name for c in checks if c.tier_drop]
            if dropped:
                hits.append(f"tier-drop: {', '.join(dropped)}")
        elif condition == "any-layer-regress":
            regressed = [c.name for c in checks if c.regressed]
            if regressed:
                hits.append(f"any-layer-regress: {', '.join(regressed)}")
        elif condition == "inconclusive":
            if verdict in INCONCLUSIVE:
                hits.append(f"inconclusive: the verdict is {verdict.value}")
        elif verdict.value.lower() == condition:
            hits.append(f"{condition}: the verdict is {verdict.value}")
    return tuple(hits)


# ------------------------------------------------------------------ eval runs


def decide_eval(comparison: Comparison, fail_on: Sequence[str]) -> GateResult:
    """The gate on two eval runs: the verdict engine's verdict and one check per layer."""
    composite = comparison.composite
    checks = [
        GateCheck(
            group="composite",
            name="composite",
            baseline=composite.control,
            candidate=composite.treatment,
            diff=composite.diff,
            interval=(composite.ci.low, composite.ci.high) if composite.ci else None,
            regressed=composite.ci is not None and composite.ci.below_zero,
        )
    ]
    for name in LAYERS:
        layer = comparison.layers[name]
        ci = layer.ci_bonferroni
        checks.append(
            GateCheck(
                group="layer",
                name=name,
                baseline=layer.control,
                candidate=layer.treatment,
                diff=layer.diff,
                interval=(ci.low, ci.high) if ci else None,
                regressed=layer.present and ci is not None and ci.below_zero,
                tier_drop=layer.present and bool(layer.gate_control) and layer.gate_treatment is False,
                tier_baseline=_gate_word(layer.gate_control),
                tier_candidate=_gate_word(layer.gate_treatment),
                absent=not layer.present,
                note=verdict_text.layer_absent_text(layer) or "",
            )
        )
    return GateResult(
        mode="eval-runs",
        verdict=comparison.verdict,
        headline=verdict_text.comparison_headline(comparison),
        reason=f"rule {comparison.rule}: {verdict_text.reason_text(comparison.reason)}",
        baseline=comparison.control.run_id,
        candidate=comparison.treatment.run_id,
        checks=tuple(checks),
        fail_on=tuple(fail_on),
        failing=failing_conditions(comparison.verdict, checks, fail_on),
        extra={"comparison": verdict_text.comparison_dict(comparison)},
    )


def _gate_word(value: bool | None) -> str | None:
    return None if value is None else ("passes gate" if value else "fails gate")


# ------------------------------------------------------------------ agent


def difference_interval(
    baseline_ci: Sequence[float] | None, candidate_ci: Sequence[float] | None, diff: float
) -> tuple[float, float] | None:
    """d ± 1.96·√(se_B² + se_C²), each se read from a 95 % interval (see the module docstring)."""
    if baseline_ci is None or candidate_ci is None:
        return None
    se_b = (float(baseline_ci[1]) - float(baseline_ci[0])) / (2 * Z95)
    se_c = (float(candidate_ci[1]) - float(candidate_ci[0])) / (2 * Z95)
    half = Z95 * math.hypot(se_b, se_c)
    return (diff - half, diff + half)


def _tier_rank(axis: str, tier: str | None) -> int | None:
    names = [t.name for t in TIERS[axis]]
    return names.index(tier) if tier in names else None


def _axis_check(
    axis: str, baseline: Mapping[str, Any] | None, candidate: Mapping[str, Any] | None
) -> GateCheck:
    b = (baseline or {}).get("composite_score")
    c = (candidate or {}).get("composite_score")
    tier_b = (baseline or {}).get("tier")
    tier_c = (candidate or {}).get("tier")
    if b is None or c is None:
        return GateCheck("axis", axis, b, c, tier_baseline=tier_b, tier_candidate=tier_c, absent=True,
                         note="no composite on " + ("both sides" if b is None and c is None else "one side"))  # fmt: skip
    diff = float(c) - float(b)
    ci_b = ((baseline or {}).get("uncertainty") or {}).get("ci")
    ci_c = ((candidate or {}).get("uncertainty") or {}).get("ci")
    interval = difference_interval(ci_b, ci_c, diff)
    rank_b, rank_c = _tier_rank(axis, tier_b), _tier_rank(axis, tier_c)
    return GateCheck(
        "axis",
        axis,
        float(b),
        float(c),
        diff=diff,
        interval=interval,
        regressed=interval is not None and interval[1] < 0.0,
        tier_drop=rank_b is not None and rank_c is not None and rank_c < rank_b,
        tier_baseline=tier_b,
        tier_candidate=tier_c,
        note="" if interval is not None else "no uncertainty interval on one side (assessed without it)",
    )


def _dimension_checks(
    axis: str, baseline: Mapping[str, Any] | None, candidate: Mapping[str, Any] | None, tolerance: float
) -> list[GateCheck]:
    checks = []
    for name in AXES[axis]:
        b = (((baseline or {}).get("dimensions") or {}).get(name) or {}).get("score")
        c = (((candidate or {}).get("dimensions") or {}).get(name) or {}).get("score")
        if b is None or c is None:
            note = "no evidence on " + ("both sides" if b is None and c is None else "one side")
            checks.append(GateCheck("dimension", f"{axis}.{name}", b, c, absent=True, note=note))
            continue
        diff = float(c) - float(b)
        checks.append(
            GateCheck(
                "dimension",
                f"{axis}.{name}",
                float(b),
                float(c),
                diff=diff,
                regressed=diff < -tolerance,
                note=f"regressed: fell by more than {tolerance:g}" if diff < -tolerance else "",
            )
        )
    return checks


def decide_agent(
    baseline: Mapping[str, Any] | None,
    candidate: Mapping[str, Any],
    fail_on: Sequence[str],
    *,
    dimension_tolerance: float = DIMENSION_TOLERANCE,
) -> GateResult:
    """The gate on an agent's candidate assessment against its baseline (both as the public
    assessment JSON, :func:`aaaf.services.assess.assessment_json`); pure."""
    candidate_id = str(candidate.get("id"))
    if baseline is None:
        checks = tuple(_axis_check(axis, None, candidate.get(axis)) for axis in TIERS)
        return _agent_result(
            Verdict.SOLO, "no stored baseline assessment: this assessment is the first baseline",
            "—", candidate_id, checks, fail_on,
        )  # fmt: skip
    axes = [_axis_check(axis, baseline.get(axis), candidate.get(axis)) for axis in TIERS]
    dimensions = [
        check
        for axis in TIERS
        for check in _dimension_checks(axis, baseline.get(axis), candidate.get(axis), dimension_tolerance)
    ]
    checks = (*axes, *dimensions)
    dims_down = [c.name for c in dimensions if c.regressed]
    tier_drops = [c.name for c in axes if c.tier_drop]
    if any(c.absent or c.interval is None for c in axes):
        missing = ", ".join(f"{c.name} ({c.note})" for c in axes if c.absent or c.interval is None)
        verdict, reason = Verdict.UNDERPOWERED, f"cannot compare {missing}"
    elif any(c.regressed for c in axes):
        down = ", ".join(f"{c.name} {_signed(c.diff)} {_interval(c.interval)}" for c in axes if c.regressed)
        verdict, reason = Verdict.REGRESS, f"composite difference entirely below 0: {down}"
    elif all(_contains_zero(c.interval) for c in axes) and not dims_down and not _tier_changed(axes):
        verdict, reason = Verdict.NOISE, "every composite difference's interval contains 0; no tier changed"
    elif any(c.interval and c.interval[0] > 0 for c in axes) and not tier_drops and not dims_down:
        up = ", ".join(f"{c.name} {_signed(c.diff)} {_interval(c.interval)}" for c in axes if c.interval and c.interval[0] > 0)  # fmt: skip
        verdict, reason = Verdict.PROGRESS, f"composite difference entirely above 0: {up}; no tier dropped"
    else:
        problems = [f"tier dropped: {', '.join(tier_drops)}"] if tier_drops else []
        problems += [f"dimensions fell: {', '.join(dims_down)}"] if dims_down else []
        problems += [] if problems else ["a tier changed without a significant composite difference"]
        verdict, reason = Verdict.CAUTIOUS, "; ".join(problems)
    return _agent_result(verdict, reason, str(baseline.get("id")), candidate_id, checks, fail_on)


def _agent_result(
    verdict: Verdict, reason: str, baseline: str, candidate: str, checks: Sequence[GateCheck], fail_on: Sequence[str]
) -> GateResult:  # fmt: skip
    axes = ", ".join(
        f"{c.name} {display(c.baseline)}→{display(c.candidate)} ({c.tier_baseline or '—'}→{c.tier_candidate or '—'})"
        for c in checks
        if c.group == "axis"
    )
    return GateResult(
        mode="agent",
        verdict=verdict,
        headline=f"{verdict.value} · {VERDICT_ACTIONS[verdict]} — {axes}",
        reason=reason,
        baseline=baseline,
        candidate=candidate,
        checks=tuple(checks),
        fail_on=tuple(fail_on),
        failing=failing_conditions(verdict, checks, fail_on),
    )


def _contains_zero(interval: tuple[float, float] | None) -> bool:
    return interval is not None and interval[0] <= 0.0 <= interval[1]


def _tier_changed(axes: Sequence[GateCheck]) -> bool:
    return any(c.tier_baseline != c.tier_candidate for c in axes)


def _signed(value: float | None) -> str:
    return "—" if value is None else f"{value:+.2f}"


def _interval(interval: tuple[float, float] | None) -> str:
    return "—" if interval is None else f"[{interval[0]:.2f}, {interval[1]:.2f}]"


def find_baseline(org: Any, agent: Any, *, now: datetime, assessment_id: str | None = None) -> Any:
    """The agent's stored baseline: the one named, else its latest *valid* assessment —
    completed, with both composites' axes scored (not ``single_dimension``), not rejected by a
    reviewer, not expired (SCORING.md §2.4) — or None when it has none."""
    if assessment_id is not None:
        chosen = org.get_assessment(assessment_id)
        if str(chosen.agent_id) != str(agent.id):
            raise AAAFError(
                "INVALID_REQUEST",
                f"--baseline-assessment {assessment_id} is an assessment of another agent",
                {"field": "baseline_assessment", "agent": agent.name},
            )
        if chosen.status != "completed":
            raise AAAFError(
                "INVALID_REQUEST",
                f"--baseline-assessment {assessment_id} is {chosen.status}, not completed",
                {"field": "baseline_assessment"},
            )
        return chosen
    for record in org.assessments(agent.id, status="completed"):
        if record.type == "single_dimension" or record.review_state == "rejected":
            continue
        if record.valid_until is not None and record.valid_until < now:
            continue
        return org.get_assessment(record.id)
    return None


def run_agent_gate(
    org: Any,
    agent_name: str,
    agent_spec: Any,
    *,
    fail_on: Sequence[str],
    clock: Callable[[], datetime],
    baseline_assessment: str | None = None,
    dimension_tolerance: float = DIMENSION_TOLERANCE,
    library_dirs: Sequence[str] = (),
    **stress_options: Any,
) -> tuple[GateResult, Any, Any]:
    """Find the baseline, run the stress suite (:func:`aaaf.services.stress.run_stress_test`),
    assess ``stress_test_only`` on this run's evidence alone (earlier runs' stress evidence in
    the window stays out: it is the baseline's) and decide; (result, stress run, assessment)."""
    from aaaf.services.assess import assess_with_events, assessment_json
    from aaaf.services.stress import run_stress_test

    try:
        agent = org.get_agent(agent_name)
    except AAAFError as error:
        if error.code != "NOT_FOUND" or baseline_assessment is not None:
            raise
        agent = None
    baseline = None
    if agent is not None:
        baseline = find_baseline(org, agent, now=clock(), assessment_id=baseline_assessment)
    run, _ = run_stress_test(org, agent_name, agent_spec, library_dirs=library_dirs, **stress_options)
    agent = org.get_agent(agent_name)
    events = [e for e in org.events(agent.id) if e.data.get("stress_run_id") == str(run.id)]
    candidate = assess_with_events(org, agent, events, now=clock(), assessment_type="stress_test_only")
    result = decide_agent(
        assessment_json(baseline) if baseline is not None else None,
        assessment_json(candidate),
        fail_on,
        dimension_tolerance=dimension_tolerance,
    )
    extra = {
        "agent": agent.name,
        "stress_run": str(run.id),
        "stress_summary": run.summary,
        "baseline_type": baseline.type if baseline is not None else None,
    }
    return _with_extra(result, extra), run, candidate


def _with_extra(result: GateResult, extra: Mapping[str, Any]) -> GateResult:
    from dataclasses import replace

    return replace(result, extra={**dict(result.extra), **dict(extra)})


# ------------------------------------------------------------------ outputs


@dataclass(frozen=True)
class Written:
    summary: Path | None = None
    junit: Path | None = None
    html: Path | None = None
    step_summary: Path | None = None


def write_outputs(
    result: GateResult,
    *,
    summary: Path | None = None,
    junit: Path | None = None,
    html: Path | None = None,
    comparison: Comparison | None = None,
    environ: Mapping[str, str] | None = None,
) -> Written:
    """Write the Markdown summary (and append it to ``$GITHUB_STEP_SUMMARY`` when set), the
    JUnit XML and the HTML report (eval runs: the compare report of
    :mod:`aaaf.reports.compare_html`; agent: :func:`aaaf.services.gate_report.agent_html`)."""
    from aaaf.services.gate_report import agent_html, junit_xml, markdown_summary

    text = markdown_summary(result)
    for path in (summary, junit, html):
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
    if summary is not None:
        summary.write_text(text, encoding="utf-8")
    step = (environ if environ is not None else os.environ).get("GITHUB_STEP_SUMMARY")
    if step:
        with open(step, "a", encoding="utf-8") as handle:
            handle.write(text + "\n")
    if junit is not None:
        junit.write_text(junit_xml(result), encoding="utf-8")
    if html is not None:
        if comparison is not None:
            from aaaf.reports.compare_html import write_comparison_html

            write_comparison_html(comparison, html)
        else:
            html.write_text(agent_html(result), encoding="utf-8")
    return Written(summary, junit, html, Path(step) if step else None)
