from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="AuditFindings")



@_attrs_define
class AuditFindings:
    """ Findings: each a sampled task with its ``finding`` filled in (as ``POST …/audits``
    answers it) or a ``task_audited`` event; ``auditor`` names who audited where an item
    does not.

        Attributes:
            findings (list[Any]):
            auditor (None | str | Unset):
     """

    findings: list[Any]
    auditor: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        findings = self.findings



        auditor: None | str | Unset
        if isinstance(self.auditor, Unset):
            auditor = UNSET
        else:
            auditor = self.auditor


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "findings": findings,
        })
        if auditor is not UNSET:
            field_dict["auditor"] = auditor

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        findings = cast(list[Any], d.pop("findings"))


        def _parse_auditor(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        auditor = _parse_auditor(d.pop("auditor", UNSET))


        audit_findings = cls(
            findings=findings,
            auditor=auditor,
        )

        return audit_findings

