from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.appeal import Appeal
from ...models.appeal_resolution import AppealResolution
from ...models.http_validation_error import HTTPValidationError
from typing import cast



def _get_kwargs(
    assessment_id: str,
    appeal_id: str,
    *,
    body: AppealResolution,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/assessments/{assessment_id}/appeals/{appeal_id}/resolve".format(assessment_id=quote(str(assessment_id), safe=""),appeal_id=quote(str(appeal_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Appeal | HTTPValidationError | None:
    if response.status_code == 200:
        response_200 = Appeal.from_dict(response.json())



        return response_200

    if response.status_code == 422:
        response_422 = HTTPValidationError.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Appeal | HTTPValidationError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    assessment_id: str,
    appeal_id: str,
    *,
    client: AuthenticatedClient,
    body: AppealResolution,

) -> Response[Appeal | HTTPValidationError]:
    """ Resolve Appeal

     Accept (re-score the challenged dimensions, supersede the old badge and issue one with
    the corrected scores) or reject an appeal.

    Args:
        assessment_id (str):
        appeal_id (str):
        body (AppealResolution):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Appeal | HTTPValidationError]
     """


    kwargs = _get_kwargs(
        assessment_id=assessment_id,
appeal_id=appeal_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    assessment_id: str,
    appeal_id: str,
    *,
    client: AuthenticatedClient,
    body: AppealResolution,

) -> Appeal | HTTPValidationError | None:
    """ Resolve Appeal

     Accept (re-score the challenged dimensions, supersede the old badge and issue one with
    the corrected scores) or reject an appeal.

    Args:
        assessment_id (str):
        appeal_id (str):
        body (AppealResolution):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Appeal | HTTPValidationError
     """


    return sync_detailed(
        assessment_id=assessment_id,
appeal_id=appeal_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    assessment_id: str,
    appeal_id: str,
    *,
    client: AuthenticatedClient,
    body: AppealResolution,

) -> Response[Appeal | HTTPValidationError]:
    """ Resolve Appeal

     Accept (re-score the challenged dimensions, supersede the old badge and issue one with
    the corrected scores) or reject an appeal.

    Args:
        assessment_id (str):
        appeal_id (str):
        body (AppealResolution):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Appeal | HTTPValidationError]
     """


    kwargs = _get_kwargs(
        assessment_id=assessment_id,
appeal_id=appeal_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    assessment_id: str,
    appeal_id: str,
    *,
    client: AuthenticatedClient,
    body: AppealResolution,

) -> Appeal | HTTPValidationError | None:
    """ Resolve Appeal

     Accept (re-score the challenged dimensions, supersede the old badge and issue one with
    the corrected scores) or reject an appeal.

    Args:
        assessment_id (str):
        appeal_id (str):
        body (AppealResolution):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Appeal | HTTPValidationError
     """


    return (await asyncio_detailed(
        assessment_id=assessment_id,
appeal_id=appeal_id,
client=client,
body=body,

    )).parsed
