from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.event_item_error import EventItemError





T = TypeVar("T", bound="BatchResult")



@_attrs_define
class BatchResult:
    """ docs/api.md batch answer plus the count of re-sent events (not errors).

        Attributes:
            accepted (int):
            duplicates (int):
            rejected (int):
            errors (list[EventItemError]):
     """

    accepted: int
    duplicates: int
    rejected: int
    errors: list[EventItemError]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.event_item_error import EventItemError # noqa: PLC0415
        accepted = self.accepted

        duplicates = self.duplicates

        rejected = self.rejected

        errors = []
        for errors_item_data in self.errors:
            errors_item = errors_item_data.to_dict()
            errors.append(errors_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "accepted": accepted,
            "duplicates": duplicates,
            "rejected": rejected,
            "errors": errors,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_item_error import EventItemError # noqa: PLC0415
        d = dict(src_dict)
        accepted = d.pop("accepted")

        duplicates = d.pop("duplicates")

        rejected = d.pop("rejected")

        errors = []
        _errors = d.pop("errors")
        for errors_item_data in (_errors):
            errors_item = EventItemError.from_dict(errors_item_data)



            errors.append(errors_item)


        batch_result = cls(
            accepted=accepted,
            duplicates=duplicates,
            rejected=rejected,
            errors=errors,
        )


        batch_result.additional_properties = d
        return batch_result

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
