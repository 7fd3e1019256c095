"""docs/scoring.md must agree with the scoring contract (SCORING.md) on every number and rule.

Each check extracts a value from SCORING.md (or, for the trust weights and tier colours, from the
source documents 000 and 004) with a pattern on the contract's own sentence, then asserts that
docs/scoring.md states that value in its own words.  A second set of checks ties the same docs
statements to the code's built-in defaults, so the three — contract, docs, code — cannot drift apart.

The specification is looked for in ``$AAAF_SPEC_DIR``, the repository's ``spec/`` and
``docs/spec/``, then ``../shared/spec`` beside the clone (where CI puts it) and ``/work/shared/spec``; without it only the docs-versus-code checks run.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from aaaf.scoring import defaults, dimensions

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs" / "scoring.md"


def _spec_dir() -> Path | None:
    candidates = [
        os.environ.get("AAAF_SPEC_DIR"),
        REPO / "spec",
        REPO / "docs" / "spec",
        REPO.parent / "shared" / "spec",
        "/work/shared/spec",
    ]
    for candidate in candidates:
        if candidate and (Path(candidate) / "SCORING.md").is_file():
            return Path(candidate)
    return None


SPEC_DIR = _spec_dir()
needs_spec = pytest.mark.skipif(
    SPEC_DIR is None, reason="the specification (SCORING.md) is not on this machine"
)


def squash(text: str) -> str:
    """Whitespace runs → one space, so line wrapping and code indentation do not matter."""
    return re.sub(r"\s+", " ", text)


@pytest.fixture(scope="module")
def docs() -> str:
    return squash(DOCS.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def contract() -> str:
    assert SPEC_DIR is not None
    return squash((SPEC_DIR / "SCORING.md").read_text(encoding="utf-8"))


def _document(prefix: str) -> str:
    assert SPEC_DIR is not None
    (path,) = sorted(SPEC_DIR.glob(f"{prefix}_*.txt"))
    return path.read_text(encoding="utf-8")


def grab(pattern: str, text: str) -> re.Match[str]:
    match = re.search(pattern, text)
    assert match is not None, f"the contract no longer says {pattern!r}"
    return match


def numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"\d+(?:\.\d+)?", text)]


def fmt(value: float) -> str:
    """0.2 → '0.20' for weights and bounds written with two decimals in the docs."""
    return f"{value:.2f}"


def row_of(docs_text: str, first_cell: str) -> str:
    match = re.search(r"\| " + re.escape(first_cell) + r" \|[^\n]*?(?= \| (?:`|[A-Z])|$)", docs_text)
    assert match, first_cell
    return match.group(0)


# ------------------------------------------------------------------------- §0 shared rules


@needs_spec
def test_shared_rules(docs: str, contract: str) -> None:
    tolerance = grab(r"must sum to 1\.0 ± (\d+(?:\.\d+)?)", contract).group(1)
    assert f"sum to **1.0 ± {tolerance}**" in docs
    assert "`WEIGHT_SUM_INVALID`" in contract and "**`WEIGHT_SUM_INVALID`** (HTTP 422, CLI exit 2)" in docs
    example = grab(r"\((\d\.\d+) shows as (\d\.\d+), (\w+)\)", contract)
    assert f"**{example.group(1)} shows as {example.group(2)}, {example.group(3)}**" in docs
    inclusive = grab(r"lower bound inclusive \((\d\.\d+) exactly is (\w+)\)", contract)
    assert f"**lower bound inclusive: {inclusive.group(1)} exactly is {inclusive.group(2)}**" in docs
    assert grab(r"explicit seed, default (\d+)", contract).group(1) == "0"
    assert "seed, **default 0**" in docs
    for phrase in ("2 decimals for AAAF", "integers for the 0-1000 trust scale", "truncated, never rounded"):
        assert phrase in docs
    assert "`covered` / `total`" in contract and "**`covered` / `total`**" in docs


# ------------------------------------------------------------------------- §1 evidence


@needs_spec
def test_evidence_rules(docs: str, contract: str) -> None:
    minutes = grab(r"more than (\d+) minutes in the future", contract).group(1)
    assert f"more than **{minutes} minutes** in the future" in docs
    assert "outside 1-5" in contract and "`complexity_level` outside **1-5**" in docs
    assert "outside 0-3" in contract and "`autonomy_level` outside **0-3**" in docs
    for rule in (
        "a task with a `task_assigned` takes domain, complexity and autonomy only from it",
        "a task with any `tool_invoked` event ignores its `tools_used`",
        "a task with any `delegation_decision` event ignores its embedded `delegation_decisions`",
    ):
        assert rule in contract and rule in docs
    assert "the one with the latest timestamp counts, whatever its status" in contract
    assert "**the one with the latest timestamp counts, whatever its status**" in docs
    for event_type in ("eval_result", "workflow_run", "memory_operation"):
        assert f"| `{event_type}` |" in docs
    # the AAAF extension
    assert "a **`search`** for a task passes that task's **`memory_search_performed`**" in docs
    assert "a **`write`** for a task passes that task's **`memory_written`**" in docs


# ------------------------------------------------------------------------- §2 AAAF


@needs_spec
def test_window_recency_and_minimums(docs: str, contract: str) -> None:
    days = grab(r"Window: `\[window_end − (\d+) days, window_end\]`", contract).group(1)
    assert f"`[window_end − {days} days, window_end]`" in docs
    recency = grab(r"age (0-7 → [0-9.]+, 8-14 → [0-9.]+, 15-30 → [0-9.]+)", contract).group(1)
    for low, high, weight in re.findall(r"(\d+)-(\d+) → (\d+(?:\.\d+)?)", recency):
        assert f"| {low}-{high} | {weight} |" in docs
    minimums = grab(r"Minimum: (\d+) window tasks for Performance, (\d+) for Capability", contract)
    assert (
        f"**Minimum: {minimums.group(1)} window tasks for Performance, {minimums.group(2)} for Capability**"
        in docs
    )
    assert "below both minimums, `axis` is `performance`" in contract
    assert "Below both minimums, `axis` is `performance`" in docs
    assert "A `single_dimension` assessment needs only its own axis's minimum" in contract
    assert "needs **only its own axis's minimum**" in docs
    assert (
        "**`composite_score` and `tier` are `null`**" in docs and "one dimension is not a composite" in docs
    )


@needs_spec
def test_performance_formulas(docs: str, contract: str) -> None:
    severity = grab(r"critical (\d+), major (\d+), minor (\d+(?:\.\d+)?)", contract)
    assert f"**critical {severity.group(1)}, major {severity.group(2)}, minor {severity.group(3)}**" in docs
    assert "an error given without severity counts as major" in contract and "counts as **major**" in docs
    mix = grab(r"`accuracy = (\d+(?:\.\d+)?) · from_revisions \+ (\d+(?:\.\d+)?) · from_errors`", contract)
    assert f"**`accuracy = {mix.group(1)} · from_revisions + {mix.group(2)} · from_errors`**" in docs
    baseline = grab(r"`baseline_errors_per_task = (\d+(?:\.\d+)?)`", contract).group(1)
    assert f"`baseline_errors_per_task = {baseline}`" in docs
    assert "`speed_i = clamp(2 − n_i, 0, 1)`" in contract and "speed_i = clamp(2 − n_i, 0, 1)" in docs
    baselines = grab(r"Baselines \*\(config\)\*: (L1 [^.]*)\.", contract).group(1)
    for level, seconds in re.findall(r"L(\d) ([\d ]+?) s", baselines):
        assert f"| L{level} |" in docs
        row = row_of(docs, f"L{level}")
        assert f"| {seconds} s" in row, (level, seconds, row)
    consistency = grab(
        r"`consistency = 1 − min\(1, (\d+(?:\.\d+)?) cv_accuracy \+ (\d+(?:\.\d+)?) cv_completion\)`",
        contract,
    )
    assert (
        f"**`consistency = 1 − min(1, {consistency.group(1)} cv_accuracy + {consistency.group(2)} cv_completion)`**"
        in docs
    )
    group = grab(r"keep groups with ≥ (\d+) tasks", contract).group(1)
    assert f"keep groups with **≥ {group} tasks**" in docs
    assert "unweighted — recency weights do not enter a CV" in contract
    assert "**unweighted** — recency weights do not enter a CV" in docs
    for item in defaults.DEFAULT_CHECKLIST:
        assert f"`{item}`" in contract and f"* `{item}`" in docs


def _weights(sentence: str) -> list[float]:
    return [float(x) for x in sentence.split("/")]


@needs_spec
def test_composite_weights(docs: str, contract: str) -> None:
    performance = _weights(grab(r"weighted mean with weights ([0-9. /]+?) \*\(config\)\*", contract).group(1))
    capability = _weights(
        grab(r"\*\*Capability composite\*\* weights ([0-9. /]+?) \*\(config\)\*", contract).group(1)
    )
    for names, weights in (
        (defaults.PERFORMANCE_DIMENSIONS, performance),
        (defaults.CAPABILITY_DIMENSIONS, capability),
    ):
        assert len(names) == len(weights)
        for name, weight in zip(names, weights, strict=True):
            assert f"| `{name}` | {fmt(weight)} |" in docs, name
    assert " / ".join(fmt(w) for w in performance) in docs
    assert " / ".join(fmt(w) for w in capability) in docs


def _tiers(sentence: str) -> list[tuple[str, float | None, float | None]]:
    """'Novice < 0.40 ≤ Competent < 0.60 ≤ … ≤ Elite' → [(name, lower, upper)]."""
    parts = [part.strip() for part in sentence.split("≤")]
    out: list[tuple[str, float | None, float | None]] = []
    lower: float | None = None
    for part in parts:
        if "<" in part:
            name, bound = (p.strip() for p in part.split("<"))
            out.append((name, lower, float(bound)))
            lower = float(bound)
        else:
            out.append((part, lower, None))
    return out


COLOUR_ROW = re.compile(r"\| ([A-Za-z-]+) \| (#[0-9A-F]{6}) \| (\w+) \|")


@needs_spec
def test_tier_tables_with_colours(docs: str, contract: str) -> None:
    colours = {name: (hexcode, word.lower()) for name, hexcode, word in COLOUR_ROW.findall(_document("004"))}
    for axis_sentence in (
        grab(r"Tiers: (Novice < .*?≤ Elite)", contract).group(1),
        grab(r"Tiers: (Narrow < .*?≤ Full-Stack)", contract).group(1),
    ):
        tiers = _tiers(axis_sentence)
        assert len(tiers) == 5
        for name, lower, upper in tiers:
            if lower is None:
                text = f"| {name} | score < {fmt(upper)} |"  # type: ignore[arg-type]
            elif upper is None:
                text = f"| {name} | {fmt(lower)} ≤ score |"
            else:
                text = f"| {name} | {fmt(lower)} ≤ score < {fmt(upper)} |"
            assert text in docs, text
            hexcode, word = colours[name]
            assert f"{text} {hexcode} ({word}) |" in docs, name


@needs_spec
def test_capability_formulas(docs: str, contract: str) -> None:
    breadth = grab(
        r"a domain qualifies with ≥ (\d+) completed tasks in it and `perf ≥ (\d+(?:\.\d+)?)`", contract
    )
    assert f"**≥ {breadth.group(1)} completed tasks** in it and **perf ≥ {breadth.group(2)}**" in docs
    ceiling = grab(r"≥ (\d+) completed tasks at L and `perf ≥ (\d+(?:\.\d+)?)` at L", contract)
    assert f"**≥ {ceiling.group(1)} completed tasks at L** and **perf ≥ {ceiling.group(2)} at L**" in docs
    autonomy = grab(r"≥ (\d+) completed tasks at A and `perf ≥ (\d+(?:\.\d+)?)` at A", contract)
    assert f"**≥ {autonomy.group(1)} completed tasks at A** and **perf ≥ {autonomy.group(2)} at A**" in docs
    assert "`L / 5`" not in docs and "complexity_ceiling = L / 5" in docs and "autonomy_level = A / 3" in docs
    invocations = grab(r"per tool with ≥ (\d+) invocations", contract).group(1)
    assert f"For each tool with **≥ {invocations} invocations**" in docs
    tool = grab(
        r"`tool = (\d+(?:\.\d+)?) correct \+ (\d+(?:\.\d+)?) recovery \+ (\d+(?:\.\d+)?) \(1 − unnecessary\)`",
        contract,
    )
    assert (
        f"tool = {tool.group(1)} correct + {tool.group(2)} recovery + {tool.group(3)} (1 − unnecessary)"
        in docs
    )
    assert "(1.0 when there were no failures)" in contract and "(1.0 when there were no failures)" in docs
    learning = grab(
        r"per domain with ≥ (\d+) completed tasks in the window: take its (\d+) most recently", contract
    )
    assert (
        f"**≥ {learning.group(1)} completed tasks** in the window: take its **{learning.group(2)} most recently"
        in docs
    )
    blocks = grab(r"perf\(last (\d+) of them\) − perf\(first (\d+) of them\)", contract)
    assert (
        f"improvement = perf(last {blocks.group(1)} of them) − perf(first {blocks.group(2)} of them)" in docs
    )
    full = grab(r"`learning = clamp\(improvement / (\d+(?:\.\d+)?), 0, 1\)`", contract).group(1)
    assert f"learning = clamp(improvement / {full}, 0, 1)" in docs
    delegation = grab(
        r"\*\*delegation_capability\*\* = (\d+(?:\.\d+)?) judgment \+ (\d+(?:\.\d+)?) selection \+ (\d+(?:\.\d+)?) management",
        contract,
    )
    assert (
        f"delegation_capability = {delegation.group(1)} judgment + {delegation.group(2)} selection + "
        f"{delegation.group(3)} management" in docs
    )
    management = grab(
        r"\(success 1, partial 0\.5, failure 0\) × \(0\.5 if `revision_needed` else 1\)", contract
    )
    assert management.group(0) in docs
    orchestration = grab(
        r"of (\d+(?:\.\d+)?) workflow_design \+ (\d+(?:\.\d+)?) communication_clarity \+ (\d+(?:\.\d+)?) failure_handling \+ "
        r"(\d+(?:\.\d+)?) synthesis_quality",
        contract,
    )
    assert (
        f"{orchestration.group(1)} workflow_design + {orchestration.group(2)} communication_clarity + "
        f"{orchestration.group(3)} failure_handling + {orchestration.group(4)} synthesis_quality" in docs
    )
    taxonomy = grab(r"domain_breadth\*\* = qualified / \|taxonomy\|", contract)
    assert taxonomy and "domain_breadth = qualified / |taxonomy|" in docs
    assert ", ".join(defaults.DEFAULT_TAXONOMY) in docs


@needs_spec
def test_calibration_validity_reassessment_appeals(docs: str, contract: str) -> None:
    threshold = grab(r"moved by more than (\d+(?:\.\d+)?) \*\(config\)\*", contract).group(1)
    assert f"moved by **more than {threshold}**" in docs
    validity = grab(r"Badge validity (\d+) days", contract).group(1)
    assert f"valid **{validity} days**" in docs
    expiring = grab(r"`badge\.expiring` fires (\d+) days before", contract).group(1)
    assert f"`badge.expiring` fires **{expiring} days** before" in docs
    reassess = grab(r"Re-assessment trigger: (\d+) new completed tasks", contract).group(1)
    assert f"**{reassess} new completed tasks**" in docs
    appeals = grab(r"accepted only within (\d+) days", contract).group(1)
    assert f"accepted only **within {appeals} days**" in docs
    assert "unchallenged dimension scores are byte-identical" in contract and "byte-identical" in docs
    for state in ("not_required", "pending_review", "approved", "rejected"):
        assert f"`{state}`" in docs


# ------------------------------------------------------------------------- §3 trust


@needs_spec
def test_trust_weights_from_document_000(docs: str) -> None:
    table = re.findall(r"^\| (\w+) \| (\d+)% \|", _document("000"), flags=re.MULTILINE)
    assert len(table) == 16
    for name, percent in table:
        assert f"| `{name}` | {int(percent) / 100:.2f} |" in docs, name


@needs_spec
def test_trust_rules(docs: str, contract: str) -> None:
    decay = grab(r"counts as `(max\(0, score − max\(0, d − (\d+)\) / (\d+)\))`", contract)
    assert decay.group(1) in docs
    assert f"**1 point per week after a {decay.group(2)}-day grace period**" in docs
    trim = grab(r"⌊(\d+(?:\.\d+)?) n⌋ dropped from each end", contract).group(1)
    assert f"**⌊{trim} n⌋ dropped from each end**" in docs
    small = grab(r"nothing is dropped for n < (\d+)", contract).group(1)
    assert f"nothing is dropped for **n < {small}**" in docs
    gate = grab(
        r"security < (\d+) \*\(config\)\* ⇒ composite capped at (\d+) and no tier above `(\w+)`", contract
    )
    assert f"**security < {gate.group(1)}** *(config)* ⇒ composite **capped at {gate.group(2)}**" in docs
    assert f"**no tier above `{gate.group(3)}`**" in docs
    assert "49.99 is gated, 50 is not" in contract and "49.99 is gated, 50 is not" in docs
    tiers = grab(r"platinum ≥ (\d+), gold ≥ (\d+), silver ≥ (\d+), bronze ≥ (\d+)", contract)
    for name, bound in zip(("platinum", "gold", "silver", "bronze"), tiers.groups(), strict=True):
        assert f"| {name} | ≥ {bound} |" in docs
    assert "| uncertified | below 400 |" in docs
    mandatory = grab(
        r"all of (accuracy, reliability, safety, security) covered and ≥ (\d+) of (\d+)", contract
    )
    assert f"**all of {mandatory.group(1)} covered**" in docs
    assert f"**≥ {mandatory.group(2)} of the {mandatory.group(3)} dimensions covered**" in docs
    anomaly = grab(r"change of more than (\d+) points", contract).group(1)
    assert f"**more than {anomaly} points**" in docs and "**`was_anomalous = true`**" in docs
    tolerance = grab(r"\|merged sum − 1\| > (\d+(?:\.\d+)?)", contract).group(1)
    assert f"|merged sum − 1| > **{tolerance}**" in docs
    assert "Composite = 10 × renormalised weighted mean of covered dimensions" in contract
    assert "**Composite = 10 × the renormalised weighted mean of the covered dimensions**" in docs
    for fill in (
        "accuracy ← AAAF accuracy × 100",
        "reliability ← AAAF consistency × 100",
        "latency ← AAAF speed × 100",
    ):
        assert fill in contract and fill in docs
    assert (
        "`teamwork` is null unless there is teamwork evidence" in contract
        and "**`teamwork` is opt-in:**" in docs
    )


# ------------------------------------------------------------------------- §4 layered


@needs_spec
def test_layered_scoring_and_verdicts(docs: str, contract: str) -> None:
    assert "`fact = 1 + 4 × passed_weight / total_weight`" in contract
    assert "**fact = 1 + 4 × passed_weight / total_weight**" in docs
    resamples = grab(r"(\d+ \d+) resamples \*\(config\)\*, (\d+) % \*\(config\)\*", contract)
    assert (
        f"**{resamples.group(1)} resamples** *(config)*, **{resamples.group(2)} %** *(config)*, **seed 0**"
        in docs
    )
    assert "numpy.random.default_rng(seed).integers(0, n, size=(B, n))" in docs
    gate = grab(r"T's mean ≥ (\d+(?:\.\d+)?)", contract).group(1)
    assert f"T's mean is **≥ {gate}**" in docs
    agreement = grab(r"mean pairwise r < (\d+(?:\.\d+)?)", contract).group(1)
    assert f"mean pairwise r < {agreement}**" in docs
    common = grab(r"≥ (\d+) common samples", contract).group(1)
    assert f"**≥ {common} common samples**" in docs
    paired = grab(r"fewer than (\d+) paired samples", contract).group(1)
    assert f"fewer than **{paired} paired samples**" in docs
    mde = grab(r"\((2\.8 × sd\(diff\) / √n)\) exceeds (\d+(?:\.\d+)?) points", contract)
    assert f"**{mde.group(1)} exceeds {mde.group(2)} points**" in docs
    saturated = grab(r"saturated \(both runs' composite ≥ (\d+(?:\.\d+)?)\)", contract).group(1)
    assert f"both runs' composite **≥ {saturated}**" in docs
    spearman = grab(r"Spearman ≥ (\d+(?:\.\d+)?)", contract).group(1)
    assert f"Spearman **≥ {spearman}**" in docs
    for types in (
        "`contains`, `icontains`, `equals`, `regex`, `json_schema`, `similar`",
        "`tool_called`, `tool_not_called`, `tool_order`, `max_turns`, `max_cost`, `max_latency`",
    ):
        assert types in contract and types in docs
    # the verdict rules, in the contract's order
    rules = grab(r"Verdict, first rule that matches: (.*?) The verdict carries", contract).group(1)
    contract_order = re.findall(r"→ `([A-Z]+)`", rules)
    docs_rules = grab(r"### 5\.3 The verdict: first rule that matches(.*?)### 5\.4", docs).group(1)
    docs_order = re.findall(r"→ \*\*`([A-Z]+)`\*\*", docs_rules)
    assert contract_order == [
        "SOLO",
        "UNDERPOWERED",
        "REGRESS",
        "UNDERPOWERED",
        "NOISE",
        "PROGRESS",
        "CAUTIOUS",
    ]
    assert docs_order == contract_order
    labels = re.findall(r"(?<!\w)(\d+b?)\. ", rules)
    assert re.findall(r"\* \*\*(\d+b?)\.\*\*", docs_rules) == labels
    default_fail = grab(
        r"exits 1 when the verdict is one of the listed verdicts \(default `(\w+)`\)", contract
    )
    assert f"(default `{default_fail.group(1)}`), 0 otherwise, 2 on bad input" in docs


# ------------------------------------------------------------------------- §5 workflow


@needs_spec
def test_workflow_formula_and_weights(docs: str, contract: str) -> None:
    weights = grab(
        r"`S = (\d+(?:\.\d+)?) S_success \+ (\d+(?:\.\d+)?) S_cost \+ (\d+(?:\.\d+)?) S_latency \+ (\d+(?:\.\d+)?) S_reliability`",
        contract,
    )
    for component, value in zip(("success", "cost", "latency", "reliability"), weights.groups(), strict=True):
        assert f"| {component} | {value} |" in docs
    order = grab(
        r"`(S = \(\(0\.50 S_success \+ 0\.25 S_cost\) \+ 0\.15 S_latency\) \+ 0\.10 S_reliability)`", contract
    )
    assert order.group(1) in docs
    gate = grab(r"only when `S_success > (\d+(?:\.\d+)?)` \(strictly\)", contract).group(1)
    assert f"only when **S_success > {gate}**" in docs
    penalties = grab(
        r"1 − \((\d+(?:\.\d+)?) unplanned \+ (\d+(?:\.\d+)?) timeouts \+ (\d+(?:\.\d+)?) hard_failures\)",
        contract,
    )
    assert penalties.group(0) in docs
    window = grab(r"its most recent (\d+) tasks \*\(config\)\*", contract).group(1)
    assert f"**most recent {window} tasks**" in docs
    cap = grab(r"no miner above (\d+) % \*\(config\)\*", contract).group(1)
    assert f"**no miner above {cap} %**" in docs
    assert "⌈1 / cap⌉" in contract and "**⌈1 / cap⌉**" in docs
    assert "RFC 8785 canonical JSON" in contract and "RFC 8785 canonical JSON" in docs


@needs_spec
def test_storage_bends(docs: str, contract: str) -> None:
    assert "not NUMERIC(5,4)" in contract and "not NUMERIC(5,4)" in docs
    assert "`dimension_scores.score` is nullable" in docs
    assert "unique per (agent, key)" in contract and "unique per (agent, key)" in docs


# ------------------------------------------------------------------------- docs versus the code


def test_docs_state_the_code_defaults(docs: str) -> None:
    """Independent of the spec's presence: the built-in defaults are the numbers the docs give."""
    config = defaults.AAAFConfig()
    assert f"`[window_end − {config.window_days} days, window_end]`" in docs
    assert (
        f"**Minimum: {config.min_tasks_performance} window tasks for Performance, "
        f"{config.min_tasks_capability} for Capability**" in docs
    )
    low = 0
    for max_age, weight in config.recency_weights:
        assert f"| {low}-{max_age} | {weight} |" in docs
        low = max_age + 1
    for name, weight in {**config.performance_weights, **config.capability_weights}.items():
        assert f"| `{name}` | {fmt(weight)} |" in docs
    for tier_set in (defaults.PERFORMANCE_TIERS, defaults.CAPABILITY_TIERS):
        for tier in tier_set[1:]:
            assert f"| {tier.name} | {fmt(tier.lower)} ≤ score" in docs
        for tier in tier_set:
            assert defaults.TIER_COLOURS[tier.name] in row_of(docs, tier.name)
    for level, seconds in config.speed_baselines.items():
        assert f"| {int(seconds):,} s".replace(",", " ") in row_of(docs, f"L{level}")
    for severity, weight in defaults.ERROR_SEVERITY_WEIGHTS.items():
        assert f"{severity} {weight:g}" in docs
    assert f"`baseline_errors_per_task = {config.baseline_errors_per_task}`" in docs
    assert f"more than {config.calibration_threshold}**" in docs
    assert f"valid **{config.validity_days} days**" in docs
    assert f"fires **{config.expiring_notice_days} days** before" in docs
    assert f"**{config.reassessment_task_threshold} new completed tasks**" in docs
    assert f"within {config.appeal_window_days} days**" in docs
    assert f"**{int(config.future_tolerance_seconds // 60)} minutes**" in docs
    assert f"{config.consistency_min_group} tasks**" in docs


