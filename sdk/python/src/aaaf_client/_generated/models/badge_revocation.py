from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="BadgeRevocation")



@_attrs_define
class BadgeRevocation:
    """ ``POST /api/v1/badges/{id}/revoke``'s answer: revoked, when and why.

        Attributes:
            assessment_id (str):
            revoked (bool):
            revoked_at (None | str):
            revoke_reason (None | str):
     """

    assessment_id: str
    revoked: bool
    revoked_at: None | str
    revoke_reason: None | str





    def to_dict(self) -> dict[str, Any]:
        assessment_id = self.assessment_id

        revoked = self.revoked

        revoked_at: None | str
        revoked_at = self.revoked_at

        revoke_reason: None | str
        revoke_reason = self.revoke_reason


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "assessment_id": assessment_id,
            "revoked": revoked,
            "revoked_at": revoked_at,
            "revoke_reason": revoke_reason,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        assessment_id = d.pop("assessment_id")

        revoked = d.pop("revoked")

        def _parse_revoked_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        revoked_at = _parse_revoked_at(d.pop("revoked_at"))


        def _parse_revoke_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        revoke_reason = _parse_revoke_reason(d.pop("revoke_reason"))


        badge_revocation = cls(
            assessment_id=assessment_id,
            revoked=revoked,
            revoked_at=revoked_at,
            revoke_reason=revoke_reason,
        )

        return badge_revocation

