from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.dimension_change import DimensionChange





T = TypeVar("T", bound="AxisChange")



@_attrs_define
class AxisChange:
    """ 
        Attributes:
            axis (str):
            composite_before (float | None | Unset):
            composite_after (float | None | Unset):
            change (float | None | Unset):
            tier_before (None | str | Unset):
            tier_after (None | str | Unset):
            dimensions (list[DimensionChange] | Unset):
     """

    axis: str
    composite_before: float | None | Unset = UNSET
    composite_after: float | None | Unset = UNSET
    change: float | None | Unset = UNSET
    tier_before: None | str | Unset = UNSET
    tier_after: None | str | Unset = UNSET
    dimensions: list[DimensionChange] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.dimension_change import DimensionChange # noqa: PLC0415
        axis = self.axis

        composite_before: float | None | Unset
        if isinstance(self.composite_before, Unset):
            composite_before = UNSET
        else:
            composite_before = self.composite_before

        composite_after: float | None | Unset
        if isinstance(self.composite_after, Unset):
            composite_after = UNSET
        else:
            composite_after = self.composite_after

        change: float | None | Unset
        if isinstance(self.change, Unset):
            change = UNSET
        else:
            change = self.change

        tier_before: None | str | Unset
        if isinstance(self.tier_before, Unset):
            tier_before = UNSET
        else:
            tier_before = self.tier_before

        tier_after: None | str | Unset
        if isinstance(self.tier_after, Unset):
            tier_after = UNSET
        else:
            tier_after = self.tier_after

        dimensions: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.dimensions, Unset):
            dimensions = []
            for dimensions_item_data in self.dimensions:
                dimensions_item = dimensions_item_data.to_dict()
                dimensions.append(dimensions_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "axis": axis,
        })
        if composite_before is not UNSET:
            field_dict["composite_before"] = composite_before
        if composite_after is not UNSET:
            field_dict["composite_after"] = composite_after
        if change is not UNSET:
            field_dict["change"] = change
        if tier_before is not UNSET:
            field_dict["tier_before"] = tier_before
        if tier_after is not UNSET:
            field_dict["tier_after"] = tier_after
        if dimensions is not UNSET:
            field_dict["dimensions"] = dimensions

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dimension_change import DimensionChange # noqa: PLC0415
        d = dict(src_dict)
        axis = d.pop("axis")

        def _parse_composite_before(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        composite_before = _parse_composite_before(d.pop("composite_before", UNSET))


        def _parse_composite_after(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        composite_after = _parse_composite_after(d.pop("composite_after", UNSET))


        def _parse_change(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        change = _parse_change(d.pop("change", UNSET))


        def _parse_tier_before(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        tier_before = _parse_tier_before(d.pop("tier_before", UNSET))


        def _parse_tier_after(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        tier_after = _parse_tier_after(d.pop("tier_after", UNSET))


        _dimensions = d.pop("dimensions", UNSET)
        dimensions: list[DimensionChange] | Unset = UNSET
        if _dimensions is not UNSET:
            dimensions = []
            for dimensions_item_data in _dimensions:
                dimensions_item = DimensionChange.from_dict(dimensions_item_data)



                dimensions.append(dimensions_item)


        axis_change = cls(
            axis=axis,
            composite_before=composite_before,
            composite_after=composite_after,
            change=change,
            tier_before=tier_before,
            tier_after=tier_after,
            dimensions=dimensions,
        )

        return axis_change

