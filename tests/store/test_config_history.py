"""The configuration change history (issue 21) and the configuration in force at an instant."""

from __future__ import annotations

from datetime import timedelta

import pytest

from aaaf.errors import AAAFError
from aaaf.scoring.defaults import AAAFConfig
from aaaf.store import Store
from aaaf.store.org_config import config_from_snapshot, config_snapshot

from .factories import org_of


def test_every_change_is_recorded_with_before_and_after(store: Store) -> None:
    org = org_of(store)
    assert org.config_history() == []
    org.update_config(assessment_window_days=14)
    org.update_config(window_days=14)  # the same value by its field name: nothing changes
    org.set_taxonomy(["code", "research"])
    history = org.config_history()
    assert [dict(change.changes) for change in history] == [
        {"assessment_window_days": {"before": 30, "after": 14}},
        {"domain_taxonomy": {"before": list(AAAFConfig().taxonomy), "after": ["code", "research"]}},
    ]
    assert history[0].changed_at <= history[1].changed_at
    assert config_from_snapshot(history[1].config_after) == org.config()
    assert config_from_snapshot(history[0].config_before) == AAAFConfig()


def test_an_invalid_change_records_nothing(store: Store) -> None:
    org = org_of(store)
    with pytest.raises(AAAFError) as refused:
        org.set_weights("performance", {"accuracy": 1.0})
    assert refused.value.code == "WEIGHT_SUM_INVALID"
    assert org.config_history() == []


def test_config_at_rebuilds_each_state(store: Store) -> None:
    org = org_of(store)
    org.update_config(validity_period_days=60)
    first = org.config_history()[0].changed_at
    org.update_config(validity_period_days=30, minimum_tasks_performance=5)
    second = org.config_history()[1].changed_at
    assert org.config_at(first - timedelta(seconds=1)).validity_days == 90  # before any change
    assert org.config_at(first).validity_days == 60  # a change applies from its own instant
    between = org.config_at(second - timedelta(microseconds=1))
    assert (between.validity_days, between.min_tasks_performance) == (60, 20)
    assert org.config_at(second + timedelta(days=1)) == org.config()


def test_config_at_without_history_is_the_current_config(store: Store) -> None:
    org = org_of(store)
    assert org.config_at(org.organization().created_at) == AAAFConfig()


def test_snapshot_round_trips_every_setting() -> None:
    config = AAAFConfig().with_overrides(
        window_days=21,
        recency_weights=((3, 1.0), (21, 0.5)),
        checklist=(),
        speed_baselines={1: 60.0, 2: 120.0, 3: 240.0, 4: 480.0, 5: 960.0},
        appeal_window_days=7,
    )
    assert config_from_snapshot(config_snapshot(config)) == config


def test_an_appeal_takes_the_config_its_assessment_recorded_or_had(store: Store) -> None:
    from types import SimpleNamespace

    from aaaf.services.appeals import config_of

    org = org_of(store)
    org.update_config(validity_period_days=60)
    first = org.config_history()[0].changed_at
    org.update_config(validity_period_days=30)
    recorded = config_snapshot(org.config_at(first))
    # an assessment that recorded its configuration: that one, whatever changed since
    with_record = SimpleNamespace(result={"config": recorded}, created_at=first)
    assert config_of(org, with_record).validity_days == 60
    # one stored before results recorded it: the configuration in force at its creation
    older = SimpleNamespace(result={}, created_at=first + timedelta(microseconds=1))
    assert config_of(org, older).validity_days == 60
    assert config_of(org, SimpleNamespace(result=None, created_at=first - timedelta(days=1))) == AAAFConfig()
