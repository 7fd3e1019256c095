from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="AuditCause")



@_attrs_define
class AuditCause:
    """ Audit findings recorded between the two assessments, and the honesty result the later
    assessment drew from its window's findings (docs/scoring.md §2.6).

        Attributes:
            audited_tasks (int): Tasks audited between the two assessments.
            first_at (str):
            last_at (str):
            auditors (list[str] | Unset):
            honesty (float | None | Unset):
            facts_checked (int | Unset):  Default: 0.
            facts_refuted (int | Unset):  Default: 0.
            self_report_unreliable (bool | Unset):  Default: False.
     """

    audited_tasks: int
    first_at: str
    last_at: str
    auditors: list[str] | Unset = UNSET
    honesty: float | None | Unset = UNSET
    facts_checked: int | Unset = 0
    facts_refuted: int | Unset = 0
    self_report_unreliable: bool | Unset = False





    def to_dict(self) -> dict[str, Any]:
        audited_tasks = self.audited_tasks

        first_at = self.first_at

        last_at = self.last_at

        auditors: list[str] | Unset = UNSET
        if not isinstance(self.auditors, Unset):
            auditors = self.auditors



        honesty: float | None | Unset
        if isinstance(self.honesty, Unset):
            honesty = UNSET
        else:
            honesty = self.honesty

        facts_checked = self.facts_checked

        facts_refuted = self.facts_refuted

        self_report_unreliable = self.self_report_unreliable


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "audited_tasks": audited_tasks,
            "first_at": first_at,
            "last_at": last_at,
        })
        if auditors is not UNSET:
            field_dict["auditors"] = auditors
        if honesty is not UNSET:
            field_dict["honesty"] = honesty
        if facts_checked is not UNSET:
            field_dict["facts_checked"] = facts_checked
        if facts_refuted is not UNSET:
            field_dict["facts_refuted"] = facts_refuted
        if self_report_unreliable is not UNSET:
            field_dict["self_report_unreliable"] = self_report_unreliable

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        audited_tasks = d.pop("audited_tasks")

        first_at = d.pop("first_at")

        last_at = d.pop("last_at")

        auditors = cast(list[str], d.pop("auditors", UNSET))


        def _parse_honesty(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        honesty = _parse_honesty(d.pop("honesty", UNSET))


        facts_checked = d.pop("facts_checked", UNSET)

        facts_refuted = d.pop("facts_refuted", UNSET)

        self_report_unreliable = d.pop("self_report_unreliable", UNSET)

        audit_cause = cls(
            audited_tasks=audited_tasks,
            first_at=first_at,
            last_at=last_at,
            auditors=auditors,
            honesty=honesty,
            facts_checked=facts_checked,
            facts_refuted=facts_refuted,
            self_report_unreliable=self_report_unreliable,
        )

        return audit_cause

