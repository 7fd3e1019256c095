"""`aaaf gate` reads what `aaaf compare` reads (issue 20 §1): inspect_ai logs, and a promptfoo
result file with two columns given alone (column 1 is the baseline), refused while unfinished
unless --allow-incomplete, exactly as compare refuses it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.gate.conftest import ROOT, aaaf

INSPECT = ROOT / "tests" / "fixtures" / "inspect" / "issue11"
PROMPTFOO = ROOT / "tests" / "fixtures" / "promptfoo" / "graders_results.json"


def test_inspect_logs_gate_both_ways(tmp_path: Path) -> None:
    control, treatment = str(INSPECT / "control_epochs.eval"), str(INSPECT / "treatment_epochs.eval")
    up = aaaf("gate", control, treatment, "--json", cwd=tmp_path)
    assert up.returncode == 0, up.stderr
    assert json.loads(up.stdout)["verdict"] == "PROGRESS"
    down = aaaf("gate", treatment, control, "--json", cwd=tmp_path)
    assert down.returncode == 1, down.stderr
    body = json.loads(down.stdout)
    assert body["verdict"] == "REGRESS" and "regress: the verdict is REGRESS" in body["failing"]


def test_a_two_column_promptfoo_file_alone_and_its_unfinished_run(tmp_path: Path) -> None:
    refused = aaaf("gate", str(PROMPTFOO), cwd=tmp_path)
    assert refused.returncode == 2 and "did not finish" in refused.stderr
    allowed = aaaf("gate", str(PROMPTFOO), "--allow-incomplete", "--json", cwd=tmp_path)
    assert allowed.returncode == 0, allowed.stderr
    body = json.loads(allowed.stdout)
    assert body["baseline"].endswith("/control") and body["candidate"].endswith("/treatment")
    assert body["comparison"]["incomplete"][0]["role"] == "treatment"
