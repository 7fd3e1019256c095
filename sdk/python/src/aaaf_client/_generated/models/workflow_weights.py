from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.workflow_agent_weight import WorkflowAgentWeight





T = TypeVar("T", bound="WorkflowWeights")



@_attrs_define
class WorkflowWeights:
    """ Each agent's window mean as a weight, normalised to 1 and capped.

        Attributes:
            scheme (str):
            window (int):
            cap (float):
            method (str):
            rounds (int):
            positive_agents (int):
            positive_needed (int):
            agents (list[WorkflowAgentWeight]):
            digest (str):
     """

    scheme: str
    window: int
    cap: float
    method: str
    rounds: int
    positive_agents: int
    positive_needed: int
    agents: list[WorkflowAgentWeight]
    digest: str





    def to_dict(self) -> dict[str, Any]:
        from ..models.workflow_agent_weight import WorkflowAgentWeight # noqa: PLC0415
        scheme = self.scheme

        window = self.window

        cap = self.cap

        method = self.method

        rounds = self.rounds

        positive_agents = self.positive_agents

        positive_needed = self.positive_needed

        agents = []
        for agents_item_data in self.agents:
            agents_item = agents_item_data.to_dict()
            agents.append(agents_item)



        digest = self.digest


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "scheme": scheme,
            "window": window,
            "cap": cap,
            "method": method,
            "rounds": rounds,
            "positive_agents": positive_agents,
            "positive_needed": positive_needed,
            "agents": agents,
            "digest": digest,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.workflow_agent_weight import WorkflowAgentWeight # noqa: PLC0415
        d = dict(src_dict)
        scheme = d.pop("scheme")

        window = d.pop("window")

        cap = d.pop("cap")

        method = d.pop("method")

        rounds = d.pop("rounds")

        positive_agents = d.pop("positive_agents")

        positive_needed = d.pop("positive_needed")

        agents = []
        _agents = d.pop("agents")
        for agents_item_data in (_agents):
            agents_item = WorkflowAgentWeight.from_dict(agents_item_data)



            agents.append(agents_item)


        digest = d.pop("digest")

        workflow_weights = cls(
            scheme=scheme,
            window=window,
            cap=cap,
            method=method,
            rounds=rounds,
            positive_agents=positive_agents,
            positive_needed=positive_needed,
            agents=agents,
            digest=digest,
        )

        return workflow_weights

