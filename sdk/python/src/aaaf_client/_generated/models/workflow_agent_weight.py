from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="WorkflowAgentWeight")



@_attrs_define
class WorkflowAgentWeight:
    """ 
        Attributes:
            agent (str):
            window_mean (float | None):
            runs (int):
            runs_total (int):
            weight (float):
            capped (bool):
     """

    agent: str
    window_mean: float | None
    runs: int
    runs_total: int
    weight: float
    capped: bool





    def to_dict(self) -> dict[str, Any]:
        agent = self.agent

        window_mean: float | None
        window_mean = self.window_mean

        runs = self.runs

        runs_total = self.runs_total

        weight = self.weight

        capped = self.capped


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "agent": agent,
            "window_mean": window_mean,
            "runs": runs,
            "runs_total": runs_total,
            "weight": weight,
            "capped": capped,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        agent = d.pop("agent")

        def _parse_window_mean(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        window_mean = _parse_window_mean(d.pop("window_mean"))


        runs = d.pop("runs")

        runs_total = d.pop("runs_total")

        weight = d.pop("weight")

        capped = d.pop("capped")

        workflow_agent_weight = cls(
            agent=agent,
            window_mean=window_mean,
            runs=runs,
            runs_total=runs_total,
            weight=weight,
            capped=capped,
        )

        return workflow_agent_weight

