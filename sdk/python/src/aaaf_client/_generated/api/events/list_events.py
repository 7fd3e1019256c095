from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.http_validation_error import HTTPValidationError
from ...models.page_event_out import PageEventOut
from ...types import UNSET, Unset
from typing import cast
import datetime



def _get_kwargs(
    *,
    agent_id: str,
    type_: None | str | Unset = UNSET,
    from_: datetime.datetime | None | Unset = UNSET,
    to: datetime.datetime | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["agent_id"] = agent_id

    json_type_: None | str | Unset
    if isinstance(type_, Unset):
        json_type_ = UNSET
    else:
        json_type_ = type_
    params["type"] = json_type_

    json_from_: None | str | Unset
    if isinstance(from_, Unset):
        json_from_ = UNSET
    elif isinstance(from_, datetime.datetime):
        json_from_ = from_.isoformat()
    else:
        json_from_ = from_
    params["from"] = json_from_

    json_to: None | str | Unset
    if isinstance(to, Unset):
        json_to = UNSET
    elif isinstance(to, datetime.datetime):
        json_to = to.isoformat()
    else:
        json_to = to
    params["to"] = json_to

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
        "url": "/api/v1/events",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> HTTPValidationError | PageEventOut | None:
    if response.status_code == 200:
        response_200 = PageEventOut.from_dict(response.json())



        return response_200

    if response.status_code == 422:
        response_422 = HTTPValidationError.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[HTTPValidationError | PageEventOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    agent_id: str,
    type_: None | str | Unset = UNSET,
    from_: datetime.datetime | None | Unset = UNSET,
    to: datetime.datetime | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> Response[HTTPValidationError | PageEventOut]:
    """ List Events

     An agent's events in time order (``id`` is the store's, ``key`` the client's ``id``).

    Args:
        agent_id (str): The agent whose events to list.
        type_ (None | str | Unset): Only these types (comma-separated).
        from_ (datetime.datetime | None | Unset): RFC 3339; inclusive.
        to (datetime.datetime | None | Unset): RFC 3339; inclusive.
        cursor (None | str | Unset): The previous page's `next_cursor`.
        limit (int | Unset): Items per page (default 100, at most 1 000). Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | PageEventOut]
     """


    kwargs = _get_kwargs(
        agent_id=agent_id,
type_=type_,
from_=from_,
to=to,
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
    agent_id: str,
    type_: None | str | Unset = UNSET,
    from_: datetime.datetime | None | Unset = UNSET,
    to: datetime.datetime | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> HTTPValidationError | PageEventOut | None:
    """ List Events

     An agent's events in time order (``id`` is the store's, ``key`` the client's ``id``).

    Args:
        agent_id (str): The agent whose events to list.
        type_ (None | str | Unset): Only these types (comma-separated).
        from_ (datetime.datetime | None | Unset): RFC 3339; inclusive.
        to (datetime.datetime | None | Unset): RFC 3339; inclusive.
        cursor (None | str | Unset): The previous page's `next_cursor`.
        limit (int | Unset): Items per page (default 100, at most 1 000). Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | PageEventOut
     """


    return sync_detailed(
        client=client,
agent_id=agent_id,
type_=type_,
from_=from_,
to=to,
cursor=cursor,
limit=limit,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    agent_id: str,
    type_: None | str | Unset = UNSET,
    from_: datetime.datetime | None | Unset = UNSET,
    to: datetime.datetime | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> Response[HTTPValidationError | PageEventOut]:
    """ List Events

     An agent's events in time order (``id`` is the store's, ``key`` the client's ``id``).

    Args:
        agent_id (str): The agent whose events to list.
        type_ (None | str | Unset): Only these types (comma-separated).
        from_ (datetime.datetime | None | Unset): RFC 3339; inclusive.
        to (datetime.datetime | None | Unset): RFC 3339; inclusive.
        cursor (None | str | Unset): The previous page's `next_cursor`.
        limit (int | Unset): Items per page (default 100, at most 1 000). Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | PageEventOut]
     """


    kwargs = _get_kwargs(
        agent_id=agent_id,
type_=type_,
from_=from_,
to=to,
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
    agent_id: str,
    type_: None | str | Unset = UNSET,
    from_: datetime.datetime | None | Unset = UNSET,
    to: datetime.datetime | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> HTTPValidationError | PageEventOut | None:
    """ List Events

     An agent's events in time order (``id`` is the store's, ``key`` the client's ``id``).

    Args:
        agent_id (str): The agent whose events to list.
        type_ (None | str | Unset): Only these types (comma-separated).
        from_ (datetime.datetime | None | Unset): RFC 3339; inclusive.
        to (datetime.datetime | None | Unset): RFC 3339; inclusive.
        cursor (None | str | Unset): The previous page's `next_cursor`.
        limit (int | Unset): Items per page (default 100, at most 1 000). Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | PageEventOut
     """


    return (await asyncio_detailed(
        client=client,
agent_id=agent_id,
type_=type_,
from_=from_,
to=to,
cursor=cursor,
limit=limit,

    )).parsed
