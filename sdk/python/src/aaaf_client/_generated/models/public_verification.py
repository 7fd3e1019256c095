from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.public_verification_evidence_sources_type_0 import PublicVerificationEvidenceSourcesType0





T = TypeVar("T", bound="PublicVerification")



@_attrs_define
class PublicVerification:
    """ ``GET /api/v1/badges/{id}/verify`` (public; docs/api.md "Verification page"): whether the
    badge on record is valid and what it says.  A private badge answers only ``valid``,
    ``assessment_id`` and ``visibility``.

        Attributes:
            valid (bool):
            assessment_id (str):
            visibility (None | str | Unset):
            agent_name (None | str | Unset):
            organization (None | str | Unset):
            performance_tier (None | str | Unset):
            capability_tier (None | str | Unset):
            evidence_sources (None | PublicVerificationEvidenceSourcesType0 | Unset):
            issued (None | str | Unset):
            valid_until (None | str | Unset):
            expired (bool | None | Unset):
            revoked (bool | None | Unset):
            reason (None | str | Unset):
     """

    valid: bool
    assessment_id: str
    visibility: None | str | Unset = UNSET
    agent_name: None | str | Unset = UNSET
    organization: None | str | Unset = UNSET
    performance_tier: None | str | Unset = UNSET
    capability_tier: None | str | Unset = UNSET
    evidence_sources: None | PublicVerificationEvidenceSourcesType0 | Unset = UNSET
    issued: None | str | Unset = UNSET
    valid_until: None | str | Unset = UNSET
    expired: bool | None | Unset = UNSET
    revoked: bool | None | Unset = UNSET
    reason: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.public_verification_evidence_sources_type_0 import PublicVerificationEvidenceSourcesType0 # noqa: PLC0415
        valid = self.valid

        assessment_id = self.assessment_id

        visibility: None | str | Unset
        if isinstance(self.visibility, Unset):
            visibility = UNSET
        else:
            visibility = self.visibility

        agent_name: None | str | Unset
        if isinstance(self.agent_name, Unset):
            agent_name = UNSET
        else:
            agent_name = self.agent_name

        organization: None | str | Unset
        if isinstance(self.organization, Unset):
            organization = UNSET
        else:
            organization = self.organization

        performance_tier: None | str | Unset
        if isinstance(self.performance_tier, Unset):
            performance_tier = UNSET
        else:
            performance_tier = self.performance_tier

        capability_tier: None | str | Unset
        if isinstance(self.capability_tier, Unset):
            capability_tier = UNSET
        else:
            capability_tier = self.capability_tier

        evidence_sources: dict[str, Any] | None | Unset
        if isinstance(self.evidence_sources, Unset):
            evidence_sources = UNSET
        elif isinstance(self.evidence_sources, PublicVerificationEvidenceSourcesType0):
            evidence_sources = self.evidence_sources.to_dict()
        else:
            evidence_sources = self.evidence_sources

        issued: None | str | Unset
        if isinstance(self.issued, Unset):
            issued = UNSET
        else:
            issued = self.issued

        valid_until: None | str | Unset
        if isinstance(self.valid_until, Unset):
            valid_until = UNSET
        else:
            valid_until = self.valid_until

        expired: bool | None | Unset
        if isinstance(self.expired, Unset):
            expired = UNSET
        else:
            expired = self.expired

        revoked: bool | None | Unset
        if isinstance(self.revoked, Unset):
            revoked = UNSET
        else:
            revoked = self.revoked

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "valid": valid,
            "assessment_id": assessment_id,
        })
        if visibility is not UNSET:
            field_dict["visibility"] = visibility
        if agent_name is not UNSET:
            field_dict["agent_name"] = agent_name
        if organization is not UNSET:
            field_dict["organization"] = organization
        if performance_tier is not UNSET:
            field_dict["performance_tier"] = performance_tier
        if capability_tier is not UNSET:
            field_dict["capability_tier"] = capability_tier
        if evidence_sources is not UNSET:
            field_dict["evidence_sources"] = evidence_sources
        if issued is not UNSET:
            field_dict["issued"] = issued
        if valid_until is not UNSET:
            field_dict["valid_until"] = valid_until
        if expired is not UNSET:
            field_dict["expired"] = expired
        if revoked is not UNSET:
            field_dict["revoked"] = revoked
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.public_verification_evidence_sources_type_0 import PublicVerificationEvidenceSourcesType0 # noqa: PLC0415
        d = dict(src_dict)
        valid = d.pop("valid")

        assessment_id = d.pop("assessment_id")

        def _parse_visibility(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        visibility = _parse_visibility(d.pop("visibility", UNSET))


        def _parse_agent_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        agent_name = _parse_agent_name(d.pop("agent_name", UNSET))


        def _parse_organization(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        organization = _parse_organization(d.pop("organization", UNSET))


        def _parse_performance_tier(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        performance_tier = _parse_performance_tier(d.pop("performance_tier", UNSET))


        def _parse_capability_tier(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        capability_tier = _parse_capability_tier(d.pop("capability_tier", UNSET))


        def _parse_evidence_sources(data: object) -> None | PublicVerificationEvidenceSourcesType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                evidence_sources_type_0 = PublicVerificationEvidenceSourcesType0.from_dict(data)



                return evidence_sources_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PublicVerificationEvidenceSourcesType0 | Unset, data)

        evidence_sources = _parse_evidence_sources(d.pop("evidence_sources", UNSET))


        def _parse_issued(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        issued = _parse_issued(d.pop("issued", UNSET))


        def _parse_valid_until(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        valid_until = _parse_valid_until(d.pop("valid_until", UNSET))


        def _parse_expired(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        expired = _parse_expired(d.pop("expired", UNSET))


        def _parse_revoked(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        revoked = _parse_revoked(d.pop("revoked", UNSET))


        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))


        public_verification = cls(
            valid=valid,
            assessment_id=assessment_id,
            visibility=visibility,
            agent_name=agent_name,
            organization=organization,
            performance_tier=performance_tier,
            capability_tier=capability_tier,
            evidence_sources=evidence_sources,
            issued=issued,
            valid_until=valid_until,
            expired=expired,
            revoked=revoked,
            reason=reason,
        )

        return public_verification

