from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.badge_on_record_json_data_type_0 import BadgeOnRecordJsonDataType0





T = TypeVar("T", bound="BadgeOnRecord")



@_attrs_define
class BadgeOnRecord:
    """ A badge record of the organization (``GET``/``PATCH /api/v1/badges/{id}``): its latest
    credential, status-list bit, dates, revocation and visibility.  A badge not issued yet
    answers only ``assessment_id`` and ``visibility``.

        Attributes:
            assessment_id (str):
            visibility (str):
            id (None | str | Unset):
            agent_id (None | str | Unset):
            organization_id (None | str | Unset):
            status_index (int | None | Unset):
            svg_url (None | str | Unset):
            png_url (None | str | Unset):
            json_data (BadgeOnRecordJsonDataType0 | None | Unset):
            credential_jwt (None | str | Unset):
            issued_at (None | str | Unset):
            valid_until (None | str | Unset):
            revoked (bool | None | Unset):
            revoked_at (None | str | Unset):
            revoke_reason (None | str | Unset):
            superseded_at (None | str | Unset):
            current (bool | None | Unset):
     """

    assessment_id: str
    visibility: str
    id: None | str | Unset = UNSET
    agent_id: None | str | Unset = UNSET
    organization_id: None | str | Unset = UNSET
    status_index: int | None | Unset = UNSET
    svg_url: None | str | Unset = UNSET
    png_url: None | str | Unset = UNSET
    json_data: BadgeOnRecordJsonDataType0 | None | Unset = UNSET
    credential_jwt: None | str | Unset = UNSET
    issued_at: None | str | Unset = UNSET
    valid_until: None | str | Unset = UNSET
    revoked: bool | None | Unset = UNSET
    revoked_at: None | str | Unset = UNSET
    revoke_reason: None | str | Unset = UNSET
    superseded_at: None | str | Unset = UNSET
    current: bool | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.badge_on_record_json_data_type_0 import BadgeOnRecordJsonDataType0 # noqa: PLC0415
        assessment_id = self.assessment_id

        visibility = self.visibility

        id: None | str | Unset
        if isinstance(self.id, Unset):
            id = UNSET
        else:
            id = self.id

        agent_id: None | str | Unset
        if isinstance(self.agent_id, Unset):
            agent_id = UNSET
        else:
            agent_id = self.agent_id

        organization_id: None | str | Unset
        if isinstance(self.organization_id, Unset):
            organization_id = UNSET
        else:
            organization_id = self.organization_id

        status_index: int | None | Unset
        if isinstance(self.status_index, Unset):
            status_index = UNSET
        else:
            status_index = self.status_index

        svg_url: None | str | Unset
        if isinstance(self.svg_url, Unset):
            svg_url = UNSET
        else:
            svg_url = self.svg_url

        png_url: None | str | Unset
        if isinstance(self.png_url, Unset):
            png_url = UNSET
        else:
            png_url = self.png_url

        json_data: dict[str, Any] | None | Unset
        if isinstance(self.json_data, Unset):
            json_data = UNSET
        elif isinstance(self.json_data, BadgeOnRecordJsonDataType0):
            json_data = self.json_data.to_dict()
        else:
            json_data = self.json_data

        credential_jwt: None | str | Unset
        if isinstance(self.credential_jwt, Unset):
            credential_jwt = UNSET
        else:
            credential_jwt = self.credential_jwt

        issued_at: None | str | Unset
        if isinstance(self.issued_at, Unset):
            issued_at = UNSET
        else:
            issued_at = self.issued_at

        valid_until: None | str | Unset
        if isinstance(self.valid_until, Unset):
            valid_until = UNSET
        else:
            valid_until = self.valid_until

        revoked: bool | None | Unset
        if isinstance(self.revoked, Unset):
            revoked = UNSET
        else:
            revoked = self.revoked

        revoked_at: None | str | Unset
        if isinstance(self.revoked_at, Unset):
            revoked_at = UNSET
        else:
            revoked_at = self.revoked_at

        revoke_reason: None | str | Unset
        if isinstance(self.revoke_reason, Unset):
            revoke_reason = UNSET
        else:
            revoke_reason = self.revoke_reason

        superseded_at: None | str | Unset
        if isinstance(self.superseded_at, Unset):
            superseded_at = UNSET
        else:
            superseded_at = self.superseded_at

        current: bool | None | Unset
        if isinstance(self.current, Unset):
            current = UNSET
        else:
            current = self.current


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "assessment_id": assessment_id,
            "visibility": visibility,
        })
        if id is not UNSET:
            field_dict["id"] = id
        if agent_id is not UNSET:
            field_dict["agent_id"] = agent_id
        if organization_id is not UNSET:
            field_dict["organization_id"] = organization_id
        if status_index is not UNSET:
            field_dict["status_index"] = status_index
        if svg_url is not UNSET:
            field_dict["svg_url"] = svg_url
        if png_url is not UNSET:
            field_dict["png_url"] = png_url
        if json_data is not UNSET:
            field_dict["json_data"] = json_data
        if credential_jwt is not UNSET:
            field_dict["credential_jwt"] = credential_jwt
        if issued_at is not UNSET:
            field_dict["issued_at"] = issued_at
        if valid_until is not UNSET:
            field_dict["valid_until"] = valid_until
        if revoked is not UNSET:
            field_dict["revoked"] = revoked
        if revoked_at is not UNSET:
            field_dict["revoked_at"] = revoked_at
        if revoke_reason is not UNSET:
            field_dict["revoke_reason"] = revoke_reason
        if superseded_at is not UNSET:
            field_dict["superseded_at"] = superseded_at
        if current is not UNSET:
            field_dict["current"] = current

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.badge_on_record_json_data_type_0 import BadgeOnRecordJsonDataType0 # noqa: PLC0415
        d = dict(src_dict)
        assessment_id = d.pop("assessment_id")

        visibility = d.pop("visibility")

        def _parse_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        id = _parse_id(d.pop("id", UNSET))


        def _parse_agent_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        agent_id = _parse_agent_id(d.pop("agent_id", UNSET))


        def _parse_organization_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        organization_id = _parse_organization_id(d.pop("organization_id", UNSET))


        def _parse_status_index(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        status_index = _parse_status_index(d.pop("status_index", UNSET))


        def _parse_svg_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        svg_url = _parse_svg_url(d.pop("svg_url", UNSET))


        def _parse_png_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        png_url = _parse_png_url(d.pop("png_url", UNSET))


        def _parse_json_data(data: object) -> BadgeOnRecordJsonDataType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                json_data_type_0 = BadgeOnRecordJsonDataType0.from_dict(data)



                return json_data_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BadgeOnRecordJsonDataType0 | None | Unset, data)

        json_data = _parse_json_data(d.pop("json_data", UNSET))


        def _parse_credential_jwt(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        credential_jwt = _parse_credential_jwt(d.pop("credential_jwt", UNSET))


        def _parse_issued_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        issued_at = _parse_issued_at(d.pop("issued_at", UNSET))


        def _parse_valid_until(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        valid_until = _parse_valid_until(d.pop("valid_until", UNSET))


        def _parse_revoked(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        revoked = _parse_revoked(d.pop("revoked", UNSET))


        def _parse_revoked_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        revoked_at = _parse_revoked_at(d.pop("revoked_at", UNSET))


        def _parse_revoke_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        revoke_reason = _parse_revoke_reason(d.pop("revoke_reason", UNSET))


        def _parse_superseded_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        superseded_at = _parse_superseded_at(d.pop("superseded_at", UNSET))


        def _parse_current(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        current = _parse_current(d.pop("current", UNSET))


        badge_on_record = cls(
            assessment_id=assessment_id,
            visibility=visibility,
            id=id,
            agent_id=agent_id,
            organization_id=organization_id,
            status_index=status_index,
            svg_url=svg_url,
            png_url=png_url,
            json_data=json_data,
            credential_jwt=credential_jwt,
            issued_at=issued_at,
            valid_until=valid_until,
            revoked=revoked,
            revoked_at=revoked_at,
            revoke_reason=revoke_reason,
            superseded_at=superseded_at,
            current=current,
        )

        return badge_on_record

