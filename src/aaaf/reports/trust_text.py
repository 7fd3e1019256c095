"""The wording of the trust tier's reason (SCORING.md §3, document 000).

:func:`aaaf.scoring.trust.trust_outcome` decides the tier with a
:class:`~aaaf.scoring.trust.TierReason` (the gate, the unmet coverage, the bounds); this
module turns it into the sentence the CLI, ``trust --json``, the API and the history show,
e.g. ``"gold: composite 850 ≥ 750 (gold)"``.
"""

from __future__ import annotations

from typing import Any

from aaaf.scoring.core import display, truncate
from aaaf.scoring.trust import TierReason, TrustResult


def whole(value: float) -> str:
    """The 0-1000 scale shown to people: an integer, truncated (SCORING.md §0)."""
    return str(int(truncate(value, 0)))


def _number(value: float) -> str:
    return whole(value) if float(value).is_integer() else repr(value)


def tier_reason_parts(reason: TierReason) -> list[str]:
    """The reasons, in the order they applied, without the leading tier name."""
    parts: list[str] = []
    if reason.no_composite:
        parts.append("no covered dimension carries weight, so there is no composite")
    gate = reason.gate
    if gate is not None:
        capped = (
            f"composite {whole(gate.uncapped)} capped at {whole(gate.cap)}"
            if gate.uncapped > gate.cap
            else f"composite {whole(gate.uncapped)} already under the {whole(gate.cap)} cap"
        )
        parts.append(
            f"security gate: security {display(gate.security)} < {_number(gate.threshold)}"
            f", {capped} and no tier above {gate.max_tier}"
        )
    coverage = reason.coverage
    if coverage is not None:
        unmet: list[str] = []
        if coverage.covered < coverage.required:
            unmet.append(
                f"{coverage.covered} of {coverage.total} dimensions covered, {coverage.required} required"
            )
        if coverage.missing:
            unmet.append(f"mandatory dimension(s) not covered: {', '.join(coverage.missing)}")
        parts.append("coverage requirement not met: " + "; ".join(unmet))
    if reason.below is not None:
        value, next_name, next_lower = reason.below
        parts.append(f"composite {whole(value)} is below {next_name} ({whole(next_lower)})")
    if reason.at_least is not None:
        value, lower = reason.at_least
        parts.append(f"composite {whole(value)} ≥ {whole(lower)} ({reason.tier})")
    return parts


def tier_reason_text(reason: TierReason) -> str:
    """'silver: composite 612 ≥ 600 (silver)': the tier, then why."""
    return f"{reason.tier}: " + "; ".join(tier_reason_parts(reason))


def trust_result_dict(result: TrustResult) -> dict[str, Any]:
    """:meth:`TrustResult.to_dict` with the worded ``tier_reason`` after ``tier``."""
    out: dict[str, Any] = {}
    for key, value in result.to_dict().items():
        out[key] = value
        if key == "tier":
            out["tier_reason"] = tier_reason_text(result.tier_reason)
    return out
