"""Agents (document 004 §7.2 ``agents``, §5.1 step 1)."""

from __future__ import annotations

import uuid

import pytest

from aaaf.errors import AAAFError
from aaaf.store import Store

from .factories import org_of


def test_enroll_and_find_by_name_or_id(store: Store) -> None:
    org = org_of(store)
    agent = org.enroll_agent(
        "security-auditor",
        claimed_domains=["security", "code"],
        tools=["bash", "grep"],
        description="Finds vulnerabilities.",
        metadata={"model": "m", "version": "3.2", "nested": {"a": [1, 2.5]}},
    )
    assert agent.status == "enrolled"
    assert agent.claimed_domains == ("security", "code") and agent.tools == ("bash", "grep")
    assert agent.metadata == {"model": "m", "version": "3.2", "nested": {"a": [1, 2.5]}}
    assert org.get_agent("security-auditor") == agent
    assert org.get_agent(agent.id) == agent
    assert org.get_agent(str(agent.id)) == agent
    assert org.find_agent("nobody") is None
    assert agent.created_at.tzinfo is not None and agent.created_at.utcoffset().total_seconds() == 0  # type: ignore[union-attr]


def test_duplicate_name_is_a_conflict(store: Store) -> None:
    org = org_of(store)
    org.enroll_agent("twin")
    with pytest.raises(AAAFError) as caught:
        org.enroll_agent("twin")
    assert caught.value.code == "CONFLICT" and "twin" in caught.value.message
    assert [agent.name for agent in org.agents()] == ["twin"]


def test_same_name_in_two_organizations_is_fine(store: Store) -> None:
    first, second = org_of(store, "first"), org_of(store, "second")
    assert first.enroll_agent("worker").id != second.enroll_agent("worker").id


def test_not_found_names_what_was_asked_for(store: Store) -> None:
    org = org_of(store)
    with pytest.raises(AAAFError) as caught:
        org.get_agent("ghost-agent")
    assert caught.value.code == "NOT_FOUND" and "ghost-agent" in caught.value.message
    with pytest.raises(AAAFError):
        org.get_agent(uuid.uuid4())


def test_update_rename_and_status(store: Store) -> None:
    org = org_of(store)
    agent = org.enroll_agent("a", tools=["x"])
    org.enroll_agent("b")
    updated = org.update_agent("a", name="a2", tools=["y", "z"], metadata={"k": 1})
    assert (updated.id, updated.name, updated.tools, updated.metadata) == (
        agent.id,
        "a2",
        ("y", "z"),
        {"k": 1},
    )
    assert updated.claimed_domains == () and updated.updated_at >= agent.updated_at
    with pytest.raises(AAAFError) as caught:
        org.update_agent("a2", name="b")
    assert caught.value.code == "CONFLICT"
    assert org.set_agent_status(agent.id, "suspended").status == "suspended"
    assert [a.name for a in org.agents(status="suspended")] == ["a2"]
    assert [a.name for a in org.agents()] == ["a2", "b"]
    with pytest.raises(AAAFError) as caught:
        org.set_agent_status(agent.id, "deleted")
    assert caught.value.code == "INVALID_REQUEST"


def test_to_dict_is_json_ready(store: Store) -> None:
    agent = org_of(store).enroll_agent("json", claimed_domains=["code"])
    as_dict = agent.to_dict()
    assert as_dict["id"] == str(agent.id) and as_dict["claimed_domains"] == ["code"]
    assert as_dict["created_at"].endswith("Z")
