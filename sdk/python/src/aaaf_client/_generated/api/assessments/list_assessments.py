from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.http_validation_error import HTTPValidationError
from ...models.list_assessments_status_type_0 import check_list_assessments_status_type_0
from ...models.list_assessments_status_type_0 import ListAssessmentsStatusType0
from ...models.page_assessment import PageAssessment
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    agent_id: None | str | Unset = UNSET,
    status: ListAssessmentsStatusType0 | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_agent_id: None | str | Unset
    if isinstance(agent_id, Unset):
        json_agent_id = UNSET
    else:
        json_agent_id = agent_id
    params["agent_id"] = json_agent_id

    json_status: None | str | Unset
    if isinstance(status, Unset):
        json_status = UNSET
    elif isinstance(status, str):
        json_status = status
    else:
        json_status = status
    params["status"] = json_status

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
        "url": "/api/v1/assessments",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> HTTPValidationError | PageAssessment | None:
    if response.status_code == 200:
        response_200 = PageAssessment.from_dict(response.json())



        return response_200

    if response.status_code == 422:
        response_422 = HTTPValidationError.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[HTTPValidationError | PageAssessment]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    agent_id: None | str | Unset = UNSET,
    status: ListAssessmentsStatusType0 | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> Response[HTTPValidationError | PageAssessment]:
    """ List Assessments

     Assessments, newest first.

    Args:
        agent_id (None | str | Unset): Only this agent's assessments.
        status (ListAssessmentsStatusType0 | None | Unset):
        cursor (None | str | Unset): The previous page's `next_cursor`.
        limit (int | Unset): Items per page (default 100, at most 1 000). Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | PageAssessment]
     """


    kwargs = _get_kwargs(
        agent_id=agent_id,
status=status,
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
    agent_id: None | str | Unset = UNSET,
    status: ListAssessmentsStatusType0 | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> HTTPValidationError | PageAssessment | None:
    """ List Assessments

     Assessments, newest first.

    Args:
        agent_id (None | str | Unset): Only this agent's assessments.
        status (ListAssessmentsStatusType0 | None | Unset):
        cursor (None | str | Unset): The previous page's `next_cursor`.
        limit (int | Unset): Items per page (default 100, at most 1 000). Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | PageAssessment
     """


    return sync_detailed(
        client=client,
agent_id=agent_id,
status=status,
cursor=cursor,
limit=limit,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    agent_id: None | str | Unset = UNSET,
    status: ListAssessmentsStatusType0 | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> Response[HTTPValidationError | PageAssessment]:
    """ List Assessments

     Assessments, newest first.

    Args:
        agent_id (None | str | Unset): Only this agent's assessments.
        status (ListAssessmentsStatusType0 | None | Unset):
        cursor (None | str | Unset): The previous page's `next_cursor`.
        limit (int | Unset): Items per page (default 100, at most 1 000). Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | PageAssessment]
     """


    kwargs = _get_kwargs(
        agent_id=agent_id,
status=status,
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
    agent_id: None | str | Unset = UNSET,
    status: ListAssessmentsStatusType0 | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,

) -> HTTPValidationError | PageAssessment | None:
    """ List Assessments

     Assessments, newest first.

    Args:
        agent_id (None | str | Unset): Only this agent's assessments.
        status (ListAssessmentsStatusType0 | None | Unset):
        cursor (None | str | Unset): The previous page's `next_cursor`.
        limit (int | Unset): Items per page (default 100, at most 1 000). Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | PageAssessment
     """


    return (await asyncio_detailed(
        client=client,
agent_id=agent_id,
status=status,
cursor=cursor,
limit=limit,

    )).parsed
