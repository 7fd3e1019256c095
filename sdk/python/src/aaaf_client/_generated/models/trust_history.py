from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="TrustHistory")



@_attrs_define
class TrustHistory:
    """ Whether this score was recorded in the agent's trust history, and the committed one.

        Attributes:
            recorded (bool):
            not_recorded_reason (None | str):
            entry_id (None | str):
            was_anomalous (bool):
            committed (bool):
            canonical_score (float | None):
            canonical_tier (None | str):
     """

    recorded: bool
    not_recorded_reason: None | str
    entry_id: None | str
    was_anomalous: bool
    committed: bool
    canonical_score: float | None
    canonical_tier: None | str





    def to_dict(self) -> dict[str, Any]:
        recorded = self.recorded

        not_recorded_reason: None | str
        not_recorded_reason = self.not_recorded_reason

        entry_id: None | str
        entry_id = self.entry_id

        was_anomalous = self.was_anomalous

        committed = self.committed

        canonical_score: float | None
        canonical_score = self.canonical_score

        canonical_tier: None | str
        canonical_tier = self.canonical_tier


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "recorded": recorded,
            "not_recorded_reason": not_recorded_reason,
            "entry_id": entry_id,
            "was_anomalous": was_anomalous,
            "committed": committed,
            "canonical_score": canonical_score,
            "canonical_tier": canonical_tier,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        recorded = d.pop("recorded")

        def _parse_not_recorded_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        not_recorded_reason = _parse_not_recorded_reason(d.pop("not_recorded_reason"))


        def _parse_entry_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        entry_id = _parse_entry_id(d.pop("entry_id"))


        was_anomalous = d.pop("was_anomalous")

        committed = d.pop("committed")

        def _parse_canonical_score(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        canonical_score = _parse_canonical_score(d.pop("canonical_score"))


        def _parse_canonical_tier(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        canonical_tier = _parse_canonical_tier(d.pop("canonical_tier"))


        trust_history = cls(
            recorded=recorded,
            not_recorded_reason=not_recorded_reason,
            entry_id=entry_id,
            was_anomalous=was_anomalous,
            committed=committed,
            canonical_score=canonical_score,
            canonical_tier=canonical_tier,
        )

        return trust_history

