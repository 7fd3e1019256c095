"""The checks of the CI/CD gate (docs/ci.md): one :class:`GateCheck` per thing looked at, and
the agent gate's per-axis, per-dimension and per-task checks that
:func:`aaaf.services.gate.decide_agent` turns into its verdict.

Each check is pure (no store, no clock).  Per axis (:func:`axis_check`): the 95 % interval of
the composite difference, the 90 % interval against ±margin (TOST) and the tier drop.  Per
dimension and task (:func:`dimension_checks`): the Bonferroni-level interval of each
dimension, McNemar's exact test on the accepted tasks that flipped, all of them and each
domain's (SCORING.md §4 "Agent gate").
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aaaf.scoring.defaults import AXES, CAPABILITY_TIERS, PERFORMANCE_TIERS
from aaaf.scoring.verdict import ZERO_TOLERANCE

if TYPE_CHECKING:
    from aaaf.scoring.assessment_difference import AssessmentDifference
    from aaaf.scoring.task_flips import DomainTest, FlipReport

Z95 = 1.959963984540054
"""The standard normal's 97.5 % quantile: a 95 % interval is ±Z95 standard errors."""
Z90 = 1.6448536269514722
"""The standard normal's 95 % quantile: the one-sided 5 % bound of TOST."""
ALPHA = 0.05
DIMENSION_TOLERANCE = 0.10
"""Without the baseline's evidence only: a dimension regressed when it fell by more."""
TIERS = {"performance": PERFORMANCE_TIERS, "capability": CAPABILITY_TIERS}


@dataclass(frozen=True)
class GateCheck:
    """One thing the gate looked at, one JUnit test case: a layer (eval runs), an axis's
    composite, a dimension or the accepted tasks (agent).

    ``interval`` is two-sided at ``level`` (0.95; the Bonferroni level for dimensions);
    ``equivalence`` the 90 % interval TOST reads against ±``margin``."""

    group: str  # "composite", "layer", "axis", "dimension" or "tasks"
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
    level: float | None = None
    equivalence: tuple[float, float] | None = None
    margin: float | None = None
    equivalent: bool | None = None

    @property
    def failed(self) -> bool:
        return self.regressed or self.tier_drop

    @property
    def improved(self) -> bool:
        return self.interval is not None and self.interval[0] > 0.0

    @property
    def within_interval(self) -> bool:
        """It moved, but its interval contains 0: noise, not a regression."""
        return (
            not self.failed
            and self.interval is not None
            and self.interval[0] <= 0.0 <= self.interval[1]
            and self.diff is not None
            and self.diff != 0.0
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "group": self.group,
            "name": self.name,
            "baseline": self.baseline,
            "candidate": self.candidate,
            "diff": self.diff,
            "interval": list(self.interval) if self.interval else None,
            "level": self.level,
            "regressed": self.regressed,
            "tier_drop": self.tier_drop,
            "tier": {"baseline": self.tier_baseline, "candidate": self.tier_candidate},
            "equivalence": None
            if self.margin is None
            else {
                "interval": list(self.equivalence) if self.equivalence else None,
                "margin": self.margin,
                "equivalent": self.equivalent,
            },
            "absent": self.absent,
            "note": self.note,
        }


def difference_interval(
    baseline_ci: Sequence[float] | None,
    candidate_ci: Sequence[float] | None,
    diff: float,
    z: float = Z95,
) -> tuple[float, float] | None:
    """d ± z·√(se_B² + se_C²), each se read from a stored 95 % interval as (hi − lo) / 3.92:
    the interval when the baseline's evidence is gone and only its interval is left."""
    if baseline_ci is None or candidate_ci is None:
        return None
    se_b = (float(baseline_ci[1]) - float(baseline_ci[0])) / (2 * Z95)
    se_c = (float(candidate_ci[1]) - float(candidate_ci[0])) / (2 * Z95)
    half = z * math.hypot(se_b, se_c)
    return (_snap(diff - half), _snap(diff + half))


