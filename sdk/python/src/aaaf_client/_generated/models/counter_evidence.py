from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="CounterEvidence")



@_attrs_define
class CounterEvidence:
    """ 
        Attributes:
            task_id (str):
            claim (str):
     """

    task_id: str
    claim: str





    def to_dict(self) -> dict[str, Any]:
        task_id = self.task_id

        claim = self.claim


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "task_id": task_id,
            "claim": claim,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        task_id = d.pop("task_id")

        claim = d.pop("claim")

        counter_evidence = cls(
            task_id=task_id,
            claim=claim,
        )

        return counter_evidence

