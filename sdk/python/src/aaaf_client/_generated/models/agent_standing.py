from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.dimension_standing import DimensionStanding





T = TypeVar("T", bound="AgentStanding")



@_attrs_define
class AgentStanding:
    """ Where one of the caller's agents stands against the field.

    ``assessment_id`` is the agent's latest valid assessment (None: it has none, and
    ``standings`` is empty); ``standings`` has one entry per published cell of the ``all``
    domain and of each domain the agent claims, for each dimension it has a score on.

        Attributes:
            agent_id (str):
            agent_name (str):
            assessment_id (None | str):
            computed_at (None | str):
            organization_opted_in (bool):
            standings (list[DimensionStanding]):
     """

    agent_id: str
    agent_name: str
    assessment_id: None | str
    computed_at: None | str
    organization_opted_in: bool
    standings: list[DimensionStanding]





    def to_dict(self) -> dict[str, Any]:
        from ..models.dimension_standing import DimensionStanding # noqa: PLC0415
        agent_id = self.agent_id

        agent_name = self.agent_name

        assessment_id: None | str
        assessment_id = self.assessment_id

        computed_at: None | str
        computed_at = self.computed_at

        organization_opted_in = self.organization_opted_in

        standings = []
        for standings_item_data in self.standings:
            standings_item = standings_item_data.to_dict()
            standings.append(standings_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "agent_id": agent_id,
            "agent_name": agent_name,
            "assessment_id": assessment_id,
            "computed_at": computed_at,
            "organization_opted_in": organization_opted_in,
            "standings": standings,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dimension_standing import DimensionStanding # noqa: PLC0415
        d = dict(src_dict)
        agent_id = d.pop("agent_id")

        agent_name = d.pop("agent_name")

        def _parse_assessment_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        assessment_id = _parse_assessment_id(d.pop("assessment_id"))


        def _parse_computed_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        computed_at = _parse_computed_at(d.pop("computed_at"))


        organization_opted_in = d.pop("organization_opted_in")

        standings = []
        _standings = d.pop("standings")
        for standings_item_data in (_standings):
            standings_item = DimensionStanding.from_dict(standings_item_data)



            standings.append(standings_item)


        agent_standing = cls(
            agent_id=agent_id,
            agent_name=agent_name,
            assessment_id=assessment_id,
            computed_at=computed_at,
            organization_opted_in=organization_opted_in,
            standings=standings,
        )

        return agent_standing

