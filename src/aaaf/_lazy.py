"""PEP 562 re-exports loaded on first use: a package names each re-exported name and where it
lives (``"module"`` for the same name, ``"module:attribute"`` otherwise), and the name is
imported when it is first read.  ``aaaf``, ``aaaf.store`` and ``aaaf.stats`` use it to keep
their own import cheap (no SQLAlchemy, no NumPy until a name that needs them is read)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(
    package: str, exports: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package`` for ``exports``."""

    def __getattr__(name: str) -> Any:
        target = exports.get(name)
        if target is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, attribute = target.partition(":")
        value = getattr(importlib.import_module(module), attribute or name)
        vars(sys.modules[package])[name] = value  # read once: later reads skip this function
        return value

    def __dir__() -> list[str]:
        namespace = vars(sys.modules[package])
        return sorted({*namespace, *namespace.get("__all__", exports)})

    return __getattr__, __dir__
