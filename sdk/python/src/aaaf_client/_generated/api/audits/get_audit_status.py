from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.audit_status import AuditStatus
from ...models.http_validation_error import HTTPValidationError
from ...types import UNSET, Unset
from typing import cast
import datetime



def _get_kwargs(
    agent_id: str,
    *,
    window_end: datetime.datetime | None | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_window_end: None | str | Unset
    if isinstance(window_end, Unset):
        json_window_end = UNSET
    elif isinstance(window_end, datetime.datetime):
        json_window_end = window_end.isoformat()
    else:
        json_window_end = window_end
    params["window_end"] = json_window_end


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/agents/{agent_id}/audits".format(agent_id=quote(str(agent_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AuditStatus | HTTPValidationError | None:
    if response.status_code == 200:
        response_200 = AuditStatus.from_dict(response.json())



        return response_200

    if response.status_code == 422:
        response_422 = HTTPValidationError.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AuditStatus | HTTPValidationError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    agent_id: str,
    *,
    client: AuthenticatedClient,
    window_end: datetime.datetime | None | Unset = UNSET,

) -> Response[AuditStatus | HTTPValidationError]:
    """ Get Audit Status

     Coverage, honesty, the required rate and whether it is met, for the agent's window.

    Args:
        agent_id (str):
        window_end (datetime.datetime | None | Unset): End of the window (RFC 3339 with offset;
            default now).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuditStatus | HTTPValidationError]
     """


    kwargs = _get_kwargs(
        agent_id=agent_id,
window_end=window_end,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    agent_id: str,
    *,
    client: AuthenticatedClient,
    window_end: datetime.datetime | None | Unset = UNSET,

) -> AuditStatus | HTTPValidationError | None:
    """ Get Audit Status

     Coverage, honesty, the required rate and whether it is met, for the agent's window.

    Args:
        agent_id (str):
        window_end (datetime.datetime | None | Unset): End of the window (RFC 3339 with offset;
            default now).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuditStatus | HTTPValidationError
     """


    return sync_detailed(
        agent_id=agent_id,
client=client,
window_end=window_end,

    ).parsed

async def asyncio_detailed(
    agent_id: str,
    *,
    client: AuthenticatedClient,
    window_end: datetime.datetime | None | Unset = UNSET,

) -> Response[AuditStatus | HTTPValidationError]:
    """ Get Audit Status

     Coverage, honesty, the required rate and whether it is met, for the agent's window.

    Args:
        agent_id (str):
        window_end (datetime.datetime | None | Unset): End of the window (RFC 3339 with offset;
            default now).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuditStatus | HTTPValidationError]
     """


    kwargs = _get_kwargs(
        agent_id=agent_id,
window_end=window_end,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    agent_id: str,
    *,
    client: AuthenticatedClient,
    window_end: datetime.datetime | None | Unset = UNSET,

) -> AuditStatus | HTTPValidationError | None:
    """ Get Audit Status

     Coverage, honesty, the required rate and whether it is met, for the agent's window.

    Args:
        agent_id (str):
        window_end (datetime.datetime | None | Unset): End of the window (RFC 3339 with offset;
            default now).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuditStatus | HTTPValidationError
     """


    return (await asyncio_detailed(
        agent_id=agent_id,
client=client,
window_end=window_end,

    )).parsed
