from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.audit_summary_refuted_item import AuditSummaryRefutedItem





T = TypeVar("T", bound="AuditSummary")



@_attrs_define
class AuditSummary:
    """ The ``audit`` object of docs/scoring.md §3.9.

        Attributes:
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
            refuted (list[AuditSummaryRefutedItem]):
            event_ids (list[str]):
     """

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
    refuted: list[AuditSummaryRefutedItem]
    event_ids: list[str]





    def to_dict(self) -> dict[str, Any]:
        from ..models.audit_summary_refuted_item import AuditSummaryRefutedItem # noqa: PLC0415
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




        field_dict: dict[str, Any] = {}

        field_dict.update({
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

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.audit_summary_refuted_item import AuditSummaryRefutedItem # noqa: PLC0415
        d = dict(src_dict)
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
            refuted_item = AuditSummaryRefutedItem.from_dict(refuted_item_data)



            refuted.append(refuted_item)


        event_ids = cast(list[str], d.pop("event_ids"))


        audit_summary = cls(
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
        )

        return audit_summary

