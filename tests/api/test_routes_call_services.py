"""Routes call services, not the store (docs/architecture.md "Services are the only door").

An AST scan of the API's route modules and the dashboard's modules for calls of a method of
``Store`` or ``OrgStore`` (``org.get_agent(...)``, ``store.scope(...)``); a call on an imported
module (``agent_service.get_agent(org, ...)``) is a service call, not a store call.
"""

from __future__ import annotations

import ast
from pathlib import Path

import aaaf.api
from aaaf.store import OrgStore, Store

API = Path(aaaf.api.__file__).resolve().parent

#: the repositories' and the database's public methods
STORE_METHODS = frozenset(
    name
    for cls in (OrgStore, Store)
    for name in dir(cls)
    if not name.startswith("_") and callable(getattr(cls, name, None))
)

#: (module, method) store calls still made outside the services; this list may only shrink
#: (the dashboard's page builders read through :mod:`aaaf.services.dashboard_pages` since it
#: emptied).
REMAINING: set[tuple[str, str]] = set()


def store_calls(source: str) -> list[tuple[int, str]]:
    """(line, method) of each call of a store method in ``source``, other than on a module."""
    tree = ast.parse(source)
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            modules |= {alias.asname or alias.name for alias in node.names}
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        receiver = node.func.value
        if node.func.attr in STORE_METHODS and not (
            isinstance(receiver, ast.Name) and receiver.id in modules
        ):
            found.append((node.lineno, node.func.attr))
    return sorted(found)


def _scanned() -> dict[str, list[tuple[int, str]]]:
    paths = sorted([*API.glob("routes/*.py"), *API.glob("web/*.py")])
    assert len(paths) > 20  # the glob found the route and dashboard modules
    return {str(path.relative_to(API)): store_calls(path.read_text(encoding="utf-8")) for path in paths}


def test_route_modules_call_services_not_the_store() -> None:
    calls = [
        f"{module}:{line} .{method}()"
        for module, found in _scanned().items()
        for line, method in found
        if (module, method) not in REMAINING
    ]
    assert calls == [], "call a service (src/aaaf/services) instead"


def test_the_remaining_list_names_only_calls_still_made() -> None:
    made = {(module, method) for module, found in _scanned().items() for _, method in found}
    assert REMAINING - made == set(), "these calls are gone: drop them from REMAINING"


def test_the_scan_sees_a_store_call_and_not_a_service_call() -> None:
    source = (
        "from aaaf.services import agents as agent_service\n"
        "def route(org, request):\n"
        "    agent_service.get_agent(org, 'a')\n"
        "    org.get_agent('a')\n"
        "    request.app.state.store.scope(1).organization()\n"
    )
    assert store_calls(source) == [(4, "get_agent"), (5, "organization"), (5, "scope")]
