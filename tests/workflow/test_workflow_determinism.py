"""SCORING.md §5 determinism: separate processes, shuffled runs, byte-identical JSON and digest.

Each process gets the same runs in a different order (and, for one of them, every
timestamp rewritten with a +05:30 offset: the same instants in other words), and a
different ``PYTHONHASHSEED`` so that set and dict-of-str iteration orders differ between
them.  Their stdout must be the same bytes, and the digest must be the SHA-256 of the
RFC 8785 form of the rest.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
import rfc8785

from aaaf.services.workflow import weights_for_file
from tests.workflow.conftest import DEMO_NOW, write_jsonl

WEIGHTS_SCRIPT = """
import sys
import typer
from aaaf.cli.commands import workflow

app = typer.Typer()

@app.callback()
def main() -> None:
    pass

workflow.register(app)
app(["workflow", *sys.argv[1:]], prog_name="aaaf")
"""


def shuffled_copy(
    events: list[dict[str, Any]], seed: int, *, offset: timedelta | None = None
) -> list[dict[str, Any]]:
    out = [json.loads(json.dumps(event)) for event in events]
    random.Random(seed).shuffle(out)
    if offset is not None:
        zone = timezone(offset)
        for event in out:
            instant = datetime.fromisoformat(event["timestamp"].replace("Z", "+00:00"))
            event["timestamp"] = instant.astimezone(zone).isoformat()
    return out


def run_process(args: list[str], hash_seed: str, *, module: bool = False) -> bytes:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed, COLUMNS="120")
    command = (
        [sys.executable, "-m", "aaaf.cli.main", "workflow", *args]
        if module
        else [
            sys.executable,
            "-c",
            WEIGHTS_SCRIPT,
            *args,
        ]
    )
    completed = subprocess.run(command, capture_output=True, env=env, timeout=300, check=False)
    assert completed.returncode == 0, completed.stderr.decode()
    return completed.stdout


def test_two_processes_print_identical_weights(tmp_path: Path, demo_events: list[dict[str, Any]]) -> None:
    first = write_jsonl(tmp_path / "first.jsonl", shuffled_copy(demo_events, 1))
    second = write_jsonl(
        tmp_path / "second.jsonl", shuffled_copy(demo_events, 2, offset=timedelta(hours=5, minutes=30))
    )
    assert first.read_bytes() != second.read_bytes()

    out_first = run_process(["weights", str(first), "--json"], hash_seed="1")
    out_second = run_process(["weights", str(second), "--json"], hash_seed="4242")
    assert out_first == out_second

    data = json.loads(out_first)
    body = {key: value for key, value in data.items() if key != "digest"}
    assert data["digest"] == hashlib.sha256(rfc8785.dumps(body)).hexdigest()
    # and the same as this process computes
    assert data == weights_for_file(first, now=DEMO_NOW + timedelta(days=1)).to_dict()


def test_two_processes_print_identical_run_breakdowns(
    tmp_path: Path, demo_events: list[dict[str, Any]]
) -> None:
    first = write_jsonl(tmp_path / "first.jsonl", shuffled_copy(demo_events[:300], 3))
    second = write_jsonl(
        tmp_path / "second.jsonl", shuffled_copy(demo_events[:300], 4, offset=timedelta(hours=-7))
    )
    out_first = run_process(["score", str(first), "--json"], hash_seed="7")
    out_second = run_process(["score", str(second), "--json"], hash_seed="8")
    assert out_first == out_second
    assert len(json.loads(out_first)["runs"]) == 300


def test_the_aaaf_entry_point_prints_the_same_bytes(
    tmp_path: Path, demo_events: list[dict[str, Any]]
) -> None:
    try:
        import aaaf.cli.main  # noqa: F401
    except ImportError as error:  # another command module not landed yet
        pytest.skip(f"aaaf CLI not importable yet: {error}")
    path = write_jsonl(tmp_path / "runs.jsonl", shuffled_copy(demo_events, 5))
    via_module = run_process(["weights", str(path), "--json"], hash_seed="9", module=True)
    via_script = run_process(["weights", str(path), "--json"], hash_seed="10")
    assert via_module == via_script