def _optional_module(name: str) -> object:
    return pytest.importorskip(name, reason=f"{name} is not installed yet")


def test_docs_state_the_trust_and_workflow_code(docs: str) -> None:
    trust = _optional_module("aaaf.scoring.trust")
    for name, weight in trust.TRUST_WEIGHTS.items():  # type: ignore[attr-defined]
        assert f"| `{name}` | {fmt(weight)} |" in docs
    for tier in trust.TRUST_TIERS:  # type: ignore[attr-defined]
        if tier.lower > 0:
            assert f"| {tier.name} | ≥ {int(tier.lower)} |" in docs
    workflow = _optional_module("aaaf.scoring.workflow")
    for component in ("SUCCESS", "COST", "LATENCY", "RELIABILITY"):
        value = getattr(workflow, f"WEIGHT_{component}")
        assert f"| {component.lower()} | {fmt(value)} |" in docs
    assert f"**most recent {workflow.WORKFLOW_WINDOW} tasks**" in docs  # type: ignore[attr-defined]
    assert f"**no miner above {round(workflow.WORKFLOW_CAP * 100)} %**" in docs  # type: ignore[attr-defined]
    assert f"S_success > {workflow.SUCCESS_GATE}" in docs  # type: ignore[attr-defined]


def _section(text: str, heading: str) -> str:
    """The text under a Markdown heading, up to the next heading."""
    after = text.split(heading, 1)[1]
    return re.split(r"\n#+ ", after, maxsplit=1)[0]


