"""Org configuration stored over the defaults (SCORING.md *(config)* items, §0 weights)."""

from __future__ import annotations

import pytest

from aaaf.errors import AAAFError
from aaaf.scoring.defaults import AAAFConfig
from aaaf.store import Store
from tests.sql_statements import statements

from .factories import org_of

NEW_CAPABILITY_WEIGHTS = {
    "domain_breadth": 0.1,
    "complexity_ceiling": 0.2,
    "tool_proficiency": 0.2,
    "autonomy_level": 0.1,
    "learning_rate": 0.1,
    "delegation_capability": 0.15,
    "orchestration_skills": 0.15,
}


def test_defaults_until_something_is_set(store: Store) -> None:
    org = org_of(store)
    assert org.config() == AAAFConfig()
    assert org.config_dict() == AAAFConfig().to_dict()


def test_every_kind_of_setting_round_trips(store: Store) -> None:
    org = org_of(store)
    org.update_config(
        window_days=14,  # an org_configs column
        recency_weights={"0_3_days": 1.0, "4_10_days": 0.5},  # document 004's stored form
        review_checklist=["output_format_correct"],  # an alias, kept in `extra`
        speed_baselines={"1": 300, "2": 1800.5, "3": 7200, "4": 40000, "5": 80000},
        calibration_threshold=0.2,
        capability_weights=NEW_CAPABILITY_WEIGHTS,
        domain_taxonomy=["code", "research"],
    )
    config = org_of_config = org.config()
    assert config.window_days == 14
    assert config.recency_weights == ((3, 1.0), (10, 0.5))
    assert config.checklist == ("output_format_correct",)
    assert config.speed_baselines == {1: 300.0, 2: 1800.5, 3: 7200.0, 4: 40000.0, 5: 80000.0}
    assert config.calibration_threshold == 0.2
    assert dict(config.capability_weights) == NEW_CAPABILITY_WEIGHTS
    assert list(config.capability_weights) == list(NEW_CAPABILITY_WEIGHTS)  # document order
    assert config.taxonomy == ("code", "research")
    # untouched settings keep their defaults
    assert config.performance_weights == AAAFConfig().performance_weights
    assert config.validity_days == 90
    # the to_dict form is accepted back as is
    other = org_of(store, "copy")
    other.update_config(**org_of_config.to_dict())
    assert other.config() == config


def test_set_weights_and_taxonomy(store: Store) -> None:
    org = org_of(store)
    org.set_weights("capability", NEW_CAPABILITY_WEIGHTS)
    org.set_taxonomy(["legal"])
    assert dict(org.config().capability_weights) == NEW_CAPABILITY_WEIGHTS
    assert org.config().taxonomy == ("legal",)
    assert org.organization().domain_taxonomy == ("legal",)
    # replacing again replaces, it does not add rows
    org.set_weights("capability", AAAFConfig().capability_weights)
    assert org.config().capability_weights == AAAFConfig().capability_weights


@pytest.mark.parametrize(
    "weights",
    [
        {**NEW_CAPABILITY_WEIGHTS, "domain_breadth": 0.2},  # sums to 1.1
        {name: weight for name, weight in NEW_CAPABILITY_WEIGHTS.items() if name != "learning_rate"},
        {**NEW_CAPABILITY_WEIGHTS, "charisma": 0.0},
    ],
)
def test_invalid_weights_are_rejected_and_nothing_changes(store: Store, weights: dict[str, float]) -> None:
    org = org_of(store)
    with pytest.raises(AAAFError) as caught:
        org.set_weights("capability", weights)
    assert caught.value.code == "WEIGHT_SUM_INVALID"
    assert "sum" in caught.value.details
    assert org.config() == AAAFConfig()


def test_weight_error_names_the_actual_sum(store: Store) -> None:
    org = org_of(store)
    with pytest.raises(AAAFError) as caught:
        org.update_config(
            performance_weights={
                "task_completion_rate": 0.5,
                "accuracy": 0.25,
                "speed": 0.15,
                "consistency": 0.2,
                "review_compliance": 0.15,
            }
        )
    assert caught.value.details["sum"] == pytest.approx(1.25)
    assert "1.25" in caught.value.message


@pytest.mark.parametrize(
    "changes",
    [
        {"no_such_setting": 1},
        {"window_days": 0},
        {"window_days": "30"},
        {"min_tasks_performance": True},
        {"calibration_threshold": float("nan")},
        {"recency_weights": {"7_days": 1.0}},
        {"recency_weights": [[7, 1.5]]},
        {"taxonomy": []},
        {"taxonomy": ["code", "code"]},
        {"speed_baselines": {"6": 100}},
    ],
)
def test_invalid_values_are_invalid_request(store: Store, changes: dict[str, object]) -> None:
    org = org_of(store)
    with pytest.raises(AAAFError) as caught:
        org.update_config(**changes)
    assert caught.value.code == "INVALID_REQUEST"
    assert org.config() == AAAFConfig()


def test_unknown_axis_is_invalid_request(store: Store) -> None:
    with pytest.raises(AAAFError) as caught:
        org_of(store).set_weights("charm", {})
    assert caught.value.code == "INVALID_REQUEST"


@pytest.mark.postgres
@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_the_configuration_is_read_in_one_round_trip(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ingest path reads it on every request: its row, weights and taxonomy in one query
    (three on main), counted as psycopg's waits for the server; another org's rows stay its own."""
    import psycopg

    from aaaf.store.org_store import read_org_config

    org, other = org_of(store), org_of(store, name="other")
    org.set_weights("capability", NEW_CAPABILITY_WEIGHTS)
    org.set_taxonomy(["legal"])
    other.set_weights("capability", AAAFConfig().capability_weights)
    waits: list[object] = []
    real_wait = psycopg.Connection.wait

    def counted(self: psycopg.Connection[object], *args: object, **kwargs: object) -> object:
        waits.append(args[0])
        return real_wait(self, *args, **kwargs)  # type: ignore[arg-type]

    with store.engine.connect() as connection:
        connection.exec_driver_sql("SELECT 1")  # the checkout's ping and BEGIN, not counted
        monkeypatch.setattr(psycopg.Connection, "wait", counted)
        config = read_org_config(connection, org.organization_id)
        assert len(waits) == 1
        monkeypatch.undo()
        assert read_org_config(connection, other.organization_id) == AAAFConfig()
    assert dict(config.capability_weights) == NEW_CAPABILITY_WEIGHTS
    assert config.taxonomy == ("legal",)
    assert config == org.config()


def test_the_configuration_and_an_agent_in_one_query(store: Store) -> None:
    """What collect reads first: the configuration and the agent an event names, as config()
    and find_agent() read them — by id first, else by name; stored weights counted once
    although the agents' join repeats their rows; another organization's agent is not found."""
    org, other = org_of(store), org_of(store, name="other")
    org.set_weights("capability", NEW_CAPABILITY_WEIGHTS)
    org.set_taxonomy(["legal"])
    writer = org.enroll_agent("writer")
    named_like_an_id = org.enroll_agent(str(writer.id).replace("-", "")[:8] + "-agent")
    stranger = other.enroll_agent("stranger")
    for reference in ["writer", str(writer.id), named_like_an_id.name, str(named_like_an_id.id)]:
        with statements(store) as sent:
            config, agent = org.config_and_agent(reference)
        assert len([text for text in sent if text.upper().startswith("SELECT")]) == 1
        assert config == org.config()
        assert agent == org.find_agent(reference) and agent is not None
    for unknown in ["nobody", str(stranger.id), "stranger"]:
        assert org.config_and_agent(unknown) == (org.config(), None)
