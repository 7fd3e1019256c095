from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.audit_status_refuted_item import AuditStatusRefutedItem





T = TypeVar("T", bound="AuditStatus")



@_attrs_define
class AuditStatus:
    """ The §2.6 ``audit`` object of the window, after the window and the thresholds it was judged by.

        Attributes:
            agent (str):
            window_start (str):
            window_end (str):
            honesty_threshold (float):
            min_audited_tasks (int):
            coverage (float | None):
            honesty (float | None):
            audited_tasks (int):
            required_rate (float):
            met (bool):
            self_report_unreliable (bool):
            facts_checked (int):
            facts_refuted (int):
            completed_tasks (int):
            audited_completed_tasks (int):
            refuted (list[AuditStatusRefutedItem]):
            event_ids (list[str]):
            agent_id (None | str | Unset):
     """

    agent: str
    window_start: str
    window_end: str
    honesty_threshold: float
    min_audited_tasks: int
    coverage: float | None
    honesty: float | None
    audited_tasks: int
    required_rate: float
    met: bool
    self_report_unreliable: bool
    facts_checked: int
    facts_refuted: int
    completed_tasks: int
    audited_completed_tasks: int
    refuted: list[AuditStatusRefutedItem]
    event_ids: list[str]
    agent_id: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.audit_status_refuted_item import AuditStatusRefutedItem # noqa: PLC0415
        agent = self.agent

        window_start = self.window_start

        window_end = self.window_end

        honesty_threshold = self.honesty_threshold

        min_audited_tasks = self.min_audited_tasks

        coverage: float | None
        coverage = self.coverage

        honesty: float | None
        honesty = self.honesty

        audited_tasks = self.audited_tasks

        required_rate = self.required_rate

        met = self.met

        self_report_unreliable = self.self_report_unreliable

        facts_checked = self.facts_checked

        facts_refuted = self.facts_refuted

        completed_tasks = self.completed_tasks

        audited_completed_tasks = self.audited_completed_tasks

        refuted = []
        for refuted_item_data in self.refuted:
            refuted_item = refuted_item_data.to_dict()
            refuted.append(refuted_item)



        event_ids = self.event_ids



        agent_id: None | str | Unset
        if isinstance(self.agent_id, Unset):
            agent_id = UNSET
        else:
            agent_id = self.agent_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "agent": agent,
            "window_start": window_start,
            "window_end": window_end,
            "honesty_threshold": honesty_threshold,
            "min_audited_tasks": min_audited_tasks,
            "coverage": coverage,
            "honesty": honesty,
            "audited_tasks": audited_tasks,
            "required_rate": required_rate,
            "met": met,
            "self_report_unreliable": self_report_unreliable,
            "facts_checked": facts_checked,
            "facts_refuted": facts_refuted,
            "completed_tasks": completed_tasks,
            "audited_completed_tasks": audited_completed_tasks,
            "refuted": refuted,
            "event_ids": event_ids,
        })
        if agent_id is not UNSET:
            field_dict["agent_id"] = agent_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.audit_status_refuted_item import AuditStatusRefutedItem # noqa: PLC0415
        d = dict(src_dict)
        agent = d.pop("agent")

        window_start = d.pop("window_start")

        window_end = d.pop("window_end")

        honesty_threshold = d.pop("honesty_threshold")

        min_audited_tasks = d.pop("min_audited_tasks")

        def _parse_coverage(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        coverage = _parse_coverage(d.pop("coverage"))


        def _parse_honesty(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        honesty = _parse_honesty(d.pop("honesty"))


        audited_tasks = d.pop("audited_tasks")

        required_rate = d.pop("required_rate")

        met = d.pop("met")

        self_report_unreliable = d.pop("self_report_unreliable")

        facts_checked = d.pop("facts_checked")

        facts_refuted = d.pop("facts_refuted")

        completed_tasks = d.pop("completed_tasks")

        audited_completed_tasks = d.pop("audited_completed_tasks")

        refuted = []
        _refuted = d.pop("refuted")
        for refuted_item_data in (_refuted):
            refuted_item = AuditStatusRefutedItem.from_dict(refuted_item_data)



            refuted.append(refuted_item)


        event_ids = cast(list[str], d.pop("event_ids"))


        def _parse_agent_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        agent_id = _parse_agent_id(d.pop("agent_id", UNSET))


        audit_status = cls(
            agent=agent,
            window_start=window_start,
            window_end=window_end,
            honesty_threshold=honesty_threshold,
            min_audited_tasks=min_audited_tasks,
            coverage=coverage,
            honesty=honesty,
            audited_tasks=audited_tasks,
            required_rate=required_rate,
            met=met,
            self_report_unreliable=self_report_unreliable,
            facts_checked=facts_checked,
            facts_refuted=facts_refuted,
            completed_tasks=completed_tasks,
            audited_completed_tasks=audited_completed_tasks,
            refuted=refuted,
            event_ids=event_ids,
            agent_id=agent_id,
        )

        return audit_status

