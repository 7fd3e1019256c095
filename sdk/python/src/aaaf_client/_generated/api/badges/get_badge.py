from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.badge_on_record import BadgeOnRecord
from ...models.http_validation_error import HTTPValidationError
from typing import cast



def _get_kwargs(
    assessment_id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/badges/{assessment_id}".format(assessment_id=quote(str(assessment_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> BadgeOnRecord | HTTPValidationError | None:
    if response.status_code == 200:
        response_200 = BadgeOnRecord.from_dict(response.json())



        return response_200

    if response.status_code == 422:
        response_422 = HTTPValidationError.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[BadgeOnRecord | HTTPValidationError]:
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

) -> Response[BadgeOnRecord | HTTPValidationError]:
    """ Get Badge

     The badge record of one of the organization's assessments (``read``): its latest
    credential, status-list bit, dates, revocation and visibility.

    Args:
        assessment_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BadgeOnRecord | HTTPValidationError]
     """


    kwargs = _get_kwargs(
        assessment_id=assessment_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    assessment_id: str,
    *,
    client: AuthenticatedClient,

) -> BadgeOnRecord | HTTPValidationError | None:
    """ Get Badge

     The badge record of one of the organization's assessments (``read``): its latest
    credential, status-list bit, dates, revocation and visibility.

    Args:
        assessment_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BadgeOnRecord | HTTPValidationError
     """


    return sync_detailed(
        assessment_id=assessment_id,
client=client,

    ).parsed

async def asyncio_detailed(
    assessment_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[BadgeOnRecord | HTTPValidationError]:
    """ Get Badge

     The badge record of one of the organization's assessments (``read``): its latest
    credential, status-list bit, dates, revocation and visibility.

    Args:
        assessment_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BadgeOnRecord | HTTPValidationError]
     """


    kwargs = _get_kwargs(
        assessment_id=assessment_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    assessment_id: str,
    *,
    client: AuthenticatedClient,

) -> BadgeOnRecord | HTTPValidationError | None:
    """ Get Badge

     The badge record of one of the organization's assessments (``read``): its latest
    credential, status-list bit, dates, revocation and visibility.

    Args:
        assessment_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BadgeOnRecord | HTTPValidationError
     """


    return (await asyncio_detailed(
        assessment_id=assessment_id,
client=client,

    )).parsed
