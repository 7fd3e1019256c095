from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="ConfigurationChange")



@_attrs_define
class ConfigurationChange:
    """ A setting changed between the two assessments: when, by whom, before → after.

        Attributes:
            changed_at (str):
            setting (str):
            before (Any | None | Unset):
            after (Any | None | Unset):
            changed_by (None | str | Unset): The API key or OAuth client, or the command line; null when not recorded.
     """

    changed_at: str
    setting: str
    before: Any | None | Unset = UNSET
    after: Any | None | Unset = UNSET
    changed_by: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        changed_at = self.changed_at

        setting = self.setting

        before: Any | None | Unset
        if isinstance(self.before, Unset):
            before = UNSET
        else:
            before = self.before

        after: Any | None | Unset
        if isinstance(self.after, Unset):
            after = UNSET
        else:
            after = self.after

        changed_by: None | str | Unset
        if isinstance(self.changed_by, Unset):
            changed_by = UNSET
        else:
            changed_by = self.changed_by


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "changed_at": changed_at,
            "setting": setting,
        })
        if before is not UNSET:
            field_dict["before"] = before
        if after is not UNSET:
            field_dict["after"] = after
        if changed_by is not UNSET:
            field_dict["changed_by"] = changed_by

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        changed_at = d.pop("changed_at")

        setting = d.pop("setting")

        def _parse_before(data: object) -> Any | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Any | None | Unset, data)

        before = _parse_before(d.pop("before", UNSET))


        def _parse_after(data: object) -> Any | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(Any | None | Unset, data)

        after = _parse_after(d.pop("after", UNSET))


        def _parse_changed_by(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        changed_by = _parse_changed_by(d.pop("changed_by", UNSET))


        configuration_change = cls(
            changed_at=changed_at,
            setting=setting,
            before=before,
            after=after,
            changed_by=changed_by,
        )

        return configuration_change

