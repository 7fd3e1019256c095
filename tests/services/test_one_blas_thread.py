"""Scoring runs with one BLAS thread, even in a process whose first bootstrap is still to
come (threadpoolctl limits only libraries already loaded; the engine imports NumPy lazily)."""

from __future__ import annotations

import subprocess
import sys

_CHECK = """
import sys
from threadpoolctl import threadpool_info
from aaaf.services.assess_parallel import one_blas_thread
assert "numpy" not in sys.modules  # a fresh process, as a worker's first chunk
with one_blas_thread(True):
    import numpy
    blas = [i for i in threadpool_info() if i["user_api"] == "blas"]
    assert blas and all(i["num_threads"] == 1 for i in blas), blas
with one_blas_thread(False):
    pass
print("ok")
"""


def test_the_limit_holds_when_numpy_is_first_imported_inside() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _CHECK],
        capture_output=True,
        text=True,
        timeout=120,
        env={"OPENBLAS_NUM_THREADS": "2", "PATH": ""},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
