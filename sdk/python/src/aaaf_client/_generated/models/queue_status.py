from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="QueueStatus")



@_attrs_define
class QueueStatus:
    """ The job queue (docs/jobs.md "Is anybody working?").

        Attributes:
            runner (str): procrastinate (PostgreSQL, `aaaf worker`) or in-process (SQLite).
            waiting_jobs (int):
            oldest_waiting_seconds (float | None):
            last_worker_heartbeat (None | str):
            status (str): ok, or degraded: jobs wait and no worker was seen.
            reason (None | str):
     """

    runner: str
    waiting_jobs: int
    oldest_waiting_seconds: float | None
    last_worker_heartbeat: None | str
    status: str
    reason: None | str





    def to_dict(self) -> dict[str, Any]:
        runner = self.runner

        waiting_jobs = self.waiting_jobs

        oldest_waiting_seconds: float | None
        oldest_waiting_seconds = self.oldest_waiting_seconds

        last_worker_heartbeat: None | str
        last_worker_heartbeat = self.last_worker_heartbeat

        status = self.status

        reason: None | str
        reason = self.reason


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "runner": runner,
            "waiting_jobs": waiting_jobs,
            "oldest_waiting_seconds": oldest_waiting_seconds,
            "last_worker_heartbeat": last_worker_heartbeat,
            "status": status,
            "reason": reason,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        runner = d.pop("runner")

        waiting_jobs = d.pop("waiting_jobs")

        def _parse_oldest_waiting_seconds(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        oldest_waiting_seconds = _parse_oldest_waiting_seconds(d.pop("oldest_waiting_seconds"))


        def _parse_last_worker_heartbeat(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_worker_heartbeat = _parse_last_worker_heartbeat(d.pop("last_worker_heartbeat"))


        status = d.pop("status")

        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))


        queue_status = cls(
            runner=runner,
            waiting_jobs=waiting_jobs,
            oldest_waiting_seconds=oldest_waiting_seconds,
            last_worker_heartbeat=last_worker_heartbeat,
            status=status,
            reason=reason,
        )

        return queue_status

