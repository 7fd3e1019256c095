"""The CI/CD gate (document 004 §8 phase 3 "assess agents on every deployment"; docs/ci.md).

A gate compares a *baseline* with a *candidate* and decides whether a pipeline may go on.
Two kinds of pair:

* **Two eval runs** (any format ``aaaf compare`` reads): the verdict is the verdict engine's
  (SCORING.md §4, :func:`aaaf.scoring.verdict.compare_runs`) — nothing here re-decides it —
  except that a NOISE whose paired composite difference is shown within ±margin (TOST on
  the per-sample differences, :func:`aaaf.stats.equivalence.tost_paired`; 0.25 points, the
  engine's effect of interest, by default) is EQUIVALENT.  One check per layer: *regressed*
  when its Bonferroni-level CI lies entirely below 0, *tier drop* when it passed its gate
  (3.5) in the baseline and fails it in the candidate.
* **An agent** put through the stress suite and assessed ``stress_test_only``, against its
  stored baseline assessment (:func:`decide_agent`, pure).  The differences come from
  :mod:`aaaf.scoring.assessment_difference`: a bootstrap over tasks (SCORING.md §2.5),
  *paired* task by task when both sides ran the same stress tasks, of every composite and
  dimension.  Per axis: the 95 % interval of the composite difference (*regressed* entirely
  below 0, *improved* entirely above), the 90 % interval against ±margin (TOST:
  *equivalent* inside it), and the *tier drop* — a lower tier, unless the difference is
  neither significant nor beyond the margin (a composite on a tier boundary crosses it both
  ways by chance).  Per dimension: regressed when its interval
  — at the Bonferroni level 1 − α/k over the k dimension and task checks, so that k noisy
  dimensions do not fail an unchanged agent — lies entirely below 0; a dimension that moved
  inside its interval is labelled so, not failed.  The tasks check: the flips of accepted
  tasks (:mod:`aaaf.scoring.task_flips`) and McNemar's exact test, all of them and each
  domain's, regressed when more were lost than gained at the same level.  Without the baseline's evidence (pruned), the axis
  interval is read from the two stored intervals (independent, ±1.96 standard errors each)
  and a dimension regressed when it fell by more than ``dimension_tolerance``.

  The agent verdict, first match wins: no baseline → SOLO; an axis without a composite or an
  interval → UNDERPOWERED; an axis regressed, or a task check (all tasks or a domain's)
  regressed → REGRESS; an axis improved, no tier dropped,
  no dimension or task check regressed → PROGRESS; every axis equivalent, no tier dropped,
  nothing regressed → EQUIVALENT; every interval contains 0, no tier changed, nothing
  regressed → NOISE; anything else → CAUTIOUS.

What fails the gate is configurable (``--fail-on``, :func:`parse_fail_on`): a comma-separated
list of verdict names and of the conditions ``tier-drop`` (a layer lost its gate / an axis
its tier), ``any-layer-regress`` (any layer, axis, dimension or task check regressed,
whatever the verdict) and ``inconclusive`` (NOISE or UNDERPOWERED: not shown better, not
shown equivalent); ``none`` alone never fails.  The default is ``regress,tier-drop``.  The
pure parts (parsing, deciding; the agent gate's checks in :mod:`aaaf.services.gate_checks`)
take no store and no clock; :mod:`aaaf.services.gate_agent`
runs the suite and the assessment, :mod:`aaaf.services.gate_baselines` chooses and records
baselines, :func:`write_outputs` writes the files.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aaaf.errors import AAAFError
from aaaf.reports import verdict_text
from aaaf.scoring.core import display
from aaaf.scoring.layered import LAYERS
from aaaf.scoring.verdict import VERDICT_ACTIONS, Comparison, Verdict
from aaaf.services.gate_checks import (
    ALPHA,
    DIMENSION_TOLERANCE,
    TIERS,
    GateCheck,
    axis_check,
    dimension_checks,
)

if TYPE_CHECKING:
    from aaaf.models.gate import GateFiles, GateOutcome
    from aaaf.scoring.assessment_difference import AssessmentDifference
    from aaaf.scoring.task_flips import FlipReport


class GateVerdict(StrEnum):
    """The verdict engine's six (SCORING.md §4) and EQUIVALENT: no worse and no better than
    ±margin, shown (the gate's; the engine never gives it)."""

    PROGRESS = "PROGRESS"
    EQUIVALENT = "EQUIVALENT"
    CAUTIOUS = "CAUTIOUS"
    REGRESS = "REGRESS"
    NOISE = "NOISE"
    UNDERPOWERED = "UNDERPOWERED"
    SOLO = "SOLO"


GATE_ACTIONS: Mapping[GateVerdict, str] = {
    **{GateVerdict(v.value): action for v, action in VERDICT_ACTIONS.items()},
    GateVerdict.EQUIVALENT: "SHIP",
}
DEFAULT_FAIL_ON = "regress,tier-drop"
STRICT_FAIL_ON = "regress,tier-drop,inconclusive,any-layer-regress"
"""What docs/ci.md recommends to a strict team: a change must be shown better or shown
within the margin, and nothing may regress significantly."""
CONDITIONS: Mapping[str, str] = {
    "tier-drop": "a layer lost its gate (eval runs) or an axis its tier (agent)",
    "any-layer-regress": "any layer, axis, dimension or task check regressed, whatever the verdict",
    "inconclusive": "the verdict is NOISE or UNDERPOWERED (not shown better, not shown equivalent)",
}
INCONCLUSIVE = frozenset({GateVerdict.NOISE, GateVerdict.UNDERPOWERED})
AGENT_MARGIN = 0.10
"""The agent gate's equivalence margin δ on the 0-1 composite scale: two thirds of the
narrowest tiers (0.15 wide), about twice the 90 % half-width of a paired capability
difference over the 141-task suite (docs/ci.md gives the measured figures)."""
EVAL_MARGIN = 0.25
"""The eval-run gate's margin on the 1-5 points scale: SCORING.md §4's effect of interest."""
GATE_RESAMPLES = 2000


def parse_fail_on(text: str) -> tuple[str, ...]:
    """'regress, Tier-Drop' → ('regress', 'tier-drop'); 'none' → (); unknown names are an
    ``INVALID_REQUEST`` naming them and what is known."""
    names = [part.strip().lower() for part in text.split(",") if part.strip()]
    if names == ["none"]:
        return ()
    known = [v.value.lower() for v in GateVerdict] + list(CONDITIONS)
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
class GateResult:
    """What the gate decided, and why."""

    mode: str  # "eval-runs" or "agent"
    verdict: GateVerdict
    headline: str
    reason: str
    baseline: str
    candidate: str
    checks: tuple[GateCheck, ...]
    fail_on: tuple[str, ...]
    failing: tuple[str, ...] = ()
    extra: Mapping[str, object] = field(default_factory=dict)
    flips: FlipReport | None = None
    method: str = ""
    """How the intervals were computed, in words."""

    @property
    def passed(self) -> bool:
        return not self.failing

    @property
    def exit_code(self) -> int:
        return 0 if self.passed else 1

    @property
    def action(self) -> str:
        return GATE_ACTIONS[self.verdict]

    def to_model(self, files: GateFiles) -> GateOutcome:
        """The public shape of the decision (``aaaf gate --json``), with the files written."""
        from aaaf.models.gate import GateOutcome

        return GateOutcome.model_validate({
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
            "method": self.method,
            "checks": [check.to_dict() for check in self.checks],
            "tasks": self.flips.to_dict() if self.flips is not None else None,
            **dict(self.extra),
            "files": files,
        })  # fmt: skip


def failing_conditions(
    verdict: GateVerdict, checks: Sequence[GateCheck], fail_on: Sequence[str]
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


def decide_eval(comparison: Comparison, fail_on: Sequence[str], *, margin: float = EVAL_MARGIN) -> GateResult:
    """The gate on two eval runs: the verdict engine's verdict (NOISE shown within ±margin
    by TOST on the paired composite differences: EQUIVALENT) and one check per layer."""
    from aaaf.stats.equivalence import tost_paired

    composite = comparison.composite
    equivalence: tuple[float, float] | None = None
    equivalent: bool | None = None
    if len(composite.differences) >= 2:
        tost = tost_paired(composite.differences, margin, ALPHA)
        equivalence, equivalent = (float(tost.low[0]), float(tost.high[0])), bool(tost.equivalent[0])
    checks = [
        GateCheck(
            group="composite",
            name="composite",
            baseline=composite.control,
            candidate=composite.treatment,
            diff=composite.diff,
            interval=(composite.ci.low, composite.ci.high) if composite.ci else None,
            regressed=composite.ci is not None and composite.ci.below_zero,
            level=comparison.config.confidence,
            equivalence=equivalence,
            margin=margin,
            equivalent=equivalent,
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
    verdict = GateVerdict(comparison.verdict.value)
    reason = f"rule {comparison.rule}: {verdict_text.reason_text(comparison.reason)}"
    headline = verdict_text.comparison_headline(comparison)
    if comparison.verdict is Verdict.NOISE and equivalent:
        verdict = GateVerdict.EQUIVALENT
        assert equivalence is not None
        reason += (
            f"; the composite difference's 90 % interval {_interval(equivalence)} lies within "
            f"±{margin:g} points (TOST, α = {ALPHA:g}): equivalent"
        )
        headline = f"EQUIVALENT · SHIP — within ±{margin:g} points; {headline}"
    return GateResult(
        mode="eval-runs",
        verdict=verdict,
        headline=headline,
        reason=reason,
        baseline=comparison.control.run_id,
        candidate=comparison.treatment.run_id,
        checks=tuple(checks),
        fail_on=tuple(fail_on),
        failing=failing_conditions(verdict, checks, fail_on),
        extra={"comparison": verdict_text.comparison_dict(comparison), "margin": margin},
        method="paired percentile bootstrap over samples (docs/scoring.md §5.2); equivalence: TOST on the "
        "per-sample composite differences",
    )


def _gate_word(value: bool | None) -> str | None:
    return None if value is None else ("passes gate" if value else "fails gate")


# ------------------------------------------------------------------ agent (its checks: gate_checks)
def decide_agent(
    baseline: Mapping[str, Any] | None,
    candidate: Mapping[str, Any],
    fail_on: Sequence[str],
    *,
    difference: AssessmentDifference | None = None,
    flips: FlipReport | None = None,
    margin: float = AGENT_MARGIN,
    dimension_tolerance: float = DIMENSION_TOLERANCE,
) -> GateResult:
    """The gate on an agent's candidate assessment against its baseline (both as the public
    assessment JSON, :func:`aaaf.services.assess.assessment_json`), with their
    :class:`~aaaf.scoring.assessment_difference.AssessmentDifference` and task flips when the
    baseline's evidence is at hand; pure."""
    candidate_id = str(candidate.get("id"))
    if baseline is None:
        checks = tuple(axis_check(axis, None, candidate.get(axis), None, margin) for axis in TIERS)
        return _agent_result(
            GateVerdict.SOLO, "no stored baseline assessment: this assessment is the first baseline",
            "—", candidate_id, checks, fail_on, method="",
        )  # fmt: skip
    axes = [axis_check(axis, baseline.get(axis), candidate.get(axis), difference, margin) for axis in TIERS]
    others = dimension_checks(baseline, candidate, difference, flips, dimension_tolerance)
    checks = (*axes, *others)
    down = [c.name for c in others if c.regressed]
    lost_tasks = [c for c in others if c.group == "tasks" and c.regressed]
    tier_drops = [c.name for c in axes if c.tier_drop]
    if any(c.absent or c.interval is None for c in axes):
        missing = ", ".join(f"{c.name} ({c.note})" for c in axes if c.absent or c.interval is None)
        verdict, reason = GateVerdict.UNDERPOWERED, f"cannot compare {missing}"
    elif any(c.regressed for c in axes) or lost_tasks:
        fell = [f"composite difference entirely below 0: {c.name} {_signed(c.diff)} {_interval(c.interval)}" for c in axes if c.regressed]  # fmt: skip
        fell += [f"significantly more tasks lost than gained: {c.name} ({c.note})" for c in lost_tasks]
        verdict, reason = GateVerdict.REGRESS, "; ".join(fell)
    elif any(c.improved for c in axes) and not tier_drops and not down:
        up = ", ".join(f"{c.name} {_signed(c.diff)} {_interval(c.interval)}" for c in axes if c.improved)
        verdict, reason = (
            GateVerdict.PROGRESS,
            f"composite difference entirely above 0: {up}; no tier dropped",
        )
    elif all(c.equivalent for c in axes) and not tier_drops and not down:
        within = ", ".join(f"{c.name} {_signed(c.diff)} {_interval(c.equivalence)}" for c in axes)
        verdict, reason = (
            GateVerdict.EQUIVALENT,
            f"every composite difference's 90 % interval lies within ±{margin:g} (TOST, α = {ALPHA:g}): {within}",
        )
    elif all(_contains_zero(c.interval) for c in axes) and not down and not _tier_changed(axes):
        verdict, reason = (
            GateVerdict.NOISE,
            "every composite difference's interval contains 0, no tier changed; not shown within "
            f"±{margin:g} either (the intervals are wider than the margin allows)",
        )
    else:
        problems = [f"tier dropped: {', '.join(tier_drops)}"] if tier_drops else []
        problems += [f"fell: {', '.join(down)}"] if down else []
        problems += [] if problems else ["a tier changed without a significant composite difference"]
        verdict, reason = GateVerdict.CAUTIOUS, "; ".join(problems)
    return _agent_result(
        verdict, reason, str(baseline.get("id")), candidate_id, checks, fail_on,
        flips=flips, method=_method(difference),
    )  # fmt: skip


def _method(difference: AssessmentDifference | None) -> str:
    if difference is None:
        return (
            "the baseline's evidence is gone: axis intervals from the two stored 95 % intervals "
            "(independent), dimensions against a fixed tolerance"
        )
    if not difference.paired:
        return (
            f"independent bootstrap of each side's tasks ({difference.n_baseline} and "
            f"{difference.n_candidate}; {difference.resamples} resamples, docs/uncertainty.md)"
        )
    text = (
        f"paired bootstrap over the {difference.n_paired} tasks both ran "
        f"({difference.resamples} resamples, docs/uncertainty.md)"
    )
    unpaired = len(difference.baseline_only) + len(difference.candidate_only)
    return text + (f"; {unpaired} task(s) run by one side only left out" if unpaired else "")


def _agent_result(
    verdict: GateVerdict,
    reason: str,
    baseline: str,
    candidate: str,
    checks: Sequence[GateCheck],
    fail_on: Sequence[str],
    *,
    flips: FlipReport | None = None,
    method: str = "",
) -> GateResult:
    axes = ", ".join(
        f"{c.name} {display(c.baseline)}→{display(c.candidate)} ({c.tier_baseline or '—'}→{c.tier_candidate or '—'})"
        for c in checks
        if c.group == "axis"
    )
    headline = f"{verdict.value} · {GATE_ACTIONS[verdict]} — {axes}"
    if flips is not None and flips.lost:
        headline += f"; {len(flips.lost)} task(s) lost"
        worst = flips.groups[0] if flips.groups else None
        if worst is not None and worst.lost:
            headline += f", {len(worst.lost)} in {worst.domain or '—'} / {worst.task_type or '—'}"
    return GateResult(
        mode="agent",
        verdict=verdict,
        headline=headline,
        reason=reason,
        baseline=baseline,
        candidate=candidate,
        checks=tuple(checks),
        fail_on=tuple(fail_on),
        failing=failing_conditions(verdict, checks, fail_on),
        flips=flips,
        method=method,
    )


def _contains_zero(interval: tuple[float, float] | None) -> bool:
    return interval is not None and interval[0] <= 0.0 <= interval[1]


def _tier_changed(axes: Sequence[GateCheck]) -> bool:
    return any(c.tier_baseline != c.tier_candidate for c in axes)


def _signed(value: float | None) -> str:
    return "—" if value is None else f"{value:+.2f}"


def _interval(interval: tuple[float, float] | None) -> str:
    return "—" if interval is None else f"[{interval[0]:.2f}, {interval[1]:.2f}]"


def with_extra(result: GateResult, extra: Mapping[str, object]) -> GateResult:
    from dataclasses import replace

    return replace(result, extra={**dict(result.extra), **dict(extra)})


# ------------------------------------------------------------------ outputs


@dataclass(frozen=True)
class Written:
    summary: Path | None = None
    junit: Path | None = None
    html: Path | None = None
    step_summary: Path | None = None

    def to_model(self) -> GateFiles:
        from aaaf.models.gate import GateFiles

        return GateFiles(**{name: None if path is None else str(path) for name, path in vars(self).items()})


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
