""" "What moved this score": the tasks that lowered each dimension most (SCORING.md §0
'Traceability'; issue 10 §5), for the per-agent report and ``aaaf explain``.

Pure: the JSON form of an explanation (:meth:`aaaf.services.explain.Explanation.to_dict`)
in, Markdown lines out.  A task's *change* is the dimension's score minus the score
recomputed without that task (leave-one-task-out), so a negative change is a task that
lowered it.  Scores are truncated to 2 decimals (SCORING.md §0); changes are differences,
not scores, and are shown to 3 decimals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from aaaf.reports.markdown import AXIS_TITLES, TierRaise, table, tier_raise_section, title_of
from aaaf.reports.uncertainty import uncertainty_section
from aaaf.scoring.core import display
from aaaf.scoring.dimensions import BY_NAME

REPORT_TOP = 3


def change_text(change: float | None) -> str:
    """A signed difference to 3 decimals with a true minus sign ('—' when there is none)."""
    if change is None:
        return "—"
    text = f"{change:+.3f}"
    return text.replace("-", "−")


def moved_section(explanation: Mapping[str, Any], top: int = REPORT_TOP) -> list[str]:
    """The report's section: per dimension, up to ``top`` tasks that lowered it most."""
    lines = ["## What moved this score", ""]
    status = explanation.get("status")
    if status != "explained":
        lines.append(explanation.get("message") or "The evidence of this assessment is not available.")
        lines.append("")
        return lines
    lines.append(
        "Each task's effect on a dimension is the dimension recomputed without that task and every "
        "event naming it (leave-one-task-out, under the configuration the assessment recorded); the "
        "change is the score minus that recomputed score, so a negative change is a task that lowered it."
    )
    lines.append("")
    rows: list[list[Any]] = []
    untouched: list[str] = []
    dimensions: Mapping[str, Mapping[str, Any]] = explanation.get("dimensions") or {}
    for name, dim in dimensions.items():
        lowered: Sequence[Mapping[str, Any]] = dim.get("lowered_by") or []
        if dim.get("score") is None:
            continue
        if not lowered:
            untouched.append(title_of(name))
            continue
        for index, task in enumerate(lowered[:top]):
            rows.append(
                [
                    title_of(name) if index == 0 else "",
                    display(dim.get("score")) if index == 0 else "",
                    f"`{task['task_id']}`",
                    display(task.get("without")),
                    change_text(task.get("change")),
                ]
            )
    if rows:
        lines.extend(table(["Dimension", "Score", "Task", "Without it", "Change"], rows))
        lines.append("")
    if untouched:
        lines.append(f"- No single task lowered: {', '.join(untouched)}.")
        lines.append("")
    return lines


def explanation_markdown(
    explanation: Mapping[str, Any],
    raises: Mapping[str, TierRaise | None],
    result: Mapping[str, Any],
) -> str:
    """``aaaf explain``'s text: the stored scores, the tasks that lowered each dimension most
    (with each task's exact pull where the dimension is a weighted mean) and what would
    raise each tier (the report's own section)."""
    lines = [f"# Explanation — assessment {explanation['assessment_id']} ({explanation['agent']})", ""]
    spec = explanation.get("spec")
    if spec:
        lines.append(f"- Scheme: {spec['name']} version {spec['version']} (the recorded configuration)")
    lines.append(f"- Window end: {explanation['window_end']}")
    lines.append("")
    if explanation.get("status") != "explained":
        lines.append(explanation.get("message") or "")
        lines.append("")
    lines.extend(uncertainty_section(result))  # SCORING.md §2.5: how sure the composites are
    dimensions: Mapping[str, Mapping[str, Any]] = explanation.get("dimensions") or {}
    for name, dim in dimensions.items():
        lines.append(f"## {title_of(name)}: {display(dim.get('score'))}")
        lines.append("")
        if name in BY_NAME:
            lines.extend([BY_NAME[name].explanation, ""])
        lines.append(f"- Events used: {dim.get('evidence_count')}")
        if "tasks_examined" not in dim:
            lines.append("")
            continue
        if not dim.get("recomputed_matches", True):
            lines.append(
                f"- Recomputed from the recorded evidence: {display(dim.get('recomputed_score'))} "
                "(differs from the stored score)"
            )
        if dim.get("excluded_tasks"):
            lines.append(f"- Left out by an accepted appeal: {', '.join(dim['excluded_tasks'])}")
        lowered: Sequence[Mapping[str, Any]] = dim.get("lowered_by") or []
        if dim.get("score") is None:
            lines.append("- No score: nothing to explain.")
        elif not lowered:
            lines.append(f"- No single task of the {dim.get('tasks_examined')} lowered it.")
        else:
            lines.append(
                f"- {dim.get('tasks_lowering')} of {dim.get('tasks_examined')} tasks lowered it; the most:"
            )
            lines.append("")
            rows = []
            for task in lowered:
                pull = task.get("pull")
                rows.append(
                    [
                        f"`{task['task_id']}`",
                        display(task.get("without")),
                        change_text(task.get("change")),
                        "—"
                        if pull is None
                        else f"{task['value']:.3f} × {task['weight']:g} → {change_text(pull)}",
                    ]
                )
            lines.extend(table(["Task", "Without it", "Change", "Value × weight → pull on the mean"], rows))
        lines.append("")
    lines.append("## What would raise the tier")
    lines.append("")
    for axis, raise_ in raises.items():
        if raise_ is None:
            lines.append(f"### {AXIS_TITLES[axis]}")
            lines.append("")
            lines.append("A single-dimension assessment has no composite and no tier.")
            lines.append("")
            continue
        lines.extend(tier_raise_section(raise_, (result.get(axis) or {}).get("dimensions", {})))
    return "\n".join(lines).rstrip() + "\n"
