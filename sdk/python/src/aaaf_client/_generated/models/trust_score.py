from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.security_gate import SecurityGate
  from ..models.trust_history import TrustHistory
  from ..models.trust_score_dimensions import TrustScoreDimensions
  from ..models.trust_score_weights_in_force import TrustScoreWeightsInForce
  from ..models.trust_score_weights_used import TrustScoreWeightsUsed
  from ..models.weight_override import WeightOverride





T = TypeVar("T", bound="TrustScore")



@_attrs_define
class TrustScore:
    """ One agent's trust score at ``at``; open: later fields of the scheme follow.

        Attributes:
            scheme (str):
            agent (str):
            at (str):
            composite (float | None):
            uncapped_composite (float | None):
            tier (None | str):
            tier_reason (None | str):
            covered (int):
            total (int):
            mandatory_missing (list[str]):
            gated (bool):
            security_gate (SecurityGate):
            weights_in_force (TrustScoreWeightsInForce):
            weights_used (TrustScoreWeightsUsed):
            override (WeightOverride):
            dimensions (TrustScoreDimensions):
            history (None | TrustHistory | Unset):
     """

    scheme: str
    agent: str
    at: str
    composite: float | None
    uncapped_composite: float | None
    tier: None | str
    tier_reason: None | str
    covered: int
    total: int
    mandatory_missing: list[str]
    gated: bool
    security_gate: SecurityGate
    weights_in_force: TrustScoreWeightsInForce
    weights_used: TrustScoreWeightsUsed
    override: WeightOverride
    dimensions: TrustScoreDimensions
    history: None | TrustHistory | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.security_gate import SecurityGate # noqa: PLC0415
        from ..models.trust_history import TrustHistory # noqa: PLC0415
        from ..models.trust_score_dimensions import TrustScoreDimensions # noqa: PLC0415
        from ..models.trust_score_weights_in_force import TrustScoreWeightsInForce # noqa: PLC0415
        from ..models.trust_score_weights_used import TrustScoreWeightsUsed # noqa: PLC0415
        from ..models.weight_override import WeightOverride # noqa: PLC0415
        scheme = self.scheme

        agent = self.agent

        at = self.at

        composite: float | None
        composite = self.composite

        uncapped_composite: float | None
        uncapped_composite = self.uncapped_composite

        tier: None | str
        tier = self.tier

        tier_reason: None | str
        tier_reason = self.tier_reason

        covered = self.covered

        total = self.total

        mandatory_missing = self.mandatory_missing



        gated = self.gated

        security_gate = self.security_gate.to_dict()

        weights_in_force = self.weights_in_force.to_dict()

        weights_used = self.weights_used.to_dict()

        override = self.override.to_dict()

        dimensions = self.dimensions.to_dict()

        history: dict[str, Any] | None | Unset
        if isinstance(self.history, Unset):
            history = UNSET
        elif isinstance(self.history, TrustHistory):
            history = self.history.to_dict()
        else:
            history = self.history


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "scheme": scheme,
            "agent": agent,
            "at": at,
            "composite": composite,
            "uncapped_composite": uncapped_composite,
            "tier": tier,
            "tier_reason": tier_reason,
            "covered": covered,
            "total": total,
            "mandatory_missing": mandatory_missing,
            "gated": gated,
            "security_gate": security_gate,
            "weights_in_force": weights_in_force,
            "weights_used": weights_used,
            "override": override,
            "dimensions": dimensions,
        })
        if history is not UNSET:
            field_dict["history"] = history

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.security_gate import SecurityGate # noqa: PLC0415
        from ..models.trust_history import TrustHistory # noqa: PLC0415
        from ..models.trust_score_dimensions import TrustScoreDimensions # noqa: PLC0415
        from ..models.trust_score_weights_in_force import TrustScoreWeightsInForce # noqa: PLC0415
        from ..models.trust_score_weights_used import TrustScoreWeightsUsed # noqa: PLC0415
        from ..models.weight_override import WeightOverride # noqa: PLC0415
        d = dict(src_dict)
        scheme = d.pop("scheme")

        agent = d.pop("agent")

        at = d.pop("at")

        def _parse_composite(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        composite = _parse_composite(d.pop("composite"))


        def _parse_uncapped_composite(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        uncapped_composite = _parse_uncapped_composite(d.pop("uncapped_composite"))


        def _parse_tier(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        tier = _parse_tier(d.pop("tier"))


        def _parse_tier_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        tier_reason = _parse_tier_reason(d.pop("tier_reason"))


        covered = d.pop("covered")

        total = d.pop("total")

        mandatory_missing = cast(list[str], d.pop("mandatory_missing"))


        gated = d.pop("gated")

        security_gate = SecurityGate.from_dict(d.pop("security_gate"))




        weights_in_force = TrustScoreWeightsInForce.from_dict(d.pop("weights_in_force"))




        weights_used = TrustScoreWeightsUsed.from_dict(d.pop("weights_used"))




        override = WeightOverride.from_dict(d.pop("override"))




        dimensions = TrustScoreDimensions.from_dict(d.pop("dimensions"))




        def _parse_history(data: object) -> None | TrustHistory | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                history_type_0 = TrustHistory.from_dict(data)



                return history_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TrustHistory | Unset, data)

        history = _parse_history(d.pop("history", UNSET))


        trust_score = cls(
            scheme=scheme,
            agent=agent,
            at=at,
            composite=composite,
            uncapped_composite=uncapped_composite,
            tier=tier,
            tier_reason=tier_reason,
            covered=covered,
            total=total,
            mandatory_missing=mandatory_missing,
            gated=gated,
            security_gate=security_gate,
            weights_in_force=weights_in_force,
            weights_used=weights_used,
            override=override,
            dimensions=dimensions,
            history=history,
        )


        trust_score.additional_properties = d
        return trust_score

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
