from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.workflow_run_inputs import WorkflowRunInputs





T = TypeVar("T", bound="WorkflowRun")



@_attrs_define
class WorkflowRun:
    """ One run's S and its four parts (success, cost, latency, reliability).

        Attributes:
            agent (str):
            task_id (str):
            timestamp (None | str):
            s (float):
            s_success (float):
            s_cost (float):
            s_latency (float):
            s_reliability (float):
            gated (bool):
            unplanned_retries (int):
            inputs (WorkflowRunInputs):
            in_window (bool):
     """

    agent: str
    task_id: str
    timestamp: None | str
    s: float
    s_success: float
    s_cost: float
    s_latency: float
    s_reliability: float
    gated: bool
    unplanned_retries: int
    inputs: WorkflowRunInputs
    in_window: bool





    def to_dict(self) -> dict[str, Any]:
        from ..models.workflow_run_inputs import WorkflowRunInputs # noqa: PLC0415
        agent = self.agent

        task_id = self.task_id

        timestamp: None | str
        timestamp = self.timestamp

        s = self.s

        s_success = self.s_success

        s_cost = self.s_cost

        s_latency = self.s_latency

        s_reliability = self.s_reliability

        gated = self.gated

        unplanned_retries = self.unplanned_retries

        inputs = self.inputs.to_dict()

        in_window = self.in_window


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "agent": agent,
            "task_id": task_id,
            "timestamp": timestamp,
            "s": s,
            "s_success": s_success,
            "s_cost": s_cost,
            "s_latency": s_latency,
            "s_reliability": s_reliability,
            "gated": gated,
            "unplanned_retries": unplanned_retries,
            "inputs": inputs,
            "in_window": in_window,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.workflow_run_inputs import WorkflowRunInputs # noqa: PLC0415
        d = dict(src_dict)
        agent = d.pop("agent")

        task_id = d.pop("task_id")

        def _parse_timestamp(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        timestamp = _parse_timestamp(d.pop("timestamp"))


        s = d.pop("s")

        s_success = d.pop("s_success")

        s_cost = d.pop("s_cost")

        s_latency = d.pop("s_latency")

        s_reliability = d.pop("s_reliability")

        gated = d.pop("gated")

        unplanned_retries = d.pop("unplanned_retries")

        inputs = WorkflowRunInputs.from_dict(d.pop("inputs"))




        in_window = d.pop("in_window")

        workflow_run = cls(
            agent=agent,
            task_id=task_id,
            timestamp=timestamp,
            s=s,
            s_success=s_success,
            s_cost=s_cost,
            s_latency=s_latency,
            s_reliability=s_reliability,
            gated=gated,
            unplanned_retries=unplanned_retries,
            inputs=inputs,
            in_window=in_window,
        )

        return workflow_run

