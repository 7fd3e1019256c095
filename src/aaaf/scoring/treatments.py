"""Several treatments against one control (SCORING.md §4 'Several treatments', pure).

Each treatment is compared with the control by the two-run comparison of
:func:`aaaf.scoring.verdict.compare_runs`, with every confidence level adjusted for
the k comparisons (Bonferroni across treatments): the composite CI at 1 − α/k, the
layer CIs at 1 − α/(k·m) for the m present layers.  With k = 1 nothing changes.  The
roll-up verdict is the worst (REGRESS > CAUTIOUS > UNDERPOWERED > NOISE > PROGRESS) and
drives ``--fail-on``.  Its headline and JSON are worded by
:mod:`aaaf.reports.verdict_text`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from aaaf.scoring.layered import LayeredConfig, LayeredRun
from aaaf.scoring.verdict import Comparison, RunInfo, compare_runs
from aaaf.scoring.verdict_rules import VERDICT_ACTIONS, Verdict, worst_verdict


@dataclass(frozen=True)
class MultiComparison:
    """k treatments compared with one control: a verdict per treatment and the roll-up."""

    control: RunInfo
    comparisons: tuple[Comparison, ...]
    verdict: Verdict
    confidence: float

    @property
    def action(self) -> str:
        return VERDICT_ACTIONS[self.verdict]

    @property
    def deciding(self) -> tuple[Comparison, ...]:
        """The comparisons whose verdict is the roll-up's."""
        return tuple(c for c in self.comparisons if c.verdict is self.verdict)


def compare_treatments(
    control: LayeredRun, treatments: Sequence[LayeredRun], config: LayeredConfig | None = None
) -> MultiComparison:
    """Compare every treatment with the control at the Bonferroni-across-treatments level."""
    if not treatments:
        raise ValueError("at least one treatment is needed")
    config = config or LayeredConfig()
    k = len(treatments)
    comparisons = tuple(compare_runs(control, treatment, config, treatments=k) for treatment in treatments)
    return MultiComparison(
        control=RunInfo(control.run_id, control.variant, len(control.samples)),
        comparisons=comparisons,
        verdict=worst_verdict(c.verdict for c in comparisons),
        confidence=config.confidence,
    )