def test_each_dimension_section_opens_with_the_declared_explanation() -> None:
    """docs/scoring.md §3.3 and §3.5 explain each dimension in the words the report uses: the
    declaration's (aaaf.scoring.dimensions), not a second copy that could drift."""
    raw = DOCS.read_text(encoding="utf-8")
    for dimension in dimensions.DIMENSIONS:
        heading = f"\n#### {dimension.title} — weight {fmt(dimension.weight)}\n"
        assert heading in raw, dimension.name
        opening = squash(_section(raw, heading)).strip()
        assert opening.startswith(f"*{dimension.explanation}*"), (dimension.name, opening[:200])


def test_the_composite_tables_list_the_declared_dimensions_in_order() -> None:
    """The tables that §3 points at for 'which dimensions' are the declaration, row for row."""
    raw = DOCS.read_text(encoding="utf-8")
    for axis, heading in (
        ("performance", "\n### 3.4 The Performance composite and tiers\n"),
        ("capability", "\n### 3.6 The Capability composite and tiers\n"),
    ):
        rows = re.findall(r"^\| ([^|]+) \| `(\w+)` \| ([0-9.]+) \|$", _section(raw, heading), re.M)
        declared = [d for d in dimensions.DIMENSIONS if d.axis == axis]
        assert rows == [(d.title, d.name, fmt(d.weight)) for d in declared], axis


def test_the_axis_dimension_counts_are_not_written_as_words() -> None:
    """How many dimensions an axis has follows the declaration; the prose must not fix it."""
    text = squash(DOCS.read_text(encoding="utf-8")).lower()
    for stale in ("has five dimensions", "has seven", "of the five dimensions", "twelve json lists"):
        assert stale not in text, stale
