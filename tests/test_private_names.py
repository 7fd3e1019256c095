"""Private means private (docs/architecture.md "Conventions"): no module imports another module's
underscore-prefixed name.  A helper another module needs is public (no underscore) in the module
that owns it.

The scan reads every module of ``src/aaaf`` with :mod:`ast`.  ``REMAINING`` lists the imports
made before this rule whose modules are being reworked elsewhere (the scoring core's split
modules, the parallel assessment path); the list may only shrink: an import not on it fails,
and so does an entry no module makes any more."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "aaaf"

REMAINING: dict[str, set[str]] = {
    "aaaf.scoring.aaaf_capability": {
        "_autonomy_level",
        "_complexity_ceiling",
        "_delegation_capability",
        "_domain_breadth",
        "_learning_rate",
        "_orchestration_skills",
        "_tool_proficiency",
    },
    "aaaf.scoring.aaaf_context": {
        "_AUTONOMY_OF",
        "_COMPLEXITY_OF",
        "_Context",
        "_DOMAIN_OF",
        "_partition",
        "_result",
    },
    "aaaf.scoring.aaaf_performance": {
        "_accuracy",
        "_consistency",
        "_review_compliance",
        "_speed",
        "_task_completion_rate",
    },
    "aaaf.scoring.aaaf_tasks": {
        "_COMPLETED_AT",
        "_COMPLETED_OF",
        "_CREDIT_OF",
        "_ERROR_COUNT_OF",
        "_PERF_IDS_OF",
        "_STATUS_OF",
        "_TASK_ID_OF",
        "_TOOL_OF",
        "_WEIGHTED_ERRORS_OF",
        "_WEIGHT_OF",
        "_completed",
        "_ids",
    },
    "aaaf.scoring.fold_records": {"_new_task"},
    "aaaf.scoring.fold_values": {
        "_EMPTY",
        "_as_list",
        "_by_event_id",
        "_by_time_and_id",
        "_count",
        "_decision",
        "_embedded_tools",
        "_error_severity",
        "_invocation_counts",
        "_is_mapping",
        "_later",
        "_optional_float",
        "_optional_int",
        "_optional_str",
        "_orchestration",
        "_outcome",
    },
    "aaaf.scoring.trust_observations": {"_as_finite", "_require_aware"},
    "aaaf.scoring.workflow_runs": {"_invalid"},
    "aaaf.services.assess_parallel": {"_score_all"},
}


def private_imports(source: str) -> list[tuple[str, str]]:
    """(module, name) of each ``from module import _name`` in ``source`` (dunders aside)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            found += [
                (node.module, alias.name)
                for alias in node.names
                if alias.name.startswith("_") and not alias.name.startswith("__")
            ]
    return found


def _all_private_imports() -> dict[tuple[str, str], list[str]]:
    found: dict[tuple[str, str], list[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        for key in private_imports(path.read_text(encoding="utf-8")):
            found.setdefault(key, []).append(str(path.relative_to(SRC)))
    return found


def test_the_scanner_sees_private_imports_and_only_those() -> None:
    source = (
        "from aaaf.store.base import _check, public, __version__\n"
        "from . import _local\n"
        "import aaaf._lazy\n"
        "def f():\n"
        "    from aaaf.x import _inner\n"
    )
    assert sorted(private_imports(source)) == [("aaaf.store.base", "_check"), ("aaaf.x", "_inner")]


def test_no_module_imports_another_modules_private_name() -> None:
    found = _all_private_imports()
    new = {
        f"{module}.{name} in {', '.join(where)}"
        for (module, name), where in found.items()
        if name not in REMAINING.get(module, set())
    }
    assert new == set(), (
        f"make the name public in its module, or keep the helper where it is used: {sorted(new)}"
    )


def test_the_list_of_remaining_imports_only_shrinks() -> None:
    found = _all_private_imports()
    gone = {
        f"{module}.{name}"
        for module, names in REMAINING.items()
        for name in names
        if (module, name) not in found
    }
    assert gone == set(), f"no longer imported: remove from REMAINING {sorted(gone)}"
