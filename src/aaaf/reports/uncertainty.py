"""The "How sure" parts of the reports (SCORING.md §2.5): each composite's 95 % bootstrap
interval, the probability of the tier awarded, "borderline" in words when it is below the
configured threshold (0.8), and the one plain sentence on why a capability interval can sit
below its point estimate."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aaaf.scoring.core import display
from aaaf.scoring.defaults import AXES
from aaaf.scoring.uncertainty_report import (
    CAPABILITY_INTERVAL_NOTE,
    DEFAULT_BORDERLINE,
    INSUFFICIENT,
    awarded_probability,
    borderline_threshold,
)

AXIS_TITLES = {"performance": "Performance", "capability": "Capability"}


def _interval(ci: Any, scale: float, digits: int) -> str:
    if not ci:
        return "— (no resample had the evidence)"
    lo, hi = (display(float(v) * scale, digits) for v in ci)
    return f"{lo} – {hi}"


def _sureness(probability: float | None, threshold: float) -> str:
    if probability is None:
        return "—"
    words = display(probability)
    if probability < threshold:
        return f"{words} — **borderline**: fewer than {round(threshold * 100)} in 100 resamples land in this tier"
    return words


def uncertainty_section(result: Mapping[str, Any]) -> list[str]:
    """The report's "How sure are these scores" section; empty when no axis carries one."""
    threshold = borderline_threshold(result)
    rows = []
    for axis in AXES:
        data = result.get(axis)
        if not data or not data.get("uncertainty"):
            continue
        found = data["uncertainty"]
        tier = data.get("tier")
        insufficient = found.get("tier_probabilities", {}).get(INSUFFICIENT)
        rows.append(
            [
                AXIS_TITLES[axis],
                display(data.get("composite_score")),
                _interval(found.get("ci"), 1.0, 2),
                f"{tier or '—'}: {_sureness(awarded_probability(found, tier), threshold)}",
                f"{found.get('resamples')}"
                + (f" ({display(insufficient)} without evidence)" if insufficient else ""),
            ]
        )
    if not rows:
        return []
    from aaaf.reports.markdown import table  # the report module imports this one

    lines = ["## How sure are these scores (docs/uncertainty.md)", ""]
    lines.append(
        "The window's tasks were resampled with replacement and every score recomputed on each "
        "resample: the interval holds the middle 95 % of the resampled composites, and the "
        "probability is the share of resamples that land in the tier awarded."
    )
    lines.append("")
    lines.extend(
        table(["Axis", "Score", "95 % interval", "Probability of the tier awarded", "Resamples"], rows)
    )
    lines.append("")
    capability = result.get("capability") or {}
    if capability.get("uncertainty"):
        lines.append(CAPABILITY_INTERVAL_NOTE)
        lines.append("")
    return lines


def trust_uncertainty_lines(trust: Mapping[str, Any], threshold: float = DEFAULT_BORDERLINE) -> list[str]:
    """The trust section's interval and tier probability (0–1000 scale, integers truncated)."""
    found = trust.get("uncertainty")
    if not found:
        return []
    tier = trust.get("tier")
    return [
        "",
        f"How sure (docs/uncertainty.md): 95 % interval {_interval(found.get('ci'), 1.0, 0)}; "
        f"probability of {tier or '—'}: {_sureness(awarded_probability(found, tier), threshold)} "
        f"({found.get('resamples')} resamples).",
    ]
