"""A self-contained HTML report of an A/B comparison (issue 6; document 002 §4).

One file, nothing fetched: CSS inline, the plot of the composite's and each layer's
difference with its confidence intervals drawn as inline SVG
(:mod:`aaaf.reports.forest_plot`).  It shows the same verdict, headline and
reason as the CLI line (both worded by :mod:`aaaf.reports.verdict_text`), the
methodology badges, and how many layers each composite was built from (document 002 §3 ③).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment, select_autoescape
from markupsafe import Markup

from aaaf.reports import verdict_text
from aaaf.reports.forest_plot import Row, forest_plot_svg
from aaaf.scoring.core import display
from aaaf.scoring.layered import LAYERS
from aaaf.scoring.treatments import MultiComparison
from aaaf.scoring.verdict import Comparison, Verdict, fmt

VERDICT_COLOURS: dict[Verdict, str] = {
    Verdict.PROGRESS: "#1b873f",
    Verdict.CAUTIOUS: "#b7791f",
    Verdict.REGRESS: "#c53030",
    Verdict.NOISE: "#4a5568",
    Verdict.UNDERPOWERED: "#6b46c1",
    Verdict.SOLO: "#2b6cb0",
}


def difference_plot_svg(comparison: Comparison, *, salt: str = "aaaf-compare") -> str:
    """Forest plot: mean difference (T − C) with its CIs per row, 0 marked (inline SVG).

    ``salt`` is kept for callers that number several plots on one page; the SVG has no ids
    that could collide but its title's."""
    rows: list[Row] = []
    composite = comparison.composite
    colour = VERDICT_COLOURS[comparison.verdict]
    if composite.diff is not None:
        label = "composite" + (" (z)" if composite.scale == "z" else "")
        rows.append(_row(label, composite.diff, composite.ci, None, colour))
    for name in LAYERS:
        layer = comparison.layers[name]
        if layer.present and layer.diff is not None:
            rows.append(_row(name, layer.diff, layer.ci, layer.ci_bonferroni, colour))
    return (
        forest_plot_svg(
            rows,
            title=f"{comparison.config.confidence * 100:g} % CI (dark) and Bonferroni CI (grey)",
            x_caption="treatment − control (points)"
            if composite.scale == "points"
            else "treatment − control",
        )
        .replace('id="forest-', f'id="{salt}-')
        .replace('"forest-title forest-desc"', f'"{salt}-title {salt}-desc"')
    )


def _row(label: str, diff: float | None, ci: Any, wide: Any, colour: str) -> Row:
    return Row(
        label=label,
        diff=diff,
        low=None if ci is None else ci.low,
        high=None if ci is None else ci.high,
        wide_low=None if wide is None else wide.low,
        wide_high=None if wide is None else wide.high,
        colour=colour,
    )


