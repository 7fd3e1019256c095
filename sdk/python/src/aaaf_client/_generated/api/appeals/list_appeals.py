from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.appeal_page import AppealPage
from ...models.http_validation_error import HTTPValidationError
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    assessment_id: str,
    *,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

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
        "url": "/api/v1/assessments/{assessment_id}/appeals".format(assessment_id=quote(str(assessment_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AppealPage | HTTPValidationError | None:
    if response.status_code == 200:
        response_200 = AppealPage.from_dict(response.json())



        return response_200

    if response.status_code == 422:
        response_422 = HTTPValidationError.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AppealPage | HTTPValidationError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    assessment_id: str,
    *,
    client: AuthenticatedClient,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> Response[AppealPage | HTTPValidationError]:
    """ List Appeals

     The assessment's appeals, oldest first (docs/api.md list; paged in SQL).

    Args:
        assessment_id (str):
        cursor (None | str | Unset): The previous page's `next_cursor`.
        limit (int | Unset): Items per page (default 100, at most 1 000). Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AppealPage | HTTPValidationError]
     """


    kwargs = _get_kwargs(
        assessment_id=assessment_id,
cursor=cursor,
limit=limit,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    assessment_id: str,
    *,
    client: AuthenticatedClient,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> AppealPage | HTTPValidationError | None:
    """ List Appeals

     The assessment's appeals, oldest first (docs/api.md list; paged in SQL).

    Args:
        assessment_id (str):
        cursor (None | str | Unset): The previous page's `next_cursor`.
        limit (int | Unset): Items per page (default 100, at most 1 000). Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AppealPage | HTTPValidationError
     """


    return sync_detailed(
        assessment_id=assessment_id,
client=client,
cursor=cursor,
limit=limit,

    ).parsed

async def asyncio_detailed(
    assessment_id: str,
    *,
    client: AuthenticatedClient,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> Response[AppealPage | HTTPValidationError]:
    """ List Appeals

     The assessment's appeals, oldest first (docs/api.md list; paged in SQL).

    Args:
        assessment_id (str):
        cursor (None | str | Unset): The previous page's `next_cursor`.
        limit (int | Unset): Items per page (default 100, at most 1 000). Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AppealPage | HTTPValidationError]
     """


    kwargs = _get_kwargs(
        assessment_id=assessment_id,
cursor=cursor,
limit=limit,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    assessment_id: str,
    *,
    client: AuthenticatedClient,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> AppealPage | HTTPValidationError | None:
    """ List Appeals

     The assessment's appeals, oldest first (docs/api.md list; paged in SQL).

    Args:
        assessment_id (str):
        cursor (None | str | Unset): The previous page's `next_cursor`.
        limit (int | Unset): Items per page (default 100, at most 1 000). Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AppealPage | HTTPValidationError
     """


    return (await asyncio_detailed(
        assessment_id=assessment_id,
client=client,
cursor=cursor,
limit=limit,

    )).parsed
