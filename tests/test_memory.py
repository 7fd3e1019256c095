"""The allocator thresholds that resampling runs set (aaaf.memory): on this glibc a block the
size of a bootstrap temporary comes from the heap, not from a fresh mapping, once they are
set; and scoring with the bootstrap sets them."""

from __future__ import annotations

import subprocess
import sys

import pytest

from aaaf.memory import keep_allocations
from aaaf.services import assess_parallel

_CHECK = """
import ctypes

class MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]

libc = ctypes.CDLL("libc.so.6")
libc.mallinfo2.restype = MallInfo2
libc.malloc.restype = ctypes.c_void_p
libc.malloc.argtypes = [ctypes.c_size_t]
libc.free.argtypes = [ctypes.c_void_p]
SIZE = 1000 * 190 * 8  # one bootstrap temporary: B x tasks float64

def mapped_blocks_while_held():
    start = libc.mallinfo2().hblks
    block = libc.malloc(SIZE)
    held = libc.mallinfo2().hblks
    libc.free(block)
    return held - start

before = mapped_blocks_while_held()
from aaaf.memory import keep_allocations
assert keep_allocations() is True
after = mapped_blocks_while_held()
print(before, after)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_a_bootstrap_sized_block_comes_from_the_heap_once_set() -> None:
    done = subprocess.run([sys.executable, "-c", _CHECK], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    before, after = (int(n) for n in done.stdout.split())
    assert before == 1  # the default: a fresh mapping for it
    assert after == 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_it_returns_true_on_this_glibc_and_again_when_called_twice() -> None:
    assert keep_allocations() is True
    assert keep_allocations() is True


@pytest.mark.parametrize("bootstrap", [True, False])
def test_scoring_with_the_bootstrap_sets_them(monkeypatch: pytest.MonkeyPatch, bootstrap: bool) -> None:
    calls: list[None] = []
    monkeypatch.setattr(assess_parallel, "keep_allocations", lambda: calls.append(None) or True)
    with assess_parallel.one_blas_thread(bootstrap):
        pass
    assert len(calls) == (1 if bootstrap else 0)
