from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="DimensionChange")



@_attrs_define
class DimensionChange:
    """ One dimension: its score before and after, the change, and the causes in words.

        Attributes:
            dimension (str):
            before (float | None | Unset):
            after (float | None | Unset):
            change (float | None | Unset):
            samples_before (int | Unset):  Default: 0.
            samples_after (int | Unset):  Default: 0.
            weight_before (float | None | Unset):
            weight_after (float | None | Unset):
            causes (list[str] | Unset):
     """

    dimension: str
    before: float | None | Unset = UNSET
    after: float | None | Unset = UNSET
    change: float | None | Unset = UNSET
    samples_before: int | Unset = 0
    samples_after: int | Unset = 0
    weight_before: float | None | Unset = UNSET
    weight_after: float | None | Unset = UNSET
    causes: list[str] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        dimension = self.dimension

        before: float | None | Unset
        if isinstance(self.before, Unset):
            before = UNSET
        else:
            before = self.before

        after: float | None | Unset
        if isinstance(self.after, Unset):
            after = UNSET
        else:
            after = self.after

        change: float | None | Unset
        if isinstance(self.change, Unset):
            change = UNSET
        else:
            change = self.change

        samples_before = self.samples_before

        samples_after = self.samples_after

        weight_before: float | None | Unset
        if isinstance(self.weight_before, Unset):
            weight_before = UNSET
        else:
            weight_before = self.weight_before

        weight_after: float | None | Unset
        if isinstance(self.weight_after, Unset):
            weight_after = UNSET
        else:
            weight_after = self.weight_after

        causes: list[str] | Unset = UNSET
        if not isinstance(self.causes, Unset):
            causes = self.causes




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "dimension": dimension,
        })
        if before is not UNSET:
            field_dict["before"] = before
        if after is not UNSET:
            field_dict["after"] = after
        if change is not UNSET:
            field_dict["change"] = change
        if samples_before is not UNSET:
            field_dict["samples_before"] = samples_before
        if samples_after is not UNSET:
            field_dict["samples_after"] = samples_after
        if weight_before is not UNSET:
            field_dict["weight_before"] = weight_before
        if weight_after is not UNSET:
            field_dict["weight_after"] = weight_after
        if causes is not UNSET:
            field_dict["causes"] = causes

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        dimension = d.pop("dimension")

        def _parse_before(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        before = _parse_before(d.pop("before", UNSET))


        def _parse_after(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        after = _parse_after(d.pop("after", UNSET))


        def _parse_change(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        change = _parse_change(d.pop("change", UNSET))


        samples_before = d.pop("samples_before", UNSET)

        samples_after = d.pop("samples_after", UNSET)

        def _parse_weight_before(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        weight_before = _parse_weight_before(d.pop("weight_before", UNSET))


        def _parse_weight_after(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        weight_after = _parse_weight_after(d.pop("weight_after", UNSET))


        causes = cast(list[str], d.pop("causes", UNSET))


        dimension_change = cls(
            dimension=dimension,
            before=before,
            after=after,
            change=change,
            samples_before=samples_before,
            samples_after=samples_after,
            weight_before=weight_before,
            weight_after=weight_after,
            causes=causes,
        )

        return dimension_change

