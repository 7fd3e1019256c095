from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.http_validation_error import HTTPValidationError
from ...models.page_usage_day import PageUsageDay
from ...types import UNSET, Unset
from typing import cast
import datetime



def _get_kwargs(
    org_id: str,
    *,
    from_: datetime.date | None | Unset = UNSET,
    to: datetime.date | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_from_: None | str | Unset
    if isinstance(from_, Unset):
        json_from_ = UNSET
    elif isinstance(from_, datetime.date):
        json_from_ = from_.isoformat()
    else:
        json_from_ = from_
    params["from"] = json_from_

    json_to: None | str | Unset
    if isinstance(to, Unset):
        json_to = UNSET
    elif isinstance(to, datetime.date):
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
        "url": "/api/v1/organizations/{org_id}/usage".format(org_id=quote(str(org_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> HTTPValidationError | PageUsageDay | None:
    if response.status_code == 200:
        response_200 = PageUsageDay.from_dict(response.json())



        return response_200

    if response.status_code == 422:
        response_422 = HTTPValidationError.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[HTTPValidationError | PageUsageDay]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    org_id: str,
    *,
    client: AuthenticatedClient,
    from_: datetime.date | None | Unset = UNSET,
    to: datetime.date | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> Response[HTTPValidationError | PageUsageDay]:
    """ Get Usage

     API calls, events accepted and assessments run per UTC day, oldest first.

    Args:
        org_id (str):
        from_ (datetime.date | None | Unset): First day (UTC), inclusive.
        to (datetime.date | None | Unset): Last day (UTC), inclusive.
        cursor (None | str | Unset): The previous page's `next_cursor`.
        limit (int | Unset): Items per page (default 100, at most 1 000). Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | PageUsageDay]
     """


    kwargs = _get_kwargs(
        org_id=org_id,
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
    org_id: str,
    *,
    client: AuthenticatedClient,
    from_: datetime.date | None | Unset = UNSET,
    to: datetime.date | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> HTTPValidationError | PageUsageDay | None:
    """ Get Usage

     API calls, events accepted and assessments run per UTC day, oldest first.

    Args:
        org_id (str):
        from_ (datetime.date | None | Unset): First day (UTC), inclusive.
        to (datetime.date | None | Unset): Last day (UTC), inclusive.
        cursor (None | str | Unset): The previous page's `next_cursor`.
        limit (int | Unset): Items per page (default 100, at most 1 000). Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | PageUsageDay
     """


    return sync_detailed(
        org_id=org_id,
client=client,
from_=from_,
to=to,
cursor=cursor,
limit=limit,

    ).parsed

async def asyncio_detailed(
    org_id: str,
    *,
    client: AuthenticatedClient,
    from_: datetime.date | None | Unset = UNSET,
    to: datetime.date | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> Response[HTTPValidationError | PageUsageDay]:
    """ Get Usage

     API calls, events accepted and assessments run per UTC day, oldest first.

    Args:
        org_id (str):
        from_ (datetime.date | None | Unset): First day (UTC), inclusive.
        to (datetime.date | None | Unset): Last day (UTC), inclusive.
        cursor (None | str | Unset): The previous page's `next_cursor`.
        limit (int | Unset): Items per page (default 100, at most 1 000). Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | PageUsageDay]
     """


    kwargs = _get_kwargs(
        org_id=org_id,
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
    org_id: str,
    *,
    client: AuthenticatedClient,
    from_: datetime.date | None | Unset = UNSET,
    to: datetime.date | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> HTTPValidationError | PageUsageDay | None:
    """ Get Usage

     API calls, events accepted and assessments run per UTC day, oldest first.

    Args:
        org_id (str):
        from_ (datetime.date | None | Unset): First day (UTC), inclusive.
        to (datetime.date | None | Unset): Last day (UTC), inclusive.
        cursor (None | str | Unset): The previous page's `next_cursor`.
        limit (int | Unset): Items per page (default 100, at most 1 000). Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | PageUsageDay
     """


    return (await asyncio_detailed(
        org_id=org_id,
client=client,
from_=from_,
to=to,
cursor=cursor,
limit=limit,

    )).parsed
