"""What the CI/CD gate decided (``aaaf gate --json``; docs/ci.md).

One :class:`GateOutcome` for both kinds of pair: two eval runs (``mode`` ``eval-runs``: the
``comparison`` behind the verdict and the ``margin``) and an agent (``mode`` ``agent``: the
stress run, the baseline's type, the ``margin``, whether the candidate was ``promoted``).
A key of the other mode is absent, not null.
"""

from __future__ import annotations

from aaaf.models._base import Number, PublicModel
from aaaf.models.comparison import Comparison


class TierPair(PublicModel):
    baseline: str | None
    candidate: str | None


class Equivalence(PublicModel):
    """The 90 % interval TOST reads against ±``margin``."""

    interval: list[Number] | None
    margin: Number
    equivalent: bool | None


class GateCheck(PublicModel):
    """One thing the gate looked at, one JUnit test case: a layer (eval runs), an axis's
    composite, a dimension or the accepted tasks (agent)."""

    group: str
    name: str
    baseline: Number | None
    candidate: Number | None
    diff: Number | None
    interval: list[Number] | None
    level: Number | None
    regressed: bool
    tier_drop: bool
    tier: TierPair
    equivalence: Equivalence | None
    absent: bool
    note: str


class AcceptedCounts(PublicModel):
    baseline: int
    candidate: int


class McNemar(PublicModel):
    p_value: Number
    p_value_lost: Number
    discordant: int


class DomainFlips(PublicModel):
    """One domain's paired tasks: lost and gained, and McNemar's exact test of them."""

    domain: str | None
    paired: int
    accepted: AcceptedCounts
    lost: int
    gained: int
    p_value: Number


class FlipGroup(PublicModel):
    domain: str | None
    task_type: str | None
    paired: int
    lost: list[str]
    gained: list[str]


class TaskFlip(PublicModel):
    task: str
    domain: str | None
    task_type: str | None
    baseline: str
    candidate: str
    direction: str


class TaskFlips(PublicModel):
    """The agent's accepted tasks, baseline against candidate: the flips and their tests."""

    paired: int
    accepted: AcceptedCounts
    lost: int
    gained: int
    mcnemar: McNemar
    domains: list[DomainFlips]
    groups: list[FlipGroup]
    flips: list[TaskFlip]


class GateFiles(PublicModel):
    """The files the gate wrote (None: not asked for; ``step_summary``: ``$GITHUB_STEP_SUMMARY``)."""

    summary: str | None
    junit: str | None
    html: str | None
    step_summary: str | None


class GateOutcome(PublicModel):
    """The gate's verdict, whether it passed (``exit_code`` 0) and every check behind it."""

    mode: str
    passed: bool
    exit_code: int
    verdict: str
    action: str
    headline: str
    reason: str
    baseline: str
    candidate: str
    fail_on: list[str]
    failing: list[str]
    method: str
    checks: list[GateCheck]
    tasks: TaskFlips | None
    comparison: Comparison | None = None
    agent: str | None = None
    stress_run: str | None = None
    stress_summary: dict[str, object] | None = None
    baseline_type: str | None = None
    margin: Number | None = None
    promoted: bool | None = None
    files: GateFiles
