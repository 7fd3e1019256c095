"""At most AAAF_MAX_CONCURRENT_COMPARES comparisons of one organization run at once in a
server process (docs/security.md "Limits"): the next is refused with 429 RATE_LIMITED before
it reads or computes anything; other organizations and finished comparisons free their slots."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest

from aaaf.errors import AAAFError
from aaaf.scoring.layered import LayeredConfig
from aaaf.services.eval_runs import compare_slot, compare_stored_result


class _NoRuns:
    """An organization whose runs must not be read while its slots are full."""

    organization_id = "org-a"

    def get_eval_run(self, ref: str) -> object:
        raise AssertionError("a refused comparison read a run")


def test_a_comparison_past_the_limit_is_refused_before_it_reads_anything() -> None:
    with compare_slot("org-a"), compare_slot("org-a"):  # the default: 2 at once
        with pytest.raises(AAAFError) as refused:
            compare_stored_result(_NoRuns(), "c", ["t"], config=LayeredConfig())
        assert refused.value.code == "RATE_LIMITED" and refused.value.details["limit"] == 2
        assert "AAAF_MAX_CONCURRENT_COMPARES" in refused.value.message
        with compare_slot("org-b"):  # another organization has slots of its own
            pass
    with compare_slot("org-a"), compare_slot("org-a"):  # both slots were given back
        pass


def test_slots_are_counted_across_threads() -> None:
    entered, release = threading.Barrier(3), threading.Event()
    refused: list[str] = []

    def hold() -> None:
        with compare_slot(SimpleNamespace, limit=2):
            entered.wait()
            release.wait(10)

    holders = [threading.Thread(target=hold) for _ in range(2)]
    for holder in holders:
        holder.start()
    entered.wait()
    try:
        with compare_slot(SimpleNamespace, limit=2):
            pass
    except AAAFError as error:
        refused.append(error.code)
    release.set()
    for holder in holders:
        holder.join()
    assert refused == ["RATE_LIMITED"]
    with compare_slot(SimpleNamespace, limit=2):
        pass
