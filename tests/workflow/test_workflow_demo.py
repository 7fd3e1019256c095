"""The demo's sample runs: seeded, clock-free, valid evidence consistent with its definitions."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from aaaf.demo.workflow import PROFILES, main
from aaaf.evidence.validation import validate_event
from aaaf.evidence.workflow_definition import load_definitions, resolve_run
from tests.workflow.conftest import DEMO_NOW


def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path: Path) -> None:
    for name, seed in (("a", "0"), ("b", "0"), ("c", "1")):
        assert main(["--output", str(tmp_path / f"{name}.jsonl"), "--seed", seed]) == 0
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    assert (tmp_path / "a.jsonl").read_bytes() != (tmp_path / "c.jsonl").read_bytes()


def test_sample_is_valid_and_agrees_with_its_definitions(tmp_path: Path) -> None:
    runs = tmp_path / "runs.jsonl"
    # the demo's clock pinned (without --now it is the current hour, or AAAF_DEMO_NOW)
    now = DEMO_NOW.isoformat().replace("+00:00", "Z")
    assert main(["--output", str(runs), "--definitions", str(tmp_path / "defs"), "--now", now]) == 0
    definitions = load_definitions(tmp_path / "defs")
    assert sorted(definitions) == ["etl-nightly", "research-brief", "support-triage"]

    events = [json.loads(line) for line in runs.read_text(encoding="utf-8").splitlines()]
    per_agent = Counter(event["agent"] for event in events)
    assert per_agent == {profile.name: 120 for profile in PROFILES}
    assert len(per_agent) == 12
    for event in events:
        # no run is in the future of the demo's --now
        validate_event(event, now=DEMO_NOW)
        assert resolve_run(event["data"], definitions) == event["data"]
