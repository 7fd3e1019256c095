from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="StressLibrary")



@_attrs_define
class StressLibrary:
    """ A published stress-task library.  ``owned`` tells whether the caller's
    organization published it; a shared library of another organization names no publisher.

        Attributes:
            name (str):
            version (str):
            visibility (str):
            digest (str):
            task_count (int):
            task_ids (list[str]):
            graders (list[str]): the check kinds its tasks use
            owned (bool):
            installed (bool):
            created_at (str):
            description (None | str | Unset):
     """

    name: str
    version: str
    visibility: str
    digest: str
    task_count: int
    task_ids: list[str]
    graders: list[str]
    owned: bool
    installed: bool
    created_at: str
    description: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        version = self.version

        visibility = self.visibility

        digest = self.digest

        task_count = self.task_count

        task_ids = self.task_ids



        graders = self.graders



        owned = self.owned

        installed = self.installed

        created_at = self.created_at

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "version": version,
            "visibility": visibility,
            "digest": digest,
            "task_count": task_count,
            "task_ids": task_ids,
            "graders": graders,
            "owned": owned,
            "installed": installed,
            "created_at": created_at,
        })
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        version = d.pop("version")

        visibility = d.pop("visibility")

        digest = d.pop("digest")

        task_count = d.pop("task_count")

        task_ids = cast(list[str], d.pop("task_ids"))


        graders = cast(list[str], d.pop("graders"))


        owned = d.pop("owned")

        installed = d.pop("installed")

        created_at = d.pop("created_at")

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))


        stress_library = cls(
            name=name,
            version=version,
            visibility=visibility,
            digest=digest,
            task_count=task_count,
            task_ids=task_ids,
            graders=graders,
            owned=owned,
            installed=installed,
            created_at=created_at,
            description=description,
        )

        return stress_library

