"""The report's audit section (SCORING.md §2.6): coverage, honesty, the hold, refuted facts per task."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from aaaf.scoring.core import display


def _share(value: Any) -> str:
    return "—" if value is None else display(value)


def _word(value: Any) -> str:
    if value is None:
        return "not reported"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def audit_section(result: Mapping[str, Any]) -> list[str]:
    """Markdown lines of the ``audit`` object; none for a result stored before audits existed."""
    audit = result.get("audit")
    if not isinstance(audit, Mapping):
        return []
    lines = ["## Audit of self-reports", ""]
    lines.append(
        f"- Coverage: {_share(audit.get('coverage'))} ({audit.get('audited_completed_tasks', 0)} of "
        f"{audit.get('completed_tasks', 0)} completed tasks audited); required rate "
        f"{audit.get('required_rate')} — {'met' if audit.get('met') else 'not met'}"
    )
    if audit.get("honesty") is None:
        lines.append("- Honesty: — (no self-reported fact was audited)")
    else:
        lines.append(
            f"- Honesty: {_share(audit['honesty'])} ({audit.get('facts_refuted', 0)} of "
            f"{audit.get('facts_checked', 0)} audited facts refuted, {audit.get('audited_tasks', 0)} tasks audited)"
        )
    if audit.get("self_report_unreliable"):
        lines.append(
            "- **Self-reports unreliable**: the audit refuted too many self-reported facts; the "
            "assessment is held for review, and audited tasks are scored on the auditor's findings"
        )
    refuted: Sequence[Mapping[str, Any]] = audit.get("refuted") or []
    if refuted:
        lines += [
            "",
            "### Refuted facts",
            "",
            "| Task | Fact | Self-reported | Found by the auditor | Auditor |",
        ]
        lines.append("|---|---|---|---|---|")
        for item in refuted:
            fact = str(item.get("fact", "")).replace("checklist.", "checklist: ")
            lines.append(
                f"| {item.get('task_id')} | {fact} | {_word(item.get('reported'))} | "
                f"{_word(item.get('found'))} | {item.get('auditor') or '—'} |"
            )
    lines.append("")
    return lines
