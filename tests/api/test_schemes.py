"""Trust, workflow and eval routes on the live server of each database (issue 13: "routes for
the trust score, workflow runs and eval runs/compare on the same services the CLI uses").

Each happy path is checked against what the CLI's ``--json`` prints for the same inputs: the
real ``aaaf`` console script runs on the server's own database (``--db``, ``--org``) or on
the same fixture files; then every error code the routes can answer.
"""

from __future__ import annotations

import json
import os
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.api.conftest import LiveServer, Org, aaaf_script, agent_evidence, assert_error

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
INSPECT = FIXTURES / "inspect" / "issue11"
PROMPTFOO = FIXTURES / "promptfoo" / "results.json"
RESAMPLES = "1000"  # the same on both sides; fewer than the default keeps the test quick
COMPARE_TIMEOUT_S = 600.0  # a bootstrap on a loaded 2-core machine can take minutes


def cli_json(live: LiveServer, org: Org | None, *args: str) -> Any:
    """``aaaf [--org ORG] ARGS --json`` (with ``--db`` when ``org`` is given) on the server's database."""
    command = [aaaf_script()]
    if org is not None:
        command += ["--org", org.name]
    command += list(args)
    if org is not None:
        command += ["--db", live.database_url]
    command.append("--json")
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, env=dict(os.environ))
    assert done.returncode in (0, 1), done.stderr + done.stdout
    return json.loads(done.stdout)


def _eval_result(agent_id: str, dimension: str, score: float, when: datetime, number: int) -> dict:
    return {
        "id": f"eval-{dimension}-{number}",
        "agent_id": agent_id,
        "type": "eval_result",
        "timestamp": when.isoformat(),
        "data": {"dimension": dimension, "score": score, "eval_set": "api-test"},
    }


# ---- trust ------------------------------------------------------------------------------------


def test_trust_score_history_and_recompute_match_the_cli(live: LiveServer) -> None:
    org = live.organization()
    agent = org.client.post("/api/v1/agents", json={"name": "truster"}).json()
    now = datetime.now(UTC).replace(microsecond=0)
    events = agent_evidence(agent["id"], 4)
    for number, dimension in enumerate(("accuracy", "reliability", "security", "scopeHonesty", "safety")):
        events.append(
            _eval_result(agent["id"], dimension, 70 + number, now - timedelta(hours=number), number)
        )
    assert org.client.post("/api/v1/events/batch", json={"events": events}).json()["rejected"] == 0
    at = (now - timedelta(minutes=5)).isoformat()

    read = org.client.get(f"/api/v1/agents/{agent['id']}/trust", params={"at": at})
    assert read.status_code == 200, read.text
    assert read.json() == cli_json(live, org, "trust", "show", "truster", "--at", at)
    assert read.json()["history"]["not_recorded_reason"] == "read-only query"
    # by name too
    assert org.client.get("/api/v1/agents/truster/trust", params={"at": at}).json() == read.json()

    recomputed = org.client.post(f"/api/v1/agents/{agent['id']}/trust")
    assert recomputed.status_code == 200, recomputed.text
    body = recomputed.json()
    assert body["history"]["recorded"] is True and body["history"]["committed"] is True
    history = org.client.get(f"/api/v1/agents/{agent['id']}/trust/history").json()
    assert history["next_cursor"] is None
    assert history["items"] == cli_json(live, org, "trust", "history", "truster")
    assert [item["id"] for item in history["items"]] == [body["history"]["entry_id"]]
    # nothing new since: not recorded again
    again = org.client.post(f"/api/v1/agents/{agent['id']}/trust").json()
    assert again["history"]["recorded"] is False and "unchanged" in again["history"]["not_recorded_reason"]


def test_trust_errors(live: LiveServer) -> None:
    org = live.organization()
    org.client.post("/api/v1/agents", json={"name": "solo"})
    assert_error(org.client.get("/api/v1/agents/nobody/trust"), 404, "NOT_FOUND")
    assert_error(org.client.post("/api/v1/agents/nobody/trust"), 404, "NOT_FOUND")
    assert_error(org.client.get("/api/v1/agents/nobody/trust/history"), 404, "NOT_FOUND")
    bad = assert_error(
        org.client.get("/api/v1/agents/solo/trust", params={"at": "yesterday"}), 400, "INVALID_REQUEST"
    )
    assert bad["details"]["field"] == "query.at"
    naive = assert_error(
        org.client.get("/api/v1/agents/solo/trust", params={"at": "2026-11-01T00:00:00"}),
        400,
        "INVALID_REQUEST",
    )
    assert naive["details"]["field"] == "query.at"
    reader = live.client(org.client.post("/api/v1/keys", json={"scopes": ["read"]}).json()["api_key"])
    assert reader.get("/api/v1/agents/solo/trust").status_code == 200
    denied = assert_error(reader.post("/api/v1/agents/solo/trust"), 403, "FORBIDDEN")
    assert denied["details"]["required_scope"] == "assessments:write"
    writer = live.client(org.client.post("/api/v1/keys", json={"scopes": ["events:write"]}).json()["api_key"])
    assert_error(writer.get("/api/v1/agents/solo/trust"), 403, "FORBIDDEN")
    assert_error(live.anonymous.get("/api/v1/agents/solo/trust"), 401, "UNAUTHORIZED")


