from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="DimensionStanding")



@_attrs_define
class DimensionStanding:
    """ The agent's score on one dimension and its percentile against one published cell.

        Attributes:
            domain (str):
            axis (str):
            dimension (str):
            score (float):
            percentile (float): 0-100, read off the cell's deciles
            n_orgs (int):
            n_agents (int):
     """

    domain: str
    axis: str
    dimension: str
    score: float
    percentile: float
    n_orgs: int
    n_agents: int





    def to_dict(self) -> dict[str, Any]:
        domain = self.domain

        axis = self.axis

        dimension = self.dimension

        score = self.score

        percentile = self.percentile

        n_orgs = self.n_orgs

        n_agents = self.n_agents


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "domain": domain,
            "axis": axis,
            "dimension": dimension,
            "score": score,
            "percentile": percentile,
            "n_orgs": n_orgs,
            "n_agents": n_agents,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        domain = d.pop("domain")

        axis = d.pop("axis")

        dimension = d.pop("dimension")

        score = d.pop("score")

        percentile = d.pop("percentile")

        n_orgs = d.pop("n_orgs")

        n_agents = d.pop("n_agents")

        dimension_standing = cls(
            domain=domain,
            axis=axis,
            dimension=dimension,
            score=score,
            percentile=percentile,
            n_orgs=n_orgs,
            n_agents=n_agents,
        )

        return dimension_standing

