"""Weights an organization stored before the dimensions changed (docs/scoring.md §1), on SQLite
and PostgreSQL: read back, they name exactly the declared dimensions and sum to 1, and an
assessment with its bootstrap runs on them (it once raised ``KeyError`` on a new dimension).

The store is made to predate the change by hand: its Performance table names a dimension no
longer declared (``first_pass_rate``, 0.15) and not ``review_compliance``.  The rule: the obsolete
one is dropped, ``review_compliance`` gets its default 0.15, and the other four (stored 0.25,
0.25, 0.15, 0.20 — 0.85 of the table) share the remaining 0.85 in their proportions: unchanged.
"""

from __future__ import annotations

import math
from datetime import timedelta

import pytest
from sqlalchemy import update

from aaaf.evidence.validation import validate_event
from aaaf.scoring.defaults import AXES
from aaaf.scoring.dimensions import default_weights, weights_for_declared
from aaaf.services.assess import assess_agent
from aaaf.store import tables as t
from aaaf.store.engine import write_transaction
from tests.cli.events_factory import NOW, task_events

STORED = {
    "task_completion_rate": 0.25,
    "accuracy": 0.25,
    "speed": 0.15,
    "consistency": 0.20,
    "review_compliance": 0.15,
}


def test_a_table_from_before_the_change_is_carried_over_and_assesses(store) -> None:
    org = store.scope(store.default_organization().id)
    org.update_config(min_tasks_performance=4, min_tasks_capability=4)
    org.set_weights("performance", {**STORED, "task_completion_rate": 0.35, "speed": 0.05})
    table = t.dimension_weight_configs
    with write_transaction(org.engine) as connection:  # as an earlier release would have stored it
        connection.execute(
            update(table)
            .where(table.c.axis == "performance", table.c.dimension == "review_compliance")
            .values(dimension="first_pass_rate")
        )
    weights = org.config().performance_weights
    assert list(weights) == list(AXES["performance"])
    assert weights["review_compliance"] == 0.15  # its default
    assert weights["task_completion_rate"] == pytest.approx(0.35, abs=1e-12)
    assert weights["speed"] == pytest.approx(0.05, abs=1e-12)
    assert math.isclose(math.fsum(weights.values()), 1.0, abs_tol=1e-12)

    agent = org.enroll_agent("coder")
    events = [
        e for i in range(4) for e in task_events(None, f"t{i}", completed_at=NOW - timedelta(hours=i + 1))
    ]
    org.add_events([(agent.id, validate_event(e, now=NOW, default_agent="coder")) for e in events])
    record = assess_agent(org, "coder", now=NOW)  # the bootstrap reads every weight by name
    assert record.result["performance"]["uncertainty"]["resamples"] == 1000
    assert record.performance_composite is not None


def test_the_rule_scales_the_rest_and_keeps_an_exact_table_as_stored() -> None:
    exact = {
        "task_completion_rate": 0.4,
        "accuracy": 0.1,
        "speed": 0.1,
        "consistency": 0.2,
        "review_compliance": 0.2,
    }
    assert weights_for_declared("performance", exact) == exact
    older = {"task_completion_rate": 0.5, "accuracy": 0.5}  # before speed, consistency, review_compliance
    carried = weights_for_declared("performance", older)
    # the three new ones take their defaults (0.5 in all); the two stored share the other 0.5
    assert carried == {
        "task_completion_rate": 0.25,
        "accuracy": 0.25,
        "speed": 0.15,
        "consistency": 0.20,
        "review_compliance": 0.15,
    }
    assert weights_for_declared("capability", {"retired": 1.0}) == default_weights("capability")
    nothing_left = {"task_completion_rate": 0.0, "first_pass_rate": 1.0}
    assert weights_for_declared("performance", nothing_left) == default_weights("performance")
