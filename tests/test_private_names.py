"""Private means private (docs/architecture.md "Conventions"): no module imports another module's
underscore-prefixed name.  A helper another module needs is public (no underscore) in the module
that owns it.

The scan reads every module of ``src/aaaf`` with :mod:`ast`.  ``REMAINING`` lists imports
made before this rule that are still to be removed (none now); it may only shrink: an import
not on it fails, and so does an entry no module makes any more."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "aaaf"

REMAINING: dict[str, set[str]] = {}


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


def test_no_module_exports_an_underscore_name() -> None:
    exported = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.List | ast.Tuple):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(target, ast.Name) and target.id == "__all__" for target in targets):
                    exported += [
                        f"{path.relative_to(SRC)}: {element.value}"
                        for element in node.value.elts
                        if isinstance(element, ast.Constant)
                        and isinstance(element.value, str)
                        and element.value.startswith("_")
                        and not element.value.startswith("__")
                    ]
    assert exported == [], f"an underscore name is private: do not list it in __all__: {exported}"
