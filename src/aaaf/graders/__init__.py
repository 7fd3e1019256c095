"""Graders (document 004 §3.4): code-based assertions first, a calibrated model judge second.

* :func:`grade_assertion` — every assertion type of SCORING.md §4, pure and deterministic;
* :mod:`aaaf.graders.judge` — :class:`Judge` / :class:`JudgeEnsemble` on an
  OpenAI-compatible chat-completions endpoint, rubric prompts with a recorded hash;
* :mod:`aaaf.graders.calibration` — Spearman against human labels, refusal under 0.80.

Grading is the shell's job (``aaaf.services.evals.grade_run``); the pure scoring core
never imports this package.
"""

from aaaf.graders.assertions import (
    ASSERTION_TYPES,
    BEHAVIOR_TYPES,
    DEFAULT_SIMILAR_THRESHOLD,
    FACT_TYPES,
    Grade,
    grade_assertion,
)
from aaaf.graders.calibration import Calibration, calibrate
from aaaf.graders.judge import Judge, JudgeEnsemble, Judgement, Rubric, parse_judge_reply

__all__ = [
    "ASSERTION_TYPES",
    "BEHAVIOR_TYPES",
    "DEFAULT_SIMILAR_THRESHOLD",
    "FACT_TYPES",
    "Calibration",
    "Grade",
    "Judge",
    "JudgeEnsemble",
    "Judgement",
    "Rubric",
    "calibrate",
    "grade_assertion",
    "parse_judge_reply",
]
