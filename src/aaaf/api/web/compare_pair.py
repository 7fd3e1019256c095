"""Which eval runs the dashboard's compare form pre-selects, and what it says about the pair
chosen: the control defaults to the run whose variant is the control (``control``,
``baseline``), else the oldest run, and the treatment to the newest other run; the same run on
both sides is refused (warned about among several treatments), and a pair that looks swapped (the treatment's variant is the control's
name, or the control was uploaded after the treatment) is warned about above the report."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from aaaf.errors import AAAFError

CONTROL_WORDS = ("control", "baseline")


def _is_control(run: Mapping[str, Any]) -> bool:
    variant = str(run.get("variant") or "").lower()
    return any(word in variant for word in CONTROL_WORDS)


def defaults(runs: Sequence[Mapping[str, Any]]) -> tuple[str | None, str | None]:
    """(control id, treatment id) to pre-select among ``runs`` (newest first)."""
    if not runs:
        return None, None
    oldest_first = sorted(runs, key=lambda run: str(run.get("uploaded_at") or ""))
    control = next((run for run in oldest_first if _is_control(run)), oldest_first[0])
    others = [run for run in reversed(oldest_first) if run["id"] != control["id"]]
    treatment = next((run for run in others if not _is_control(run)), others[0] if others else None)
    return str(control["id"]), None if treatment is None else str(treatment["id"])


def check_pair(control: Mapping[str, Any], treatments: Sequence[Mapping[str, Any]]) -> str | None:
    """Refuse a run compared with itself alone; the warning to show for the control among
    several treatments (a null reference) or for a pair that looks swapped."""
    if len(treatments) == 1 and treatments[0]["id"] == control["id"]:
        raise AAAFError(
            "INVALID_REQUEST",
            f"Run {control.get('run_id')} is both the control and the treatment: comparing a run with "
            "itself says nothing. Choose another treatment.",
            {"field": "treatment"},
        )
    if any(treatment["id"] == control["id"] for treatment in treatments):
        return (
            f"The control {control.get('run_id')} is also one of the treatments: that comparison is of "
            "the run with itself (a check that the method finds no difference), not a treatment."
        )
    for treatment in treatments:
        if _is_control(treatment) and not _is_control(control):
            return (
                f"The treatment {treatment.get('run_id')} is the control variant ({treatment.get('variant')}) "
                f"and the control {control.get('run_id')} is not: the pair looks swapped, so the verdict "
                "below reads backwards."
            )
        if str(treatment.get("uploaded_at") or "") < str(
            control.get("uploaded_at") or ""
        ) and not _is_control(control):
            return (
                f"The control {control.get('run_id')} was uploaded after the treatment "
                f"{treatment.get('run_id')}: check the pair is not swapped, or the verdict reads backwards."
            )
    return None
