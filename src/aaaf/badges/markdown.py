"""The badge as Markdown, for terminals and text-only places (document 004 §4.4).

Same fields as the SVG (document 004 §4.3), scores truncated to 2 decimals
(SCORING.md §0), null dimensions shown as '—', plus each dimension's score, which the
300×150 picture has no room for.
"""

from __future__ import annotations

from aaaf.badges.data import BadgeData
from aaaf.escaping import markdown_text
from aaaf.scoring.core import display
from aaaf.scoring.defaults import AXES


def snippet(data: BadgeData) -> str:
    """The line a README embeds: the agent's badge picture (its stable URL, always the current
    badge) linking the verification page of this badge."""
    perf, cap = data.performance, data.capability
    alt = (
        f"AAAF badge of {data.agent_name}: Performance {perf.tier or 'Not rated'}, "
        f"Capability {cap.tier or 'Not rated'}"
    )
    return f"[![{markdown_text(alt)}]({data.agent_badge_url})]({data.verification_url})"


def markdown(data: BadgeData) -> str:
    perf, cap = data.performance, data.capability
    lines = [
        f"### AAAF badge — {markdown_text(data.agent_name)}",
        "",
        snippet(data),
        "",
        f"**Organization:** {markdown_text(data.organization_name)}  ",
        f"**Agent ID:** `{data.agent_id}`",
        "",
        "| | Performance | Capability |",
        "|---|---|---|",
        f"| Tier | {markdown_text(perf.tier or 'Not rated')} | {markdown_text(cap.tier or 'Not rated')} |",
        f"| Score | {display(perf.composite_score)} | {display(cap.composite_score)} |",
        "",
    ]
    for axis, dimensions in AXES.items():
        summary = data.axis(axis)
        lines += [f"| {axis.capitalize()} dimension | Score |", "|---|---|"]
        lines += [f"| {name} | {display(summary.dimensions.get(name))} |" for name in dimensions]
        lines.append("")
    lines += [
        f"Certified: {data.completed_at:%Y-%m-%d} · Valid until: {data.valid_until:%Y-%m-%d}  ",
        f"Assessment ID: `{data.assessment_id}`  ",
        f"Verify: <{data.verification_url}>",
        "",
    ]
    return "\n".join(lines)
