from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="CompositeDiff")



@_attrs_define
class CompositeDiff:
    """ The composite's means, difference and confidence interval (docs/scoring.md §6).

        Attributes:
            control (float | None):
            treatment (float | None):
            diff (float | None):
            ci (list[float] | None):
     """

    control: float | None
    treatment: float | None
    diff: float | None
    ci: list[float] | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        control: float | None
        control = self.control

        treatment: float | None
        treatment = self.treatment

        diff: float | None
        diff = self.diff

        ci: list[float] | None
        if isinstance(self.ci, list):
            ci = self.ci


        else:
            ci = self.ci


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "control": control,
            "treatment": treatment,
            "diff": diff,
            "ci": ci,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_control(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        control = _parse_control(d.pop("control"))


        def _parse_treatment(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        treatment = _parse_treatment(d.pop("treatment"))


        def _parse_diff(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        diff = _parse_diff(d.pop("diff"))


        def _parse_ci(data: object) -> list[float] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                ci_type_0 = cast(list[float], data)

                return ci_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[float] | None, data)

        ci = _parse_ci(d.pop("ci"))


        composite_diff = cls(
            control=control,
            treatment=treatment,
            diff=diff,
            ci=ci,
        )


        composite_diff.additional_properties = d
        return composite_diff

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