# ---- workflow ---------------------------------------------------------------------------------

ETL = {
    "name": "etl",
    "steps": [
        {"id": "extract", "error_handling": {"retry_count": 2}, "timeout_seconds": 60},
        {
            "id": "load",
            "depends_on": ["extract"],
            "error_handling": {"retry_count": 1},
            "timeout_seconds": 60,
        },
    ],
}


def _run(agent: str, task: str, when: datetime, **data: Any) -> dict:
    return {
        "id": f"run-{task}",
        "agent": agent,
        "type": "workflow_run",
        "timestamp": when.isoformat(),
        "data": {
            "task_id": task,
            "workflow": "etl",
            "steps_completed": 2,
            "output_quality": 0.9,
            "actual_cost": 1.0,
            "max_budget": 2.0,
            "actual_seconds": 30.0,
            "max_latency_seconds": 60.0,
            "actual_retries": 4,
            "timeouts": 0,
            "hard_failures": 0,
            **data,
        },
    }


def test_workflow_runs_score_and_weights_match_the_cli(live: LiveServer) -> None:
    org = live.organization()
    for name in ("miner-1", "miner-2"):
        org.client.post("/api/v1/agents", json={"name": name})
    now = datetime.now(UTC).replace(microsecond=0)
    runs = [
        _run("miner-1", "w1", now - timedelta(hours=3)),
        _run("miner-1", "w2", now - timedelta(hours=2), output_quality=0.5, actual_cost=1.8),
        _run("miner-2", "w3", now - timedelta(hours=1), actual_retries=0),
        {**_run("miner-2", "w4", now), "type": "task_completed"},  # not a run
        _run("miner-2", "w5", now, steps_completed="two"),  # invalid
        _run("miner-2", "w6", now, workflow="unknown-flow"),  # names no definition given
    ]
    answer = org.client.post("/api/v1/workflow-runs", json={"runs": runs, "workflows": [ETL]})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert (body["accepted"], body["rejected"]) == (3, 3), body
    errors = {error["index"]: error for error in body["errors"]}
    assert errors[3]["code"] == "INVALID_EVENT_TYPE" and errors[3]["field"] == "type"
    assert errors[4]["field"] == "data.steps_completed"
    assert errors[5]["code"] == "INVALID_REQUEST"
    again = org.client.post("/api/v1/workflow-runs", json={"runs": runs[:3], "workflows": [ETL]}).json()
    assert (again["accepted"], again["duplicates"]) == (0, 3)

    score = org.client.get("/api/v1/agents/miner-1/workflow-score")
    assert score.status_code == 200, score.text
    assert score.json() == cli_json(live, org, "workflow", "score", "--agent", "miner-1")
    # dag_steps 2 and retry budget 2 + 1 = 3 came from the definition: 4 retries → 1 unplanned
    assert '"unplanned_retries": 1' in json.dumps(score.json())
    windowed = org.client.get("/api/v1/agents/miner-1/workflow-score", params={"window": 1}).json()
    assert windowed == cli_json(live, org, "workflow", "score", "--agent", "miner-1", "--window", "1")
    weights = org.client.get("/api/v1/workflow-weights", params={"cap": 0.6}).json()
    assert weights == cli_json(live, org, "workflow", "weights", "--cap", "0.6")


def test_workflow_errors(live: LiveServer) -> None:
    org = live.organization()
    org.client.post("/api/v1/agents", json={"name": "miner"})
    assert_error(org.client.get("/api/v1/agents/nobody/workflow-score"), 404, "NOT_FOUND")
    for params, field in (({"window": 0}, "query.window"), ({"cap": 1.5}, "query.cap")):
        url = "/api/v1/workflow-weights" if "cap" in params else "/api/v1/agents/miner/workflow-score"
        error = assert_error(org.client.get(url, params=params), 400, "INVALID_REQUEST")
        assert error["details"]["field"] == field
    missing = assert_error(org.client.post("/api/v1/workflow-runs", json={"run": []}), 400, "INVALID_REQUEST")
    assert {item["field"] for item in missing["details"]["fields"]} == {"body.runs", "body.run"}
    cyclic = {"name": "loop", "steps": [{"id": "a", "depends_on": ["a"]}]}
    bad_definition = assert_error(
        org.client.post("/api/v1/workflow-runs", json={"runs": [], "workflows": [cyclic]}),
        400,
        "INVALID_REQUEST",
    )
    assert bad_definition["details"]["field"].startswith("body.workflows[0]")
    too_many = assert_error(
        org.client.post("/api/v1/workflow-runs", json={"runs": [{}] * 1001}), 413, "PAYLOAD_TOO_LARGE"
    )
    assert too_many["details"]["limit_events"] == 1000
    reader = live.client(org.client.post("/api/v1/keys", json={"scopes": ["read"]}).json()["api_key"])
    assert reader.get("/api/v1/workflow-weights").status_code == 200
    denied = assert_error(reader.post("/api/v1/workflow-runs", json={"runs": []}), 403, "FORBIDDEN")
    assert denied["details"]["required_scope"] == "events:write"


