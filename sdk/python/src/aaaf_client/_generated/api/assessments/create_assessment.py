from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.assessment_create import AssessmentCreate
from ...models.assessment_started import AssessmentStarted
from ...models.http_validation_error import HTTPValidationError
from typing import cast



def _get_kwargs(
    *,
    body: AssessmentCreate,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/assessments",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AssessmentStarted | HTTPValidationError | None:
    if response.status_code == 202:
        response_202 = AssessmentStarted.from_dict(response.json())



        return response_202

    if response.status_code == 422:
        response_422 = HTTPValidationError.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AssessmentStarted | HTTPValidationError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: AssessmentCreate,

) -> Response[AssessmentStarted | HTTPValidationError]:
    """ Create Assessment

     Trigger an assessment; poll ``GET /api/v1/assessments/{id}`` until it is completed.

    Args:
        body (AssessmentCreate): docs/api.md ``POST /api/v1/assessments``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AssessmentStarted | HTTPValidationError]
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
    body: AssessmentCreate,

) -> AssessmentStarted | HTTPValidationError | None:
    """ Create Assessment

     Trigger an assessment; poll ``GET /api/v1/assessments/{id}`` until it is completed.

    Args:
        body (AssessmentCreate): docs/api.md ``POST /api/v1/assessments``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AssessmentStarted | HTTPValidationError
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: AssessmentCreate,

) -> Response[AssessmentStarted | HTTPValidationError]:
    """ Create Assessment

     Trigger an assessment; poll ``GET /api/v1/assessments/{id}`` until it is completed.

    Args:
        body (AssessmentCreate): docs/api.md ``POST /api/v1/assessments``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AssessmentStarted | HTTPValidationError]
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
    body: AssessmentCreate,

) -> AssessmentStarted | HTTPValidationError | None:
    """ Create Assessment

     Trigger an assessment; poll ``GET /api/v1/assessments/{id}`` until it is completed.

    Args:
        body (AssessmentCreate): docs/api.md ``POST /api/v1/assessments``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AssessmentStarted | HTTPValidationError
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
