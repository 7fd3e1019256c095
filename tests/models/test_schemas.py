"""The JSON Schemas in docs/schemas/ are the public shapes' (issue 10 §3) and the CLI's real
``--json`` outputs conform to them.

Regenerate after changing a model: ``make regen``.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from aaaf.models import PUBLIC_SHAPES
from aaaf.models.schemas import schema_of, schema_text

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "docs" / "schemas"
RECORDED = ROOT / "tests" / "fixtures" / "json_outputs"

# recorded --json output (tests/fixtures/json_outputs/<file>.txt) → its shape; "[]" a list of it
OUTPUTS = {
    "agents": "agent_listing[]",
    "org_create": "organization_created",
    "keys_create": "api_key_created",
    "assess_one": "assessment",
    "assess_all": "assess_outcome[]",
    "assessments": "assessment[]",
    "audit_status": "audit_status",
    "collect": "collect_report",
    "collect_workflow": "collect_report",
    "compare": "comparison",
    "compare_several": "comparison_several",
    "error_explain": "error",
    "error_unknown_agent": "error",
    "explain": "explanation",
    "explain_dimension": "explanation",
    "trust_one": "trust_score",
    "verify": "badge_verification",
    "verify_json": "badge_verification",
    "workflow_score": "workflow_score",
    "workflow_weights": "workflow_weights",
    "audit_sample": "audit_worksheet",
    "eval_score": "eval_solo_score",
    "eval_grade": "eval_graded_run",
    "eval_import": "eval_imported_runs",
    "gate": "gate_outcome",
    "issuer_jwks": "jwks",
    "stress_list": "stress_task_listing[]",
    "library_list": "stress_library_page",
}


@pytest.mark.parametrize("name", sorted(PUBLIC_SHAPES))
def test_committed_schema_matches_the_model(name: str) -> None:
    path = COMMITTED / f"{name}.json"
    assert path.exists(), f"docs/schemas/{name}.json is missing: run `make regen`"
    assert path.read_text(encoding="utf-8") == schema_text(name), (
        f"docs/schemas/{name}.json is stale: run `make regen`"
    )


def test_no_schema_without_a_model() -> None:
    assert {path.stem for path in COMMITTED.glob("*.json")} == set(PUBLIC_SHAPES)


@pytest.mark.parametrize(("output", "shape"), sorted(OUTPUTS.items()))
def test_recorded_output_conforms_to_its_schema(output: str, shape: str) -> None:
    body = json.loads((RECORDED / f"{output}.txt").read_text().split("\n", 1)[1])
    schema = schema_of(shape.removesuffix("[]"))
    items = body if shape.endswith("[]") else [body]
    assert items, output
    for item in items:
        jsonschema.validate(item, schema, cls=jsonschema.Draft202012Validator)


def test_a_wrong_output_is_refused() -> None:
    """The schemas are not vacuous: a missing key, an unknown key and a wrong type all fail."""
    body = json.loads((RECORDED / "collect.txt").read_text().split("\n", 1)[1])
    schema = schema_of("collect_report")
    for broken in (
        {k: v for k, v in body.items() if k != "accepted"},
        {**body, "surprise": 1},
        {**body, "accepted": "many"},
    ):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(broken, schema, cls=jsonschema.Draft202012Validator)
