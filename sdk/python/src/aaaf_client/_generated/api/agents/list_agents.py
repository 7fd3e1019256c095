from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.http_validation_error import HTTPValidationError
from ...models.list_agents_status_type_0 import check_list_agents_status_type_0
from ...models.list_agents_status_type_0 import ListAgentsStatusType0
from ...models.page_agent import PageAgent
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    status: ListAgentsStatusType0 | None | Unset = UNSET,
    org_id: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_status: None | str | Unset
    if isinstance(status, Unset):
        json_status = UNSET
    elif isinstance(status, str):
        json_status = status
    else:
        json_status = status
    params["status"] = json_status

    json_org_id: None | str | Unset
    if isinstance(org_id, Unset):
        json_org_id = UNSET
    else:
        json_org_id = org_id
    params["org_id"] = json_org_id

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

    params["limit"] = limit


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/agents",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> HTTPValidationError | PageAgent | None:
    if response.status_code == 200:
        response_200 = PageAgent.from_dict(response.json())



        return response_200

    if response.status_code == 422:
        response_422 = HTTPValidationError.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[HTTPValidationError | PageAgent]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    status: ListAgentsStatusType0 | None | Unset = UNSET,
    org_id: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> Response[HTTPValidationError | PageAgent]:
    """ List Agents

     The organization's agents by name.

    Args:
        status (ListAgentsStatusType0 | None | Unset): Only agents with this status (default:
            every agent but archived ones).
        org_id (None | str | Unset): The organization filter: must be the caller's organization.
        cursor (None | str | Unset): The previous page's `next_cursor`.
        limit (int | Unset): Items per page (default 100, at most 1 000). Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | PageAgent]
     """


    kwargs = _get_kwargs(
        status=status,
org_id=org_id,
cursor=cursor,
limit=limit,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    status: ListAgentsStatusType0 | None | Unset = UNSET,
    org_id: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> HTTPValidationError | PageAgent | None:
    """ List Agents

     The organization's agents by name.

    Args:
        status (ListAgentsStatusType0 | None | Unset): Only agents with this status (default:
            every agent but archived ones).
        org_id (None | str | Unset): The organization filter: must be the caller's organization.
        cursor (None | str | Unset): The previous page's `next_cursor`.
        limit (int | Unset): Items per page (default 100, at most 1 000). Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | PageAgent
     """


    return sync_detailed(
        client=client,
status=status,
org_id=org_id,
cursor=cursor,
limit=limit,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    status: ListAgentsStatusType0 | None | Unset = UNSET,
    org_id: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> Response[HTTPValidationError | PageAgent]:
    """ List Agents

     The organization's agents by name.

    Args:
        status (ListAgentsStatusType0 | None | Unset): Only agents with this status (default:
            every agent but archived ones).
        org_id (None | str | Unset): The organization filter: must be the caller's organization.
        cursor (None | str | Unset): The previous page's `next_cursor`.
        limit (int | Unset): Items per page (default 100, at most 1 000). Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | PageAgent]
     """


    kwargs = _get_kwargs(
        status=status,
org_id=org_id,
cursor=cursor,
limit=limit,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    status: ListAgentsStatusType0 | None | Unset = UNSET,
    org_id: None | str | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> HTTPValidationError | PageAgent | None:
    """ List Agents

     The organization's agents by name.

    Args:
        status (ListAgentsStatusType0 | None | Unset): Only agents with this status (default:
            every agent but archived ones).
        org_id (None | str | Unset): The organization filter: must be the caller's organization.
        cursor (None | str | Unset): The previous page's `next_cursor`.
        limit (int | Unset): Items per page (default 100, at most 1 000). Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | PageAgent
     """


    return (await asyncio_detailed(
        client=client,
status=status,
org_id=org_id,
cursor=cursor,
limit=limit,

    )).parsed
