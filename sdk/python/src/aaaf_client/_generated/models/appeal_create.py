from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.counter_evidence import CounterEvidence





T = TypeVar("T", bound="AppealCreate")



@_attrs_define
class AppealCreate:
    """ docs/api.md appeal request.

        Attributes:
            dimensions_challenged (list[str]):
            justification (str):
            counter_evidence (list[CounterEvidence]):
     """

    dimensions_challenged: list[str]
    justification: str
    counter_evidence: list[CounterEvidence]





    def to_dict(self) -> dict[str, Any]:
        from ..models.counter_evidence import CounterEvidence # noqa: PLC0415
        dimensions_challenged = self.dimensions_challenged



        justification = self.justification

        counter_evidence = []
        for counter_evidence_item_data in self.counter_evidence:
            counter_evidence_item = counter_evidence_item_data.to_dict()
            counter_evidence.append(counter_evidence_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "dimensions_challenged": dimensions_challenged,
            "justification": justification,
            "counter_evidence": counter_evidence,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.counter_evidence import CounterEvidence # noqa: PLC0415
        d = dict(src_dict)
        dimensions_challenged = cast(list[str], d.pop("dimensions_challenged"))


        justification = d.pop("justification")

        counter_evidence = []
        _counter_evidence = d.pop("counter_evidence")
        for counter_evidence_item_data in (_counter_evidence):
            counter_evidence_item = CounterEvidence.from_dict(counter_evidence_item_data)



            counter_evidence.append(counter_evidence_item)


        appeal_create = cls(
            dimensions_challenged=dimensions_challenged,
            justification=justification,
            counter_evidence=counter_evidence,
        )

        return appeal_create

