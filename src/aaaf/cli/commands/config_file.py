"""The configuration file ``aaaf init`` writes and ``aaaf config apply`` reads (TOML).

Every setting an organization may change in one file, with its default and a line on what it
does; ``aaaf config apply FILE`` stores the values that differ from the organization's (each
change recorded with its time, as ``aaaf config set`` does) and refuses an unknown key by name.
"""

from __future__ import annotations

import json
from typing import Any

# (key, what it does) in the file's order; the defaults come from the scoring core
_DOCUMENTED: tuple[tuple[str, str], ...] = (
    ("assessment_window_days", "days of evidence an assessment scores, ending at its window end"),
    ("minimum_tasks_performance", "completed tasks in the window the Performance axis needs"),
    ("minimum_tasks_capability", "completed tasks in the window the Capability axis needs"),
    ("validity_period_days", "days a badge stays valid"),
    ("reassessment_task_threshold", "new tasks that make an agent due for re-assessment (aaaf assess --due)"),
    ("review_before_issue", "hold every badge until a reviewer approves it (aaaf review approve)"),
    ("event_retention_days", "days events are kept (aaaf db prune)"),
    ("stress_result_retention_days", "days stress-test results are kept"),
    ("benchmark_opt_in", "feed the anonymised cross-organization benchmark"),
    ("rate_limit_per_minute", "API requests a minute per key (the service)"),
    ("domain_taxonomy", "the domains evidence may name (domain breadth counts over them)"),
)
_TABLES: tuple[tuple[str, str], ...] = (
    ("recency_weights", "weight of a task by its age: the last 7 days, 8-14 days, 15-30 days"),
    ("performance_weights", "the Performance dimensions' weights (they must sum to 1)"),
    ("capability_weights", "the Capability dimensions' weights (they must sum to 1)"),
)
APPLICABLE = frozenset(key for key, _ in (*_DOCUMENTED, *_TABLES))


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(json.dumps(item) for item in value) + "]"
    return json.dumps(value)


def config_file_text() -> str:
    """The file, with every default (the scoring core's ``AAAFConfig``)."""
    from aaaf.scoring.defaults import AAAFConfig
    from aaaf.store.org_config import config_snapshot

    defaults = config_snapshot(AAAFConfig())
    lines = [
        "# The organization's configuration, every value its default.",
        "# Change what you need, then: aaaf config apply aaaf-config.toml",
        "# (only values that differ from the organization's are changed; each change is recorded).",
        '# What each setting does: docs/scoring.md ("Defaults at a glance").',
        "",
    ]
    for key, what in _DOCUMENTED:
        lines += [f"# {what}", f"{key} = {_toml_value(defaults[key])}", ""]
    for key, what in _TABLES:
        lines += [f"# {what}", f"[{key}]"]
        lines += [f"{json.dumps(name)} = {_toml_value(value)}" for name, value in defaults[key].items()]
        lines.append("")
    return "\n".join(lines)


def read_config_file(text: str, source: str) -> dict[str, Any]:
    """The settings of a configuration file; ``INVALID_REQUEST`` naming a bad line or key."""
    import tomllib

    from aaaf.errors import AAAFError

    try:
        values = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise AAAFError("INVALID_REQUEST", f"{source}: not TOML ({error})", {"field": "file"}) from None
    unknown = sorted(set(values) - APPLICABLE)
    if unknown:
        raise AAAFError(
            "INVALID_REQUEST",
            f"{source}: unknown setting(s) {', '.join(unknown)}; the file takes {', '.join(sorted(APPLICABLE))}",
            {"field": "file", "unknown": unknown},
        )
    return values
