from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.library_upload_visibility import check_library_upload_visibility
from ..models.library_upload_visibility import LibraryUploadVisibility
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.library_upload_colleagues_item import LibraryUploadColleaguesItem
  from ..models.library_upload_documents import LibraryUploadDocuments
  from ..models.library_upload_tasks_item import LibraryUploadTasksItem





T = TypeVar("T", bound="LibraryUpload")



@_attrs_define
class LibraryUpload:
    """ 
        Attributes:
            name (str):
            version (str):
            tasks (list[LibraryUploadTasksItem]):
            visibility (LibraryUploadVisibility | Unset):  Default: 'private'.
            description (None | str | Unset):
            colleagues (list[LibraryUploadColleaguesItem] | Unset):
            documents (LibraryUploadDocuments | Unset):
     """

    name: str
    version: str
    tasks: list[LibraryUploadTasksItem]
    visibility: LibraryUploadVisibility | Unset = 'private'
    description: None | str | Unset = UNSET
    colleagues: list[LibraryUploadColleaguesItem] | Unset = UNSET
    documents: LibraryUploadDocuments | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.library_upload_colleagues_item import LibraryUploadColleaguesItem # noqa: PLC0415
        from ..models.library_upload_documents import LibraryUploadDocuments # noqa: PLC0415
        from ..models.library_upload_tasks_item import LibraryUploadTasksItem # noqa: PLC0415
        name = self.name

        version = self.version

        tasks = []
        for tasks_item_data in self.tasks:
            tasks_item = tasks_item_data.to_dict()
            tasks.append(tasks_item)



        visibility: str | Unset = UNSET
        if not isinstance(self.visibility, Unset):
            visibility = self.visibility


        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        colleagues: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.colleagues, Unset):
            colleagues = []
            for colleagues_item_data in self.colleagues:
                colleagues_item = colleagues_item_data.to_dict()
                colleagues.append(colleagues_item)



        documents: dict[str, Any] | Unset = UNSET
        if not isinstance(self.documents, Unset):
            documents = self.documents.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "version": version,
            "tasks": tasks,
        })
        if visibility is not UNSET:
            field_dict["visibility"] = visibility
        if description is not UNSET:
            field_dict["description"] = description
        if colleagues is not UNSET:
            field_dict["colleagues"] = colleagues
        if documents is not UNSET:
            field_dict["documents"] = documents

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.library_upload_colleagues_item import LibraryUploadColleaguesItem # noqa: PLC0415
        from ..models.library_upload_documents import LibraryUploadDocuments # noqa: PLC0415
        from ..models.library_upload_tasks_item import LibraryUploadTasksItem # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        version = d.pop("version")

        tasks = []
        _tasks = d.pop("tasks")
        for tasks_item_data in (_tasks):
            tasks_item = LibraryUploadTasksItem.from_dict(tasks_item_data)



            tasks.append(tasks_item)


        _visibility = d.pop("visibility", UNSET)
        visibility: LibraryUploadVisibility | Unset
        if isinstance(_visibility,  Unset):
            visibility = UNSET
        else:
            visibility = check_library_upload_visibility(_visibility)




        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))


        _colleagues = d.pop("colleagues", UNSET)
        colleagues: list[LibraryUploadColleaguesItem] | Unset = UNSET
        if _colleagues is not UNSET:
            colleagues = []
            for colleagues_item_data in _colleagues:
                colleagues_item = LibraryUploadColleaguesItem.from_dict(colleagues_item_data)



                colleagues.append(colleagues_item)


        _documents = d.pop("documents", UNSET)
        documents: LibraryUploadDocuments | Unset
        if isinstance(_documents,  Unset):
            documents = UNSET
        else:
            documents = LibraryUploadDocuments.from_dict(_documents)




        library_upload = cls(
            name=name,
            version=version,
            tasks=tasks,
            visibility=visibility,
            description=description,
            colleagues=colleagues,
            documents=documents,
        )

        return library_upload

