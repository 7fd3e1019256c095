from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.http_validation_error import HTTPValidationError
from ...models.stress_run_queued import StressRunQueued
from ...models.stress_test_request import StressTestRequest
from typing import cast



def _get_kwargs(
    assessment_id: str,
    *,
    body: StressTestRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/assessments/{assessment_id}/stress-test".format(assessment_id=quote(str(assessment_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> HTTPValidationError | StressRunQueued | None:
    if response.status_code == 202:
        response_202 = StressRunQueued.from_dict(response.json())



        return response_202

    if response.status_code == 422:
        response_422 = HTTPValidationError.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[HTTPValidationError | StressRunQueued]:
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
    body: StressTestRequest,

) -> Response[HTTPValidationError | StressRunQueued]:
    """ Run Stress Test

     docs/api.md stress test of an assessment: the library against the assessment's agent at
    ``agent_url`` (checked like a webhook target), queued as a job (a worker runs it, never this
    process); 202 with the run ``queued`` — poll ``GET /api/v1/stress-runs/{id}`` — whose
    evidence the agent's next ``full`` or ``stress_test_only`` assessment merges.  Refused at
    once: another organization's assessment (404), a URL, a selection without tasks (400), tasks
    that execute code without a sandbox (503 ``SANDBOX_UNAVAILABLE``; docs/stress-tests.md).

    Args:
        assessment_id (str):
        body (StressTestRequest): An agent reached over HTTP (never a command on the server): an
            OpenAI-compatible
            chat-completions endpoint with tool calling, and the run's own key for it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | StressRunQueued]
     """


    kwargs = _get_kwargs(
        assessment_id=assessment_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    assessment_id: str,
    *,
    client: AuthenticatedClient,
    body: StressTestRequest,

) -> HTTPValidationError | StressRunQueued | None:
    """ Run Stress Test

     docs/api.md stress test of an assessment: the library against the assessment's agent at
    ``agent_url`` (checked like a webhook target), queued as a job (a worker runs it, never this
    process); 202 with the run ``queued`` — poll ``GET /api/v1/stress-runs/{id}`` — whose
    evidence the agent's next ``full`` or ``stress_test_only`` assessment merges.  Refused at
    once: another organization's assessment (404), a URL, a selection without tasks (400), tasks
    that execute code without a sandbox (503 ``SANDBOX_UNAVAILABLE``; docs/stress-tests.md).

    Args:
        assessment_id (str):
        body (StressTestRequest): An agent reached over HTTP (never a command on the server): an
            OpenAI-compatible
            chat-completions endpoint with tool calling, and the run's own key for it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | StressRunQueued
     """


    return sync_detailed(
        assessment_id=assessment_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    assessment_id: str,
    *,
    client: AuthenticatedClient,
    body: StressTestRequest,

) -> Response[HTTPValidationError | StressRunQueued]:
    """ Run Stress Test

     docs/api.md stress test of an assessment: the library against the assessment's agent at
    ``agent_url`` (checked like a webhook target), queued as a job (a worker runs it, never this
    process); 202 with the run ``queued`` — poll ``GET /api/v1/stress-runs/{id}`` — whose
    evidence the agent's next ``full`` or ``stress_test_only`` assessment merges.  Refused at
    once: another organization's assessment (404), a URL, a selection without tasks (400), tasks
    that execute code without a sandbox (503 ``SANDBOX_UNAVAILABLE``; docs/stress-tests.md).

    Args:
        assessment_id (str):
        body (StressTestRequest): An agent reached over HTTP (never a command on the server): an
            OpenAI-compatible
            chat-completions endpoint with tool calling, and the run's own key for it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | StressRunQueued]
     """


    kwargs = _get_kwargs(
        assessment_id=assessment_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    assessment_id: str,
    *,
    client: AuthenticatedClient,
    body: StressTestRequest,

) -> HTTPValidationError | StressRunQueued | None:
    """ Run Stress Test

     docs/api.md stress test of an assessment: the library against the assessment's agent at
    ``agent_url`` (checked like a webhook target), queued as a job (a worker runs it, never this
    process); 202 with the run ``queued`` — poll ``GET /api/v1/stress-runs/{id}`` — whose
    evidence the agent's next ``full`` or ``stress_test_only`` assessment merges.  Refused at
    once: another organization's assessment (404), a URL, a selection without tasks (400), tasks
    that execute code without a sandbox (503 ``SANDBOX_UNAVAILABLE``; docs/stress-tests.md).

    Args:
        assessment_id (str):
        body (StressTestRequest): An agent reached over HTTP (never a command on the server): an
            OpenAI-compatible
            chat-completions endpoint with tool calling, and the run's own key for it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | StressRunQueued
     """


    return (await asyncio_detailed(
        assessment_id=assessment_id,
client=client,
body=body,

    )).parsed
