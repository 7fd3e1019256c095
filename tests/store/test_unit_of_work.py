"""One unit of work: everything one operation writes commits or rolls back together (issue 10 §2)."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.pool import NullPool

from aaaf.errors import AAAFError
from aaaf.store import tables as t


def _names(store_url: str) -> list[str]:
    """What another connection (another process, say) sees: a plain read, no write lock."""
    engine = create_engine(store_url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            return sorted(connection.execute(select(t.agents.c.name)).scalars())
    finally:
        engine.dispose()


def test_writes_through_a_unit_of_work_commit_together(store, store_url: str) -> None:
    org = store.scope(store.default_organization().id)
    with org.unit_of_work() as uow:
        uow.enroll_agent("a")
        uow.enroll_agent("b")
        assert sorted(agent.name for agent in uow.agents()) == ["a", "b"]  # read inside: own writes
        assert _names(store_url) == []  # nothing committed yet
    assert _names(store_url) == ["a", "b"]


def test_an_exception_rolls_back_everything_the_unit_wrote(store, store_url: str) -> None:
    org = store.scope(store.default_organization().id)
    with pytest.raises(RuntimeError), org.unit_of_work() as uow:
        uow.enroll_agent("a")
        raise RuntimeError("half-way")
    assert _names(store_url) == []
    org.enroll_agent("c")  # the scope itself is untouched: its own transactions as before
    assert _names(store_url) == ["c"]


def test_a_failed_write_inside_rolls_back_only_itself(store, store_url: str) -> None:
    """Each write is a savepoint: a refused one (CONFLICT) leaves the rest of the unit intact."""
    org = store.scope(store.default_organization().id)
    with org.unit_of_work() as uow:
        uow.enroll_agent("a")
        with pytest.raises(AAAFError) as taken:
            uow.enroll_agent("a")
        assert taken.value.code == "CONFLICT"
        uow.enroll_agent("b")
        with uow.unit_of_work() as nested:  # nested units join the outer one
            nested.enroll_agent("n")
        assert _names(store_url) == []
    assert _names(store_url) == ["a", "b", "n"]
