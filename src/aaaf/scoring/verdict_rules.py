"""The ordered verdict rules of SCORING.md §4 (document 002 §4), on plain facts (pure).

The rules read :class:`VerdictFacts` — the number of variants and paired samples, the
composite's CI and MDE, each layer's gates and CIs, the judges' agreement — and the
first rule that matches decides, with the reason that decided it as a
:class:`VerdictReason` (a :class:`ReasonCode` and the numbers behind it; the sentence is
worded by :func:`aaaf.reports.verdict_text.reason_text`):

1. one variant only → SOLO;
2. fewer than ``min_paired`` paired samples → UNDERPOWERED;
3. composite CI entirely < 0, or a layer passed its gate in C, fails it in T and its
   Bonferroni-level CI (1 − α/k for the k present layers) is entirely < 0 → REGRESS;
3b. composite CI contains 0 and MDE = 2.8·sd(diff)/√n > 0.25 → UNDERPOWERED;
4. composite CI and every layer's Bonferroni-level CI contain 0 → NOISE;
5. composite CI entirely > 0, every present gate passes in T, judges agree, and no
   layer's Bonferroni-level CI lies entirely < 0 → PROGRESS;
6. anything else → CAUTIOUS.

A bound within 1e-9 of 0 is 0 (:data:`ZERO_TOLERANCE`): resample means are sums of
floats, so a bound that is exactly 0 comes out as ±1e-17 and must not decide a verdict.
With the Hotelling option, "the composite CI excludes 0" in rules 3-5 becomes "T²'s
p-value < α" with the direction taken from the sign of the composite's mean difference.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from aaaf.scoring.judging import JudgesSummary
from aaaf.scoring.layered import LayeredConfig

# SCORING.md §4 (2026-11-23): a bound within 1e-9 of 0 is 0.
ZERO_TOLERANCE = 1e-9


class Verdict(StrEnum):
    """The six verdicts of document 002 §4."""

    PROGRESS = "PROGRESS"
    CAUTIOUS = "CAUTIOUS"
    REGRESS = "REGRESS"
    NOISE = "NOISE"
    UNDERPOWERED = "UNDERPOWERED"
    SOLO = "SOLO"


# document 002 §4 'The six verdicts at a glance': what to do
VERDICT_ACTIONS: Mapping[Verdict, str] = {
    Verdict.PROGRESS: "SHIP",
    Verdict.CAUTIOUS: "INVESTIGATE",
    Verdict.REGRESS: "DO NOT SHIP",
    Verdict.NOISE: "INCONCLUSIVE",
    Verdict.UNDERPOWERED: "ADD SAMPLES",
    Verdict.SOLO: "ADD A CONTROL",
}

# SCORING.md §4 'Several treatments': the roll-up is the worst verdict,
# REGRESS > CAUTIOUS > UNDERPOWERED > NOISE > PROGRESS (SOLO cannot occur with a control).
SEVERITY: Mapping[Verdict, int] = {
    Verdict.REGRESS: 5,
    Verdict.CAUTIOUS: 4,
    Verdict.UNDERPOWERED: 3,
    Verdict.NOISE: 2,
    Verdict.PROGRESS: 1,
    Verdict.SOLO: 0,
}


def worst_verdict(verdicts: Iterable[Verdict]) -> Verdict:
    """The roll-up of several comparisons: the most severe verdict (SCORING.md §4)."""
    chosen = list(verdicts)
    if not chosen:
        raise ValueError("no verdict to roll up")
    return max(chosen, key=lambda verdict: SEVERITY[verdict])


def parse_verdicts(text: str) -> tuple[Verdict, ...]:
    """'regress, Cautious' → (REGRESS, CAUTIOUS); case-insensitive, comma-separated.

    Raises ValueError naming the unknown names (the CLI turns it into exit 2).
    """
    names = [part.strip() for part in text.split(",") if part.strip()]
    if not names:
        raise ValueError("no verdict named")
    known = {v.value: v for v in Verdict}
    unknown = [name for name in names if name.upper() not in known]
    if unknown:
        raise ValueError(f"unknown verdict(s) {', '.join(unknown)}; expected some of {', '.join(known)}")
    return tuple(dict.fromkeys(known[name.upper()] for name in names))


def fmt(value: float | None, digits: int = 2, *, signed: bool = False) -> str:
    """A difference, bound or statistic for reasons and headlines, rounded ('—' for null).

    Levels on the 1-5 scale (means compared with a gate) go through ``core.display``
    instead, which truncates: a 3.499 mean shows as 3.49, never as a passing 3.50.
    """
    if value is None:
        return "—"
    if math.isinf(value):
        return "∞"
    return f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"


def snap_zero(value: float) -> float:
    """A CI bound within :data:`ZERO_TOLERANCE` of 0 is 0 (SCORING.md §4)."""
    return 0.0 if abs(value) <= ZERO_TOLERANCE else float(value)


@dataclass(frozen=True)
class Interval:
    """A two-sided interval; 'contains 0' is lo ≤ 0 ≤ hi, bounds within 1e-9 of 0 are 0."""

    low: float
    high: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "low", snap_zero(self.low))
        object.__setattr__(self, "high", snap_zero(self.high))

    @property
    def contains_zero(self) -> bool:
        return self.low <= 0.0 <= self.high

    @property
    def below_zero(self) -> bool:
        return self.high < 0.0

    @property
    def above_zero(self) -> bool:
        return self.low > 0.0

    def to_list(self) -> list[float]:
        return [self.low, self.high]

    def text(self) -> str:
        return f"[{fmt(self.low)}, {fmt(self.high)}]"


@dataclass(frozen=True)
class LayerComparison:
    """One layer of a comparison: means over paired samples, diff, CIs, gates."""

    name: str
    present: bool
    control: float | None
    treatment: float | None
    diff: float | None
    ci: Interval | None
    ci_bonferroni: Interval | None
    gate_control: bool | None
    gate_treatment: bool | None
    samples_control: int
    samples_treatment: int
    #: for a layer not present: over how many paired samples it was missing (worded by
    #: :func:`aaaf.reports.verdict_text.layer_absent_text`, the JSON's ``reason``)
    absent_of: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "present": self.present,
            "control": self.control,
            "treatment": self.treatment,
            "diff": self.diff,
            "ci": self.ci.to_list() if self.ci else None,
            "ci_bonferroni": self.ci_bonferroni.to_list() if self.ci_bonferroni else None,
            "gate": {"control": self.gate_control, "treatment": self.gate_treatment},
            "samples": {"control": self.samples_control, "treatment": self.samples_treatment},
        }


class ReasonCode(StrEnum):
    """Which branch of the ordered rules (SCORING.md §4) decided the verdict."""

    ONE_VARIANT = "one_variant"  # rule 1
    TOO_FEW_PAIRED = "too_few_paired"  # rule 2
    COMPOSITE_BELOW = "composite_below"  # rule 3, composite
    LAYER_REGRESSED = "layer_regressed"  # rule 3, a layer lost its gate and dropped
    LOW_POWER = "low_power"  # rule 3b
    NOTHING_MOVED = "nothing_moved"  # rule 4
    ALL_CLEAR = "all_clear"  # rule 5
    UP_WITH_PROBLEMS = "up_with_problems"  # rule 6, the composite rose but something failed
    SIGNIFICANT_BUT_FLAT = "significant_but_flat"  # rule 6, Hotelling only
    LAYERS_MOVE = "layers_move"  # rule 6, the composite is flat, layers move


@dataclass(frozen=True)
class VerdictFacts:
    """Everything the ordered rules read, as plain values (so each rule is testable alone)."""

    variants: int
    n_paired: int
    composite_diff: float | None
    composite_ci: Interval | None
    mde: float | None
    layers: tuple[LayerComparison, ...]
    judges: JudgesSummary
    hotelling_p: float | None = None
    use_hotelling: bool = False

    @property
    def judges_agree(self) -> bool:
        return self.judges.agree


@dataclass(frozen=True)
class VerdictReason:
    """Why the verdict is what it is: the rule's code and the facts and layers it named.

    ``layer`` is the layer that regressed (rule 3); ``failing`` / ``dropped`` the layers
    that kept a rising composite from PROGRESS (rule 6); ``ups`` / ``downs`` the layers
    that moved significantly (rule 6); ``incomplete`` the runs that did not finish.
    """

    code: ReasonCode
    facts: VerdictFacts | None = None
    config: LayeredConfig | None = None
    layer: LayerComparison | None = None
    failing: tuple[LayerComparison, ...] = ()
    dropped: tuple[LayerComparison, ...] = ()
    ups: tuple[str, ...] = ()
    downs: tuple[str, ...] = ()
    incomplete: tuple[Any, ...] = ()


@dataclass(frozen=True)
class DecidedVerdict:
    verdict: Verdict
    rule: str
    reason: VerdictReason


def composite_significance(facts: VerdictFacts, config: LayeredConfig) -> tuple[bool, bool, bool]:
    """(significantly below, significantly above, not significant) of the composite test."""
    if facts.use_hotelling:
        p = facts.hotelling_p
        diff = facts.composite_diff or 0.0
        significant = p is not None and p < config.alpha
        return significant and diff < 0.0, significant and diff > 0.0, not significant
    ci = facts.composite_ci
    if ci is None:
        return False, False, True
    return ci.below_zero, ci.above_zero, ci.contains_zero


def decide_verdict(facts: VerdictFacts, config: LayeredConfig) -> DecidedVerdict:
    """The first rule of SCORING.md §4 that matches, with the reason that decided it."""

    def decided(verdict: Verdict, rule: str, code: ReasonCode, **named: Any) -> DecidedVerdict:
        return DecidedVerdict(verdict, rule, VerdictReason(code, facts, config, **named))

    if facts.variants < 2:
        return decided(Verdict.SOLO, "1", ReasonCode.ONE_VARIANT)
    if facts.n_paired < config.min_paired:
        return decided(Verdict.UNDERPOWERED, "2", ReasonCode.TOO_FEW_PAIRED)
    below, above, contains_zero = composite_significance(facts, config)
    present = [layer for layer in facts.layers if layer.present]
    if below:
        return decided(Verdict.REGRESS, "3", ReasonCode.COMPOSITE_BELOW)
    for layer in present:
        if (
            layer.gate_control
            and layer.gate_treatment is False
            and layer.ci_bonferroni is not None
            and layer.ci_bonferroni.below_zero
        ):
            return decided(Verdict.REGRESS, "3", ReasonCode.LAYER_REGRESSED, layer=layer)
    if contains_zero and facts.mde is not None and facts.mde > config.mde_threshold:
        return decided(Verdict.UNDERPOWERED, "3b", ReasonCode.LOW_POWER)
    # rules 4-6 read the layers' Bonferroni-level CIs (SCORING.md §4, 2026-11-23)
    moved = [
        layer
        for layer in present
        if layer.ci_bonferroni is not None and not layer.ci_bonferroni.contains_zero
    ]
    if contains_zero and not moved:
        return decided(Verdict.NOISE, "4", ReasonCode.NOTHING_MOVED)
    failing = tuple(layer for layer in present if not layer.gate_treatment)
    dropped = tuple(
        layer for layer in moved if layer.ci_bonferroni is not None and layer.ci_bonferroni.below_zero
    )
    if above and present and not failing and facts.judges_agree and not dropped:
        return decided(Verdict.PROGRESS, "5", ReasonCode.ALL_CLEAR)
    # rule 6: say what kept it from a cleaner verdict
    if above:
        return decided(Verdict.CAUTIOUS, "6", ReasonCode.UP_WITH_PROBLEMS, failing=failing, dropped=dropped)
    ups = tuple(
        layer.name for layer in moved if layer.ci_bonferroni is not None and layer.ci_bonferroni.above_zero
    )
    downs = tuple(layer.name for layer in dropped)
    if not contains_zero:
        # only with Hotelling: the multivariate test is significant but the composite did not move
        return decided(Verdict.CAUTIOUS, "6", ReasonCode.SIGNIFICANT_BUT_FLAT, ups=ups, downs=downs)
    return decided(Verdict.CAUTIOUS, "6", ReasonCode.LAYERS_MOVE, ups=ups, downs=downs)
