from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.stress_run_request_type_0 import StressRunRequestType0
  from ..models.stress_run_summary import StressRunSummary





T = TypeVar("T", bound="StressRun")



@_attrs_define
class StressRun:
    """ One run: what was requested, the library and version, its dates, attempts and summary
    (``summary.error`` says why a ``failed`` run failed), and the assessment that merged it.

        Attributes:
            id (str):
            agent_id (str):
            adapter (str):
            agent_reference (str):
            library (str):
            library_version (str):
            status (str):
            created_at (str):
            started_at (None | str):
            finished_at (None | str):
            attempts (int):
            request (None | StressRunRequestType0):
            summary (StressRunSummary):
            assessment_id (None | str):
     """

    id: str
    agent_id: str
    adapter: str
    agent_reference: str
    library: str
    library_version: str
    status: str
    created_at: str
    started_at: None | str
    finished_at: None | str
    attempts: int
    request: None | StressRunRequestType0
    summary: StressRunSummary
    assessment_id: None | str





    def to_dict(self) -> dict[str, Any]:
        from ..models.stress_run_request_type_0 import StressRunRequestType0 # noqa: PLC0415
        from ..models.stress_run_summary import StressRunSummary # noqa: PLC0415
        id = self.id

        agent_id = self.agent_id

        adapter = self.adapter

        agent_reference = self.agent_reference

        library = self.library

        library_version = self.library_version

        status = self.status

        created_at = self.created_at

        started_at: None | str
        started_at = self.started_at

        finished_at: None | str
        finished_at = self.finished_at

        attempts = self.attempts

        request: dict[str, Any] | None
        if isinstance(self.request, StressRunRequestType0):
            request = self.request.to_dict()
        else:
            request = self.request

        summary = self.summary.to_dict()

        assessment_id: None | str
        assessment_id = self.assessment_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "agent_id": agent_id,
            "adapter": adapter,
            "agent_reference": agent_reference,
            "library": library,
            "library_version": library_version,
            "status": status,
            "created_at": created_at,
            "started_at": started_at,
            "finished_at": finished_at,
            "attempts": attempts,
            "request": request,
            "summary": summary,
            "assessment_id": assessment_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stress_run_request_type_0 import StressRunRequestType0 # noqa: PLC0415
        from ..models.stress_run_summary import StressRunSummary # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        agent_id = d.pop("agent_id")

        adapter = d.pop("adapter")

        agent_reference = d.pop("agent_reference")

        library = d.pop("library")

        library_version = d.pop("library_version")

        status = d.pop("status")

        created_at = d.pop("created_at")

        def _parse_started_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        started_at = _parse_started_at(d.pop("started_at"))


        def _parse_finished_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))


        attempts = d.pop("attempts")

        def _parse_request(data: object) -> None | StressRunRequestType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                request_type_0 = StressRunRequestType0.from_dict(data)



                return request_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | StressRunRequestType0, data)

        request = _parse_request(d.pop("request"))


        summary = StressRunSummary.from_dict(d.pop("summary"))




        def _parse_assessment_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        assessment_id = _parse_assessment_id(d.pop("assessment_id"))


        stress_run = cls(
            id=id,
            agent_id=agent_id,
            adapter=adapter,
            agent_reference=agent_reference,
            library=library,
            library_version=library_version,
            status=status,
            created_at=created_at,
            started_at=started_at,
            finished_at=finished_at,
            attempts=attempts,
            request=request,
            summary=summary,
            assessment_id=assessment_id,
        )

        return stress_run

