"""Switching callgrind's counting on and off, and dumping it, from inside the counted process: the
``count_*_work.py`` scripts run under ``valgrind --tool=callgrind --instr-atstart=no`` and count
only their measured parts (each script's docstring gives its command line)."""

from __future__ import annotations

import os
import subprocess


def control(variable: str, *args: str) -> None:
    """``callgrind_control ARGS`` on this process (``-i on``, ``-i off``, ``--dump=NAME``), when the
    environment variable ``variable`` is set — the script's sign that it runs under callgrind."""
    if os.environ.get(variable):
        subprocess.run(["callgrind_control", *args, str(os.getpid())], check=True, capture_output=True)
