from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="AuditSampleRequest")



@_attrs_define
class AuditSampleRequest:
    """ What to draw: the share of completed tasks (default the organization's, 0.20), the
    seed (default 0) and the end of the window (default now).

        Attributes:
            rate (float | None | Unset):
            seed (int | Unset):  Default: 0.
            window_end (datetime.datetime | None | Unset):
     """

    rate: float | None | Unset = UNSET
    seed: int | Unset = 0
    window_end: datetime.datetime | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        rate: float | None | Unset
        if isinstance(self.rate, Unset):
            rate = UNSET
        else:
            rate = self.rate

        seed = self.seed

        window_end: None | str | Unset
        if isinstance(self.window_end, Unset):
            window_end = UNSET
        elif isinstance(self.window_end, datetime.datetime):
            window_end = self.window_end.isoformat()
        else:
            window_end = self.window_end


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if rate is not UNSET:
            field_dict["rate"] = rate
        if seed is not UNSET:
            field_dict["seed"] = seed
        if window_end is not UNSET:
            field_dict["window_end"] = window_end

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_rate(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        rate = _parse_rate(d.pop("rate", UNSET))


        seed = d.pop("seed", UNSET)

        def _parse_window_end(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                window_end_type_0 = datetime.datetime.fromisoformat(data)



                return window_end_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        window_end = _parse_window_end(d.pop("window_end", UNSET))


        audit_sample_request = cls(
            rate=rate,
            seed=seed,
            window_end=window_end,
        )

        return audit_sample_request

