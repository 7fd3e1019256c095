"""The composite GitHub Action (action.yml) and the one script it runs, scripts/ci/gate.sh, run
the way the action runs it: the step's environment built from action.yml's own ``env`` mapping
of the inputs, with temporary $GITHUB_OUTPUT and $GITHUB_STEP_SUMMARY files (docs/ci.md)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import yaml
from junitparser import Failure, JUnitXml

from tests.gate.conftest import AAAF, EXAMPLE, ROOT, clean_env

ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
SCRIPT = ROOT / "scripts" / "ci" / "gate.sh"
INPUT = re.compile(r"\$\{\{\s*inputs\.([A-Za-z0-9_-]+)\s*\}\}")
EVALS = EXAMPLE / "evals"


def _gate_step() -> dict[str, Any]:
    steps = [s for s in ACTION["runs"]["steps"] if s.get("id") == "gate"]
    assert len(steps) == 1
    return steps[0]  # type: ignore[no-any-return]


def test_action_yml_passes_only_inputs_it_declares_and_runs_the_script() -> None:
    assert ACTION["runs"]["using"] == "composite"
    declared = set(ACTION["inputs"])
    used = set(INPUT.findall((ROOT / "action.yml").read_text(encoding="utf-8")))
    assert used and used <= declared, used - declared
    assert declared <= used, f"inputs never passed on: {declared - used}"
    step = _gate_step()
    assert step["run"].strip() == 'bash "${{ github.action_path }}/scripts/ci/gate.sh"'
    assert step["shell"] == "bash"
    # each input reaches the script as INPUT_<NAME> (upper case, '-' → '_'), as the script reads it
    script = SCRIPT.read_text(encoding="utf-8")
    for variable, value in step["env"].items():
        (name,) = INPUT.findall(value)
        assert variable == "INPUT_" + name.upper().replace("-", "_")
        assert variable in script, variable
    # installs AAAF from the action's own checkout unless told otherwise
    install = next(s for s in ACTION["runs"]["steps"] if s.get("name") == "Install AAAF")
    assert install["env"]["ACTION_PATH"] == "${{ github.action_path }}"
    assert 'pip install "$ACTION_PATH[stress]"' in install["run"]
    # every output reads a value the script writes to $GITHUB_OUTPUT
    for name, output in ACTION["outputs"].items():
        assert output["value"] == f"${{{{ steps.gate.outputs.{name} }}}}"
        assert f'echo "{name}=' in script, name


def _run_as_action(tmp_path: Path, **inputs: str) -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
    """Set the step's environment from action.yml (defaults, then the given inputs)."""
    values = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    values.update({k.replace("_", "-"): v for k, v in inputs.items()})
    env = {var: INPUT.sub(lambda m: values[m.group(1)], value) for var, value in _gate_step()["env"].items()}
    output, summary = tmp_path / "github_output", tmp_path / "step_summary.md"
    output.touch()
    summary.touch()
    env.update({"GITHUB_OUTPUT": str(output), "GITHUB_STEP_SUMMARY": str(summary), "AAAF": AAAF})
    result = subprocess.run(
        ["bash", str(SCRIPT)], cwd=tmp_path, capture_output=True, text=True, timeout=300, env=clean_env(env)
    )
    outputs = dict(line.split("=", 1) for line in output.read_text(encoding="utf-8").splitlines())
    return result, outputs


def test_the_script_fails_a_regressed_candidate_and_says_why(tmp_path: Path) -> None:
    result, outputs = _run_as_action(
        tmp_path, baseline=str(EVALS / "baseline.jsonl"), candidate=str(EVALS / "candidate-regressed.jsonl")
    )
    assert result.returncode == 1, result.stderr
    assert outputs["verdict"] == "REGRESS" and outputs["passed"] == "false" and outputs["exit-code"] == "1"
    out = tmp_path / "aaaf-gate"
    assert outputs["junit"] == "aaaf-gate/junit.xml" and (tmp_path / outputs["junit"]).is_file()
    failed = {c.name for s in JUnitXml.fromfile(str(out / "junit.xml")) for c in s if any(isinstance(r, Failure) for r in c.result)}  # fmt: skip
    assert "gate" in failed and "behavior" in failed
    assert (tmp_path / outputs["html"]).is_file() and (tmp_path / outputs["json"]).is_file()
    summary = (tmp_path / outputs["summary"]).read_text(encoding="utf-8")
    assert summary in (tmp_path / "step_summary.md").read_text(encoding="utf-8")
    assert "::error::aaaf gate failed: REGRESS" in result.stderr
    assert "AAAF gate ❌ failed" in result.stdout  # the log shows the summary


