"""How two AAAF assessments differ, with intervals: the release gate's statistics (SCORING.md
§2.5 resampling applied to a difference; §4's paired reading).

A gate compares a candidate assessment with a baseline.  Each composite and each dimension
is an estimate from a sample of tasks, so their difference needs an interval — and when
both sides ran *the same tasks* (the stress suite, one run each) the difference is paired:
a task that is hard for the baseline is hard for the candidate, and resampling the tasks
jointly removes that shared variation from the interval (§4 pairs eval samples for the same
reason).

* **Paired** — when every task of each side carries a pairing key (its stress task id),
  once per side, and the sides share at least two keys: the units are the shared keys, in
  key order; tasks of one side only are left out of both (and named), as §4 leaves out
  unpaired samples.  One §2.5 draw ``default_rng(seed).integers(0, m, size=(B, m))``
  over the m shared tasks gives both windows the same multiset of tasks in each resample.
* **Independent** — otherwise (a side holds passive evidence, or several runs of a task):
  each side is resampled over its own tasks, the baseline with ``seed``, the candidate
  with ``seed + 1``, and the differences are taken resample by resample (the two-sample
  bootstrap).

Each side is scored with its own configuration and window end (the baseline with the
configuration recorded with it), and "same construct" holds per side: a dimension null in
that side's assessment is null in its every resample.  Every score comes from
:func:`aaaf.scoring.uncertainty.resampled_scores` — the observed value is the row of ones
(the window itself), so an observed difference and its resamples are one computation.
Pure: events in, arrays out; the gate (:mod:`aaaf.services.gate`) turns them into checks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np
import numpy.typing as npt

from aaaf.scoring.aaaf_window import WindowEvidence, window_evidence
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.fold import fold_evidence
from aaaf.scoring.records import EventRecord
from aaaf.scoring.uncertainty import draw_counts, draw_indices, resampled_scores

FloatArray = npt.NDArray[np.float64]
MIN_PAIRED = 2
"""Fewer shared tasks than this cannot be paired (one task has no spread to resample)."""


@dataclass(frozen=True)
class Side:
    """One assessment's evidence as it was scored.

    ``assessed``: axis → {dimension: the stored score} (a null stays null); ``keys``: window
    task id → pairing key (a stress task id), None when this side cannot be paired."""

    events: Sequence[EventRecord]
    config: AAAFConfig
    window_end: datetime
    assessed: Mapping[str, Mapping[str, float | None]]
    keys: Mapping[str, str] | None = None


@dataclass(frozen=True)
class PairedTask:
    """One shared task: its key, domain and each side's completion status and credit."""

    key: str
    domain: str | None
    baseline_status: str | None
    candidate_status: str | None
    baseline_credit: float
    candidate_credit: float


@dataclass(frozen=True)
class AssessmentDifference:
    """Candidate − baseline, observed and in every resample, per axis ("performance") and
    per dimension ("performance.accuracy"); NaN where either side is null."""

    paired: bool
    resamples: int
    n_baseline: int
    n_candidate: int
    observed: Mapping[str, float | None]
    resampled: Mapping[str, FloatArray]
    baseline_only: tuple[str, ...] = ()
    candidate_only: tuple[str, ...] = ()
    tasks: tuple[PairedTask, ...] = field(default_factory=tuple)

    @property
    def n_paired(self) -> int:
        return len(self.tasks)


def _window(side: Side, excluded: frozenset[str] = frozenset()) -> WindowEvidence:
    return window_evidence(fold_evidence(side.events), side.config, side.window_end, excluded)


def _pairing_keys(side: Side, window: WindowEvidence) -> dict[str, str] | None:
    """key → window task id, or None when a task has no key or a key names two tasks."""
    if side.keys is None:
        return None
    found: dict[str, str] = {}
    for scored in window.scored:
        key = side.keys.get(scored.task.task_id)
        if key is None or key in found:
            return None
        found[key] = scored.task.task_id
    return found


def _scores(window: WindowEvidence, side: Side, counts: FloatArray) -> dict[str, FloatArray]:
    """name → the score in each row of ``counts`` (axes by their name, dimensions as axis.name)."""
    out: dict[str, FloatArray] = {}
    for axis, (composite, dimensions) in resampled_scores(window, side.config, side.assessed, counts).items():
        out[axis] = composite
        for name, values in dimensions.items():
            out[f"{axis}.{name}"] = values
    return out


