from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.create_event_event import CreateEventEvent
from ...models.event_stored import EventStored
from ...models.http_validation_error import HTTPValidationError
from typing import cast



def _get_kwargs(
    *,
    body: CreateEventEvent,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/events",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> EventStored | HTTPValidationError | None:
    if response.status_code == 201:
        response_201 = EventStored.from_dict(response.json())



        return response_201

    if response.status_code == 422:
        response_422 = HTTPValidationError.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[EventStored | HTTPValidationError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateEventEvent,

) -> Response[EventStored | HTTPValidationError]:
    """ Create Event

     Submit one event; an invalid one is refused with the code and field of its problem
    (a ``task_audited`` event without the ``auditor`` scope: 403 ``FORBIDDEN``).

    Args:
        body (CreateEventEvent): One event (docs/scoring.md §2).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventStored | HTTPValidationError]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: CreateEventEvent,

) -> EventStored | HTTPValidationError | None:
    """ Create Event

     Submit one event; an invalid one is refused with the code and field of its problem
    (a ``task_audited`` event without the ``auditor`` scope: 403 ``FORBIDDEN``).

    Args:
        body (CreateEventEvent): One event (docs/scoring.md §2).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventStored | HTTPValidationError
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateEventEvent,

) -> Response[EventStored | HTTPValidationError]:
    """ Create Event

     Submit one event; an invalid one is refused with the code and field of its problem
    (a ``task_audited`` event without the ``auditor`` scope: 403 ``FORBIDDEN``).

    Args:
        body (CreateEventEvent): One event (docs/scoring.md §2).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventStored | HTTPValidationError]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: CreateEventEvent,

) -> EventStored | HTTPValidationError | None:
    """ Create Event

     Submit one event; an invalid one is refused with the code and field of its problem
    (a ``task_audited`` event without the ``auditor`` scope: 403 ``FORBIDDEN``).

    Args:
        body (CreateEventEvent): One event (docs/scoring.md §2).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventStored | HTTPValidationError
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
