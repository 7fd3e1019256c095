"""assess --all leaves the helpers as many chunks as its write will take: the reserve follows
the time spent preparing rows (the write's measure) beside the time a chunk takes."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from aaaf.evidence.validation import validate_event
from aaaf.services import assess_parallel as assess_service
from aaaf.services.assess_parallel import WRITE_PER_KEEP, WRITE_RESERVE_CHUNKS, WriteReserve
from aaaf.store import open_store
from tests.cli.events_factory import NOW, agent_log


def test_the_reserve_covers_the_estimated_write() -> None:
    reserve = WriteReserve(helpers=1)
    assert reserve.chunks() == WRITE_RESERVE_CHUNKS  # nothing measured yet
    reserve.scored, reserve.scoring = 10, 1.0  # 0.1 s a chunk
    reserve.keeping = 0.01  # a write shorter than the least reserve's chunks
    assert reserve.chunks() == WRITE_RESERVE_CHUNKS
    reserve.keeping = 0.3  # a write of 0.3 x WRITE_PER_KEEP s: that many 0.1 s chunks
    assert reserve.chunks() == round(0.3 * WRITE_PER_KEEP / 0.1)
    two = WriteReserve(helpers=2)
    two.scored, two.scoring, two.keeping = 10, 1.0, 0.3  # two helpers go through twice as many
    assert two.chunks() == 2 * reserve.chunks()


@pytest.fixture()
def org(sqlite_at_head: Path):
    store = open_store(f"sqlite:///{sqlite_at_head}")
    yield store.scope(store.default_organization().id)
    store.close()


def test_a_long_write_leaves_the_rest_to_the_helpers(org: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Preparing rows taking far longer than a chunk (a clock of this test's), this process
    scores its first chunk and then leaves every other one to the helper (with two left a
    helper, the old rule, it scored chunks until two were left)."""
    for n in range(12):
        agent = org.enroll_agent(f"agent-{n}")
        org.add_events(
            [
                (agent.id, validate_event(e, now=NOW, default_agent=agent.name))
                for e in agent_log(None, 31, prefix=agent.name)
            ]
        )
    monkeypatch.setattr(assess_service, "CHUNK_EVENTS", 1)  # twelve chunks
    clock = [0.0]

    def perf_counter() -> float:
        clock[0] += 1.0
        return clock[0]

    monkeypatch.setattr(assess_service, "time", SimpleNamespace(perf_counter=perf_counter))
    scored_here: list[int] = []
    score_loaded = assess_service._score_loaded

    def counted_score_loaded(*args: Any, **kwargs: Any) -> Any:
        scored_here.append(1)  # in this process only: the helpers import the module afresh
        return score_loaded(*args, **kwargs)

    monkeypatch.setattr(assess_service, "_score_loaded", counted_score_loaded)
    kept: list[int] = []

    def keep(scored: list[Any]) -> None:
        clock[0] += 100.0  # preparing a chunk's rows "takes" a hundred times a chunk's scoring
        kept.append(len(scored))

    assess_service.score_all(org, org.agents(), org.config(), NOW, "passive_only", None, 2, keep)
    assert sum(kept) == 12
    assert scored_here == [1]