# ---- eval runs and compare ----------------------------------------------------------------------


def _upload_file(org: Org, path: Path) -> list[dict]:
    with path.open("rb") as handle:
        answer = org.client.post(
            "/api/v1/eval-runs", files={"file": (path.name, handle)}, timeout=COMPARE_TIMEOUT_S
        )
    assert answer.status_code == 201, answer.text
    return list(answer.json()["items"])


def test_eval_runs_upload_list_get_and_compare_match_the_cli(live: LiveServer) -> None:
    pytest.importorskip("inspect_ai")
    org = live.organization()
    (control,) = _upload_file(org, INSPECT / "control_epochs.eval")
    (treatment,) = _upload_file(org, INSPECT / "treatment_epochs.eval")
    assert control["source_format"] == "inspect_ai" and control["samples"] == 10
    # a promptfoo result file as the JSON body: one run per column
    columns = org.client.post(
        "/api/v1/eval-runs",
        timeout=COMPARE_TIMEOUT_S,
        content=PROMPTFOO.read_bytes(),
        headers={"Content-Type": "application/json"},
    )
    assert columns.status_code == 201, columns.text
    first, second = columns.json()["items"]
    assert first["source_format"] == second["source_format"] == "promptfoo"

    listed = org.client.get("/api/v1/eval-runs").json()
    assert {item["id"] for item in listed["items"]} == {
        control["id"],
        treatment["id"],
        first["id"],
        second["id"],
    }
    page = org.client.get("/api/v1/eval-runs", params={"limit": 3}).json()
    rest = org.client.get("/api/v1/eval-runs", params={"cursor": page["next_cursor"]}).json()
    assert [i["id"] for i in page["items"] + rest["items"]] == [i["id"] for i in listed["items"]]
    fetched = org.client.get(f"/api/v1/eval-runs/{control['id']}").json()
    assert fetched["run"]["run_id"] == control["run_id"] and len(fetched["run"]["samples"]) == 10

    # one treatment: the two-run verdict of `aaaf compare C T --json`
    pair = org.client.post(
        "/api/v1/eval-runs/compare",
        timeout=COMPARE_TIMEOUT_S,
        json={"control": control["id"], "treatments": [treatment["id"]], "resamples": int(RESAMPLES)},
    )
    assert pair.status_code == 200, pair.text
    expected = cli_json(
        live,
        None,
        "compare",
        str(INSPECT / "control_epochs.eval"),
        str(INSPECT / "treatment_epochs.eval"),
        "--resamples",
        RESAMPLES,
    )
    assert pair.json() == expected and pair.json()["n_paired"] == 5
    # several treatments: Bonferroni across them, the worst rolled up
    several = org.client.post(
        "/api/v1/eval-runs/compare",
        timeout=COMPARE_TIMEOUT_S,
        json={
            "control": control["id"],
            "treatments": [treatment["id"], control["id"]],
            "resamples": int(RESAMPLES),
        },
    ).json()
    expected_several = cli_json(
        live,
        None,
        "compare",
        str(INSPECT / "control_epochs.eval"),
        str(INSPECT / "treatment_epochs.eval"),
        str(INSPECT / "control_epochs.eval"),
        "--resamples",
        RESAMPLES,
    )
    assert several == expected_several and len(several["comparisons"]) == 2
    # a promptfoo file's two columns, as `aaaf compare FILE --json` compares them
    columns_verdict = org.client.post(
        "/api/v1/eval-runs/compare",
        timeout=COMPARE_TIMEOUT_S,
        json={"control": first["id"], "treatments": [second["id"]], "resamples": int(RESAMPLES), "seed": 7},
    ).json()
    assert columns_verdict == cli_json(
        live, None, "compare", str(PROMPTFOO), "--resamples", RESAMPLES, "--seed", "7"
    )


