from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.http_validation_error import HTTPValidationError
from ...models.workflow_weights import WorkflowWeights
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    window: int | Unset = 100,
    cap: float | Unset = 0.15,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["window"] = window

    params["cap"] = cap


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/workflow-weights",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> HTTPValidationError | WorkflowWeights | None:
    if response.status_code == 200:
        response_200 = WorkflowWeights.from_dict(response.json())



        return response_200

    if response.status_code == 422:
        response_422 = HTTPValidationError.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[HTTPValidationError | WorkflowWeights]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    window: int | Unset = 100,
    cap: float | Unset = 0.15,

) -> Response[HTTPValidationError | WorkflowWeights]:
    """ Get Workflow Weights

     Each agent's window mean turned into a weight, normalised to 1 and capped (default 15 %).

    Args:
        window (int | Unset): Most recent tasks per agent in its mean (docs/scoring.md §6).
            Default: 100.
        cap (float | Unset): Largest weight any agent may get. Default: 0.15.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | WorkflowWeights]
     """


    kwargs = _get_kwargs(
        window=window,
cap=cap,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    window: int | Unset = 100,
    cap: float | Unset = 0.15,

) -> HTTPValidationError | WorkflowWeights | None:
    """ Get Workflow Weights

     Each agent's window mean turned into a weight, normalised to 1 and capped (default 15 %).

    Args:
        window (int | Unset): Most recent tasks per agent in its mean (docs/scoring.md §6).
            Default: 100.
        cap (float | Unset): Largest weight any agent may get. Default: 0.15.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | WorkflowWeights
     """


    return sync_detailed(
        client=client,
window=window,
cap=cap,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    window: int | Unset = 100,
    cap: float | Unset = 0.15,

) -> Response[HTTPValidationError | WorkflowWeights]:
    """ Get Workflow Weights

     Each agent's window mean turned into a weight, normalised to 1 and capped (default 15 %).

    Args:
        window (int | Unset): Most recent tasks per agent in its mean (docs/scoring.md §6).
            Default: 100.
        cap (float | Unset): Largest weight any agent may get. Default: 0.15.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | WorkflowWeights]
     """


    kwargs = _get_kwargs(
        window=window,
cap=cap,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    window: int | Unset = 100,
    cap: float | Unset = 0.15,

) -> HTTPValidationError | WorkflowWeights | None:
    """ Get Workflow Weights

     Each agent's window mean turned into a weight, normalised to 1 and capped (default 15 %).

    Args:
        window (int | Unset): Most recent tasks per agent in its mean (docs/scoring.md §6).
            Default: 100.
        cap (float | Unset): Largest weight any agent may get. Default: 0.15.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | WorkflowWeights
     """


    return (await asyncio_detailed(
        client=client,
window=window,
cap=cap,

    )).parsed
