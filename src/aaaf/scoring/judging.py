"""Judge agreement, human alignment and the methodology badges of SCORING.md §4 (pure).

* Judge agreement: Pearson r between each pair of judges over the samples both scored,
  per run; a pair counts only with ≥ 3 common samples and neither judge constant; the
  run disagrees when its mean pairwise r < 0.4.  Krippendorff's α (interval) beside it.
  A sample recorded several times (epochs) is one unit: a judge's score of it is the
  mean of its scores over the sample's records.
* Badges (document 002 §4): judges agree, difference significant, saturated,
  human-aligned (Spearman ≥ 0.80 between judge and human scores where labels exist).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from aaaf.scoring.layered import LayeredConfig, LayeredSample, SampleScores
from aaaf.stats.agreement import krippendorff_alpha, pearson, spearman


@dataclass(frozen=True)
class PairLeftOut:
    """Why a judge pair does not count (SCORING.md §4): fewer than ``min_common`` common
    samples, or the judges in ``constant`` gave one score to all of them.  Worded by
    :func:`aaaf.reports.verdict_text.pair_reason_text`."""

    min_common: int
    constant: tuple[str, ...] = ()


@dataclass(frozen=True)
class JudgePair:
    """Pearson r of two judges over the samples both scored; counted per SCORING.md §4."""

    first: str
    second: str
    common: int
    r: float | None
    counted: bool
    reason: PairLeftOut | None

    def to_dict(self) -> dict[str, Any]:
        """The pair's numbers; :func:`aaaf.reports.verdict_text.pair_dict` adds its ``reason``."""
        return {
            "judges": [self.first, self.second],
            "common_samples": self.common,
            "pearson": self.r,
            "counted": self.counted,
        }


@dataclass(frozen=True)
class RunJudgeAgreement:
    """One run's judge agreement: mean pairwise Pearson over counted pairs, α (interval)."""

    judges: tuple[str, ...]
    pairs: tuple[JudgePair, ...]
    mean_pearson: float | None
    krippendorff_alpha: float | None
    disagree: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "judges": list(self.judges),
            "mean_pearson": self.mean_pearson,
            "krippendorff_alpha": self.krippendorff_alpha,
            "disagree": self.disagree,
            "pairs": [pair.to_dict() for pair in self.pairs],
        }


def judge_agreement(samples: Sequence[LayeredSample], config: LayeredConfig) -> RunJudgeAgreement:
    """Judge agreement of one run (SCORING.md §4 'Judge agreement').

    Pearson r for each pair of judges over the samples both scored; a pair counts only
    with ≥ ``judge_min_common`` common samples and neither judge constant on them.  The
    run disagrees when the mean r of its counted pairs is < 0.4; a run without a counted
    pair does not disagree.  Krippendorff's α (interval; judges as coders, samples as
    units) is reported beside it.
    """
    records: dict[str, dict[str, list[float]]] = {}
    for sample in samples:
        for score in sample.judges:
            records.setdefault(score.judge, {}).setdefault(sample.sample_id, []).append(score.score)
    # one unit per sample_id: a judge's score of a sample recorded over epochs is their mean
    by_judge = {
        judge: {sid: math.fsum(values) / len(values) for sid, values in scored.items()}
        for judge, scored in records.items()
    }
    judges = tuple(sorted(by_judge))
    pairs: list[JudgePair] = []
    for first, second in itertools.combinations(judges, 2):
        common = [sid for sid in by_judge[first] if sid in by_judge[second]]
        x = [by_judge[first][sid] for sid in common]
        y = [by_judge[second][sid] for sid in common]
        if len(common) < config.judge_min_common:
            pairs.append(
                JudgePair(
                    first,
                    second,
                    len(common),
                    None,
                    False,
                    PairLeftOut(config.judge_min_common),
                )
            )
            continue
        constant = [name for name, values in ((first, x), (second, y)) if len(set(values)) == 1]
        if constant:
            pairs.append(
                JudgePair(
                    first,
                    second,
                    len(common),
                    None,
                    False,
                    PairLeftOut(config.judge_min_common, tuple(constant)),
                )
            )
            continue
        pairs.append(JudgePair(first, second, len(common), pearson(x, y), True, None))
    counted = [pair.r for pair in pairs if pair.counted and pair.r is not None]
    mean_r = math.fsum(counted) / len(counted) if counted else None
    alpha: float | None = None
    if len(judges) >= 2:
        sample_ids = list(dict.fromkeys(s.sample_id for s in samples))
        matrix = np.full((len(judges), len(sample_ids)), np.nan)
        for row, judge in enumerate(judges):
            for column, sid in enumerate(sample_ids):
                if sid in by_judge[judge]:
                    matrix[row, column] = by_judge[judge][sid]
        alpha = krippendorff_alpha(matrix, "interval")
    disagree = mean_r is not None and mean_r < config.judge_min_pearson
    return RunJudgeAgreement(judges, tuple(pairs), mean_r, alpha, disagree)


