"""Which tasks flipped between a baseline and a candidate that ran the same tasks, and
whether the flips are more than chance (McNemar's exact test): what the release gate
names when it says what broke.

A task is *accepted* (SCORING.md §2.2's status ``accepted``) or not (partial, rejected,
failed, never completed).  A flip is a change of that: *lost* (accepted → not) or *gained*
(not → accepted).  Tasks that kept their status say nothing about a change, so the test
reads only the flips (:func:`aaaf.stats.mcnemar.mcnemar_exact`).  Flips are grouped by
(domain, task type), the worst group first, so that "the code domain's 18 tasks broke" is
one line, not 18.  Besides the test of all the flips, each domain's flips are tested on
their own: a domain that broke is a strong signal in its own tasks and a faint one among
all of them (25 tasks of 141 lost against the flips that noise makes both ways).  Pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from aaaf.scoring.assessment_difference import PairedTask
from aaaf.stats.mcnemar import McNemarResult, mcnemar_exact

ACCEPTED = "accepted"


@dataclass(frozen=True)
class TaskFlip:
    key: str
    domain: str | None
    task_type: str | None
    baseline: str | None
    candidate: str | None

    @property
    def lost(self) -> bool:
        return self.baseline == ACCEPTED

    def to_dict(self) -> dict[str, Any]:
        return {
            "task": self.key,
            "domain": self.domain,
            "task_type": self.task_type,
            "baseline": self.baseline or "not completed",
            "candidate": self.candidate or "not completed",
            "direction": "lost" if self.lost else "gained",
        }


@dataclass(frozen=True)
class FlipGroup:
    domain: str | None
    task_type: str | None
    paired: int
    lost: tuple[str, ...]
    gained: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "domain": self.domain,
            "task_type": self.task_type,
            "paired": self.paired,
            "lost": list(self.lost),
            "gained": list(self.gained),
        }


@dataclass(frozen=True)
class DomainTest:
    """One domain's tasks: how many both sides ran, lost and gained, and their exact test."""

    domain: str | None
    paired: int
    test: McNemarResult
    accepted_baseline: int = 0
    accepted_candidate: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "domain": self.domain,
            "paired": self.paired,
            "accepted": {"baseline": self.accepted_baseline, "candidate": self.accepted_candidate},
            "lost": self.test.lost,
            "gained": self.test.gained,
            "p_value": self.test.p_value,
        }


@dataclass(frozen=True)
class FlipReport:
    paired: int
    flips: tuple[TaskFlip, ...]
    groups: tuple[FlipGroup, ...]
    test: McNemarResult
    accepted_baseline: int = 0
    accepted_candidate: int = 0
    domains: tuple[DomainTest, ...] = ()
    """Every domain of the paired tasks, by name (those without a flip too: p = 1)."""

    @property
    def lost(self) -> tuple[TaskFlip, ...]:
        return tuple(f for f in self.flips if f.lost)

    @property
    def gained(self) -> tuple[TaskFlip, ...]:
        return tuple(f for f in self.flips if not f.lost)

    def to_dict(self) -> dict[str, Any]:
        return {
            "paired": self.paired,
            "accepted": {"baseline": self.accepted_baseline, "candidate": self.accepted_candidate},
            "lost": len(self.lost),
            "gained": len(self.gained),
            "mcnemar": {
                "p_value": self.test.p_value,
                "p_value_lost": self.test.p_value_lost,
                "discordant": self.test.discordant,
            },
            "domains": [domain.to_dict() for domain in self.domains],
            "groups": [group.to_dict() for group in self.groups],
            "flips": [flip.to_dict() for flip in self.flips],
        }


def task_flips(tasks: Sequence[PairedTask], task_types: Mapping[str, str] | None = None) -> FlipReport:
    """The flips of ``tasks`` (in key order), grouped by (domain, task type): groups with
    the most net losses first, then by name; the exact McNemar test of lost vs gained."""
    types = task_types or {}
    flips = tuple(
        TaskFlip(t.key, t.domain, types.get(t.key), t.baseline_status, t.candidate_status)
        for t in sorted(tasks, key=lambda t: t.key)
        if (t.baseline_status == ACCEPTED) != (t.candidate_status == ACCEPTED)
    )
    sizes: dict[tuple[str, str], int] = {}
    for t in tasks:
        group = (t.domain or "", types.get(t.key) or "")
        sizes[group] = sizes.get(group, 0) + 1
    members: dict[tuple[str, str], list[TaskFlip]] = {}
    for flip in flips:
        members.setdefault((flip.domain or "", flip.task_type or ""), []).append(flip)
    groups = [
        FlipGroup(
            domain or None,
            task_type or None,
            sizes.get((domain, task_type), 0),
            tuple(f.key for f in found if f.lost),
            tuple(f.key for f in found if not f.lost),
        )
        for (domain, task_type), found in members.items()
    ]
    groups.sort(key=lambda g: (len(g.gained) - len(g.lost), g.domain or "", g.task_type or ""))
    lost = sum(1 for f in flips if f.lost)
    by_domain: dict[str, list[int]] = {}
    for t in tasks:
        counts = by_domain.setdefault(t.domain or "", [0, 0, 0, 0, 0])
        counts[0] += 1
        counts[1] += t.baseline_status == ACCEPTED and t.candidate_status != ACCEPTED
        counts[2] += t.baseline_status != ACCEPTED and t.candidate_status == ACCEPTED
        counts[3] += t.baseline_status == ACCEPTED
        counts[4] += t.candidate_status == ACCEPTED
    domains = tuple(
        DomainTest(domain or None, paired, mcnemar_exact(domain_lost, domain_gained), accepted_b, accepted_c)
        for domain, (paired, domain_lost, domain_gained, accepted_b, accepted_c) in sorted(by_domain.items())
    )
    return FlipReport(
        len(tasks),
        flips,
        tuple(groups),
        mcnemar_exact(lost, len(flips) - lost),
        sum(1 for t in tasks if t.baseline_status == ACCEPTED),
        sum(1 for t in tasks if t.candidate_status == ACCEPTED),
        domains,
    )
