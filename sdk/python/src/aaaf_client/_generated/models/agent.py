from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.agent_metadata import AgentMetadata





T = TypeVar("T", bound="Agent")



@_attrs_define
class Agent:
    """ An enrolled agent (docs/api.md ``/agents``).

        Attributes:
            id (str):
            organization_id (str):
            name (str):
            claimed_domains (list[str]):
            tools (list[str]):
            description (None | str):
            metadata (AgentMetadata):
            status (str):
            created_at (str):
            updated_at (str):
     """

    id: str
    organization_id: str
    name: str
    claimed_domains: list[str]
    tools: list[str]
    description: None | str
    metadata: AgentMetadata
    status: str
    created_at: str
    updated_at: str





    def to_dict(self) -> dict[str, Any]:
        from ..models.agent_metadata import AgentMetadata # noqa: PLC0415
        id = self.id

        organization_id = self.organization_id

        name = self.name

        claimed_domains = self.claimed_domains



        tools = self.tools



        description: None | str
        description = self.description

        metadata = self.metadata.to_dict()

        status = self.status

        created_at = self.created_at

        updated_at = self.updated_at


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "organization_id": organization_id,
            "name": name,
            "claimed_domains": claimed_domains,
            "tools": tools,
            "description": description,
            "metadata": metadata,
            "status": status,
            "created_at": created_at,
            "updated_at": updated_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.agent_metadata import AgentMetadata # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        organization_id = d.pop("organization_id")

        name = d.pop("name")

        claimed_domains = cast(list[str], d.pop("claimed_domains"))


        tools = cast(list[str], d.pop("tools"))


        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))


        metadata = AgentMetadata.from_dict(d.pop("metadata"))




        status = d.pop("status")

        created_at = d.pop("created_at")

        updated_at = d.pop("updated_at")

        agent = cls(
            id=id,
            organization_id=organization_id,
            name=name,
            claimed_domains=claimed_domains,
            tools=tools,
            description=description,
            metadata=metadata,
            status=status,
            created_at=created_at,
            updated_at=updated_at,
        )

        return agent

