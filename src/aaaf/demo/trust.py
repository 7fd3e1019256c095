"""Trust-scheme sample evidence for the demo fleet: ``eval_result`` events, juries included.

``python -m aaaf.demo.trust --fleet out/agents.json --output out/trust_evals.jsonl --now 2026-11-20T12:00:00Z``

``--fleet`` names the agents: the enrollment list the fleet generator writes (a JSON list of
``{name, ...}``) or a fleet JSON Lines file whose lines name their ``agent``.  The output is
JSON Lines of ``eval_result`` events (SCORING.md §3: ``{dimension, score 0-100, eval_set?,
juror?}``) with idempotency keys, usable by ``aaaf collect --source task_logs FILE``.

Each agent gets a *trust profile*.  Ten scenario agents, spread over the list (the fleet
lists its strongest agents first, so a scenario's place matches the agent's operational
quality), make sure every rule of §3 shows up in the demo:

* platinum, gold, silver and bronze agents with every mandatory dimension evaluated;
* a gated agent: strong everywhere but security < 50 → composite capped at 599, bronze;
* an agent evaluated on only 9 dimensions (coverage unmet) and one without safety evidence
  (mandatory dimension missing): both uncertified with the reason;
* a once-excellent agent whose evaluations are five months old: decay brings it to silver;
* an agent with no evaluation at all (only operational fill-ins) and a weak one below 400.

Every other agent gets an "organic" profile whose level falls with its place in the list;
those leave latency and costEfficiency to the operational fill-ins.  Juries of 5-10 jurors
per ``(eval_set, dimension)`` carry outliers (a juror voting 0 or 100) that trimming drops;
a few agents carry teamwork evidence (the opt-in dimension).  Deterministic: NumPy's
``default_rng`` seeded by ``(seed, crc32(agent name))``, no clock.
"""

from __future__ import annotations

import argparse
import json
import sys
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from aaaf.demo.clock import demo_now
from aaaf.scoring.trust import MANDATORY_DIMENSIONS, TRUST_DIMENSIONS

DEFAULT_NOW = "2026-11-20T12:00:00Z"
DEFAULT_SEED = 11

EVAL_SETS: dict[str, tuple[str, ...]] = {
    "accuracy": ("golden-answers-v4", "regression-suite-q3"),
    "reliability": ("paraphrase-consistency-v2", "replay-determinism"),
    "safety": ("harm-redteam-v3", "prohibited-actions-v2"),
    "selfAudit": ("uncertainty-calibration-v1",),
    "security": ("prompt-injection-suite-v5", "scope-escape-probe"),
    "latency": ("latency-bench-v2",),
    "bond": ("stake-ledger-audit",),
    "scopeHonesty": ("capability-claims-audit",),
    "memoryQuality": ("memory-coherence-v1",),
    "costEfficiency": ("token-budget-bench",),
    "evalRigor": ("eval-coverage-review",),
    "teamwork": ("swarm-handoff-v1",),
    "modelCompliance": ("provider-aup-check",),
    "runtimeCompliance": ("sandbox-constraints-v2",),
    "harnessStability": ("harness-rerun-v3",),
    "skillMastery": ("declared-skills-exam",),
}


@dataclass(frozen=True)
class TrustProfile:
    """How one agent's evaluations are drawn."""

    scenario: str
    level: float
    dimensions: tuple[str, ...]
    min_age_days: float = 0.5
    max_age_days: float = 20.0
    security_level: float | None = None


def _without(*names: str) -> tuple[str, ...]:
    return tuple(d for d in TRUST_DIMENSIONS if d not in names)


ALL_BUT_TEAMWORK = _without("teamwork")
SCENARIOS: tuple[tuple[float, TrustProfile], ...] = (
    # (place in the list as a fraction of its length, profile)
    (0.00, TrustProfile("platinum", 97.0, TRUST_DIMENSIONS, 0.5, 10.0)),
    (0.12, TrustProfile("gold", 84.0, TRUST_DIMENSIONS, 0.5, 20.0)),
    (0.22, TrustProfile("security-gated", 88.0, ALL_BUT_TEAMWORK, 0.5, 14.0, security_level=34.0)),
    # nine dimensions, latency and costEfficiency evaluated so no fill-in makes it ten
    (
        0.32,
        TrustProfile(
            "coverage-unmet",
            86.0,
            (*MANDATORY_DIMENSIONS, "latency", "costEfficiency", "selfAudit", "bond", "evalRigor"),
        ),
    ),
    (0.42, TrustProfile("silver", 69.0, ALL_BUT_TEAMWORK, 0.5, 25.0)),
    (0.52, TrustProfile("decayed", 93.0, ALL_BUT_TEAMWORK, 150.0, 165.0)),
    (0.62, TrustProfile("mandatory-missing", 85.0, _without("teamwork", "safety"))),
    (0.74, TrustProfile("bronze", 50.0, ALL_BUT_TEAMWORK, 0.5, 25.0, security_level=60.0)),
    (0.86, TrustProfile("no-evaluations", 0.0, ())),
    (0.96, TrustProfile("below-bronze", 28.0, ALL_BUT_TEAMWORK, 0.5, 25.0)),
)
ORGANIC_DIMENSIONS = _without("latency", "costEfficiency", "teamwork")