def _snap(value: float) -> float:
    """A bound within 1e-9 of 0 is 0 (SCORING.md §4): float sums must not decide."""
    return 0.0 if abs(value) <= ZERO_TOLERANCE else float(value)


def _bounds(low: float, high: float) -> tuple[float, float] | None:
    return None if math.isnan(low) or math.isnan(high) else (_snap(low), _snap(high))


def _tier_rank(axis: str, tier: str | None) -> int | None:
    names = [t.name for t in TIERS[axis]]
    return names.index(tier) if tier in names else None


def axis_check(
    axis: str,
    baseline: Mapping[str, Any] | None,
    candidate: Mapping[str, Any] | None,
    difference: AssessmentDifference | None,
    margin: float,
) -> GateCheck:
    from aaaf.stats.equivalence import bootstrap_tost, percentile_interval

    b = (baseline or {}).get("composite_score")
    c = (candidate or {}).get("composite_score")
    tier_b = (baseline or {}).get("tier")
    tier_c = (candidate or {}).get("tier")
    if b is None or c is None:
        return GateCheck("axis", axis, b, c, tier_baseline=tier_b, tier_candidate=tier_c, absent=True,
                         note="no composite on " + ("both sides" if b is None and c is None else "one side"))  # fmt: skip
    diff = float(c) - float(b)
    if difference is not None and axis in difference.resampled:
        resampled = difference.resampled[axis]
        observed = difference.observed.get(axis)
        diff = diff if observed is None else observed
        low, high = percentile_interval(resampled, 1.0 - ALPHA)
        interval = _bounds(float(low[0]), float(high[0]))
        tost = bootstrap_tost(resampled, margin, ALPHA)
        equivalence = _bounds(float(tost.low[0]), float(tost.high[0]))
        equivalent = bool(tost.equivalent[0])
        note = "" if interval is not None else "no resample had this composite on both sides"
    else:
        ci_b = ((baseline or {}).get("uncertainty") or {}).get("ci")
        ci_c = ((candidate or {}).get("uncertainty") or {}).get("ci")
        interval = difference_interval(ci_b, ci_c, diff)
        equivalence = difference_interval(ci_b, ci_c, diff, Z90)
        equivalent = equivalence is not None and -margin < equivalence[0] and equivalence[1] < margin
        note = "" if interval is not None else "no uncertainty interval on one side (assessed without it)"
    rank_b, rank_c = _tier_rank(axis, tier_b), _tier_rank(axis, tier_c)
    lower = rank_b is not None and rank_c is not None and rank_c < rank_b
    regressed = interval is not None and interval[1] < 0.0
    # a lower tier is noise when the difference is neither significant nor beyond the margin:
    # a composite on a tier boundary crosses it both ways by chance
    noise = lower and equivalent and not regressed
    if noise:
        note = (
            f"tier lower, but the difference is not significant and is shown within ±{margin:g}: "
            "a composite on a tier boundary, not a drop"
        )
    return GateCheck(
        "axis",
        axis,
        float(b),
        float(c),
        diff=diff,
        interval=interval,
        regressed=regressed,
        tier_drop=lower and not noise,
        tier_baseline=tier_b,
        tier_candidate=tier_c,
        note=note,
        level=1.0 - ALPHA,
        equivalence=equivalence,
        margin=margin,
        equivalent=equivalent if interval is not None else None,
    )


def _score(assessment: Mapping[str, Any] | None, axis: str, name: str) -> float | None:
    value = ((((assessment or {}).get(axis) or {}).get("dimensions") or {}).get(name) or {}).get("score")
    return None if value is None else float(value)