def test_the_script_passes_a_good_candidate_with_the_inputs_fail_on(tmp_path: Path) -> None:
    result, outputs = _run_as_action(
        tmp_path,
        baseline=str(EVALS / "baseline.jsonl"),
        candidate=str(EVALS / "candidate-good.jsonl"),
        output_dir="reports/gate",
        fail_on="regress,tier-drop,inconclusive",
    )
    assert result.returncode == 0, result.stderr
    assert outputs == {
        "verdict": "PROGRESS",
        "assessment": "",
        "passed": "true",
        "exit-code": "0",
        "summary": "reports/gate/summary.md",
        "junit": "reports/gate/junit.xml",
        "html": "reports/gate/report.html",
        "json": "reports/gate/gate.json",
    }
    assert "inconclusive" in (tmp_path / "reports/gate/summary.md").read_text(encoding="utf-8")


def test_the_script_exits_2_on_bad_inputs(tmp_path: Path) -> None:
    result, outputs = _run_as_action(tmp_path, baseline=str(EVALS / "baseline.jsonl"))
    assert (
        result.returncode == 2
        and "::error::aaaf gate: give the inputs baseline and candidate" in result.stderr
    )
    assert outputs["exit-code"] == "2" and outputs["verdict"] == "" and outputs["passed"] == "false"
    result, outputs = _run_as_action(
        tmp_path, baseline=str(EVALS / "baseline.jsonl"), candidate=str(tmp_path / "missing.jsonl")
    )
    assert result.returncode == 2 and "missing.jsonl" in result.stderr
    assert outputs["exit-code"] == "2"
    result, outputs = _run_as_action(
        tmp_path,
        baseline=str(EVALS / "baseline.jsonl"),
        candidate=str(EVALS / "candidate-good.jsonl"),
        fail_on="regression",
    )
    assert result.returncode == 2 and "unknown condition(s) regression" in result.stderr


def test_the_sample_workflow_uses_the_action_with_inputs_it_has() -> None:
    workflow = yaml.safe_load(
        (EXAMPLE / ".github" / "workflows" / "aaaf-gate.yml").read_text(encoding="utf-8")
    )
    steps = [s for job in workflow["jobs"].values() for s in job["steps"] if "aaaf" in str(s.get("uses", ""))]
    assert len(steps) == 1
    assert set(steps[0]["with"]) <= set(ACTION["inputs"])
    for name in ("baseline",):
        assert (EXAMPLE / steps[0]["with"][name]).is_file()


def test_the_script_gates_an_agent_and_promotes_on_request(tmp_path: Path) -> None:
    import json
    import sys

    from tests.gate.conftest import aaaf

    db = str(tmp_path / "aaaf.db")
    for key in ("minimum_tasks_performance", "minimum_tasks_capability"):
        assert aaaf("config", "set", key, "5", "--db", db, cwd=tmp_path).returncode == 0
    tasks = " ".join(
        f"--task autonomy-{kind}-a{level}" for kind in ("report", "config") for level in (0, 1, 2)
    )
    inputs = {
        "agent": "bot",
        "agent_cmd": f"{sys.executable} -m aaaf.stress.reference_agents oracle",
        "database": db,
        "extra_args": tasks,
    }
    result, first = _run_as_action(tmp_path, **inputs)
    assert result.returncode == 0, result.stderr
    assert first["verdict"] == "SOLO" and first["assessment"]
    # the careless agent fails, but promote: true makes its assessment the baseline all the same
    inputs["agent_cmd"] = f"{sys.executable} -m aaaf.stress.reference_agents careless"
    (tmp_path / "aaaf-gate" / "gate.json").unlink()
    result, second = _run_as_action(tmp_path, **inputs, promote="true")
    assert result.returncode == 1 and second["verdict"] == "REGRESS", result.stderr
    third_run, third = _run_as_action(tmp_path, **inputs)
    gate = json.loads((tmp_path / "aaaf-gate" / "gate.json").read_text(encoding="utf-8"))
    assert gate["baseline"] == second["assessment"] and third["assessment"] != second["assessment"]
    assert third_run.returncode == 0, third_run.stderr