def test_eval_run_errors(live: LiveServer) -> None:
    pytest.importorskip("inspect_ai")
    org = live.organization()
    (errored,) = _upload_file(org, INSPECT / "errored.eval")
    (control,) = _upload_file(org, INSPECT / "control_epochs.eval")
    unknown = "00000000-0000-0000-0000-000000000000"
    assert_error(org.client.get(f"/api/v1/eval-runs/{unknown}"), 404, "NOT_FOUND")
    assert_error(org.client.get("/api/v1/eval-runs/not-a-uuid"), 404, "NOT_FOUND")
    assert_error(
        org.client.post(
            "/api/v1/eval-runs/compare", json={"control": control["id"], "treatments": [unknown]}
        ),
        404,
        "NOT_FOUND",
    )
    # an unfinished run is refused unless allow_incomplete, as the CLI does
    incomplete = assert_error(
        org.client.post(
            "/api/v1/eval-runs/compare", json={"control": control["id"], "treatments": [errored["id"]]}
        ),
        400,
        "INVALID_REQUEST",
    )
    assert incomplete["details"]["incomplete"][0]["role"] == "treatment"
    allowed = org.client.post(
        "/api/v1/eval-runs/compare",
        timeout=COMPARE_TIMEOUT_S,
        json={
            "control": control["id"],
            "treatments": [errored["id"]],
            "allow_incomplete": True,
            "resamples": 500,
        },
    )
    assert allowed.status_code == 200, allowed.text
    fields = assert_error(
        org.client.post(
            "/api/v1/eval-runs/compare",
            timeout=COMPARE_TIMEOUT_S,
            json={"control": control["id"], "treatments": [], "confidence": 2, "colour": "red"},
        ),
        400,
        "INVALID_REQUEST",
    )
    assert {item["field"] for item in fields["details"]["fields"]} == {
        "body.treatments",
        "body.confidence",
        "body.colour",
    }
    method = assert_error(
        org.client.post(
            "/api/v1/eval-runs/compare",
            timeout=COMPARE_TIMEOUT_S,
            json={"control": control["id"], "treatments": [control["id"]], "ci_method": "studentized"},
        ),
        400,
        "INVALID_REQUEST",
    )
    assert method["details"]["field"] == "body.ci_method"
    weights = assert_error(
        org.client.post(
            "/api/v1/eval-runs/compare",
            timeout=COMPARE_TIMEOUT_S,
            json={"control": control["id"], "treatments": [control["id"]], "weights": {"fact": 0.2}},
        ),
        422,
        "WEIGHT_SUM_INVALID",
    )
    assert weights["details"]["field"] == "body.weights"
    # uploads the CLI would refuse
    not_json = assert_error(
        org.client.post("/api/v1/eval-runs", content=b"{nope", headers={"Content-Type": "application/json"}),
        400,
        "INVALID_REQUEST",
    )
    assert not_json["details"]["field"] == "body"
    unknown_shape = assert_error(
        org.client.post("/api/v1/eval-runs", json={"hello": "world"}), 400, "INVALID_REQUEST"
    )
    assert "upload.json" in unknown_shape["message"] and "/tmp" not in unknown_shape["message"]
    bad_sample = assert_error(
        org.client.post("/api/v1/eval-runs", json={"run_id": "r", "variant": "v", "samples": [{"score": 1}]}),
        400,
        "INVALID_REQUEST",
    )
    assert "sample_id" in bad_sample["message"]
    no_file = assert_error(
        org.client.post("/api/v1/eval-runs", files={"other": ("x.json", b"{}")}), 400, "INVALID_REQUEST"
    )
    assert no_file["details"]["field"] == "body.file"
    bad_format = assert_error(
        org.client.post("/api/v1/eval-runs", params={"from": "csv"}, json={"samples": []}),
        400,
        "INVALID_REQUEST",
    )
    assert bad_format["details"]["field"] == "from"
    assert_error(
        org.client.post(
            "/api/v1/eval-runs", content=b"x" * 1_100_000, headers={"Content-Type": "application/json"}
        ),
        413,
        "PAYLOAD_TOO_LARGE",
    )
    # scopes: uploading needs assessments:write, comparing and reading need read
    reader = live.client(org.client.post("/api/v1/keys", json={"scopes": ["read"]}).json()["api_key"])
    assert reader.get("/api/v1/eval-runs").status_code == 200
    denied = assert_error(reader.post("/api/v1/eval-runs", json={"samples": []}), 403, "FORBIDDEN")
    assert denied["details"]["required_scope"] == "assessments:write"
    writer = live.client(org.client.post("/api/v1/keys", json={"scopes": ["events:write"]}).json()["api_key"])
    assert_error(writer.get("/api/v1/eval-runs"), 403, "FORBIDDEN")
    assert_error(
        writer.post(
            "/api/v1/eval-runs/compare", json={"control": control["id"], "treatments": [control["id"]]}
        ),
        403,
        "FORBIDDEN",
    )