def dimension_checks(
    baseline: Mapping[str, object],
    candidate: Mapping[str, object],
    difference: AssessmentDifference | None,
    flips: FlipReport | None,
    tolerance: float,
) -> list[GateCheck]:
    """Every dimension, then the accepted tasks; with intervals, one Bonferroni family."""
    from aaaf.stats.equivalence import percentile_interval

    names = [f"{axis}.{name}" for axis in TIERS for name in AXES[axis]]
    scores = {n: (_score(baseline, *n.split(".")), _score(candidate, *n.split("."))) for n in names}
    present = [n for n in names if None not in scores[n]]
    with_intervals = difference is not None and all(n in difference.resampled for n in present)
    tasks = flips is not None and flips.paired > 0
    # the task checks: all the flips, and each domain's (those without a flip cannot fall, but
    # are tested all the same: the family does not depend on what happened)
    family = max(1, len(present) + ((1 + len(flips.domains)) if flips is not None and tasks else 0))
    level = 1.0 - ALPHA / family
    checks = []
    for name in names:
        b, c = scores[name]
        if b is None or c is None:
            note = "no evidence on " + ("both sides" if b is None and c is None else "one side")
            checks.append(GateCheck("dimension", name, b, c, absent=True, note=note))
            continue
        if not with_intervals:
            diff = c - b
            regressed = diff < -tolerance
            note = f"fell by more than {tolerance:g}" if regressed else f"within the tolerance {tolerance:g}"
            checks.append(GateCheck("dimension", name, b, c, diff=diff, regressed=regressed, note=note))
            continue
        assert difference is not None
        observed = difference.observed.get(name)
        diff = c - b if observed is None else observed
        low, high = percentile_interval(difference.resampled[name], level)
        interval = _bounds(float(low[0]), float(high[0]))
        regressed = interval is not None and interval[1] < 0.0
        checks.append(
            GateCheck(
                "dimension",
                name,
                b,
                c,
                diff=diff,
                interval=interval,
                regressed=regressed,
                level=level,
                note=_dimension_note(diff, interval, level, regressed),
            )
        )
    if tasks:
        assert flips is not None
        checks.append(_tasks_check(flips, level))
        checks += [_domain_check(domain, level) for domain in flips.domains if domain.test.discordant]
    return checks


def _dimension_note(diff: float, interval: tuple[float, float] | None, level: float, regressed: bool) -> str:
    if interval is None:
        return "no resample had it on both sides"
    if regressed:
        return f"fell: its {100 * level:.1f} % interval lies below 0"
    if interval[0] <= 0.0 <= interval[1] and diff != 0.0:
        return f"moved within its {100 * level:.1f} % interval (noise)"
    return ""


def _tasks_check(flips: FlipReport, level: float) -> GateCheck:
    lost, gained, paired = len(flips.lost), len(flips.gained), flips.paired
    regressed = lost > gained and flips.test.p_value < 1.0 - level
    return GateCheck(
        "tasks",
        "accepted tasks",
        flips.accepted_baseline / paired,
        flips.accepted_candidate / paired,
        diff=(gained - lost) / paired,
        regressed=regressed,
        level=level,
        note=f"{lost} lost, {gained} gained of {paired} paired tasks; McNemar's exact p = "
        f"{flips.test.p_value:.2g}" + (f" < {1.0 - level:.2g}" if regressed else ""),
    )


def _domain_check(domain: DomainTest, level: float) -> GateCheck:
    test, paired = domain.test, domain.paired
    regressed = test.lost > test.gained and test.p_value < 1.0 - level
    return GateCheck(
        "tasks",
        f"tasks.{domain.domain or 'no domain'}",
        domain.accepted_baseline / paired,
        domain.accepted_candidate / paired,
        diff=(test.gained - test.lost) / paired,
        regressed=regressed,
        level=level,
        note=f"{test.lost} lost, {test.gained} gained of {paired} paired tasks; McNemar's exact p = "
        f"{test.p_value:.2g}" + (f" < {1.0 - level:.2g}" if regressed else ""),
    )
