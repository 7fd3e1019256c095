"""Organizations, the default organization and org configuration (document 004 §6.2,
§7.2; SCORING.md §0 weights)."""

from __future__ import annotations

import threading
import uuid

import pytest

from aaaf.errors import AAAFError
from aaaf.scoring.defaults import AAAFConfig
from aaaf.store import DEFAULT_ORGANIZATION_ID, Store, open_store


def test_default_organization_is_created_once(store: Store) -> None:
    first = store.default_organization()
    second = store.default_organization()
    assert first == second
    assert first.id == DEFAULT_ORGANIZATION_ID and first.name == "default"
    assert [org.id for org in store.organizations()] == [first.id]
    assert store.scope(first.id).config() == AAAFConfig()


def test_default_organization_is_race_free(store_url: str) -> None:
    """Several processes' first use at once: one organization, one config row."""
    stores = [open_store(store_url) for _ in range(4)]
    barrier = threading.Barrier(len(stores))
    results: list[object] = []

    def first_use(store: Store) -> None:
        barrier.wait()
        try:
            results.append(store.default_organization().id)
        except Exception as error:  # reported below
            results.append(error)

    threads = [threading.Thread(target=first_use, args=(store,)) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert results == [DEFAULT_ORGANIZATION_ID] * len(stores)
        assert len(stores[0].organizations()) == 1
        assert stores[0].scope(DEFAULT_ORGANIZATION_ID).config() == AAAFConfig()
    finally:
        for store in stores:
            store.close()


def test_create_organization_with_config_and_api_key(store: Store) -> None:
    org = store.create_organization(
        "Witness Civilization",
        api_key_hash="hash-1",
        taxonomy=["code", "security"],
        config={
            "assessment_window_days": 14,
            "performance_weights": {
                "task_completion_rate": 0.3,
                "accuracy": 0.3,
                "speed": 0.1,
                "consistency": 0.2,
                "review_compliance": 0.1,
            },
        },
    )
    assert org.domain_taxonomy == ("code", "security")
    assert store.organization_by_api_key_hash("hash-1") == org
    assert store.organization_by_api_key_hash("other") is None
    config = store.scope(org.id).config()
    assert config.window_days == 14
    assert config.performance_weights["speed"] == 0.1
    assert config.taxonomy == ("code", "security")
    assert org.to_dict()["name"] == "Witness Civilization" and "api_key_hash" not in org.to_dict()


def test_duplicate_api_key_hash_is_a_conflict(store: Store) -> None:
    store.create_organization("a", api_key_hash="same")
    with pytest.raises(AAAFError) as caught:
        store.create_organization("b", api_key_hash="same")
    assert caught.value.code == "CONFLICT"
    assert [org.name for org in store.organizations()] == ["a"]


def test_invalid_weights_create_nothing(store: Store) -> None:
    with pytest.raises(AAAFError) as caught:
        store.create_organization("bad", config={"capability_weights": {"domain_breadth": 1.2}})
    assert caught.value.code == "WEIGHT_SUM_INVALID"
    assert store.organizations() == []


def test_unknown_organization_is_not_found(store: Store) -> None:
    for ref in (uuid.uuid4(), "not-a-uuid"):
        with pytest.raises(AAAFError) as caught:
            store.scope(ref)
        assert caught.value.code == "NOT_FOUND"


def test_update_organization(store: Store) -> None:
    org = store.create_organization("before")
    updated = store.update_organization(org.id, name="after", status="suspended", api_key_hash="k")
    assert (updated.name, updated.status, updated.api_key_hash) == ("after", "suspended", "k")
    assert updated.updated_at >= org.updated_at
    with pytest.raises(AAAFError) as caught:
        store.update_organization(org.id, status="deleted")
    assert caught.value.code == "INVALID_REQUEST"
