"""The dashboard's tier scale: one colour per rank, rising in order on both axes, and the
legend that names each tier with its threshold (docs/scoring.md §1.3 tiers).

Tiers are shown as CSS classes (``tier-r0`` … ``tier-r4``, lightest to darkest), so the same
rank has the same colour for Performance and Capability and no page needs an inline style.
"""

from __future__ import annotations

from aaaf.reports.markdown import AXIS_TIERS, AXIS_TITLES
from aaaf.scoring.core import display

RANK: dict[str, int] = {
    tier.name: index
    for tiers in AXIS_TIERS.values()
    for index, tier in enumerate(sorted(tiers, key=lambda t: t.lower))
}


def tier_class(name: str | None) -> str:
    """``tier tier-rN`` for a known tier, ``tier`` otherwise."""
    return "tier" if name not in RANK else f"tier tier-r{RANK[name]}"


def legend_rows() -> list[dict[str, object]]:
    """Per axis: its tiers lowest first with the score range each covers."""
    out: list[dict[str, object]] = []
    for axis, tiers in AXIS_TIERS.items():
        ordered = sorted(tiers, key=lambda t: t.lower)
        items = []
        for index, tier in enumerate(ordered):
            upper = ordered[index + 1].lower if index + 1 < len(ordered) else None
            span = (
                f"{display(tier.lower)} and above"
                if upper is None
                else f"{display(tier.lower)} to below {display(upper)}"
            )
            items.append({"name": tier.name, "span": span, "class": tier_class(tier.name)})
        out.append({"axis": axis, "title": AXIS_TITLES[axis], "tiers": items})
    return out
