"""The demo fleet's agents: their latent profiles (the fleet of :mod:`aaaf.demo.fleet`).

Each :class:`AgentProfile` fixes an agent's execution quality, speed, review discipline,
domains, complexity and autonomy levels, tool skill, delegation and orchestration skill and
whether it learns over the month; the profiles are tuned so that, assessed with the default
configuration (SCORING.md §2), the fleet shows every Performance tier and at least four
Capability tiers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from aaaf.scoring.defaults import DEFAULT_TAXONOMY

DEFAULT_NOW = "2026-11-20T12:00:00Z"
DEFAULT_SEED = 7
DEFAULT_AGENTS = 32
WINDOW_DAYS = 30
DAY = 86_400
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

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
