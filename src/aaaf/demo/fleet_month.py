"""Drawing the demo fleet's month of evidence (document 004 §6.2 vocabulary, SCORING.md §1).

Part of :mod:`aaaf.demo.fleet`: one agent's month is drawn from its profile with
``numpy.random.default_rng`` seeded by ``(seed, agent index)`` — same seed, same bytes, no
clock — and the fleet is written as JSON Lines plus its enrollment list.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from aaaf.demo.fleet_profiles import (
    BASELINE_SECONDS,
    CHECKLIST,
    DAY,
    DEFAULT_AGENTS,
    DEFAULT_NOW,
    DEFAULT_SEED,
    EPOCH,
    SEVERITIES,
    WINDOW_DAYS,
    AgentProfile,
    fleet_profiles,
)

# ---------------------------------------------------------------------------------------------
# drawing one agent's month
# ---------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=4096)
def _date_of_day(epoch_day: int) -> str:
    return (EPOCH + timedelta(days=epoch_day)).strftime("%Y-%m-%d")


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


def event_line(event: dict[str, Any]) -> bytes:
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
            handle.write(event_line(event))
    enrollment_path = enrollment_path or output.parent / "agents.json"
    enrollment_path.parent.mkdir(parents=True, exist_ok=True)
    enrollment_path.write_text(json.dumps(enrollment, indent=2) + "\n", encoding="utf-8")
    return len(events), enrollment_path
