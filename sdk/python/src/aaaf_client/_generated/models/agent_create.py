from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.agent_create_metadata import AgentCreateMetadata





T = TypeVar("T", bound="AgentCreate")



@_attrs_define
class AgentCreate:
    """ docs/api.md ``POST /api/v1/agents``; ``organization_id`` defaults to the caller's.

        Attributes:
            name (str):
            organization_id (None | str | Unset):
            claimed_domains (list[str] | Unset):
            tools (list[str] | Unset):
            description (None | str | Unset):
            metadata (AgentCreateMetadata | Unset):
     """

    name: str
    organization_id: None | str | Unset = UNSET
    claimed_domains: list[str] | Unset = UNSET
    tools: list[str] | Unset = UNSET
    description: None | str | Unset = UNSET
    metadata: AgentCreateMetadata | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.agent_create_metadata import AgentCreateMetadata # noqa: PLC0415
        name = self.name

        organization_id: None | str | Unset
        if isinstance(self.organization_id, Unset):
            organization_id = UNSET
        else:
            organization_id = self.organization_id

        claimed_domains: list[str] | Unset = UNSET
        if not isinstance(self.claimed_domains, Unset):
            claimed_domains = self.claimed_domains



        tools: list[str] | Unset = UNSET
        if not isinstance(self.tools, Unset):
            tools = self.tools



        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
        })
        if organization_id is not UNSET:
            field_dict["organization_id"] = organization_id
        if claimed_domains is not UNSET:
            field_dict["claimed_domains"] = claimed_domains
        if tools is not UNSET:
            field_dict["tools"] = tools
        if description is not UNSET:
            field_dict["description"] = description
        if metadata is not UNSET:
            field_dict["metadata"] = metadata

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.agent_create_metadata import AgentCreateMetadata # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        def _parse_organization_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        organization_id = _parse_organization_id(d.pop("organization_id", UNSET))


        claimed_domains = cast(list[str], d.pop("claimed_domains", UNSET))


        tools = cast(list[str], d.pop("tools", UNSET))


        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))


        _metadata = d.pop("metadata", UNSET)
        metadata: AgentCreateMetadata | Unset
        if isinstance(_metadata,  Unset):
            metadata = UNSET
        else:
            metadata = AgentCreateMetadata.from_dict(_metadata)




        agent_create = cls(
            name=name,
            organization_id=organization_id,
            claimed_domains=claimed_domains,
            tools=tools,
            description=description,
            metadata=metadata,
        )

        return agent_create

