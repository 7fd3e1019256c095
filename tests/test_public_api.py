"""The public Python API (issue 10 §8): a small documented surface, loaded lazily."""

from __future__ import annotations

import subprocess
import sys

import aaaf


def test_every_public_name_resolves_and_nothing_else_is_public() -> None:
    assert aaaf.__all__ == sorted(aaaf._EXPORTS)
    for name in aaaf.__all__:
        assert getattr(aaaf, name) is not None
    assert issubclass(aaaf.AAAFError, Exception)


def test_importing_aaaf_loads_neither_the_database_nor_scipy() -> None:
    code = "import sys, aaaf; print(sorted({m.split('.')[0] for m in sys.modules} & {'sqlalchemy', 'scipy', 'numpy'}))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_aaaf_help_does_not_pay_for_scipy() -> None:
    """Issue 10 §6: SciPy is imported lazily, when a BCa interval or Hotelling's test needs it."""
    code = (
        "import sys; from aaaf.cli.main import build_app; build_app();"
        " print('scipy' in {m.split('.')[0] for m in sys.modules})"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
