"""The ordered verdict rules of SCORING.md §4 (document 002 §4), on plain facts (pure).

The rules read :class:`VerdictFacts` — the number of variants and paired samples, the
composite's CI and MDE, each layer's gates and CIs, the judges' agreement — and the
first rule that matches decides, with the reason that decided it:

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

from aaaf.scoring.core import display
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
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "present": self.present,
            "control": self.control,
            "treatment": self.treatment,
            "diff": self.diff,
            "ci": self.ci.to_list() if self.ci else None,
            "ci_bonferroni": self.ci_bonferroni.to_list() if self.ci_bonferroni else None,
            "gate": {"control": self.gate_control, "treatment": self.gate_treatment},
            "samples": {"control": self.samples_control, "treatment": self.samples_treatment},
        }
        if self.reason is not None:
            out["reason"] = self.reason
        return out


@dataclass(frozen=True)
class DecidedVerdict:
    verdict: Verdict
    rule: str
    reason: str


@dataclass(frozen=True)
class VerdictFacts:
    """Everything the ordered rules read, as plain values (so each rule is testable alone)."""

    variants: int
    n_paired: int
    composite_diff: float | None
    composite_ci: Interval | None
    mde: float | None
    layers: tuple[LayerComparison, ...]
    judges_agree: bool
    judges_detail: str
    hotelling_p: float | None = None
    use_hotelling: bool = False


def _significance(facts: VerdictFacts, config: LayeredConfig) -> tuple[bool, bool, bool, str]:
    """(significantly below, significantly above, contains zero, description) of the composite test."""
    if facts.use_hotelling:
        p = facts.hotelling_p
        diff = facts.composite_diff or 0.0
        significant = p is not None and p < config.alpha
        text = "Hotelling T² p not computable" if p is None else f"Hotelling T² p = {p:.3g}"
        return significant and diff < 0.0, significant and diff > 0.0, not significant, text
    ci = facts.composite_ci
    if ci is None:
        return False, False, True, "composite CI unavailable"
    return ci.below_zero, ci.above_zero, ci.contains_zero, f"composite CI {ci.text()}"


def bonferroni_level(config: LayeredConfig, k: int) -> str:
    """'98.33 %': the confidence of a layer CI at the Bonferroni level 1 − α/k."""
    return f"{100.0 * (1.0 - config.alpha / max(k, 1)):.4g} %"


def decide_verdict(facts: VerdictFacts, config: LayeredConfig) -> DecidedVerdict:
    """The first rule of SCORING.md §4 that matches, with the reason that decided it."""
    if facts.variants < 2:
        return DecidedVerdict(Verdict.SOLO, "1", "one variant only: nothing to compare against")
    if facts.n_paired < config.min_paired:
        return DecidedVerdict(
            Verdict.UNDERPOWERED,
            "2",
            f"{facts.n_paired} paired sample(s), fewer than the {config.min_paired} required",
        )
    below, above, contains_zero, test_text = _significance(facts, config)
    present = [layer for layer in facts.layers if layer.present]
    k = len(present)
    level = bonferroni_level(config, k)
    if below:
        diff_text = fmt(facts.composite_diff, signed=True)
        if facts.use_hotelling:
            reason = f"{test_text} < α = {fmt(config.alpha)} with the composite moving down ({diff_text})"
        else:
            reason = f"{test_text} lies entirely below 0 (diff {diff_text})"
        return DecidedVerdict(Verdict.REGRESS, "3", reason)
    for layer in present:
        if (
            layer.gate_control
            and layer.gate_treatment is False
            and layer.ci_bonferroni is not None
            and layer.ci_bonferroni.below_zero
        ):
            return DecidedVerdict(
                Verdict.REGRESS,
                "3",
                f"layer {layer.name} passed its gate in control ({display(layer.control)} ≥ "
                f"{fmt(config.gate_threshold)}) but fails it in treatment ({display(layer.treatment)}), "
                f"and its {level} Bonferroni CI {layer.ci_bonferroni.text()} lies entirely below 0",
            )
    not_significant = "is not significant" if facts.use_hotelling else "contains 0"
    if contains_zero and facts.mde is not None and facts.mde > config.mde_threshold:
        return DecidedVerdict(
            Verdict.UNDERPOWERED,
            "3b",
            f"{test_text} {not_significant} and the minimum "
            f"detectable effect {fmt(facts.mde)} exceeds {fmt(config.mde_threshold)} points",
        )
    # rules 4-6 read the layers' Bonferroni-level CIs (SCORING.md §4, 2026-11-23)
    moved = [
        layer
        for layer in present
        if layer.ci_bonferroni is not None and not layer.ci_bonferroni.contains_zero
    ]
    if contains_zero and not moved:
        layers_text = (
            f"every layer's {level} Bonferroni CI ({', '.join(layer.name for layer in present)}) contains 0"
            if present
            else "no layer is present"
        )
        return DecidedVerdict(Verdict.NOISE, "4", f"{test_text} {not_significant} and {layers_text}")
    failing = [layer for layer in present if not layer.gate_treatment]
    dropped = [layer for layer in moved if layer.ci_bonferroni is not None and layer.ci_bonferroni.below_zero]
    if above and present and not failing and facts.judges_agree and not dropped:
        test_phrase = (
            f"{test_text} < α = {fmt(config.alpha)} with the composite moving up"
            if facts.use_hotelling
            else f"{test_text} lies entirely above 0"
        )
        return DecidedVerdict(
            Verdict.PROGRESS,
            "5",
            f"{test_phrase}, all {k} present layer gate(s) pass, no layer dropped significantly, "
            f"{facts.judges_detail}",
        )
    # rule 6: say what kept it from a cleaner verdict
    if above:
        problems: list[str] = []
        if not present:
            problems.append("no layer is present in every paired sample, so the gate fails")
        problems.extend(
            f"layer {layer.name} fails its gate in treatment ({display(layer.treatment)} < {fmt(config.gate_threshold)})"
            for layer in failing
        )
        problems.extend(
            f"layer {layer.name} dropped significantly (its {level} Bonferroni CI "
            f"{layer.ci_bonferroni.text() if layer.ci_bonferroni else '—'} lies entirely below 0)"
            for layer in dropped
            if layer not in failing
        )
        if not facts.judges_agree:
            problems.append(facts.judges_detail)
        upward = "is significant upward" if facts.use_hotelling else "lies entirely above 0"
        return DecidedVerdict(Verdict.CAUTIOUS, "6", f"{test_text} {upward}, but {'; '.join(problems)}")
    ups = [
        layer.name for layer in moved if layer.ci_bonferroni is not None and layer.ci_bonferroni.above_zero
    ]
    downs = [layer.name for layer in dropped]
    movement = [
        f"{', '.join(names)} significantly {way}" for names, way in ((ups, "up"), (downs, "down")) if names
    ]
    if not contains_zero:
        # only with Hotelling: the multivariate test is significant but the composite did not move
        return DecidedVerdict(
            Verdict.CAUTIOUS,
            "6",
            f"{test_text} < α = {fmt(config.alpha)} but the composite is flat"
            + (f" ({'; '.join(movement)})" if movement else ""),
        )
    return DecidedVerdict(
        Verdict.CAUTIOUS,
        "6",
        f"{test_text} {not_significant} while layers move in significant directions "
        f"at the {level} Bonferroni level ({'; '.join(movement)})",
    )
