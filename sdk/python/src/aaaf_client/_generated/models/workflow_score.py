from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.workflow_agent_mean import WorkflowAgentMean
  from ..models.workflow_run import WorkflowRun





T = TypeVar("T", bound="WorkflowScore")



@_attrs_define
class WorkflowScore:
    """ 
        Attributes:
            scheme (str):
            window (int):
            runs (list[WorkflowRun]):
            agents (list[WorkflowAgentMean]):
            digest (str):
     """

    scheme: str
    window: int
    runs: list[WorkflowRun]
    agents: list[WorkflowAgentMean]
    digest: str





    def to_dict(self) -> dict[str, Any]:
        from ..models.workflow_agent_mean import WorkflowAgentMean # noqa: PLC0415
        from ..models.workflow_run import WorkflowRun # noqa: PLC0415
        scheme = self.scheme

        window = self.window

        runs = []
        for runs_item_data in self.runs:
            runs_item = runs_item_data.to_dict()
            runs.append(runs_item)



        agents = []
        for agents_item_data in self.agents:
            agents_item = agents_item_data.to_dict()
            agents.append(agents_item)



        digest = self.digest


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "scheme": scheme,
            "window": window,
            "runs": runs,
            "agents": agents,
            "digest": digest,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.workflow_agent_mean import WorkflowAgentMean # noqa: PLC0415
        from ..models.workflow_run import WorkflowRun # noqa: PLC0415
        d = dict(src_dict)
        scheme = d.pop("scheme")

        window = d.pop("window")

        runs = []
        _runs = d.pop("runs")
        for runs_item_data in (_runs):
            runs_item = WorkflowRun.from_dict(runs_item_data)



            runs.append(runs_item)


        agents = []
        _agents = d.pop("agents")
        for agents_item_data in (_agents):
            agents_item = WorkflowAgentMean.from_dict(agents_item_data)



            agents.append(agents_item)


        digest = d.pop("digest")

        workflow_score = cls(
            scheme=scheme,
            window=window,
            runs=runs,
            agents=agents,
            digest=digest,
        )

        return workflow_score

