from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.appeal_counter_evidence_item import AppealCounterEvidenceItem
  from ..models.appeal_resolution_type_0 import AppealResolutionType0





T = TypeVar("T", bound="Appeal")



@_attrs_define
class Appeal:
    """ An appeal against an assessment: what is challenged, why, and how it was resolved.

        Attributes:
            id (str):
            assessment_id (str):
            dimensions_challenged (list[str]):
            justification (str):
            counter_evidence (list[AppealCounterEvidenceItem]):
            status (str):
            reviewer_notes (None | str):
            resolution (AppealResolutionType0 | None):
            filed_at (str):
            resolved_at (None | str):
     """

    id: str
    assessment_id: str
    dimensions_challenged: list[str]
    justification: str
    counter_evidence: list[AppealCounterEvidenceItem]
    status: str
    reviewer_notes: None | str
    resolution: AppealResolutionType0 | None
    filed_at: str
    resolved_at: None | str





    def to_dict(self) -> dict[str, Any]:
        from ..models.appeal_counter_evidence_item import AppealCounterEvidenceItem # noqa: PLC0415
        from ..models.appeal_resolution_type_0 import AppealResolutionType0 # noqa: PLC0415
        id = self.id

        assessment_id = self.assessment_id

        dimensions_challenged = self.dimensions_challenged



        justification = self.justification

        counter_evidence = []
        for counter_evidence_item_data in self.counter_evidence:
            counter_evidence_item = counter_evidence_item_data.to_dict()
            counter_evidence.append(counter_evidence_item)



        status = self.status

        reviewer_notes: None | str
        reviewer_notes = self.reviewer_notes

        resolution: dict[str, Any] | None
        if isinstance(self.resolution, AppealResolutionType0):
            resolution = self.resolution.to_dict()
        else:
            resolution = self.resolution

        filed_at = self.filed_at

        resolved_at: None | str
        resolved_at = self.resolved_at


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "assessment_id": assessment_id,
            "dimensions_challenged": dimensions_challenged,
            "justification": justification,
            "counter_evidence": counter_evidence,
            "status": status,
            "reviewer_notes": reviewer_notes,
            "resolution": resolution,
            "filed_at": filed_at,
            "resolved_at": resolved_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.appeal_counter_evidence_item import AppealCounterEvidenceItem # noqa: PLC0415
        from ..models.appeal_resolution_type_0 import AppealResolutionType0 # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        assessment_id = d.pop("assessment_id")

        dimensions_challenged = cast(list[str], d.pop("dimensions_challenged"))


        justification = d.pop("justification")

        counter_evidence = []
        _counter_evidence = d.pop("counter_evidence")
        for counter_evidence_item_data in (_counter_evidence):
            counter_evidence_item = AppealCounterEvidenceItem.from_dict(counter_evidence_item_data)



            counter_evidence.append(counter_evidence_item)


        status = d.pop("status")

        def _parse_reviewer_notes(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reviewer_notes = _parse_reviewer_notes(d.pop("reviewer_notes"))


        def _parse_resolution(data: object) -> AppealResolutionType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                resolution_type_0 = AppealResolutionType0.from_dict(data)



                return resolution_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AppealResolutionType0 | None, data)

        resolution = _parse_resolution(d.pop("resolution"))


        filed_at = d.pop("filed_at")

        def _parse_resolved_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        resolved_at = _parse_resolved_at(d.pop("resolved_at"))


        appeal = cls(
            id=id,
            assessment_id=assessment_id,
            dimensions_challenged=dimensions_challenged,
            justification=justification,
            counter_evidence=counter_evidence,
            status=status,
            reviewer_notes=reviewer_notes,
            resolution=resolution,
            filed_at=filed_at,
            resolved_at=resolved_at,
        )

        return appeal

