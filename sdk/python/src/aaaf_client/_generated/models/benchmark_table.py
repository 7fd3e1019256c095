from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.benchmark_cell import BenchmarkCell





T = TypeVar("T", bound="BenchmarkTable")



@_attrs_define
class BenchmarkTable:
    """ Every published cell and the k-anonymity floors they all meet.

        Attributes:
            min_organizations (int):
            min_agents (int):
            computed_at (None | str):
            cells (list[BenchmarkCell]):
     """

    min_organizations: int
    min_agents: int
    computed_at: None | str
    cells: list[BenchmarkCell]





    def to_dict(self) -> dict[str, Any]:
        from ..models.benchmark_cell import BenchmarkCell # noqa: PLC0415
        min_organizations = self.min_organizations

        min_agents = self.min_agents

        computed_at: None | str
        computed_at = self.computed_at

        cells = []
        for cells_item_data in self.cells:
            cells_item = cells_item_data.to_dict()
            cells.append(cells_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "min_organizations": min_organizations,
            "min_agents": min_agents,
            "computed_at": computed_at,
            "cells": cells,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.benchmark_cell import BenchmarkCell # noqa: PLC0415
        d = dict(src_dict)
        min_organizations = d.pop("min_organizations")

        min_agents = d.pop("min_agents")

        def _parse_computed_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        computed_at = _parse_computed_at(d.pop("computed_at"))


        cells = []
        _cells = d.pop("cells")
        for cells_item_data in (_cells):
            cells_item = BenchmarkCell.from_dict(cells_item_data)



            cells.append(cells_item)


        benchmark_table = cls(
            min_organizations=min_organizations,
            min_agents=min_agents,
            computed_at=computed_at,
            cells=cells,
        )

        return benchmark_table