def _differences(
    baseline: Mapping[str, FloatArray], candidate: Mapping[str, FloatArray]
) -> dict[str, FloatArray]:
    return {name: candidate[name] - baseline[name] for name in baseline if name in candidate}


def _observed(values: FloatArray) -> float | None:
    value = float(values[0])
    return None if np.isnan(value) else value


def _order(keys: Mapping[str, str], window: WindowEvidence, shared: Sequence[str]) -> npt.NDArray[np.int64]:
    position = {scored.task.task_id: i for i, scored in enumerate(window.scored)}
    return np.array([position[keys[key]] for key in shared], dtype=np.int64)


def assessment_difference(
    baseline: Side, candidate: Side, *, resamples: int, seed: int = 0
) -> AssessmentDifference:
    """Candidate − baseline with ``resamples`` resamples (paired when the sides can be)."""
    if resamples < 1:
        raise ValueError("the gate needs at least one resample")
    window_b, window_c = _window(baseline), _window(candidate)
    keys_b, keys_c = _pairing_keys(baseline, window_b), _pairing_keys(candidate, window_c)
    shared = sorted(set(keys_b) & set(keys_c)) if keys_b is not None and keys_c is not None else []
    if keys_b is None or keys_c is None or len(shared) < MIN_PAIRED:
        return _independent(baseline, candidate, window_b, window_c, resamples, seed)
    baseline_only = tuple(sorted(set(keys_b) - set(shared)))
    candidate_only = tuple(sorted(set(keys_c) - set(shared)))
    if baseline_only:
        window_b = _window(baseline, frozenset(keys_b[key] for key in baseline_only))
    if candidate_only:
        window_c = _window(candidate, frozenset(keys_c[key] for key in candidate_only))
    m = len(shared)
    drawn = draw_counts(draw_indices(m, resamples, seed), m)
    sides = []
    for side, window, keys in ((baseline, window_b, keys_b), (candidate, window_c, keys_c)):
        order = _order(keys, window, shared)
        counts = np.zeros((resamples + 1, m))
        counts[0, order] = 1.0  # row 0: the window itself
        counts[1:, order] = drawn
        sides.append(_scores(window, side, counts))
    differences = _differences(*sides)
    tasks_b = {s.task.task_id: s.task for s in window_b.scored}
    tasks_c = {s.task.task_id: s.task for s in window_c.scored}
    tasks = tuple(
        PairedTask(
            key,
            tasks_b[keys_b[key]].domain or tasks_c[keys_c[key]].domain,
            tasks_b[keys_b[key]].completion_status,
            tasks_c[keys_c[key]].completion_status,
            tasks_b[keys_b[key]].credit,
            tasks_c[keys_c[key]].credit,
        )
        for key in shared
    )
    return AssessmentDifference(
        paired=True,
        resamples=resamples,
        n_baseline=len(window_b.scored),
        n_candidate=len(window_c.scored),
        observed={name: _observed(values) for name, values in differences.items()},
        resampled={name: values[1:] for name, values in differences.items()},
        baseline_only=baseline_only,
        candidate_only=candidate_only,
        tasks=tasks,
    )


def _independent(
    baseline: Side,
    candidate: Side,
    window_b: WindowEvidence,
    window_c: WindowEvidence,
    resamples: int,
    seed: int,
) -> AssessmentDifference:
    sides = []
    for offset, (side, window) in enumerate(((baseline, window_b), (candidate, window_c))):
        n = len(window.scored)
        if n == 0:
            raise ValueError("an assessment to compare has no window task")
        counts = np.vstack([np.ones((1, n)), draw_counts(draw_indices(n, resamples, seed + offset), n)])
        sides.append(_scores(window, side, counts))
    differences = _differences(*sides)
    return AssessmentDifference(
        paired=False,
        resamples=resamples,
        n_baseline=len(window_b.scored),
        n_candidate=len(window_c.scored),
        observed={name: _observed(values) for name, values in differences.items()},
        resampled={name: values[1:] for name, values in differences.items()},
    )
