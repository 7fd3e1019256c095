from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.http_validation_error import HTTPValidationError
from ...models.workflow_score import WorkflowScore
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    agent_id: str,
    *,
    window: int | Unset = 100,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["window"] = window


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/agents/{agent_id}/workflow-score".format(agent_id=quote(str(agent_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> HTTPValidationError | WorkflowScore | None:
    if response.status_code == 200:
        response_200 = WorkflowScore.from_dict(response.json())



        return response_200

    if response.status_code == 422:
        response_422 = HTTPValidationError.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[HTTPValidationError | WorkflowScore]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    agent_id: str,
    *,
    client: AuthenticatedClient,
    window: int | Unset = 100,

) -> Response[HTTPValidationError | WorkflowScore]:
    """ Get Workflow Score

     Every stored run of the agent with S and its four parts, and the agent's window mean.

    Args:
        agent_id (str):
        window (int | Unset): Most recent tasks per agent in its mean (docs/scoring.md §6).
            Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | WorkflowScore]
     """


    kwargs = _get_kwargs(
        agent_id=agent_id,
window=window,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    agent_id: str,
    *,
    client: AuthenticatedClient,
    window: int | Unset = 100,

) -> HTTPValidationError | WorkflowScore | None:
    """ Get Workflow Score

     Every stored run of the agent with S and its four parts, and the agent's window mean.

    Args:
        agent_id (str):
        window (int | Unset): Most recent tasks per agent in its mean (docs/scoring.md §6).
            Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | WorkflowScore
     """


    return sync_detailed(
        agent_id=agent_id,
client=client,
window=window,

    ).parsed

async def asyncio_detailed(
    agent_id: str,
    *,
    client: AuthenticatedClient,
    window: int | Unset = 100,

) -> Response[HTTPValidationError | WorkflowScore]:
    """ Get Workflow Score

     Every stored run of the agent with S and its four parts, and the agent's window mean.

    Args:
        agent_id (str):
        window (int | Unset): Most recent tasks per agent in its mean (docs/scoring.md §6).
            Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | WorkflowScore]
     """


    kwargs = _get_kwargs(
        agent_id=agent_id,
window=window,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    agent_id: str,
    *,
    client: AuthenticatedClient,
    window: int | Unset = 100,

) -> HTTPValidationError | WorkflowScore | None:
    """ Get Workflow Score

     Every stored run of the agent with S and its four parts, and the agent's window mean.

    Args:
        agent_id (str):
        window (int | Unset): Most recent tasks per agent in its mean (docs/scoring.md §6).
            Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | WorkflowScore
     """


    return (await asyncio_detailed(
        agent_id=agent_id,
client=client,
window=window,

    )).parsed
