"""How bulk runs use memory: the C allocator's thresholds for scoring runs that resample (docs:
the §2.5 bootstrap), and the cyclic garbage collector paused while a batch is loaded.

Each bootstrap builds temporaries of B × tasks float64 (1 000 × ~190: about 1.5 MB apiece).
glibc serves anything above its mmap threshold (128 KiB at start) with a fresh mapping and
unmaps it on free, and trims the heap top above 128 KiB, so every bootstrap faulted its
temporaries in afresh: 1 900–4 300 page faults per call (measured).  Keeping that memory in
the heap (trim threshold 256 MB, mmap threshold 64 MB) cut the bootstrap's count draws from
5.2 to 1.0 ms and the ``benchmarks/bench_uncertainty.py`` CPU ratio (with / without the
bootstrap) from 6.1–6.9 to 5.1–5.8; in five alternating pairs against the code without it,
a median 6.37 → 5.38 (−15 %, better in every pair; measured on a loaded two-core machine).  The cost is
that a process keeps up to that much freed memory for reuse instead of returning it.
"""

from __future__ import annotations

import ctypes
import functools
import gc
import platform
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

# glibc's <malloc.h> parameter numbers
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
TRIM_THRESHOLD_BYTES = 256 * 1024 * 1024
MMAP_THRESHOLD_BYTES = 64 * 1024 * 1024


@functools.cache
def keep_allocations() -> bool:
    """Set glibc's trim and mmap thresholds for this process (once); True when both were set.
    Elsewhere than glibc on Linux it does nothing and returns False; it never raises."""
    if not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc":
        return False
    try:
        libc = ctypes.CDLL("libc.so.6")
        mallopt = libc.mallopt
        mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
        mallopt.restype = ctypes.c_int
        trimmed = bool(mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD_BYTES) == 1)
        mapped = bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES) == 1)
    except (OSError, AttributeError):
        return False
    return trimmed and mapped


class _Pause:
    """Who holds the collector paused: a count under a lock, so that overlapping holders (two
    API requests collecting at once, in two threads) leave it paused until the last one
    leaves, and then restore the state the first one found."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.holders = 0
        self.was_enabled = False

    def enter(self) -> None:
        with self.lock:
            if self.holders == 0:
                self.was_enabled = gc.isenabled()
                gc.disable()
            self.holders += 1

    def leave(self) -> None:
        with self.lock:
            self.holders -= 1
            if self.holders == 0 and self.was_enabled:
                gc.enable()


_PAUSE = _Pause()


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a batch is loaded, scored or collected.

    Loading keeps a million small containers alive (records, their JSON dicts) and makes
    almost no reference cycles, so every automatic collection re-scans live objects for
    nothing (measured: about a third of the load time; ~15 % of ``collect``'s CPU).
    Reference counting still frees everything.  The pause is process-wide and holders may
    overlap (threads, nesting): the collector comes back when the last holder leaves, and
    only if it was enabled when the first one came.
    """
    _PAUSE.enter()
    try:
        yield
    finally:
        _PAUSE.leave()
