"""The event ids each dimension used, in the compact form an assessment stores them
(SCORING.md §0 'Traceability': "the ids of the events it used are recoverable for the
assessment").

Dimensions share most of their evidence (a task's completion event serves five or six of
them), so the ids are stored once — ``event_ids``, every id any dimension used, in the
engine's first-seen order (:attr:`AAAFResult.event_ids`) — and each dimension as the
positions of its ids in that list (the store keeps each id as its 16 UUID bytes,
:mod:`aaaf.store.evidence`).  For an agent with 1 000 events that is about 16 kB of ids plus
11 kB of positions, instead of some 110 kB of JSON for twelve lists of ids; encoding is a
dictionary built and looked up in C (a fraction of a millisecond).  Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import chain

from aaaf.scoring.core import DimensionResult
from aaaf.scoring.results import AAAFResult, AxisResult


@dataclass(frozen=True)
class DimensionEvidence:
    """``event_ids``: the union; ``positions``: per dimension, its ids as indexes into it."""

    event_ids: tuple[str, ...]
    positions: Mapping[str, list[int]]

    def ids_of(self, dimension: str) -> tuple[str, ...]:
        """The ids ``dimension`` used, in the engine's order (empty when it used none)."""
        ids = self.event_ids
        return tuple(ids[index] for index in self.positions.get(dimension, ()))

    def by_dimension(self) -> dict[str, tuple[str, ...]]:
        return {name: self.ids_of(name) for name in self.positions}


def encode(dimensions: Iterable[DimensionResult], union: Sequence[str] = ()) -> DimensionEvidence:
    """The ids of ``dimensions`` in the stored form.

    ``union``: the result's :attr:`~aaaf.scoring.results.AAAFResult.event_ids` (the same ids
    in first-seen order, each once); ids missing from it are appended, so any union works.
    The common case — every id in the union — is one dictionary built and looked up in C.
    """
    dims = list(dimensions)
    event_ids = list(union)
    position = dict(zip(event_ids, range(len(event_ids)), strict=False))  # equal lengths
    if len(position) != len(event_ids):  # a repeated id: keep its first place
        event_ids = list(dict.fromkeys(event_ids))
        position = dict(zip(event_ids, range(len(event_ids)), strict=False))  # equal lengths
    look_up = position.__getitem__
    try:
        positions = {dim.name: list(map(look_up, dim.event_ids)) for dim in dims}
    except KeyError:  # an id outside the given union: append it, in first-seen order
        for event_id in chain.from_iterable(dim.event_ids for dim in dims):
            if event_id not in position:
                position[event_id] = len(event_ids)
                event_ids.append(event_id)
        positions = {dim.name: list(map(look_up, dim.event_ids)) for dim in dims}
    return DimensionEvidence(tuple(event_ids), positions)


def decode(event_ids: Sequence[str], positions: Mapping[str, Sequence[int]]) -> DimensionEvidence:
    """The stored form back (positions out of range are an error: the row is corrupt)."""
    ids = tuple(event_ids)
    checked: dict[str, list[int]] = {}
    for name, indexes in positions.items():
        values = [int(index) for index in indexes]
        if any(index < 0 or index >= len(ids) for index in values):
            raise ValueError(f"stored event positions of {name} fall outside the assessment's event ids")
        checked[name] = values
    return DimensionEvidence(ids, checked)


def result_dimensions(axes: Iterable[AxisResult | None]) -> list[DimensionResult]:
    """Every dimension result of the given axes (``None`` axes skipped), in axis order."""
    return [dim for axis in axes if axis is not None for dim in axis.dimensions.values()]


def of_result(result: AAAFResult) -> DimensionEvidence:
    """The stored form of an AAAF result's event ids, per dimension."""
    return encode(result_dimensions((result.performance, result.capability)), result.event_ids)


def with_event_ids(result: AAAFResult, ids: Mapping[str, Sequence[str]]) -> AAAFResult:
    """``result`` (rebuilt from its stored JSON, which carries no ids) with each dimension's
    stored ids put back, so that a re-score keeps the ids of the dimensions it carries over."""

    def axis(old: AxisResult | None) -> AxisResult | None:
        if old is None:
            return None
        dims = {
            name: replace(dim, event_ids=tuple(ids.get(name, ()))) for name, dim in old.dimensions.items()
        }
        return replace(old, dimensions=dims)

    performance, capability = axis(result.performance), axis(result.capability)
    union = tuple(
        dict.fromkeys(chain.from_iterable(d.event_ids for d in result_dimensions((performance, capability))))
    )
    return replace(result, performance=performance, capability=capability, event_ids=union)
