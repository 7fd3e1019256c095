from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.weight_override_supplied_type_0 import WeightOverrideSuppliedType0





T = TypeVar("T", bound="WeightOverride")



@_attrs_define
class WeightOverride:
    """ 
        Attributes:
            supplied (None | WeightOverrideSuppliedType0):
            applied (bool):
            rejected_reason (None | str):
     """

    supplied: None | WeightOverrideSuppliedType0
    applied: bool
    rejected_reason: None | str





    def to_dict(self) -> dict[str, Any]:
        from ..models.weight_override_supplied_type_0 import WeightOverrideSuppliedType0 # noqa: PLC0415
        supplied: dict[str, Any] | None
        if isinstance(self.supplied, WeightOverrideSuppliedType0):
            supplied = self.supplied.to_dict()
        else:
            supplied = self.supplied

        applied = self.applied

        rejected_reason: None | str
        rejected_reason = self.rejected_reason


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "supplied": supplied,
            "applied": applied,
            "rejected_reason": rejected_reason,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.weight_override_supplied_type_0 import WeightOverrideSuppliedType0 # noqa: PLC0415
        d = dict(src_dict)
        def _parse_supplied(data: object) -> None | WeightOverrideSuppliedType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                supplied_type_0 = WeightOverrideSuppliedType0.from_dict(data)



                return supplied_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | WeightOverrideSuppliedType0, data)

        supplied = _parse_supplied(d.pop("supplied"))


        applied = d.pop("applied")

        def _parse_rejected_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        rejected_reason = _parse_rejected_reason(d.pop("rejected_reason"))


        weight_override = cls(
            supplied=supplied,
            applied=applied,
            rejected_reason=rejected_reason,
        )

        return weight_override

