from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.blank_finding import BlankFinding
  from ..models.reported_facts import ReportedFacts





T = TypeVar("T", bound="AuditSampleTask")



@_attrs_define
class AuditSampleTask:
    """ One sampled task (one worksheet row): what the agent reported about it, and blank
    finding fields.

        Attributes:
            agent (str):
            task_id (str):
            completed_at (None | str):
            domain (None | str):
            complexity_level (int | None):
            self_reported (ReportedFacts): What the agent reported about a sampled task, before any finding.
            finding (BlankFinding): The finding fields of a drawn task, left blank for the auditor.
     """

    agent: str
    task_id: str
    completed_at: None | str
    domain: None | str
    complexity_level: int | None
    self_reported: ReportedFacts
    finding: BlankFinding
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.blank_finding import BlankFinding # noqa: PLC0415
        from ..models.reported_facts import ReportedFacts # noqa: PLC0415
        agent = self.agent

        task_id = self.task_id

        completed_at: None | str
        completed_at = self.completed_at

        domain: None | str
        domain = self.domain

        complexity_level: int | None
        complexity_level = self.complexity_level

        self_reported = self.self_reported.to_dict()

        finding = self.finding.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "agent": agent,
            "task_id": task_id,
            "completed_at": completed_at,
            "domain": domain,
            "complexity_level": complexity_level,
            "self_reported": self_reported,
            "finding": finding,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.blank_finding import BlankFinding # noqa: PLC0415
        from ..models.reported_facts import ReportedFacts # noqa: PLC0415
        d = dict(src_dict)
        agent = d.pop("agent")

        task_id = d.pop("task_id")

        def _parse_completed_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        completed_at = _parse_completed_at(d.pop("completed_at"))


        def _parse_domain(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        domain = _parse_domain(d.pop("domain"))


        def _parse_complexity_level(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        complexity_level = _parse_complexity_level(d.pop("complexity_level"))


        self_reported = ReportedFacts.from_dict(d.pop("self_reported"))




        finding = BlankFinding.from_dict(d.pop("finding"))




        audit_sample_task = cls(
            agent=agent,
            task_id=task_id,
            completed_at=completed_at,
            domain=domain,
            complexity_level=complexity_level,
            self_reported=self_reported,
            finding=finding,
        )


        audit_sample_task.additional_properties = d
        return audit_sample_task

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
