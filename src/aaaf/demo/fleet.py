"""The demo fleet: a deterministic, realistic month of evidence for 32 AI agents.

``python -m aaaf.demo.fleet --output out/fleet.jsonl --now 2026-11-20T12:00:00Z [--agents 32] [--seed 7]``
writes

* ``out/fleet.jsonl`` — JSON Lines of evidence events, each naming its ``agent`` (the input of
  ``aaaf collect --source task_logs FILE --enroll``), sorted by timestamp within each agent;
* ``out/agents.json`` — the enrollment list ``[{name, domains, tools, description}]``.

Each agent has a *latent profile* (execution quality, speed, review discipline, the domains,
complexity levels and autonomy levels it works at, tool skill, delegation and orchestration
skill, whether it is a learner improving over the month).  Events are drawn from that profile
with ``numpy.random.default_rng`` seeded by ``(seed, agent index)``: same seed, same bytes, no
clock.  The profiles are tuned so that, assessed at ``window_end = now`` with the default
configuration (SCORING.md §2), the fleet shows every Performance tier, at least four
Capability tiers, and two agents below the minimum evidence (INSUFFICIENT_EVIDENCE).

The whole event vocabulary of document 004 §6.2 is used — ``task_assigned``,
``task_completed`` (accepted / partial with milestones / rejected / failed, revisions, errors
with severities, review checklists, cost and budget), ``task_revised``, ``tool_invoked``, the
rich ``task_completed`` with ``tools_used`` and ``delegation_decisions`` embedded,
``delegation_decision`` (with ``optimal_delegate``), ``delegation_outcome``,
``orchestration_plan`` / ``orchestration_result`` — plus the AAAF extension
``memory_operation`` (SCORING.md §1; a ``search`` passes the task's ``memory_search_performed``,
a ``write`` its ``memory_written``).

``--events-per-agent N --agents M`` is the benchmark mode: M synthetic agents with exactly N
events each, streamed to the file agent by agent so memory stays flat (1 000 × 1 000 events
for ``make bench``).
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from aaaf.scoring.defaults import DEFAULT_TAXONOMY

DEFAULT_NOW = "2026-11-20T12:00:00Z"
DEFAULT_SEED = 7
DEFAULT_AGENTS = 32
WINDOW_DAYS = 30
DAY = 86_400
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

# document 004 §3.2 — the 12 default domains
DOMAINS: tuple[str, ...] = DEFAULT_TAXONOMY
ALL_LEVELS: tuple[int, ...] = (1, 2, 3, 4, 5)
# SCORING.md §2.2 speed baselines (seconds) — the generated durations are realistic against them
BASELINE_SECONDS: dict[int, int] = {1: 600, 2: 3_600, 3: 14_400, 4: 43_200, 5: 86_400}
CHECKLIST: tuple[str, ...] = (
    "memory_search_performed",
    "output_format_correct",
    "verification_evidence_provided",
    "memory_written",
)
SEVERITIES: tuple[str, ...] = ("critical", "major", "minor")


@dataclass(frozen=True)
class AgentProfile:
    """The latent qualities an agent's evidence is drawn from.

    ``quality`` is the execution quality at the end of the window (probability that a task is
    accepted, and what drives revisions, errors and checklist discipline); a learner starts at
    ``start_quality`` and improves linearly over the month.  ``speed`` is the typical ratio of
    time taken to the complexity baseline (below 1 is faster than baseline).  ``delegation`` and
    ``orchestration`` are None for agents that never delegate or orchestrate (their dimensions
    are then null, not 0: SCORING.md §0).
    """

    name: str
    description: str
    domains: tuple[str, ...]
    tools: tuple[str, ...]
    tasks: int
    quality: float
    levels: tuple[int, ...] = (1, 2, 3)
    autonomy: tuple[int, ...] = (1, 2)
    speed: float = 1.0
    start_quality: float | None = None
    tool_skill: float = 0.8
    delegation: float | None = None
    orchestration: float | None = None
    rich_share: float = 0.0
    memory_files: bool = False
    primary_share: float = 0.0
    metadata: dict[str, Any] = field(default_factory=dict)

    def quality_at(self, progress: float) -> float:
        """Quality at ``progress`` ∈ [0, 1] through the window (learners improve linearly)."""
        if self.start_quality is None:
            return self.quality
        return self.start_quality + (self.quality - self.start_quality) * progress

    def enrollment(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "domains": list(self.domains),
            "tools": list(self.tools),
            "description": self.description,
        }


def _p(name: str, description: str, domains: Sequence[str], tools: Sequence[str], **kw: Any) -> AgentProfile:
    return AgentProfile(name=name, description=description, domains=tuple(domains), tools=tuple(tools), **kw)


# The named fleet.  Comments give the tiers the profile is tuned for (performance / capability).
PROFILES: tuple[AgentProfile, ...] = (
    # Full-Stack orchestrator: every domain, every level, full autonomy, delegates and orchestrates
    _p(
        "chief-orchestrator",
        "Plans multi-agent work across the whole organization, delegates and synthesises results.",
        DOMAINS,
        ("bash", "web_search", "file_read", "file_write", "task_queue"),
        tasks=60,
        quality=0.93,
        levels=ALL_LEVELS,
        autonomy=(2, 3),
        speed=0.7,
        tool_skill=0.95,
        delegation=0.93,
        orchestration=0.92,
        rich_share=0.3,
        memory_files=True,
    ),
    _p(
        "security-auditor",
        "Identifies vulnerabilities, performs threat analysis, reviews code for security issues.",
        ("security", "code", "analysis", "infrastructure"),
        ("bash", "grep", "web_search", "file_read", "file_write"),
        tasks=52,
        quality=0.97,
        levels=(2, 3, 4, 5),
        autonomy=(1, 2, 3),
        speed=0.55,
        tool_skill=0.95,
        delegation=0.88,
        rich_share=0.5,
    ),
    _p(
        "code-reviewer",
        "Reviews pull requests for correctness, style and test coverage.",
        ("code", "testing", "security"),
        ("git", "grep", "file_read", "linter"),
        tasks=58,
        quality=0.985,
        levels=(2, 3, 4),
        autonomy=(2, 3),
        speed=0.5,
        tool_skill=0.96,
        delegation=0.85,
        primary_share=0.5,
    ),
    _p(
        "copy-editor",
        "Edits prose for clarity, grammar and house style; narrow and exacting.",
        ("content",),
        ("file_read", "file_write"),
        tasks=48,
        quality=0.985,
        levels=(1, 2),
        autonomy=(1,),
        speed=0.45,
        tool_skill=0.97,
    ),
    _p(
        "api-architect",
        "Designs APIs and assessment architecture, writes the specifications.",
        ("design", "code", "documentation", "infrastructure", "analysis"),
        ("file_read", "file_write", "web_search", "bash"),
        tasks=50,
        quality=0.9,
        levels=(2, 3, 4, 5),
        autonomy=(1, 2, 3),
        speed=0.75,
        tool_skill=0.9,
        delegation=0.8,
        orchestration=0.78,
        rich_share=0.4,
    ),
    _p(
        "doc-synthesizer",
        "Synthesises documentation and research notes into readable guides.",
        ("documentation", "content", "communication", "research"),
        ("file_read", "file_write", "web_search"),
        tasks=45,
        quality=0.88,
        levels=(1, 2, 3),
        autonomy=(1, 2),
        speed=0.8,
        tool_skill=0.88,
        memory_files=True,
    ),
    _p(
        "release-manager",
        "Coordinates releases across teams: plans, gates and communicates.",
        ("orchestration", "infrastructure", "testing", "communication"),
        ("bash", "git", "task_queue", "file_read"),
        tasks=46,
        quality=0.86,
        levels=(2, 3, 4),
        autonomy=(1, 2, 3),
        speed=0.85,
        tool_skill=0.9,
        delegation=0.85,
        orchestration=0.84,
    ),
    _p(
        "backend-builder",
        "Builds and maintains backend services with tests.",
        ("code", "infrastructure", "testing"),
        ("bash", "git", "file_read", "file_write", "test_runner"),
        tasks=55,
        quality=0.87,
        levels=(2, 3, 4),
        autonomy=(1, 2),
        speed=0.8,
        tool_skill=0.88,
        rich_share=0.3,
        primary_share=0.5,
    ),
    _p(
        "threat-modeler",
        "Builds threat models and attack trees for new designs.",
        ("security", "design", "analysis"),
        ("web_search", "file_read", "file_write"),
        tasks=40,
        quality=0.84,
        levels=(2, 3, 4),
        autonomy=(1, 2),
        speed=0.9,
        tool_skill=0.85,
        delegation=0.75,
    ),
    _p(
        "test-engineer",
        "Writes and maintains test suites; triages flaky tests.",
        ("testing", "code"),
        ("bash", "test_runner", "file_read", "file_write"),
        tasks=50,
        quality=0.85,
        levels=(1, 2, 3),
        autonomy=(1, 2),
        speed=0.85,
        tool_skill=0.9,
        primary_share=0.6,
    ),
    _p(
        "data-analyst",
        "Analyses datasets and produces findings with charts.",
        ("analysis", "research", "code"),
        ("python", "sql", "file_read"),
        tasks=44,
        quality=0.8,
        levels=(1, 2, 3),
        autonomy=(1, 2),
        speed=0.95,
        tool_skill=0.85,
        rich_share=0.5,
    ),
    _p(
        "research-analyst",
        "Researches questions in depth and writes sourced briefs; improves quickly with practice.",
        ("research", "analysis"),
        ("web_search", "file_read", "file_write"),
        tasks=50,
        quality=0.9,
        start_quality=0.45,
        levels=(1, 2, 3),
        autonomy=(1, 2),
        speed=0.9,
        tool_skill=0.85,
        primary_share=0.7,
        memory_files=True,
    ),
    _p(
        "migration-planner",
        "Plans and orchestrates data and service migrations.",
        ("code", "infrastructure", "orchestration"),
        ("bash", "sql", "task_queue", "file_read"),
        tasks=40,
        quality=0.76,
        levels=(2, 3, 4),
        autonomy=(1, 2),
        speed=1.0,
        tool_skill=0.82,
        orchestration=0.7,
    ),
    _p(
        "incident-responder",
        "Responds to production incidents and writes post-mortems.",
        ("infrastructure", "security", "communication"),
        ("bash", "grep", "pager", "file_read"),
        tasks=42,
        quality=0.74,
        levels=(1, 2, 3),
        autonomy=(1, 2),
        speed=0.95,
        tool_skill=0.8,
        delegation=0.7,
    ),
    _p(
        "infra-operator",
        "Operates infrastructure: provisioning, patching, monitoring.",
        ("infrastructure", "security"),
        ("bash", "terraform", "file_read"),
        tasks=40,
        quality=0.7,
        levels=(1, 2, 3),
        autonomy=(1,),
        speed=1.05,
        tool_skill=0.78,
    ),
    _p(
        "legal-reviewer",
        "Reviews contracts and policies for legal risk.",
        ("legal", "documentation"),
        ("file_read", "file_write", "web_search"),
        tasks=38,
        quality=0.72,
        levels=(1, 2, 3),
        autonomy=(0, 1),
        speed=1.0,
        tool_skill=0.8,
        rich_share=0.5,
    ),
    _p(
        "compliance-checker",
        "Checks work products against ISO/IEC 42001 and internal policies.",
        ("legal", "security", "documentation"),
        ("file_read", "grep"),
        tasks=36,
        quality=0.68,
        levels=(1, 2),
        autonomy=(0, 1),
        speed=1.05,
        tool_skill=0.78,
    ),
    _p(
        "ux-designer",
        "Designs user flows and interface mock-ups.",
        ("design", "content"),
        ("figma", "file_write"),
        tasks=36,
        quality=0.66,
        levels=(1, 2, 3),
        autonomy=(1,),
        speed=1.05,
        tool_skill=0.75,
    ),
    _p(
        "frontend-builder",
        "Builds web front ends; a learner that improved a lot this month.",
        ("code", "design"),
        ("bash", "git", "file_read", "file_write"),
        tasks=46,
        quality=0.85,
        start_quality=0.35,
        levels=(1, 2, 3),
        autonomy=(1, 2),
        speed=1.0,
        tool_skill=0.78,
        primary_share=0.75,
    ),
    _p(
        "cloud-provisioner",
        "Provisions cloud resources from templates.",
        ("infrastructure",),
        ("terraform", "bash"),
        tasks=34,
        quality=0.66,
        levels=(1, 2),
        autonomy=(1,),
        speed=1.05,
        tool_skill=0.72,
    ),
    _p(
        "ci-maintainer",
        "Keeps the CI pipelines green.",
        ("infrastructure", "testing", "code"),
        ("bash", "git", "test_runner"),
        tasks=38,
        quality=0.58,
        levels=(1, 2),
        autonomy=(1,),
        speed=1.15,
        tool_skill=0.7,
    ),
    _p(
        "content-writer",
        "Writes blog posts, release notes and announcements.",
        ("content", "communication"),
        ("web_search", "file_write"),
        tasks=40,
        quality=0.6,
        levels=(1, 2),
        autonomy=(1,),
        speed=1.15,
        tool_skill=0.72,
        rich_share=0.5,
    ),
    _p(
        "market-researcher",
        "Researches markets and competitors; learning steadily.",
        ("research", "analysis", "content"),
        ("web_search", "file_read"),
        tasks=44,
        quality=0.72,
        start_quality=0.3,
        levels=(1, 2),
        autonomy=(1,),
        speed=1.15,
        tool_skill=0.7,
        primary_share=0.7,
    ),
    _p(
        "fuzz-tester",
        "Fuzzes parsers and APIs; noisy results.",
        ("testing", "security"),
        ("fuzzer", "bash"),
        tasks=38,
        quality=0.55,
        levels=(1, 2),
        autonomy=(1,),
        speed=1.25,
        tool_skill=0.65,
    ),
    _p(
        "dependency-auditor",
        "Audits third-party dependencies for known vulnerabilities.",
        ("security",),
        ("bash", "web_search"),
        tasks=34,
        quality=0.5,
        levels=(1,),
        autonomy=(0,),
        speed=1.3,
        tool_skill=0.6,
    ),
    _p(
        "literature-scout",
        "Finds and summarises papers.",
        ("research",),
        ("web_search",),
        tasks=34,
        quality=0.46,
        levels=(1,),
        autonomy=(0,),
        speed=1.35,
        tool_skill=0.6,
    ),
    _p(
        "support-liaison",
        "Answers internal support questions.",
        ("communication", "documentation"),
        ("chat", "file_read"),
        tasks=36,
        quality=0.4,
        levels=(1,),
        autonomy=(0,),
        speed=1.5,
        tool_skill=0.55,
    ),
    _p(
        "translation-agent",
        "Translates documents; struggles with domain terminology.",
        ("communication", "content"),
        ("translator", "file_write"),
        tasks=34,
        quality=0.34,
        levels=(1,),
        autonomy=(0,),
        speed=1.6,
        tool_skill=0.5,
    ),
    _p(
        "contract-drafter",
        "Drafts contracts from templates; frequently rejected.",
        ("legal",),
        ("file_write",),
        tasks=32,
        quality=0.28,
        levels=(1, 2),
        autonomy=(0,),
        speed=1.7,
        tool_skill=0.5,
    ),
    _p(
        "meeting-summarizer",
        "Summarises meetings; often misses action items.",
        ("communication",),
        ("transcriber", "file_write"),
        tasks=32,
        quality=0.22,
        levels=(1,),
        autonomy=(0,),
        speed=1.8,
        tool_skill=0.45,
    ),
    # too little evidence: the demo shows INSUFFICIENT_EVIDENCE for these two
    _p(
        "onboarding-guide",
        "Guides new agents through onboarding; enrolled this month.",
        ("documentation", "communication"),
        ("file_read",),
        tasks=14,
        quality=0.75,
        levels=(1, 2),
        autonomy=(1,),
        speed=1.0,
    ),
    _p(
        "intern-bot",
        "A new code agent still in trial.",
        ("code",),
        ("bash",),
        tasks=8,
        quality=0.6,
        levels=(1,),
        autonomy=(0,),
        speed=1.2,
    ),
)


def fleet_profiles(count: int = DEFAULT_AGENTS) -> list[AgentProfile]:
    """The first ``count`` profiles; beyond the named fleet, numbered variants of it."""
    if count < 1:
        raise ValueError("--agents must be at least 1")
    chosen = list(PROFILES[:count])
    round_ = 2
    while len(chosen) < count:
        for base in PROFILES:
            if len(chosen) == count:
                break
            chosen.append(replace(base, name=f"{base.name}-{round_}"))
        round_ += 1
    return chosen


# ---------------------------------------------------------------------------------------------
# drawing one agent's month
# ---------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=4096)
def _date_of_day(epoch_day: int) -> str:
    return (_EPOCH + timedelta(days=epoch_day)).strftime("%Y-%m-%d")


def iso_seconds(epoch_seconds: int) -> str:
    """RFC 3339 UTC with 'Z' for an integer epoch second (no float drift, no clock).

    Formatted by hand with the date cached per day: the benchmark writes a million of these.
    """
    day, second = divmod(epoch_seconds, DAY)
    hours, rest = divmod(second, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{_date_of_day(day)}T{hours:02d}:{minutes:02d}:{seconds:02d}Z"


def parse_now(text: str) -> datetime:
    parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if parsed.tzinfo is None:
        raise ValueError(f"--now must carry an offset (e.g. {DEFAULT_NOW}), got {text!r}")
    return parsed.astimezone(UTC)


def _clip(value: float, low: float = 0.0, high: float = 1.0) -> float:
    return min(high, max(low, value))


class _AgentMonth:
    """Draws one agent's events; ``events`` is a list of (epoch second, sequence, event dict)."""

    def __init__(self, profile: AgentProfile, index: int, now_s: int, seed: int, fleet: Sequence[str]):
        self.p = profile
        self.rng = np.random.default_rng([seed, index])
        self.now_s = now_s
        self.start_s = now_s - WINDOW_DAYS * DAY
        self.fleet = [name for name in fleet if name != profile.name] or [profile.name]
        self.events: list[tuple[int, int, dict[str, Any]]] = []
        self._seq = 0

    # -- helpers -------------------------------------------------------------------------
    def emit(self, at: int, type_: str, data: dict[str, Any], key: str) -> None:
        self._seq += 1
        event = {
            "id": key,
            "agent": self.p.name,
            "type": type_,
            "timestamp": iso_seconds(at),
            "data": data,
        }
        self.events.append((at, self._seq, event))

    def chance(self, probability: float) -> bool:
        return bool(self.rng.random() < probability)

    def pick(self, options: Sequence[Any]) -> Any:
        return options[int(self.rng.integers(0, len(options)))]

    def _domain(self) -> str:
        p = self.p
        if p.primary_share > 0 and len(p.domains) > 1 and self.chance(p.primary_share):
            return p.domains[0]
        return str(self.pick(p.domains))

    # -- the month -----------------------------------------------------------------------
    def draw(self) -> list[dict[str, Any]]:
        p = self.p
        plans = []
        for number in range(p.tasks):
            domain = self._domain()
            level = int(self.pick(p.levels))
            ratio = p.speed * math.exp(self.rng.normal(0.0, 0.12 + 0.25 * (1.0 - p.quality)))
            seconds = max(30, int(BASELINE_SECONDS[level] * ratio))
            latest = self.now_s - 600
            earliest = min(latest, self.start_s + seconds + 600)
            completed_at = int(self.rng.integers(earliest, latest + 1))
            plans.append((completed_at, number, domain, level, seconds))
        plans.sort()
        for order, (completed_at, _number, domain, level, seconds) in enumerate(plans):
            progress = order / max(1, len(plans) - 1)
            self._task(order + 1, completed_at, domain, level, seconds, progress)
        self.events.sort(key=lambda item: (item[0], item[1]))
        return [event for _, _, event in self.events]

    def _task(
        self, number: int, completed_at: int, domain: str, level: int, seconds: int, progress: float
    ) -> None:
        p, rng = self.p, self.rng
        task_id = f"{p.name}-t{number:03d}"
        quality = _clip(p.quality_at(progress), 0.02, 0.995)
        # harder tasks than the agent's usual are a little harder to get accepted
        difficulty = 0.04 * (level - min(p.levels))
        q = _clip(quality - difficulty, 0.02, 0.995)
        assigned_at = completed_at - seconds
        autonomy = int(self.pick(p.autonomy))
        rich = self.chance(p.rich_share)

        # outcome
        u = rng.random()
        if u < q:
            status = "accepted"
        elif u < q + (1 - q) * 0.5:
            status = "partial"
        elif u < q + (1 - q) * 0.8:
            status = "rejected"
        else:
            status = "failed"
        completed = status in ("accepted", "partial")

        # revisions and errors (only completed work gets reviewed and revised)
        revisions = 0
        revised_events: list[tuple[int, str]] = []
        errors: list[Any] = []
        if completed:
            if self.chance((1 - q) * 0.9):
                revisions = 1 + int(rng.random() < (1 - q) * 0.6)
            for _ in range(int(rng.poisson((1 - q) * 1.6))):
                severity = str(rng.choice(SEVERITIES, p=[0.15 + 0.2 * (1 - q), 0.45, 0.4 - 0.2 * (1 - q)]))
                if self.chance(0.15):
                    errors.append(f"{severity} issue found in review")  # an error without severity
                else:
                    errors.append(
                        {"severity": severity, "description": f"{severity} issue in {domain} output"}
                    )
            if revisions and self.chance(0.5):
                # half the revised tasks also log each revision as a granular task_revised event
                for r in range(revisions):
                    revised_events.append((r + 1, str(rng.choice(SEVERITIES, p=[0.2, 0.5, 0.3]))))

        # review checklist: memory-file agents leave the memory items to memory_operation events
        discipline = _clip(0.3 + 0.7 * quality)
        checklist = {item: self.chance(discipline) for item in CHECKLIST}
        memory_ops: list[tuple[str, int]] = []
        if p.memory_files:
            if checklist.pop("memory_search_performed"):
                memory_ops.append(("search", assigned_at + 60))
            if checklist.pop("memory_written") and completed:
                memory_ops.append(("write", completed_at - 30))

        # tools
        calls = [
            (str(self.pick(p.tools)), self.chance(p.tool_skill), self.chance((1 - p.tool_skill) * 0.5))
            for _ in range(1 + int(rng.poisson(1.5 + 0.5 * level)))
        ]
        tool_events = []
        for tool, success, unnecessary in calls:
            recovered = (not success) and self.chance(p.tool_skill)
            tool_events.append((tool, success, unnecessary, recovered))

        # delegation
        decisions: list[dict[str, Any]] = []
        outcomes: list[dict[str, Any]] = []
        if p.delegation is not None and self.chance(0.45):
            skill = p.delegation
            for fragment_number in range(1 + int(rng.random() < 0.4)):
                truth = "delegate" if self.chance(0.45) else "self"
                decision = truth if self.chance(skill) else ("self" if truth == "delegate" else "delegate")
                entry: dict[str, Any] = {
                    "task_fragment": f"{domain} sub-task {fragment_number + 1} of {task_id}",
                    "decision": decision,
                    "ground_truth": truth,
                }
                if decision == "delegate":
                    optimal = str(self.pick(self.fleet))
                    chosen = optimal if self.chance(skill) else str(self.pick(self.fleet))
                    entry["delegate_to"] = chosen
                    entry["optimal_delegate"] = optimal
                    u2 = rng.random()
                    outcome = (
                        "success"
                        if u2 < skill
                        else ("partial" if u2 < skill + (1 - skill) / 2 else "failure")
                    )
                    outcomes.append(
                        {
                            "delegate_agent_id": chosen,
                            "outcome": outcome,
                            "revision_needed": self.chance((1 - skill) * 0.8),
                        }
                    )
                else:
                    entry["delegate_to"] = None
                entry["correct"] = decision == truth
                decisions.append(entry)

        # orchestration
        orchestration: dict[str, Any] | None = None
        if p.orchestration is not None and (domain == "orchestration" or self.chance(0.3)):
            skill = p.orchestration
            injected = int(rng.integers(0, 3))
            team = sorted({str(self.pick(self.fleet)) for _ in range(3 + int(rng.integers(0, 3)))})
            orchestration = {
                "agents_involved": team,
                "injected": injected,
                "recovered": int(rng.binomial(injected, skill)) if injected else 0,
                "design": round(_clip(rng.normal(skill, 0.06)), 3),
                "clarity": round(_clip(rng.normal(skill, 0.06)), 3),
                "synthesis": round(_clip(rng.normal(skill, 0.06)), 3),
                "outcome": "success" if self.chance(skill) else "partial",
            }

        # cost against budget
        budget = round(0.5 * 2.0**level, 2)
        cost = round(budget * _clip(rng.normal(0.35 + 0.6 * (1 - quality), 0.1), 0.02, 1.6), 4)

        completion: dict[str, Any] = {
            "task_id": task_id,
            "completion_status": status,
            "time_to_complete_seconds": seconds,
            "revision_count": revisions,
            "errors": errors,
            "review_checklist": checklist,
            "cost_usd": cost,
            "budget_usd": budget,
        }
        if status == "partial":
            if self.chance(0.6):
                total = int(rng.integers(3, 6))
                passed = max(0, min(total - 1, int(rng.binomial(total, q))))
                completion["milestones"] = [
                    {"name": f"milestone-{m + 1}", "passed": m < passed} for m in range(total)
                ]
            else:
                completion["milestone_fraction"] = round(_clip(rng.normal(q * 0.8, 0.1), 0.05, 0.95), 2)

        if rich:
            # the document's single-event form: everything embedded in task_completed
            completion.update(domain=domain, complexity_level=level, autonomy_level=autonomy)
            summary: dict[str, dict[str, Any]] = {}
            for tool, success, unnecessary, recovered in tool_events:
                row = summary.setdefault(
                    tool, {"tool": tool, "invocations": 0, "successes": 0, "unnecessary": 0, "recovered": 0}
                )
                row["invocations"] += 1
                row["successes"] += int(success)
                row["unnecessary"] += int(unnecessary)
                row["recovered"] += int(recovered)
            completion["tools_used"] = [summary[name] for name in sorted(summary)]
            if decisions:
                completion["delegation_decisions"] = decisions
        else:
            self.emit(
                assigned_at,
                "task_assigned",
                {
                    "task_id": task_id,
                    "complexity_level": level,
                    "domain": domain,
                    "assigned_at": iso_seconds(assigned_at),
                    "autonomy_level": autonomy,
                },
                f"{task_id}:assigned",
            )
            span = max(1, completed_at - assigned_at - 120)
            offsets = sorted(int(x) for x in rng.integers(60, 60 + span, size=len(tool_events)))
            for call, ((tool, success, unnecessary, recovered), offset) in enumerate(
                zip(tool_events, offsets, strict=True)
            ):
                self.emit(
                    assigned_at + offset,
                    "tool_invoked",
                    {
                        "task_id": task_id,
                        "tool": tool,
                        "success": success,
                        "unnecessary": unnecessary,
                        "error_recovered": recovered,
                    },
                    f"{task_id}:tool{call + 1}",
                )
            for d, entry in enumerate(decisions):
                data = {"task_id": task_id, **{k: v for k, v in entry.items() if k != "correct"}}
                if data.get("delegate_to") is None:
                    data.pop("delegate_to", None)
                self.emit(assigned_at + 30, "delegation_decision", data, f"{task_id}:decision{d + 1}")

        for o, outcome_data in enumerate(outcomes):
            self.emit(
                completed_at - 90,
                "delegation_outcome",
                {"task_id": task_id, **outcome_data},
                f"{task_id}:outcome{o + 1}",
            )
        if orchestration is not None:
            team = orchestration["agents_involved"]
            self.emit(
                assigned_at + 45,
                "orchestration_plan",
                {
                    "task_id": task_id,
                    "agents_involved": team,
                    "dependency_graph": {team[i]: [team[i - 1]] if i else [] for i in range(len(team))},
                    "parallel_groups": [team[: len(team) // 2], team[len(team) // 2 :]],
                },
                f"{task_id}:plan",
            )
            self.emit(
                completed_at - 60,
                "orchestration_result",
                {
                    "task_id": task_id,
                    "outcome": orchestration["outcome"],
                    "failures_injected": orchestration["injected"],
                    "failures_recovered": orchestration["recovered"],
                    "workflow_design_score": orchestration["design"],
                    "communication_clarity_score": orchestration["clarity"],
                    "synthesis_quality_score": orchestration["synthesis"],
                },
                f"{task_id}:result",
            )
        for operation, at in memory_ops:
            self.emit(
                at,
                "memory_operation",
                {
                    "task_id": task_id,
                    "operation": operation,
                    "path": f"memory/{p.name}/{task_id}.md",
                    "summary": f"{operation} for {domain} task {task_id}",
                },
                f"{task_id}:memory-{operation}",
            )
        for revision_number, reason in revised_events:
            self.emit(
                max(assigned_at + 1, completed_at - 300 * (len(revised_events) - revision_number + 1)),
                "task_revised",
                {
                    "task_id": task_id,
                    "revision_number": revision_number,
                    "reason_code": reason,
                    "changes": f"revision {revision_number}: addressed {reason} review finding",
                },
                f"{task_id}:revision{revision_number}",
            )
        self.emit(completed_at, "task_completed", completion, f"{task_id}:completed")


@dataclass(frozen=True)
class Fleet:
    """The generated demo fleet: its events (in file order) and enrollment list."""

    events: list[dict[str, Any]]
    enrollment: list[dict[str, Any]]
    profiles: list[AgentProfile]


def generate_fleet(now: datetime, *, agents: int = DEFAULT_AGENTS, seed: int = DEFAULT_SEED) -> Fleet:
    """Draw the whole demo fleet in memory (a few thousand events; fast)."""
    profiles = fleet_profiles(agents)
    now_s = int(now.timestamp())
    names = [profile.name for profile in profiles]
    events: list[dict[str, Any]] = []
    for index, profile in enumerate(profiles):
        events.extend(_AgentMonth(profile, index, now_s, seed, names).draw())
    return Fleet(events=events, enrollment=[profile.enrollment() for profile in profiles], profiles=profiles)


def _dump(event: dict[str, Any]) -> bytes:
    return orjson.dumps(event) + b"\n"


def write_fleet(
    output: Path,
    now: datetime,
    *,
    agents: int = DEFAULT_AGENTS,
    seed: int = DEFAULT_SEED,
    enrollment_path: Path | None = None,
    only: Sequence[str] | None = None,
) -> tuple[int, Path]:
    """Write the fleet's JSON Lines and enrollment list; returns (event count, enrollment path).

    ``only`` keeps just the named agents (drawn exactly as in the whole fleet, so their
    events are the same bytes): the demo uses it to bring in the two newcomers separately.
    """
    fleet = generate_fleet(now, agents=agents, seed=seed)
    events, enrollment = fleet.events, fleet.enrollment
    if only is not None:
        unknown = sorted(set(only) - {entry["name"] for entry in enrollment})
        if unknown:
            raise ValueError(f"--only names agents not in the fleet: {', '.join(unknown)}")
        keep = set(only)
        events = [event for event in events if event["agent"] in keep]
        enrollment = [entry for entry in enrollment if entry["name"] in keep]
    output.parent.mkdir(parents=True, exist_ok=True)
    with output.open("wb") as handle:
        for event in events:
            handle.write(_dump(event))
    enrollment_path = enrollment_path or output.parent / "agents.json"
    enrollment_path.parent.mkdir(parents=True, exist_ok=True)
    enrollment_path.write_text(json.dumps(enrollment, indent=2) + "\n", encoding="utf-8")
    return len(events), enrollment_path


# ---------------------------------------------------------------------------------------------
# benchmark mode: M agents × N events, streamed
# ---------------------------------------------------------------------------------------------

_BENCH_TOOLS = ("bash", "grep", "web_search", "file_read", "file_write")
_BENCH_STATUSES = ("accepted", "accepted", "accepted", "partial", "rejected", "failed")


def benchmark_agent_name(index: int) -> str:
    return f"bench-agent-{index + 1:05d}"


def iter_benchmark_events(
    agent_index: int, events_per_agent: int, now: datetime, seed: int
) -> Iterator[dict[str, Any]]:
    """Exactly ``events_per_agent`` events for one synthetic agent, in timestamp order.

    Tasks of five events (task_assigned, 3 × tool_invoked, task_completed) spread over the
    30-day window; a final short task fills the remainder so the count is exact.
    """
    rng = np.random.default_rng([seed, 1_000_003, agent_index])
    name = benchmark_agent_name(agent_index)
    now_s = int(now.timestamp())
    per_task = 5
    tasks = max(1, math.ceil(events_per_agent / per_task))
    spacing = (WINDOW_DAYS * DAY - 7_200) // tasks
    # drawn as arrays once, then as plain lists (numpy scalar indexing is slow in a loop)
    levels = rng.integers(1, 4, size=tasks).tolist()
    domains = rng.integers(0, len(DOMAINS), size=tasks).tolist()
    statuses = rng.integers(0, len(_BENCH_STATUSES), size=tasks).tolist()
    ratios = np.exp(rng.normal(0.0, 0.3, size=tasks)).tolist()
    tool_choice = rng.integers(0, len(_BENCH_TOOLS), size=(tasks, 3)).tolist()
    tool_success = (rng.random(size=(tasks, 3)) < 0.85).tolist()
    checklist_pass = (rng.random(size=(tasks, 4)) < 0.8).tolist()
    emitted = 0
    start = now_s - WINDOW_DAYS * DAY + 3_600
    for t in range(tasks):
        remaining = events_per_agent - emitted
        if remaining <= 0:
            return
        level = levels[t]
        seconds = max(30, min(spacing - 120, int(BASELINE_SECONDS[level] * ratios[t])))
        assigned = start + t * spacing
        completed = assigned + seconds
        task_id = f"{name}-t{t + 1:05d}"
        # keep both ends of a task when the remainder is short: assigned, tools..., completed
        n_tools = min(3, max(0, remaining - 2))
        with_pair = remaining >= 2
        if with_pair:
            yield {
                "id": f"{task_id}:assigned",
                "agent": name,
                "type": "task_assigned",
                "timestamp": iso_seconds(assigned),
                "data": {
                    "task_id": task_id,
                    "complexity_level": level,
                    "domain": DOMAINS[int(domains[t])],
                    "assigned_at": iso_seconds(assigned),
                    "autonomy_level": 1 + level % 3,
                },
            }
            emitted += 1
        for c in range(n_tools if with_pair else remaining):
            success = bool(tool_success[t][c])
            yield {
                "id": f"{task_id}:tool{c + 1}",
                "agent": name,
                "type": "tool_invoked",
                "timestamp": iso_seconds(assigned + (c + 1) * max(1, seconds // 4)),
                "data": {
                    "task_id": task_id,
                    "tool": _BENCH_TOOLS[int(tool_choice[t][c])],
                    "success": success,
                    "unnecessary": c == 2 and not success,
                    "error_recovered": not success and c == 0,
                },
            }
            emitted += 1
        if with_pair:
            status = _BENCH_STATUSES[int(statuses[t])]
            data: dict[str, Any] = {
                "task_id": task_id,
                "completion_status": status,
                "time_to_complete_seconds": seconds,
                "revision_count": int(status == "partial"),
                "errors": [{"severity": "minor"}] if status == "partial" else [],
                "review_checklist": {item: bool(checklist_pass[t][i]) for i, item in enumerate(CHECKLIST)},
            }
            if status == "partial":
                data["milestone_fraction"] = 0.5
            yield {
                "id": f"{task_id}:completed",
                "agent": name,
                "type": "task_completed",
                "timestamp": iso_seconds(completed),
                "data": data,
            }
            emitted += 1


def write_benchmark(
    output: Path,
    now: datetime,
    *,
    agents: int,
    events_per_agent: int,
    seed: int = DEFAULT_SEED,
    enrollment_path: Path | None = None,
) -> tuple[int, Path]:
    """Stream M × N events to ``output`` agent by agent (memory stays flat)."""
    if events_per_agent < 1:
        raise ValueError("--events-per-agent must be at least 1")
    output.parent.mkdir(parents=True, exist_ok=True)
    total = 0
    with output.open("wb") as handle:
        for index in range(agents):
            chunk = b"".join(
                _dump(event) for event in iter_benchmark_events(index, events_per_agent, now, seed)
            )
            handle.write(chunk)
            total += events_per_agent
    enrollment_path = enrollment_path or output.parent / "agents.json"
    enrollment = [
        {
            "name": benchmark_agent_name(i),
            "domains": list(DOMAINS[:3]),
            "tools": list(_BENCH_TOOLS),
            "description": "benchmark agent",
        }
        for i in range(agents)
    ]
    enrollment_path.write_text(json.dumps(enrollment, indent=2) + "\n", encoding="utf-8")
    return total, enrollment_path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m aaaf.demo.fleet",
        description="Write the demo fleet's evidence (JSON Lines) and enrollment list, deterministically.",
    )
    parser.add_argument("--output", required=True, type=Path, help="JSON Lines file of events to write.")
    parser.add_argument("--now", default=DEFAULT_NOW, help=f"The window's end (default {DEFAULT_NOW}).")
    parser.add_argument(
        "--agents", type=int, default=None, help=f"Number of agents (default {DEFAULT_AGENTS})."
    )
    parser.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, help=f"Random seed (default {DEFAULT_SEED})."
    )
    parser.add_argument(
        "--events-per-agent",
        type=int,
        default=None,
        help="Benchmark mode: exactly N synthetic events per agent.",
    )
    parser.add_argument(
        "--enrollment",
        type=Path,
        default=None,
        help="Where to write the enrollment list (default: agents.json beside --output).",
    )
    parser.add_argument(
        "--only",
        default=None,
        help="Comma-separated agent names: write only these agents of the fleet (events and enrollment).",
    )
    args = parser.parse_args(argv)
    try:
        now = parse_now(args.now)
    except ValueError as error:
        parser.error(str(error))
    if args.events_per_agent is not None:
        count, enrollment = write_benchmark(
            args.output,
            now,
            agents=args.agents or 1000,
            events_per_agent=args.events_per_agent,
            seed=args.seed,
            enrollment_path=args.enrollment,
        )
    else:
        count, enrollment = write_fleet(
            args.output,
            now,
            agents=args.agents or DEFAULT_AGENTS,
            seed=args.seed,
            enrollment_path=args.enrollment,
            only=[name.strip() for name in args.only.split(",") if name.strip()] if args.only else None,
        )
    sys.stdout.write(f"wrote {count} events to {args.output} and the enrollment list to {enrollment}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
