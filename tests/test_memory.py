"""The allocator thresholds that resampling runs set (aaaf.memory): on this glibc a block the
size of a bootstrap temporary comes from the heap, not from a fresh mapping, once they are
set; and scoring with the bootstrap sets them."""

from __future__ import annotations

import gc
import subprocess
import sys
import threading
from collections.abc import Iterator

import pytest

from aaaf.memory import gc_paused, keep_allocations
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
from aaaf.memory import gc_paused, keep_allocations
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


@pytest.fixture
def gc_enabled() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    try:
        yield
    finally:
        if was:
            gc.enable()
        else:
            gc.disable()


def test_overlapping_holders_keep_the_collector_paused_until_the_last_leaves(gc_enabled: None) -> None:
    """Two requests collecting at once, in two threads: the first to finish must not switch
    the collector back on under the second (A enters, B enters, A leaves, B looks, B leaves)."""
    a_entered, b_entered, a_left = threading.Event(), threading.Event(), threading.Event()
    seen: dict[str, bool] = {}

    def holder_a() -> None:
        with gc_paused():
            a_entered.set()
            seen["A saw B enter"] = b_entered.wait(30)
        a_left.set()

    def holder_b() -> None:
        seen["B saw A enter"] = a_entered.wait(30)
        with gc_paused():
            b_entered.set()
            seen["B saw A leave"] = a_left.wait(30)
            seen["collector on while B holds it"] = gc.isenabled()

    threads = [threading.Thread(target=holder_a), threading.Thread(target=holder_b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert seen == {
        "B saw A enter": True,
        "A saw B enter": True,
        "B saw A leave": True,
        "collector on while B holds it": False,
    }
    assert gc.isenabled()  # the last holder left: back as the first one found it


def test_a_collector_off_when_the_first_holder_came_stays_off(gc_enabled: None) -> None:
    gc.disable()
    with gc_paused():
        with gc_paused():
            pass
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_nested_holders_in_one_thread_restore_it_once_the_outer_leaves(gc_enabled: None) -> None:
    with gc_paused():
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
