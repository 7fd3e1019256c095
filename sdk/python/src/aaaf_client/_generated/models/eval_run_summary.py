from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="EvalRunSummary")



@_attrs_define
class EvalRunSummary:
    """ A stored run without its samples (what a list shows).

        Attributes:
            id (str):
            run_id (str):
            variant (str):
            source_format (str):
            samples (int):
            status (None | str):
            uploaded_at (str):
     """

    id: str
    run_id: str
    variant: str
    source_format: str
    samples: int
    status: None | str
    uploaded_at: str





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        run_id = self.run_id

        variant = self.variant

        source_format = self.source_format

        samples = self.samples

        status: None | str
        status = self.status

        uploaded_at = self.uploaded_at


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "run_id": run_id,
            "variant": variant,
            "source_format": source_format,
            "samples": samples,
            "status": status,
            "uploaded_at": uploaded_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        run_id = d.pop("run_id")

        variant = d.pop("variant")

        source_format = d.pop("source_format")

        samples = d.pop("samples")

        def _parse_status(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        status = _parse_status(d.pop("status"))


        uploaded_at = d.pop("uploaded_at")

        eval_run_summary = cls(
            id=id,
            run_id=run_id,
            variant=variant,
            source_format=source_format,
            samples=samples,
            status=status,
            uploaded_at=uploaded_at,
        )

        return eval_run_summary