def profiles_for(names: Sequence[str], seed: int = DEFAULT_SEED) -> dict[str, TrustProfile]:
    """Scenario profiles at their places in the list, organic profiles elsewhere."""
    n = len(names)
    chosen: dict[int, TrustProfile] = {}
    for fraction, profile in SCENARIOS:
        if n == 0:
            break
        index = round(fraction * (n - 1))
        while index in chosen and len(chosen) < n:
            index = (index + 1) % n
        if len(chosen) < n:
            chosen[index] = profile
    out: dict[str, TrustProfile] = {}
    for index, name in enumerate(names):
        if index in chosen:
            out[name] = chosen[index]
            continue
        rng = _rng(seed, name, "profile")
        position = index / max(1, n - 1)
        level = float(np.clip(92.0 - 50.0 * position + rng.normal(0.0, 4.0), 30.0, 96.0))
        dims = ORGANIC_DIMENSIONS + (("teamwork",) if index % 4 == 1 else ())
        out[name] = TrustProfile("organic", level, dims, 0.5, 45.0)
    return out


def _rng(seed: int, name: str, purpose: str) -> np.random.Generator:
    return np.random.default_rng([seed, zlib.crc32(name.encode()), zlib.crc32(purpose.encode())])


def _stamp(now: datetime, age_days: float) -> str:
    moment = now - timedelta(seconds=round(age_days * 86_400))
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _clamp(value: float) -> float:
    return float(round(min(100.0, max(0.0, value)), 1))


def agent_evals(
    name: str, profile: TrustProfile, *, now: datetime, seed: int = DEFAULT_SEED
) -> list[dict[str, Any]]:
    """One agent's ``eval_result`` events, oldest first."""
    rng = _rng(seed, name, "evals")
    events: list[dict[str, Any]] = []
    for dimension in profile.dimensions:
        base = profile.level
        if dimension == "security" and profile.security_level is not None:
            base = profile.security_level
        centre = base + rng.normal(0.0, 2.5)
        sets = EVAL_SETS[dimension]
        for set_index, eval_set in enumerate(sets):
            age = float(rng.uniform(profile.min_age_days, profile.max_age_days))
            key = f"{name}:{dimension}:{eval_set}"
            if set_index == 0 and (dimension in MANDATORY_DIMENSIONS or rng.random() < 0.4):
                jurors = int(rng.integers(5, 11))
                outliers = int(rng.integers(0, 3)) if jurors >= 5 else 0
                for juror in range(jurors):
                    if juror < outliers:
                        vote = 0.0 if juror % 2 == 0 else 100.0
                    else:
                        vote = _clamp(centre + rng.normal(0.0, 3.0))
                    events.append(
                        {
                            "id": f"{key}:j{juror:02d}",
                            "agent": name,
                            "type": "eval_result",
                            "timestamp": _stamp(now, age + 0.01 * juror),
                            "data": {
                                "dimension": dimension,
                                "score": vote,
                                "eval_set": eval_set,
                                "juror": f"juror-{(juror * 7 + set_index) % 23:02d}",
                            },
                        }
                    )
            else:
                events.append(
                    {
                        "id": key,
                        "agent": name,
                        "type": "eval_result",
                        "timestamp": _stamp(now, age),
                        "data": {
                            "dimension": dimension,
                            "score": _clamp(centre + rng.normal(0.0, 2.0)),
                            "eval_set": eval_set,
                        },
                    }
                )
    events.sort(key=lambda e: (e["timestamp"], e["id"]))
    return events


def fleet_names(path: Path) -> list[str]:
    """Agent names from an enrollment list (JSON) or a fleet JSON Lines file, in order of first appearance."""
    text = path.read_text(encoding="utf-8")
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        value = None
    names: list[str] = []
    if isinstance(value, list):
        for item in value:
            name = item.get("name") if isinstance(item, dict) else item
            if isinstance(name, str) and name not in names:
                names.append(name)
        return names
    for line in text.splitlines():
        if not line.strip():
            continue
        record = json.loads(line)
        name = record.get("agent") or record.get("agent_id")
        if isinstance(name, str) and name not in names:
            names.append(name)
    return names


def generate(names: Sequence[str], *, now: datetime, seed: int = DEFAULT_SEED) -> list[dict[str, Any]]:
    profiles = profiles_for(names, seed)
    events: list[dict[str, Any]] = []
    for name in names:
        events.extend(agent_evals(name, profiles[name], now=now, seed=seed))
    return events


def write(events: Sequence[dict[str, Any]], output: Path) -> None:
    output.parent.mkdir(parents=True, exist_ok=True)
    with output.open("w", encoding="utf-8") as handle:
        for event in events:
            handle.write(json.dumps(event, separators=(",", ":"), sort_keys=False) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m aaaf.demo.trust", description=__doc__.split("\n\n")[0])
    parser.add_argument("--fleet", type=Path, help="agents.json (enrollment list) or a fleet JSON Lines file")
    parser.add_argument("--agents", help="comma-separated agent names (instead of --fleet)")
    parser.add_argument("--output", type=Path, required=True)
    parser.add_argument("--now", default=demo_now(), help="RFC 3339 (default: now, or AAAF_DEMO_NOW)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = parser.parse_args(argv)
    if (args.fleet is None) == (args.agents is None):
        parser.error("give exactly one of --fleet or --agents")
    names = (
        fleet_names(args.fleet)
        if args.fleet is not None
        else [n.strip() for n in args.agents.split(",") if n.strip()]
    )
    now = datetime.fromisoformat(args.now.replace("Z", "+00:00"))
    if now.tzinfo is None:
        parser.error("--now needs a UTC offset")
    events = generate(names, now=now, seed=args.seed)
    write(events, args.output)
    print(f"wrote {len(events)} eval_result events for {len(names)} agents to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
