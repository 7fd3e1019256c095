from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="StressTestRequest")



@_attrs_define
class StressTestRequest:
    """ An agent reached over HTTP (never a command on the server): an OpenAI-compatible
    chat-completions endpoint with tool calling, and the run's own key for it.

        Attributes:
            agent_url (str):
            model (str):
            dimension (None | str | Unset):
            task_ids (list[str] | None | Unset):
            parallel (int | Unset):  Default: 4.
            agent_api_key (None | str | Unset): Sent as `Authorization: Bearer …` to `agent_url` and nowhere else; sealed at
                rest with the installation's secret until the run ends, never returned or logged.
     """

    agent_url: str
    model: str
    dimension: None | str | Unset = UNSET
    task_ids: list[str] | None | Unset = UNSET
    parallel: int | Unset = 4
    agent_api_key: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        agent_url = self.agent_url

        model = self.model

        dimension: None | str | Unset
        if isinstance(self.dimension, Unset):
            dimension = UNSET
        else:
            dimension = self.dimension

        task_ids: list[str] | None | Unset
        if isinstance(self.task_ids, Unset):
            task_ids = UNSET
        elif isinstance(self.task_ids, list):
            task_ids = self.task_ids


        else:
            task_ids = self.task_ids

        parallel = self.parallel

        agent_api_key: None | str | Unset
        if isinstance(self.agent_api_key, Unset):
            agent_api_key = UNSET
        else:
            agent_api_key = self.agent_api_key


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "agent_url": agent_url,
            "model": model,
        })
        if dimension is not UNSET:
            field_dict["dimension"] = dimension
        if task_ids is not UNSET:
            field_dict["task_ids"] = task_ids
        if parallel is not UNSET:
            field_dict["parallel"] = parallel
        if agent_api_key is not UNSET:
            field_dict["agent_api_key"] = agent_api_key

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        agent_url = d.pop("agent_url")

        model = d.pop("model")

        def _parse_dimension(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        dimension = _parse_dimension(d.pop("dimension", UNSET))


        def _parse_task_ids(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                task_ids_type_0 = cast(list[str], data)

                return task_ids_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        task_ids = _parse_task_ids(d.pop("task_ids", UNSET))


        parallel = d.pop("parallel", UNSET)

        def _parse_agent_api_key(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        agent_api_key = _parse_agent_api_key(d.pop("agent_api_key", UNSET))


        stress_test_request = cls(
            agent_url=agent_url,
            model=model,
            dimension=dimension,
            task_ids=task_ids,
            parallel=parallel,
            agent_api_key=agent_api_key,
        )

        return stress_test_request

