from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.audit_sample_task import AuditSampleTask





T = TypeVar("T", bound="AuditSample")



@_attrs_define
class AuditSample:
    """ The audit sample of an agent's window: the agent's id, the draw, then its tasks (the
    worksheet's rows).  The server keeps no record of it: the same ``rate``, ``seed`` and
    ``window_end`` (all answered) draw the same tasks again.

        Attributes:
            agent_id (str):
            agent (str):
            window_start (str):
            window_end (str):
            rate (float):
            seed (int):
            completed_tasks (int):
            sampled (int):
            tasks (list[AuditSampleTask]):
     """

    agent_id: str
    agent: str
    window_start: str
    window_end: str
    rate: float
    seed: int
    completed_tasks: int
    sampled: int
    tasks: list[AuditSampleTask]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.audit_sample_task import AuditSampleTask # noqa: PLC0415
        agent_id = self.agent_id

        agent = self.agent

        window_start = self.window_start

        window_end = self.window_end

        rate = self.rate

        seed = self.seed

        completed_tasks = self.completed_tasks

        sampled = self.sampled

        tasks = []
        for tasks_item_data in self.tasks:
            tasks_item = tasks_item_data.to_dict()
            tasks.append(tasks_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "agent_id": agent_id,
            "agent": agent,
            "window_start": window_start,
            "window_end": window_end,
            "rate": rate,
            "seed": seed,
            "completed_tasks": completed_tasks,
            "sampled": sampled,
            "tasks": tasks,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.audit_sample_task import AuditSampleTask # noqa: PLC0415
        d = dict(src_dict)
        agent_id = d.pop("agent_id")

        agent = d.pop("agent")

        window_start = d.pop("window_start")

        window_end = d.pop("window_end")

        rate = d.pop("rate")

        seed = d.pop("seed")

        completed_tasks = d.pop("completed_tasks")

        sampled = d.pop("sampled")

        tasks = []
        _tasks = d.pop("tasks")
        for tasks_item_data in (_tasks):
            tasks_item = AuditSampleTask.from_dict(tasks_item_data)



            tasks.append(tasks_item)


        audit_sample = cls(
            agent_id=agent_id,
            agent=agent,
            window_start=window_start,
            window_end=window_end,
            rate=rate,
            seed=seed,
            completed_tasks=completed_tasks,
            sampled=sampled,
            tasks=tasks,
        )


        audit_sample.additional_properties = d
        return audit_sample

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
