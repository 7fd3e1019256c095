"""What the CI/CD gate writes (issue 20 §1): the Markdown summary, the JUnit XML report and,
for an agent gate, a self-contained HTML page (pure: a :class:`aaaf.services.gate.GateResult`
in, text out).

JUnit: one ``<testsuite>`` with one test case per check — the composite and each layer (eval
runs), each axis and each dimension (agent) — failed when that check regressed or dropped a
tier (a layer lost its gate), skipped when it is absent on a side — and a last test case,
``gate``, failed exactly when the gate fails (the exit code 1), so a CI's test view shows both
what moved and what decided.  Written with the standard library's ``xml.etree`` in the
common Jenkins/GitLab/GitHub form (``testsuites > testsuite > testcase > failure|skipped``).

Numbers are shown truncated to 2 decimals for levels (SCORING.md §0) and rounded for
differences and intervals, as ``aaaf compare`` shows them.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from jinja2 import Environment, select_autoescape

from aaaf.scoring.core import display

if TYPE_CHECKING:
    from aaaf.services.gate import GateCheck, GateResult


def _level(value: float | None) -> str:
    return display(value)


def _diff(value: float | None) -> str:
    return "—" if value is None else f"{value:+.2f}"


def _interval(check: GateCheck) -> str:
    return "—" if check.interval is None else f"[{check.interval[0]:.2f}, {check.interval[1]:.2f}]"


def _tiers(check: GateCheck) -> str:
    if check.tier_baseline is None and check.tier_candidate is None:
        return ""
    return f"{check.tier_baseline or '—'} → {check.tier_candidate or '—'}"


def check_status(check: GateCheck) -> str:
    """'regressed', 'tier drop', 'regressed, tier drop', 'absent' or 'ok'."""
    if check.absent:
        return "absent"
    words = [w for w, on in (("regressed", check.regressed), ("tier drop", check.tier_drop)) if on]
    return ", ".join(words) or "ok"


def _check_message(check: GateCheck) -> str:
    text = (
        f"{check.name}: baseline {_level(check.baseline)}, candidate {_level(check.candidate)}, "
        f"difference {_diff(check.diff)} {_interval(check)}"
    )
    if _tiers(check):
        text += f"; {_tiers(check)}"
    return text + (f"; {check.note}" if check.note else "")


def markdown_summary(result: GateResult) -> str:
    """The summary a CI shows (``$GITHUB_STEP_SUMMARY``, a merge request note)."""
    mark = "✅ passed" if result.passed else "❌ failed"
    interval = "95% CI" if result.mode == "eval-runs" else "interval"
    lines = [
        f"## AAAF gate {mark}: {result.verdict.value} · {result.action}",
        "",
        f"Baseline `{result.baseline}` → candidate `{result.candidate}` ({result.mode})",
        "",
        f"**{result.headline}**",
        "",
        f"Reason: {result.reason}",
        "",
        f"Fails on: `{','.join(result.fail_on) or 'none'}` — "
        + ("; ".join(result.failing) if result.failing else "no condition holds"),
        "",
        f"| check | baseline | candidate | difference | {interval} | tier / gate | status |",
        "| --- | ---: | ---: | ---: | ---: | --- | --- |",
    ]
    for check in result.checks:
        status = check_status(check)
        shown = f"**{status}**" if check.failed else status
        lines.append(
            f"| {check.name} | {_level(check.baseline)} | {_level(check.candidate)} | {_diff(check.diff)} "
            f"| {_interval(check)} | {_tiers(check)} | {shown} |"
        )
    baseline_type = result.extra.get("baseline_type")
    if baseline_type not in (None, "stress_test_only"):
        lines += [
            "",
            f"Note: the baseline is a `{baseline_type}` assessment, the candidate a `stress_test_only` one "
            "(stress evidence alone); name a stress-test baseline with `--baseline-assessment` to compare like with like.",
        ]
    if result.mode == "eval-runs":
        lines += ["", "Layer intervals are Bonferroni-level (1 − α/k), as the verdict rules read them."]
    else:
        lines += [
            "",
            "Axis intervals: the composite difference ± 1.96·√(se_B² + se_C²), each se read from the "
            "assessment's 95 % bootstrap interval (docs/uncertainty.md).",
        ]
    return "\n".join(lines) + "\n"


def junit_xml(result: GateResult) -> str:
    """The JUnit XML report: one test case per check, plus ``gate``."""
    cases: list[ET.Element] = []
    failures = skipped = 0
    for check in result.checks:
        case = ET.Element(
            "testcase", {"classname": f"aaaf.gate.{check.group}", "name": check.name, "time": "0"}
        )
        if check.absent:
            ET.SubElement(case, "skipped", {"message": check.note or "absent"})
            skipped += 1
        elif check.failed:
            failure = ET.SubElement(case, "failure", {"message": check_status(check), "type": "regression"})
            failure.text = _check_message(check)
            failures += 1
        ET.SubElement(case, "system-out").text = _check_message(check)
        cases.append(case)
    gate = ET.Element("testcase", {"classname": "aaaf.gate", "name": "gate", "time": "0"})
    if not result.passed:
        failure = ET.SubElement(gate, "failure", {"message": "; ".join(result.failing), "type": "gate"})
        failure.text = f"{result.headline}\n{result.reason}"
        failures += 1
    ET.SubElement(gate, "system-out").text = f"{result.headline}\n{result.reason}"
    cases.append(gate)
    counts = {"tests": str(len(cases)), "failures": str(failures), "errors": "0", "skipped": str(skipped)}
    root = ET.Element("testsuites", {"name": "aaaf gate", **counts, "time": "0"})
    suite = ET.SubElement(
        root,
        "testsuite",
        {"name": f"aaaf gate {result.baseline} -> {result.candidate}", **counts, "time": "0"},
    )
    properties = ET.SubElement(suite, "properties")
    for name, value in (
        ("mode", result.mode),
        ("verdict", result.verdict.value),
        ("fail_on", ",".join(result.fail_on) or "none"),
        ("passed", str(result.passed).lower()),
    ):
        ET.SubElement(properties, "property", {"name": name, "value": value})
    suite.extend(cases)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>AAAF gate: {{ r.verdict.value }}</title>
<style>
body{font-family:system-ui,sans-serif;margin:2rem;max-width:64rem;color:#222}
table{border-collapse:collapse;margin-top:1rem}td,th{padding:.3rem .7rem;border-bottom:1px solid #ddd}
td.n{text-align:right;font-variant-numeric:tabular-nums}.bad{color:#b00020;font-weight:600}
.pill{display:inline-block;padding:.2rem .6rem;border-radius:1rem;color:#fff;background:{{ colour }}}
</style></head><body>
<h1>AAAF gate <span class="pill">{{ "passed" if r.passed else "failed" }}</span></h1>
<p><strong>{{ r.headline }}</strong></p>
<p>Baseline assessment <code>{{ r.baseline }}</code> → candidate <code>{{ r.candidate }}</code>
{% if r.extra.get("stress_run") %} (stress run <code>{{ r.extra["stress_run"] }}</code>){% endif %}</p>
<p>Reason: {{ r.reason }}</p>
<p>Fails on <code>{{ r.fail_on|join(",") or "none" }}</code>:
{{ r.failing|join("; ") if r.failing else "no condition holds" }}</p>
<table><thead><tr><th>check</th><th>baseline</th><th>candidate</th><th>difference</th>
<th>interval</th><th>tier</th><th>status</th></tr></thead><tbody>
{% for c in r.checks %}<tr><td>{{ c.name }}</td><td class="n">{{ level(c.baseline) }}</td>
<td class="n">{{ level(c.candidate) }}</td><td class="n">{{ diff(c.diff) }}</td>
<td class="n">{{ interval(c) }}</td><td>{{ tiers(c) }}</td>
<td{% if c.failed %} class="bad"{% endif %}>{{ status(c) }}</td></tr>
{% endfor %}</tbody></table>
<p>Axis intervals: the composite difference ± 1.96·√(se_B² + se_C²), each se read from the
assessment's 95 % bootstrap interval (docs/uncertainty.md). Scores are truncated to 2 decimals.</p>
</body></html>
"""


def agent_html(result: GateResult) -> str:
    """A self-contained HTML page of an agent gate (no script, no external asset)."""
    environment = Environment(autoescape=select_autoescape(default=True, default_for_string=True))
    template = environment.from_string(_HTML)
    return template.render(
        r=result,
        colour="#2e7d32" if result.passed else "#b00020",
        level=_level,
        diff=_diff,
        interval=_interval,
        tiers=_tiers,
        status=check_status,
    )
