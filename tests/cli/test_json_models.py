"""Every recorded ``--json`` output validates against the public model it is printed as
(issue 31 "public models everywhere"): the outputs ``scripts/json_snapshots.py`` records in
``tests/fixtures/json_outputs/`` (``test_json_shapes.py`` holds the commands to them byte for
byte) are parsed by their model of :mod:`aaaf.models`, which refuses a key it does not
declare, so an output cannot grow a field its model (and so ``docs/schemas`` and both SDKs)
does not have.  A recorded output with no model here fails the test.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from aaaf import models as m
from aaaf.models.admin import ConfigShow, PendingReview, PendingTrustReview, TrustWeightsStatus
from aaaf.models.audit_worksheet import AuditWorksheet
from aaaf.models.badge import BadgeIssueOutcome, BadgeRevoked, BadgeVerification, IssuedBadge, Jwks
from aaaf.models.error import ErrorBody
from aaaf.models.eval_cli import GradedRunWritten, ImportedRuns, SoloScore
from aaaf.models.gate import GateOutcome
from aaaf.models.stress_tasks import StressLibraryPage, StressTaskListing
from aaaf.models.tenancy import (
    AgentListing,
    ApiKeyPage,
    CreatedApiKey,
    CreatedOAuthClient,
    CreatedOrganization,
    Enrollment,
    OAuthClient,
    OAuthClientPage,
    OrganizationPage,
)
from aaaf.models.trust import ScoreHistoryEntry
from aaaf.models.workflow import WorkflowScore, WorkflowWeights

RECORDED = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "json_outputs"

# recorded output → the type its JSON is (a model, or a list of one)
MODEL_OF: dict[str, Any] = {
    "agents": list[AgentListing],
    "assess_all": list[m.AssessOutcome],
    "assess_one": m.Assessment,
    "assessments": list[m.Assessment],
    "audit_sample": AuditWorksheet,
    "audit_status": m.AuditStatus,
    "badge": IssuedBadge,
    "badge_all": list[BadgeIssueOutcome],
    "badge_revoke": BadgeRevoked,
    "benchmarks_compute": m.BenchmarkComputation,
    "benchmarks_show": m.BenchmarkTable,
    "benchmarks_standing": m.AgentStanding,
    "collect": m.CollectReport,
    "collect_again": m.CollectReport,
    "collect_workflow": m.CollectReport,
    "compare": m.Comparison,
    "compare_several": m.SeveralComparison,
    "config_show": ConfigShow,
    "db_upgrade": m.Migration,
    "enroll": Enrollment,
    "error_explain": ErrorBody,
    "error_unknown_agent": ErrorBody,
    "eval_grade": GradedRunWritten,
    "eval_import": ImportedRuns,
    "eval_score": SoloScore,
    "explain": m.Explanation,
    "explain_dimension": m.Explanation,
    "gate": GateOutcome,
    "gate_promote": m.BaselinePromoted,
    "init": m.FilesWritten,
    "issuer_jwks": Jwks,
    "keys_create": CreatedApiKey,
    "keys_list": ApiKeyPage,
    "library_install": m.StressLibrary,
    "library_list": StressLibraryPage,
    "library_publish": m.StressLibrary,
    "oauth_create": CreatedOAuthClient,
    "oauth_list": OAuthClientPage,
    "oauth_revoke": OAuthClient,
    "org_create": CreatedOrganization,
    "org_list": OrganizationPage,
    "report": m.ReportsWritten,
    "review_list": list[PendingReview],
    "status": m.DatabaseStatus,
    "stress_list": list[StressTaskListing],
    "trust_history": list[ScoreHistoryEntry],
    "trust_one": m.TrustScore,
    "trust_review_pending": list[PendingTrustReview],
    "trust_weights": TrustWeightsStatus,
    "verify": BadgeVerification,
    "verify_json": BadgeVerification,
    "workflow_score": WorkflowScore,
    "workflow_weights": WorkflowWeights,
}


# recorded as a refusal with nothing on stdout (exit 2): `config set KEY VALUE` takes its
# value otherwise now, so these hold no JSON; once they are recorded again, map them to
# ConfigSetResult above
NO_JSON = ("config_set", "config_set_unchanged")


def _recorded(name: str) -> Any:
    text = (RECORDED / f"{name}.txt").read_text()
    return json.loads(text.split("\n", 1)[1])  # the first line is the exit code


def test_every_recorded_output_has_a_model() -> None:
    assert sorted(path.stem for path in RECORDED.glob("*.txt")) == sorted([*MODEL_OF, *NO_JSON])
    for name in NO_JSON:
        assert (RECORDED / f"{name}.txt").read_text().strip() == "exit 2", (
            f"{name} holds JSON now: add its model"
        )


@pytest.mark.parametrize("name", sorted(MODEL_OF))
def test_the_recorded_output_validates_against_its_model(name: str) -> None:
    data = _recorded(name)
    TypeAdapter(MODEL_OF[name]).validate_python(data)


@pytest.mark.parametrize("name", sorted(MODEL_OF))
def test_the_model_prints_the_recorded_output_again(name: str) -> None:
    """Parsed by its model and dumped as ``--json`` prints it, the output is the same bytes:
    no key the model leaves out or adds, none in another order, no number changed."""
    text = (RECORDED / f"{name}.txt").read_text().split("\n", 1)[1]
    adapter = TypeAdapter(MODEL_OF[name])
    again = adapter.dump_python(adapter.validate_json(text), mode="json", by_alias=True, exclude_unset=True)
    assert json.dumps(again, indent=2, ensure_ascii=False) + "\n" == text


def test_a_key_the_model_does_not_declare_is_refused() -> None:
    data = _recorded("badge_revoke")
    data["badge"]["undeclared"] = 1
    with pytest.raises(ValidationError):
        TypeAdapter(MODEL_OF["badge_revoke"]).validate_python(data)


def test_the_prune_output_validates_against_its_model(sqlite_at_head: Path) -> None:
    """``db prune --json`` is not recorded (its cut-offs follow the wall clock): run it here."""
    from typer.testing import CliRunner

    from aaaf.cli.main import app

    db = str(sqlite_at_head)
    runner = CliRunner()
    assert runner.invoke(app, ["org", "create", "acme", "--db", db]).exit_code == 0
    result = runner.invoke(app, ["db", "prune", "--dry-run", "--db", db, "--json"])
    assert result.exit_code == 0, result.output
    pruned = m.PruneResult.model_validate_json(result.stdout)
    assert pruned.dry_run and pruned.organizations["acme"].events == 0
    assert m.dump(pruned) == json.loads(result.stdout)


def test_the_graded_run_on_stdout_is_a_run_of_our_format(tmp_path: Path) -> None:
    """``eval grade RUN`` without ``--output`` prints the graded run itself: a run object of
    the run format (docs/scoring.md §5), as :class:`aaaf.evals.models.EvalRun` reads it."""
    from typer.testing import CliRunner

    from aaaf.cli.main import app
    from aaaf.demo.evals import generate_runs
    from aaaf.evals.models import EvalRun

    run = tmp_path / "control.json"
    run.write_text(json.dumps(generate_runs(samples=8)["control"]))
    result = CliRunner().invoke(app, ["eval", "grade", str(run)])
    assert result.exit_code == 0, result.output
    graded = EvalRun.model_validate_json(result.stdout)
    assert graded.run_id == "support-agent-control" and len(graded.samples) == 8
    assert graded.model_dump(mode="json", exclude_none=True) == json.loads(result.stdout)
