from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="BenchmarkCell")



@_attrs_define
class BenchmarkCell:
    """ One published (domain, dimension) distribution: the deciles of the latest valid scores
    of opted-in organizations' agents.  ``domain`` is ``all`` for every agent, else a claimed
    domain; ``dimension`` is a docs/scoring.md dimension or ``performance_composite`` /
    ``capability_composite``.

        Attributes:
            domain (str):
            axis (str):
            dimension (str):
            deciles (list[float]): the 10th, 20th, … 90th percentiles (linear interpolation)
            n_orgs (int):
            n_agents (int):
            computed_at (str):
     """

    domain: str
    axis: str
    dimension: str
    deciles: list[float]
    n_orgs: int
    n_agents: int
    computed_at: str





    def to_dict(self) -> dict[str, Any]:
        domain = self.domain

        axis = self.axis

        dimension = self.dimension

        deciles = self.deciles



        n_orgs = self.n_orgs

        n_agents = self.n_agents

        computed_at = self.computed_at


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "domain": domain,
            "axis": axis,
            "dimension": dimension,
            "deciles": deciles,
            "n_orgs": n_orgs,
            "n_agents": n_agents,
            "computed_at": computed_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        domain = d.pop("domain")

        axis = d.pop("axis")

        dimension = d.pop("dimension")

        deciles = cast(list[float], d.pop("deciles"))


        n_orgs = d.pop("n_orgs")

        n_agents = d.pop("n_agents")

        computed_at = d.pop("computed_at")

        benchmark_cell = cls(
            domain=domain,
            axis=axis,
            dimension=dimension,
            deciles=deciles,
            n_orgs=n_orgs,
            n_agents=n_agents,
            computed_at=computed_at,
        )

        return benchmark_cell

