from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.http_validation_error import HTTPValidationError
from ...models.stress_run_with_results import StressRunWithResults
from typing import cast



def _get_kwargs(
    run_id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/stress-runs/{run_id}".format(run_id=quote(str(run_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> HTTPValidationError | StressRunWithResults | None:
    if response.status_code == 200:
        response_200 = StressRunWithResults.from_dict(response.json())



        return response_200

    if response.status_code == 422:
        response_422 = HTTPValidationError.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[HTTPValidationError | StressRunWithResults]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    run_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[HTTPValidationError | StressRunWithResults]:
    """ Get Stress Run

     The run (status — ``queued``, ``running``, ``finished`` or ``failed`` with the reason in
    ``summary.error`` —, what was requested, library and version, created, started, finished,
    attempts, summary, the assessment that merged it) and its per-task results.

    Args:
        run_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | StressRunWithResults]
     """


    kwargs = _get_kwargs(
        run_id=run_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    run_id: str,
    *,
    client: AuthenticatedClient,

) -> HTTPValidationError | StressRunWithResults | None:
    """ Get Stress Run

     The run (status — ``queued``, ``running``, ``finished`` or ``failed`` with the reason in
    ``summary.error`` —, what was requested, library and version, created, started, finished,
    attempts, summary, the assessment that merged it) and its per-task results.

    Args:
        run_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | StressRunWithResults
     """


    return sync_detailed(
        run_id=run_id,
client=client,

    ).parsed

async def asyncio_detailed(
    run_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[HTTPValidationError | StressRunWithResults]:
    """ Get Stress Run

     The run (status — ``queued``, ``running``, ``finished`` or ``failed`` with the reason in
    ``summary.error`` —, what was requested, library and version, created, started, finished,
    attempts, summary, the assessment that merged it) and its per-task results.

    Args:
        run_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | StressRunWithResults]
     """


    kwargs = _get_kwargs(
        run_id=run_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    run_id: str,
    *,
    client: AuthenticatedClient,

) -> HTTPValidationError | StressRunWithResults | None:
    """ Get Stress Run

     The run (status — ``queued``, ``running``, ``finished`` or ``failed`` with the reason in
    ``summary.error`` —, what was requested, library and version, created, started, finished,
    attempts, summary, the assessment that merged it) and its per-task results.

    Args:
        run_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | StressRunWithResults
     """


    return (await asyncio_detailed(
        run_id=run_id,
client=client,

    )).parsed
