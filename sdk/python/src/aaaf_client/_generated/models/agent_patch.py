from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.agent_patch_status_type_0 import AgentPatchStatusType0
from ..models.agent_patch_status_type_0 import check_agent_patch_status_type_0
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.agent_patch_metadata_type_0 import AgentPatchMetadataType0





T = TypeVar("T", bound="AgentPatch")



@_attrs_define
class AgentPatch:
    """ Fields to change; an absent field is left as it is.

        Attributes:
            name (None | str | Unset):
            claimed_domains (list[str] | None | Unset):
            tools (list[str] | None | Unset):
            description (None | str | Unset):
            metadata (AgentPatchMetadataType0 | None | Unset):
            status (AgentPatchStatusType0 | None | Unset):
     """

    name: None | str | Unset = UNSET
    claimed_domains: list[str] | None | Unset = UNSET
    tools: list[str] | None | Unset = UNSET
    description: None | str | Unset = UNSET
    metadata: AgentPatchMetadataType0 | None | Unset = UNSET
    status: AgentPatchStatusType0 | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.agent_patch_metadata_type_0 import AgentPatchMetadataType0 # noqa: PLC0415
        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        claimed_domains: list[str] | None | Unset
        if isinstance(self.claimed_domains, Unset):
            claimed_domains = UNSET
        elif isinstance(self.claimed_domains, list):
            claimed_domains = self.claimed_domains


        else:
            claimed_domains = self.claimed_domains

        tools: list[str] | None | Unset
        if isinstance(self.tools, Unset):
            tools = UNSET
        elif isinstance(self.tools, list):
            tools = self.tools


        else:
            tools = self.tools

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, AgentPatchMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        status: None | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        elif isinstance(self.status, str):
            status = self.status
        else:
            status = self.status


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if name is not UNSET:
            field_dict["name"] = name
        if claimed_domains is not UNSET:
            field_dict["claimed_domains"] = claimed_domains
        if tools is not UNSET:
            field_dict["tools"] = tools
        if description is not UNSET:
            field_dict["description"] = description
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.agent_patch_metadata_type_0 import AgentPatchMetadataType0 # noqa: PLC0415
        d = dict(src_dict)
        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        def _parse_claimed_domains(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                claimed_domains_type_0 = cast(list[str], data)

                return claimed_domains_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        claimed_domains = _parse_claimed_domains(d.pop("claimed_domains", UNSET))


        def _parse_tools(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                tools_type_0 = cast(list[str], data)

                return tools_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        tools = _parse_tools(d.pop("tools", UNSET))


        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))


        def _parse_metadata(data: object) -> AgentPatchMetadataType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = AgentPatchMetadataType0.from_dict(data)



                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AgentPatchMetadataType0 | None | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))


        def _parse_status(data: object) -> AgentPatchStatusType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = check_agent_patch_status_type_0(data)



                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AgentPatchStatusType0 | None | Unset, data)

        status = _parse_status(d.pop("status", UNSET))


        agent_patch = cls(
            name=name,
            claimed_domains=claimed_domains,
            tools=tools,
            description=description,
            metadata=metadata,
            status=status,
        )

        return agent_patch

