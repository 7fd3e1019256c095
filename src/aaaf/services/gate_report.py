"""What the CI/CD gate writes (docs/ci.md "What it writes"): the Markdown summary, the JUnit
XML report and, for an agent gate, a self-contained HTML page (pure: a
:class:`aaaf.services.gate.GateResult` in, text out).

Each says what broke, not only that something did: a check's status is *regressed*, *tier
drop*, *equivalent*, *improved*, *within interval* (it moved, but its interval contains 0:
noise, not a failure), *absent* or *ok*; an agent gate that paired its tasks lists the tasks
that flipped (accepted → not, and back), grouped by domain and task type, with McNemar's
exact test of the flip counts.

JUnit: one ``<testsuite>`` with one test case per check — the composite and each layer (eval
runs), each axis, each dimension and the accepted tasks (agent) — failed when that check
regressed or dropped a tier (a layer lost its gate), skipped when it is absent on a side; one
test case per flipped task (``aaaf.gate.task.<domain>``), failed when it was lost; and a last
test case, ``gate``, failed exactly when the gate fails (the exit code 1), so a CI's test view
shows what moved, which tasks broke and what decided.  Written with the standard library's
``xml.etree`` in the common Jenkins/GitLab/GitHub form
(``testsuites > testsuite > testcase > failure|skipped``).

Numbers are shown truncated to 2 decimals for levels (SCORING.md §0) and rounded for
differences and intervals, as ``aaaf compare`` shows them.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from jinja2 import Environment, select_autoescape

from aaaf.scoring.core import display

if TYPE_CHECKING:
    from aaaf.scoring.task_flips import FlipReport, TaskFlip
    from aaaf.services.gate import GateResult
    from aaaf.services.gate_checks import GateCheck


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
    """'regressed', 'tier drop' (or both), 'absent', 'improved', 'equivalent', 'within
    interval' or 'ok'."""
    if check.absent:
        return "absent"
    words = [w for w, on in (("regressed", check.regressed), ("tier drop", check.tier_drop)) if on]
    if words:
        return ", ".join(words)
    if check.improved:
        return "improved"
    if check.equivalent:
        return f"equivalent (±{check.margin:g})"
    if check.within_interval:
        return "within interval"
    return "ok"


def _level_text(check: GateCheck) -> str:
    return "" if check.level is None else f"{100 * check.level:.4g} %"


def _flip_text(flip: TaskFlip) -> str:
    return f"{flip.baseline or 'not completed'} → {flip.candidate or 'not completed'}"


def _flips_summary(flips: FlipReport) -> str:
    return (
        f"{len(flips.lost)} lost, {len(flips.gained)} gained of {flips.paired} tasks both ran "
        f"(accepted {flips.accepted_baseline} → {flips.accepted_candidate}); McNemar's exact test of the "
        f"flips: p = {flips.test.p_value:.2g}"
    )


def _flips_markdown(flips: FlipReport) -> list[str]:
    lines = ["", "### Tasks that flipped", "", _flips_summary(flips)]
    if not flips.flips:
        return lines
    lines += [
        "",
        "| domain | task type | tasks | lost | gained |",
        "| --- | --- | ---: | --- | --- |",
    ]
    for group in flips.groups:
        lines.append(
            f"| {group.domain or '—'} | {group.task_type or '—'} | {group.paired} "
            f"| {', '.join(f'`{t}`' for t in group.lost) or '—'} | {', '.join(f'`{t}`' for t in group.gained) or '—'} |"
        )
    return lines


def _check_message(check: GateCheck) -> str:
    text = (
        f"{check.name}: baseline {_level(check.baseline)}, candidate {_level(check.candidate)}, "
        f"difference {_diff(check.diff)} {_interval(check)}"
    )
    if check.level is not None and check.interval is not None:
        text += f" ({_level_text(check)})"
    if _tiers(check):
        text += f"; {_tiers(check)}"
    if check.equivalence is not None and check.margin is not None:
        text += f"; 90 % interval {_pair(check.equivalence)} against ±{check.margin:g}"
    return text + (f"; {check.note}" if check.note else "")


def _pair(interval: tuple[float, float]) -> str:
    return f"[{interval[0]:.2f}, {interval[1]:.2f}]"


def markdown_summary(result: GateResult) -> str:
    """The summary a CI shows (``$GITHUB_STEP_SUMMARY``, a merge request note)."""
    mark = "✅ passed" if result.passed else "❌ failed"
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
        "| check | baseline | candidate | difference | interval | level | tier / gate | status |",
        "| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |",
    ]
    for check in result.checks:
        status = check_status(check)
        shown = f"**{status}**" if check.failed else status
        lines.append(
            f"| {check.name} | {_level(check.baseline)} | {_level(check.candidate)} | {_diff(check.diff)} "
            f"| {_interval(check)} | {_level_text(check)} | {_tiers(check)} | {shown} |"
        )
    if result.flips is not None:
        lines += _flips_markdown(result.flips)
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
            "Dimension and task checks are one Bonferroni family (level 1 − α/k): a dimension that moved "
            "inside its interval is noise, not a failure.",
        ]
    if result.method:
        lines += ["", f"Intervals: {result.method}."]
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
    for flip in result.flips.flips if result.flips is not None else ():
        case = ET.Element(
            "testcase",
            {"classname": f"aaaf.gate.task.{flip.domain or 'none'}", "name": flip.key, "time": "0"},
        )
        text = f"{flip.key} ({flip.domain or '—'} / {flip.task_type or '—'}): {_flip_text(flip)}"
        if flip.lost:
            failure = ET.SubElement(case, "failure", {"message": f"lost: {_flip_text(flip)}", "type": "task"})
            failure.text = text
            failures += 1
        ET.SubElement(case, "system-out").text = text
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
        ("method", result.method or "—"),
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
<th>interval</th><th>level</th><th>tier</th><th>status</th></tr></thead><tbody>
{% for c in r.checks %}<tr><td>{{ c.name }}</td><td class="n">{{ level(c.baseline) }}</td>
<td class="n">{{ level(c.candidate) }}</td><td class="n">{{ diff(c.diff) }}</td>
<td class="n">{{ interval(c) }}</td><td class="n">{{ level_text(c) }}</td><td>{{ tiers(c) }}</td>
<td{% if c.failed %} class="bad"{% endif %} title="{{ c.note }}">{{ status(c) }}</td></tr>
{% endfor %}</tbody></table>
{% if r.flips is not none %}<h2>Tasks that flipped</h2>
<p>{{ flips_summary(r.flips) }}</p>
{% if r.flips.flips %}<table><thead><tr><th>domain</th><th>task type</th><th>tasks</th><th>lost</th>
<th>gained</th></tr></thead><tbody>
{% for g in r.flips.groups %}<tr><td>{{ g.domain or "—" }}</td><td>{{ g.task_type or "—" }}</td>
<td class="n">{{ g.paired }}</td><td class="bad">{{ g.lost|join(", ") or "—" }}</td>
<td>{{ g.gained|join(", ") or "—" }}</td></tr>
{% endfor %}</tbody></table>{% endif %}{% endif %}
<p>Intervals: {{ r.method or "—" }}. Dimension and task checks are one Bonferroni family (level
1 − α/k): a dimension that moved inside its interval is noise, not a failure. Scores are
truncated to 2 decimals.</p>
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
        level_text=_level_text,
        flips_summary=_flips_summary,
    )
