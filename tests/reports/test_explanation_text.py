"""`aaaf explain`'s text opens each dimension with what it measures, from the declaration."""

from __future__ import annotations

from aaaf.reports.moved import explanation_markdown
from aaaf.scoring.dimensions import BY_NAME


def test_each_explained_dimension_says_what_it_measures_under_its_heading() -> None:
    explanation = {
        "assessment_id": "6f1c2a4e-0000-4000-8000-000000000001",
        "agent": "coder",
        "window_end": "2026-11-20T00:00:00Z",
        "status": "explained",
        "dimensions": {
            "accuracy": {"score": 0.4, "evidence_count": 12},
            "tool_proficiency": {"score": None, "evidence_count": 0},
        },
    }
    text = explanation_markdown(explanation, {}, {})
    for name, score in (("accuracy", "0.40"), ("tool_proficiency", "—")):
        heading = f"## {BY_NAME[name].title}: {score}\n\n"
        assert heading + BY_NAME[name].explanation + "\n" in text, name
    assert BY_NAME["speed"].explanation not in text