_HEAD = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{ c.verdict.value }} · {{ c.control.run_id }} → {{ c.treatment.run_id }} — AAAF comparison</title>
<style>
body { overflow-wrap: break-word; font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 2rem auto; max-width: 960px;
       color: #1a202c; line-height: 1.45; padding: 0 1rem; }
h1 { font-size: 1.4rem; margin-bottom: .2rem; } h2 { font-size: 1.1rem; margin-top: 2rem; }
.pill { display: inline-block; padding: .35rem .9rem; border-radius: 999px; color: #fff; font-weight: 700;
        letter-spacing: .03em; background: {{ colour }}; }
.headline { font-family: ui-monospace, Menlo, Consolas, monospace; margin: .8rem 0 .3rem; }
.reason { color: #4a5568; }
table { border-collapse: collapse; width: 100%; font-size: .92rem; }
th, td { border-bottom: 1px solid #e2e8f0; padding: .35rem .5rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.pass { color: #1b873f; font-weight: 600; } .fail { color: #c53030; font-weight: 600; } .unknown { color: #4a5568; }
.badges { display: flex; flex-wrap: wrap; gap: .6rem; }
.badge { border: 1px solid #e2e8f0; border-radius: .5rem; padding: .5rem .8rem; min-width: 200px; }
.badge .mark { font-weight: 700; } .badge .detail { color: #4a5568; font-size: .85rem; }
.plot svg { width: 100%; height: auto; }
.muted { color: #4a5568; font-size: .88rem; }
.wide { overflow-x: auto; }  /* a wide table scrolls in its own box on a phone, not the page */
code { background: #edf2f7; padding: 0 .25rem; border-radius: .2rem; }
</style>
</head>
<body>
<main>
"""

_BODY = """<h1>{{ c.control.run_id }} → {{ c.treatment.run_id }}</h1>
<div class="muted">control variant <code>{{ c.control.variant }}</code>, treatment variant
<code>{{ c.treatment.variant }}</code> · {{ c.n_paired }} paired samples</div>
<p><span class="pill"{{ pill_style }}>{{ c.verdict.value }} · {{ c.action }}</span></p>
<div class="headline">{{ headline(c) }}</div>
<div class="reason">Rule {{ c.rule }}: {{ reason(c.reason) }}</div>

<h2>Differences with confidence intervals</h2>
<div class="plot">{{ plot }}</div>

<h2>Layers</h2>
<div class="wide" tabindex="0"><table>
<thead><tr><th>layer</th><th>control</th><th>treatment</th><th>diff</th><th>{{ level }} % CI</th>
<th>Bonferroni CI (k={{ k }})</th><th>gate C</th><th>gate T</th></tr></thead>
<tbody>
<tr><td><strong>composite</strong>{% if c.composite.scale == 'z' %} (z){% endif %}</td>
<td>{{ num(c.composite.control) }}</td><td>{{ num(c.composite.treatment) }}</td>
<td>{{ diff(c.composite.diff) }}</td><td>{{ ci(c.composite.ci) }}</td><td></td><td></td><td></td></tr>
{% for layer in layers %}
<tr><td>{{ layer.name }}{% if not layer.present %} <span class="muted">(absent: {{ absent(layer) }})</span>{% endif %}</td>
<td>{{ num(layer.control) }}</td><td>{{ num(layer.treatment) }}</td><td>{{ diff(layer.diff) }}</td>
<td>{{ ci(layer.ci) }}</td><td>{{ ci(layer.ci_bonferroni) }}</td>
<td>{{ gate(layer.gate_control) }}</td><td>{{ gate(layer.gate_treatment) }}</td></tr>
{% endfor %}
</tbody>
</table></div>
<p class="muted">Gate: a layer passes when its mean over paired samples is ≥ {{ gate_threshold }}.
Minimum detectable effect of the composite: {{ stat(c.composite.mde) }} (sd of differences {{ stat(c.composite.sd_diff) }}).</p>

<h2>Composites and their layers</h2>
<div class="wide" tabindex="0"><table>
<thead><tr><th>run</th><th>composite</th><th>samples by number of layers used</th></tr></thead>
<tbody>
<tr><td>control <code>{{ c.control.run_id }}</code></td><td>{{ num(c.composite.control) }}</td><td>{{ used(c.composite.layers_used_control) }}</td></tr>
<tr><td>treatment <code>{{ c.treatment.run_id }}</code></td><td>{{ num(c.composite.treatment) }}</td><td>{{ used(c.composite.layers_used_treatment) }}</td></tr>
</tbody>
</table></div>

<h2>Methodology badges</h2>
<div class="badges">
{% for badge in c.badges.values() %}
<div class="badge"><div class="mark {{ 'unknown' if badge.value is none else ('pass' if badge.value else 'fail') }}">
{{ '?' if badge.value is none else ('✓' if badge.value else '✗') }} {{ badge.label }}</div>
<div class="detail">{{ detail(badge.facts) }}</div></div>
{% endfor %}
</div>

<h2>Judges</h2>
<div class="wide" tabindex="0"><table>
<thead><tr><th>run</th><th>judges</th><th>mean pairwise Pearson r</th><th>Krippendorff's α (interval)</th><th>disagree</th></tr></thead>
<tbody>
{% for run, agreement in c.judges.items() %}
<tr><td>{{ run }}</td><td>{{ agreement.judges | join(', ') or '—' }}</td><td>{{ stat(agreement.mean_pearson) }}</td>
<td>{{ stat(agreement.krippendorff_alpha) }}</td><td>{{ 'yes' if agreement.disagree else 'no' }}</td></tr>
{% endfor %}
</tbody>
</table></div>
{% if c.hotelling %}
<h2>Hotelling T²</h2>
<p>T² = {{ stat(c.hotelling.statistic) }}, F = {{ stat(c.hotelling.f_statistic) }} on ({{ c.hotelling.df1 }}, {{ c.hotelling.df2 }}) df,
p = {{ p(c.hotelling.p_value) }}{% if c.hotelling.reason %} — {{ c.hotelling.reason }}{% endif %}.</p>
{% endif %}

<h2>Samples left out</h2>
<p>{{ c.control_only | length }} only in control{% if c.control_only %} ({{ c.control_only | join(', ') }}){% endif %};
{{ c.treatment_only | length }} only in treatment{% if c.treatment_only %} ({{ c.treatment_only | join(', ') }}){% endif %};
{{ c.unscored | length }} without a score in a run{% if c.unscored %} ({{ c.unscored | join(', ') }}){% endif %}{% if c.errored %};
{{ c.errored | length }} errored ({{ c.errored | join(', ') }}){% endif %}.</p>{% for run in c.incomplete %}
<p class="reason">Incomplete run: {{ incomplete(run) }}.</p>{% endfor %}

<h2>Method</h2>
<p class="muted">Paired {{ 'BCa' if method.ci_method == 'bca' else 'percentile' }} bootstrap, {{ method.resamples }} resamples, seed {{ method.seed }}, one index matrix for
the composite and every layer; {{ level }} % intervals, layer intervals also at the Bonferroni level for rule 3.
Significance: {{ method.significance_test }}. Composite: {{ method.formula }}{% if method.weights %}, weights
{{ method.weights }}{% endif %}{% if method.standardize %}, layers z-scored{% endif %}. Rules of docs/scoring.md §5.</p>
"""

_TEMPLATE = _HEAD + _BODY + "</main>\n</body>\n</html>\n"


def _number(value: float | None) -> str:
    """A level: truncated like every displayed score (SCORING.md §0); z-scores (negative) rounded."""
    return display(value) if value is not None and value >= 0 else fmt(value)


def _used(histogram: dict[str, int]) -> str:
    if not histogram:
        return "—"
    return ", ".join(
        f"{count} × {layers} layer{'s' if layers != '1' else ''}" for layers, count in histogram.items()
    )


def _environment() -> Environment:
    return Environment(autoescape=select_autoescape(default=True, default_for_string=True))


def render_comparison_html(comparison: Comparison) -> str:
    """The report as one HTML string (deterministic for a given comparison)."""
    return _environment().from_string(_TEMPLATE).render(**_context(comparison))


def _context(comparison: Comparison, *, pill_style: str = "", salt: str = "aaaf-compare") -> dict[str, Any]:
    return dict(
        c=comparison,
        headline=verdict_text.comparison_headline,
        reason=verdict_text.reason_text,
        detail=verdict_text.badge_detail,
        incomplete=verdict_text.incomplete_text,
        absent=verdict_text.layer_absent_text,
        colour=VERDICT_COLOURS[comparison.verdict],
        pill_style=Markup(pill_style),
        plot=Markup(difference_plot_svg(comparison, salt=salt)),
        layers=[comparison.layers[name] for name in LAYERS],
        k=len(comparison.present_layers),
        level=f"{comparison.config.confidence * 100:g}",
        gate_threshold=fmt(comparison.config.gate_threshold),
        method=comparison.config.method_dict(),
        num=_number,
        stat=fmt,
        diff=lambda value: fmt(value, signed=True),
        ci=lambda interval: interval.text() if interval is not None else "—",
        gate=lambda value: Markup(
            '<span class="unknown">—</span>'
            if value is None
            else ('<span class="pass">pass</span>' if value else '<span class="fail">fail</span>')
        ),
        used=lambda histogram: _used(dict(histogram)),
        p=lambda value: "—" if value is None else f"{value:.3g}",
    )


def write_comparison_html(comparison: Comparison, path: str | Path) -> Path:
    """Write the report; parent directories are created."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(render_comparison_html(comparison), encoding="utf-8")
    return target


# ---------------------------------------------------------------- several treatments


def overview_plot_svg(result: MultiComparison) -> str:
    """One row per treatment: its composite difference with the Bonferroni-across-treatments CI."""
    rows = [
        _row(
            f"{c.treatment.run_id} ({c.verdict.value})",
            c.composite.diff,
            c.composite.ci,
            None,
            VERDICT_COLOURS[c.verdict],
        )
        for c in result.comparisons
    ]
    level = result.comparisons[0].config.confidence * 100.0 if result.comparisons else 95.0
    return forest_plot_svg(
        rows,
        title=f"{level:.4g} % CI per treatment (Bonferroni across {len(rows)} treatments)",
        x_caption="composite: treatment − control",
    ).replace("forest-", "aaaf-compare-overview-")


_SEVERAL = """<h1>{{ m.control.run_id }} → {{ m.comparisons | length }} treatments</h1>
<div class="muted">control variant <code>{{ m.control.variant }}</code> · each treatment compared with the control,
every confidence level adjusted for {{ m.comparisons | length }} comparisons (Bonferroni across treatments)</div>
<p><span class="pill">{{ m.verdict.value }} · {{ m.action }}</span></p>
<div class="headline">{{ multi_headline(m) }}</div>

<h2>Overview</h2>
<div class="plot">{{ overview }}</div>
<div class="wide" tabindex="0"><table>
<thead><tr><th>treatment</th><th>verdict</th><th>paired</th><th>composite diff</th><th>CI</th><th>reason</th></tr></thead>
<tbody>
{% for c in m.comparisons %}
<tr><td><a href="#t{{ loop.index }}">{{ c.treatment.run_id }}</a></td><td>{{ c.verdict.value }}</td><td>{{ c.n_paired }}</td>
<td>{{ diff(c.composite.diff) }}</td><td>{{ ci(c.composite.ci) }}</td><td style="text-align: left">Rule {{ c.rule }}: {{ reason(c.reason) }}</td></tr>
{% endfor %}
</tbody>
</table></div>
{% for section in sections %}
<hr>
<section id="t{{ loop.index }}">
{{ section }}</section>
{% endfor %}
"""


def render_several_html(result: MultiComparison) -> str:
    """One page: the roll-up, an overview plot and table, then one section per treatment."""
    environment = _environment()
    body = environment.from_string(_BODY)
    sections = [
        Markup(
            body.render(
                **_context(
                    comparison,
                    pill_style=f' style="background: {VERDICT_COLOURS[comparison.verdict]}"',
                    salt=f"aaaf-compare-{number}",
                )
            )
        )
        for number, comparison in enumerate(result.comparisons, start=1)
    ]
    page = environment.from_string(
        _HEAD.replace(
            "{{ c.verdict.value }} · {{ c.control.run_id }} → {{ c.treatment.run_id }}",
            "{{ m.verdict.value }} · {{ m.control.run_id }} → {{ m.comparisons | length }} treatments",
        )
        + _SEVERAL
        + "</main>\n</body>\n</html>\n"
    )
    return page.render(
        m=result,
        multi_headline=verdict_text.multi_headline,
        reason=verdict_text.reason_text,
        colour=VERDICT_COLOURS[result.verdict],
        overview=Markup(overview_plot_svg(result)),
        sections=sections,
        diff=lambda value: fmt(value, signed=True),
        ci=lambda interval: interval.text() if interval is not None else "—",
    )


def write_several_html(result: MultiComparison, path: str | Path) -> Path:
    """Write the several-treatments report; parent directories are created."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(render_several_html(result), encoding="utf-8")
    return target
