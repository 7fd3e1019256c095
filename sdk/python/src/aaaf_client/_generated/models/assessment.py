from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.assessment_appeals_type_0_item import AssessmentAppealsType0Item
  from ..models.assessment_error_type_1 import AssessmentErrorType1
  from ..models.audit_summary import AuditSummary
  from ..models.axis_score import AxisScore
  from ..models.badge_urls import BadgeUrls
  from ..models.evidence_sources import EvidenceSources





T = TypeVar("T", bound="Assessment")



@_attrs_define
class Assessment:
    """ docs/api.md assessment object; the fields after ``completed_at`` are the
    record's (present in listings and in the API's answer).

        Attributes:
            id (str):
            agent_id (str):
            status (str):
            performance (AxisScore | None):
            capability (AxisScore | None):
            badge_urls (BadgeUrls):
            valid_until (None | str):
            created_at (None | str):
            completed_at (None | str):
            audit (AuditSummary | None | Unset):
            evidence_sources (EvidenceSources | None | Unset):
            type_ (None | str | Unset):
            dimension (None | str | Unset):
            status_detail (None | str | Unset): While pending: 'waiting for a worker' (docs/jobs.md, "Is anybody working?").
            window_start (None | str | Unset):
            window_end (None | str | Unset):
            anomalous (bool | None | Unset):
            review_state (None | str | Unset):
            error (AssessmentErrorType1 | None | str | Unset):
            appeals (list[AssessmentAppealsType0Item] | None | Unset):
     """

    id: str
    agent_id: str
    status: str
    performance: AxisScore | None
    capability: AxisScore | None
    badge_urls: BadgeUrls
    valid_until: None | str
    created_at: None | str
    completed_at: None | str
    audit: AuditSummary | None | Unset = UNSET
    evidence_sources: EvidenceSources | None | Unset = UNSET
    type_: None | str | Unset = UNSET
    dimension: None | str | Unset = UNSET
    status_detail: None | str | Unset = UNSET
    window_start: None | str | Unset = UNSET
    window_end: None | str | Unset = UNSET
    anomalous: bool | None | Unset = UNSET
    review_state: None | str | Unset = UNSET
    error: AssessmentErrorType1 | None | str | Unset = UNSET
    appeals: list[AssessmentAppealsType0Item] | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.assessment_appeals_type_0_item import AssessmentAppealsType0Item # noqa: PLC0415
        from ..models.assessment_error_type_1 import AssessmentErrorType1 # noqa: PLC0415
        from ..models.audit_summary import AuditSummary # noqa: PLC0415
        from ..models.axis_score import AxisScore # noqa: PLC0415
        from ..models.badge_urls import BadgeUrls # noqa: PLC0415
        from ..models.evidence_sources import EvidenceSources # noqa: PLC0415
        id = self.id

        agent_id = self.agent_id

        status = self.status

        performance: dict[str, Any] | None
        if isinstance(self.performance, AxisScore):
            performance = self.performance.to_dict()
        else:
            performance = self.performance

        capability: dict[str, Any] | None
        if isinstance(self.capability, AxisScore):
            capability = self.capability.to_dict()
        else:
            capability = self.capability

        badge_urls = self.badge_urls.to_dict()

        valid_until: None | str
        valid_until = self.valid_until

        created_at: None | str
        created_at = self.created_at

        completed_at: None | str
        completed_at = self.completed_at

        audit: dict[str, Any] | None | Unset
        if isinstance(self.audit, Unset):
            audit = UNSET
        elif isinstance(self.audit, AuditSummary):
            audit = self.audit.to_dict()
        else:
            audit = self.audit

        evidence_sources: dict[str, Any] | None | Unset
        if isinstance(self.evidence_sources, Unset):
            evidence_sources = UNSET
        elif isinstance(self.evidence_sources, EvidenceSources):
            evidence_sources = self.evidence_sources.to_dict()
        else:
            evidence_sources = self.evidence_sources

        type_: None | str | Unset
        if isinstance(self.type_, Unset):
            type_ = UNSET
        else:
            type_ = self.type_

        dimension: None | str | Unset
        if isinstance(self.dimension, Unset):
            dimension = UNSET
        else:
            dimension = self.dimension

        status_detail: None | str | Unset
        if isinstance(self.status_detail, Unset):
            status_detail = UNSET
        else:
            status_detail = self.status_detail

        window_start: None | str | Unset
        if isinstance(self.window_start, Unset):
            window_start = UNSET
        else:
            window_start = self.window_start

        window_end: None | str | Unset
        if isinstance(self.window_end, Unset):
            window_end = UNSET
        else:
            window_end = self.window_end

        anomalous: bool | None | Unset
        if isinstance(self.anomalous, Unset):
            anomalous = UNSET
        else:
            anomalous = self.anomalous

        review_state: None | str | Unset
        if isinstance(self.review_state, Unset):
            review_state = UNSET
        else:
            review_state = self.review_state

        error: dict[str, Any] | None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        elif isinstance(self.error, AssessmentErrorType1):
            error = self.error.to_dict()
        else:
            error = self.error

        appeals: list[dict[str, Any]] | None | Unset
        if isinstance(self.appeals, Unset):
            appeals = UNSET
        elif isinstance(self.appeals, list):
            appeals = []
            for appeals_type_0_item_data in self.appeals:
                appeals_type_0_item = appeals_type_0_item_data.to_dict()
                appeals.append(appeals_type_0_item)


        else:
            appeals = self.appeals


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "agent_id": agent_id,
            "status": status,
            "performance": performance,
            "capability": capability,
            "badge_urls": badge_urls,
            "valid_until": valid_until,
            "created_at": created_at,
            "completed_at": completed_at,
        })
        if audit is not UNSET:
            field_dict["audit"] = audit
        if evidence_sources is not UNSET:
            field_dict["evidence_sources"] = evidence_sources
        if type_ is not UNSET:
            field_dict["type"] = type_
        if dimension is not UNSET:
            field_dict["dimension"] = dimension
        if status_detail is not UNSET:
            field_dict["status_detail"] = status_detail
        if window_start is not UNSET:
            field_dict["window_start"] = window_start
        if window_end is not UNSET:
            field_dict["window_end"] = window_end
        if anomalous is not UNSET:
            field_dict["anomalous"] = anomalous
        if review_state is not UNSET:
            field_dict["review_state"] = review_state
        if error is not UNSET:
            field_dict["error"] = error
        if appeals is not UNSET:
            field_dict["appeals"] = appeals

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.assessment_appeals_type_0_item import AssessmentAppealsType0Item # noqa: PLC0415
        from ..models.assessment_error_type_1 import AssessmentErrorType1 # noqa: PLC0415
        from ..models.audit_summary import AuditSummary # noqa: PLC0415
        from ..models.axis_score import AxisScore # noqa: PLC0415
        from ..models.badge_urls import BadgeUrls # noqa: PLC0415
        from ..models.evidence_sources import EvidenceSources # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        agent_id = d.pop("agent_id")

        status = d.pop("status")

        def _parse_performance(data: object) -> AxisScore | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                performance_type_0 = AxisScore.from_dict(data)



                return performance_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AxisScore | None, data)

        performance = _parse_performance(d.pop("performance"))


        def _parse_capability(data: object) -> AxisScore | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                capability_type_0 = AxisScore.from_dict(data)



                return capability_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AxisScore | None, data)

        capability = _parse_capability(d.pop("capability"))


        badge_urls = BadgeUrls.from_dict(d.pop("badge_urls"))




        def _parse_valid_until(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        valid_until = _parse_valid_until(d.pop("valid_until"))


        def _parse_created_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        created_at = _parse_created_at(d.pop("created_at"))


        def _parse_completed_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        completed_at = _parse_completed_at(d.pop("completed_at"))


        def _parse_audit(data: object) -> AuditSummary | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                audit_type_0 = AuditSummary.from_dict(data)



                return audit_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AuditSummary | None | Unset, data)

        audit = _parse_audit(d.pop("audit", UNSET))


        def _parse_evidence_sources(data: object) -> EvidenceSources | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                evidence_sources_type_0 = EvidenceSources.from_dict(data)



                return evidence_sources_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EvidenceSources | None | Unset, data)

        evidence_sources = _parse_evidence_sources(d.pop("evidence_sources", UNSET))


        def _parse_type_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        type_ = _parse_type_(d.pop("type", UNSET))


        def _parse_dimension(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        dimension = _parse_dimension(d.pop("dimension", UNSET))


        def _parse_status_detail(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        status_detail = _parse_status_detail(d.pop("status_detail", UNSET))


        def _parse_window_start(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        window_start = _parse_window_start(d.pop("window_start", UNSET))


        def _parse_window_end(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        window_end = _parse_window_end(d.pop("window_end", UNSET))


        def _parse_anomalous(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        anomalous = _parse_anomalous(d.pop("anomalous", UNSET))


        def _parse_review_state(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        review_state = _parse_review_state(d.pop("review_state", UNSET))


        def _parse_error(data: object) -> AssessmentErrorType1 | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_1 = AssessmentErrorType1.from_dict(data)



                return error_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AssessmentErrorType1 | None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))


        def _parse_appeals(data: object) -> list[AssessmentAppealsType0Item] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                appeals_type_0 = []
                _appeals_type_0 = data
                for appeals_type_0_item_data in (_appeals_type_0):
                    appeals_type_0_item = AssessmentAppealsType0Item.from_dict(appeals_type_0_item_data)



                    appeals_type_0.append(appeals_type_0_item)

                return appeals_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[AssessmentAppealsType0Item] | None | Unset, data)

        appeals = _parse_appeals(d.pop("appeals", UNSET))


        assessment = cls(
            id=id,
            agent_id=agent_id,
            status=status,
            performance=performance,
            capability=capability,
            badge_urls=badge_urls,
            valid_until=valid_until,
            created_at=created_at,
            completed_at=completed_at,
            audit=audit,
            evidence_sources=evidence_sources,
            type_=type_,
            dimension=dimension,
            status_detail=status_detail,
            window_start=window_start,
            window_end=window_end,
            anomalous=anomalous,
            review_state=review_state,
            error=error,
            appeals=appeals,
        )

        return assessment

