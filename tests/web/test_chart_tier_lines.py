"""Tier lines on the dashboard's trend charts: a dashed line at each tier's threshold, its
name and threshold as text, and the same in the chart's text description."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from aaaf.api.web.charts import line_chart
from aaaf.api.web.views import trends


def test_levels_are_dashed_lines_at_their_values() -> None:
    chart = line_chart(
        "Performance composite",
        ["2026-01-01 to 2026-01-30", "2026-02-01 to 2026-03-02"],
        {"Performance": [0.5, 0.8]},
        levels=[("Expert", 0.75), ("Elite", 0.9)],
    )
    svg = str(chart.svg)
    # height 220, top margin 12, bottom 28: the plot is 180 high; y = 12 + 180 × (1 − value)
    lines = re.findall(r'<line x1="48" x2="548" y1="([\d.]+)" y2="[\d.]+" class="tierline"/>', svg)
    assert lines == ["57.0", "30.0"]  # 12 + 180 × 0.25, 12 + 180 × 0.10
    assert '<text x="544" y="53.0" text-anchor="end" class="tierlbl">Expert 0.75</text>' in svg
    assert ">Elite 0.90</text>" in svg
    assert "Tier lines: Expert from 0.75, Elite from 0.90</desc>" in svg
    assert 'class="tierline"' not in str(line_chart("plain", ["a"], {"P": [0.5]}).svg)


def test_each_axis_has_its_composite_chart_with_its_own_tiers() -> None:
    end = datetime(2026, 3, 1, tzinfo=UTC)
    assessment = SimpleNamespace(
        window_start=end - timedelta(days=30),
        window_end=end,
        result={
            "performance": {"composite_score": 0.8, "uncertainty": {"ci": [0.7, 0.85]}},
            "capability": {"composite_score": 0.6},
        },
    )
    performance, capability, *_ = trends([assessment])
    assert performance.title.startswith("Performance composite scores over")
    assert capability.title.startswith("Capability composite scores over")
    assert re.findall(r'class="tierlbl">([^<]+)<', str(performance.svg)) == [
        "Competent 0.40",
        "Proficient 0.60",
        "Expert 0.75",
        "Elite 0.90",
    ]
    assert re.findall(r'class="tierlbl">([^<]+)<', str(capability.svg)) == [
        "Functional 0.30",
        "Versatile 0.50",
        "Specialist 0.70",
        "Full-Stack 0.85",
    ]