@dataclass(frozen=True)
class JudgesSummary:
    """Whether the judges agree over the runs compared (SCORING.md §4), as numbers.

    ``mean_pearson`` is each run's mean pairwise r (None without a counted pair);
    ``disagreeing`` names the runs whose mean r is < ``min_pearson``.  The sentence
    is worded by :func:`aaaf.reports.verdict_text.judges_text`.
    """

    agree: bool
    mean_pearson: Mapping[str, float | None]
    disagreeing: tuple[str, ...]
    min_pearson: float


@dataclass(frozen=True)
class HumanAlignment:
    """Spearman ρ between the judge layer and human labels (document 002 §4 'human-aligned').

    ``aligned`` is None (unknown) with fewer than 3 labelled judged samples or when ρ is
    undefined (a constant side).
    """

    aligned: bool | None
    rho: float | None
    n: int
    min_spearman: float


@dataclass(frozen=True)
class Significance:
    """What the 'difference significant' badge rests on: the Hotelling test, the composite
    CI, no paired sample (``kind`` "none") or a single run (``kind`` "single_run")."""

    kind: str
    significant: bool | None
    p_value: float | None = None
    alpha: float | None = None
    ci: tuple[float, float] | None = None


@dataclass(frozen=True)
class Saturation:
    """What the 'saturated' badge rests on: the composite level(s) against the threshold.

    ``levels`` holds the control and treatment levels of a comparison (``paired``) or the
    one composite of a single run; empty when nothing was scored.
    """

    paired: bool
    levels: tuple[float, ...]
    threshold: float
    saturated: bool | None


BadgeFacts = JudgesSummary | Significance | Saturation | HumanAlignment


@dataclass(frozen=True)
class Badge:
    """A methodology badge (document 002 §4): value True / False / None (unknown), and the
    facts behind it (worded by :func:`aaaf.reports.verdict_text.badge_detail`)."""

    key: str
    label: str
    value: bool | None
    facts: BadgeFacts


def human_alignment(scores: Sequence[SampleScores], config: LayeredConfig) -> HumanAlignment:
    """Spearman ρ between the judge layer and human labels where both exist."""
    pairs = [(s.judge, s.human) for s in scores if s.judge is not None and s.human is not None]
    minimum = config.human_alignment_min_spearman
    if len(pairs) < 3:
        return HumanAlignment(None, None, len(pairs), minimum)
    rho = spearman([p[0] for p in pairs], [p[1] for p in pairs])
    if rho is None:
        return HumanAlignment(None, None, len(pairs), minimum)
    return HumanAlignment(rho >= minimum, rho, len(pairs), minimum)


def methodology_badges(
    *,
    judges: JudgesSummary,
    significance: Significance,
    saturation: Saturation,
    human: HumanAlignment,
) -> dict[str, Badge]:
    return {
        "judges_agree": Badge("judges_agree", "judges agree", judges.agree, judges),
        "difference_significant": Badge(
            "difference_significant", "difference significant", significance.significant, significance
        ),
        "saturated": Badge("saturated", "saturated", saturation.saturated, saturation),
        "human_aligned": Badge("human_aligned", "human-aligned", human.aligned, human),
    }


def judges_summary(agreements: Mapping[str, RunJudgeAgreement], config: LayeredConfig) -> JudgesSummary:
    disagreeing = tuple(name for name, a in agreements.items() if a.disagree)
    return JudgesSummary(
        agree=not disagreeing,
        mean_pearson={name: a.mean_pearson for name, a in agreements.items()},
        disagreeing=disagreeing,
        min_pearson=config.judge_min_pearson,
    )
