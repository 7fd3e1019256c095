"""The learning-rate blocks of the §2.5 bootstrap scored once per distinct listing
(aaaf.scoring.resample_partitions.listed_performance): every block's perf is bit for bit
the perf of that block scored alone."""

from __future__ import annotations

import numpy as np
import pytest

from aaaf.scoring import aaaf as engine
from aaaf.scoring import resample_partitions
from aaaf.scoring.defaults import AAAFConfig
from aaaf.scoring.fold import fold_evidence
from aaaf.scoring.records import EventRecord
from aaaf.scoring.resample_arrays import task_arrays
from tests.scoring.factories import WINDOW_END, Events


def code_tasks() -> list[EventRecord]:
    ev = Events()
    events: list[EventRecord] = []
    for i in range(12):
        status = ("accepted", "partial", "rejected")[i % 3]
        events += ev.task(
            f"t{i:03d}",
            status,
            domain="code",
            complexity=1 + i % 2,
            days_ago=20 - i,
            errors=[{}] * (i % 4 == 0),
            fraction=i / 12.0,
        )
    return events


@pytest.mark.parametrize("min_group", [5, 3])
def test_each_distinct_listing_scored_once_equals_every_listing_scored_alone(min_group: int) -> None:
    config = AAAFConfig().with_overrides(consistency_min_group=min_group)
    arrays = task_arrays(engine.window_evidence(fold_evidence(code_tasks()), config, WINDOW_END))
    rng = np.random.default_rng(3)
    few = rng.integers(0, arrays.n, size=(40, 5))
    listed = np.sort(few[rng.integers(0, 40, size=300)], axis=1)  # repeats, copies adjacent
    listed[:20] = listed[:20, :1]  # five copies of one task: a group of one CV
    together = resample_partitions.listed_performance(listed, arrays, config)
    alone = np.array(
        [resample_partitions.listed_performance(row[None, :], arrays, config)[0] for row in listed]
    )
    assert np.array_equal(together, alone, equal_nan=True)
    assert not np.isnan(together).all()
