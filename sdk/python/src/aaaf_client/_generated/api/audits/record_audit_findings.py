from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.audit_findings import AuditFindings
from ...models.batch_result import BatchResult
from ...models.http_validation_error import HTTPValidationError
from typing import cast



def _get_kwargs(
    agent_id: str,
    *,
    body: AuditFindings,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/agents/{agent_id}/audits/findings".format(agent_id=quote(str(agent_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> BatchResult | HTTPValidationError | None:
    if response.status_code == 201:
        response_201 = BatchResult.from_dict(response.json())



        return response_201

    if response.status_code == 422:
        response_422 = HTTPValidationError.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[BatchResult | HTTPValidationError]:
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
    body: AuditFindings,

) -> Response[BatchResult | HTTPValidationError]:
    """ Record Audit Findings

     Record up to 1 000 findings about the agent's tasks: each is accepted, a duplicate, or
    rejected with its index, the code and the field of its problem.

    Args:
        agent_id (str):
        body (AuditFindings): Findings: each a sampled task with its ``finding`` filled in (as
            ``POST …/audits``
            answers it) or a ``task_audited`` event; ``auditor`` names who audited where an item
            does not.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BatchResult | HTTPValidationError]
     """


    kwargs = _get_kwargs(
        agent_id=agent_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    agent_id: str,
    *,
    client: AuthenticatedClient,
    body: AuditFindings,

) -> BatchResult | HTTPValidationError | None:
    """ Record Audit Findings

     Record up to 1 000 findings about the agent's tasks: each is accepted, a duplicate, or
    rejected with its index, the code and the field of its problem.

    Args:
        agent_id (str):
        body (AuditFindings): Findings: each a sampled task with its ``finding`` filled in (as
            ``POST …/audits``
            answers it) or a ``task_audited`` event; ``auditor`` names who audited where an item
            does not.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BatchResult | HTTPValidationError
     """


    return sync_detailed(
        agent_id=agent_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    agent_id: str,
    *,
    client: AuthenticatedClient,
    body: AuditFindings,

) -> Response[BatchResult | HTTPValidationError]:
    """ Record Audit Findings

     Record up to 1 000 findings about the agent's tasks: each is accepted, a duplicate, or
    rejected with its index, the code and the field of its problem.

    Args:
        agent_id (str):
        body (AuditFindings): Findings: each a sampled task with its ``finding`` filled in (as
            ``POST …/audits``
            answers it) or a ``task_audited`` event; ``auditor`` names who audited where an item
            does not.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BatchResult | HTTPValidationError]
     """


    kwargs = _get_kwargs(
        agent_id=agent_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    agent_id: str,
    *,
    client: AuthenticatedClient,
    body: AuditFindings,

) -> BatchResult | HTTPValidationError | None:
    """ Record Audit Findings

     Record up to 1 000 findings about the agent's tasks: each is accepted, a duplicate, or
    rejected with its index, the code and the field of its problem.

    Args:
        agent_id (str):
        body (AuditFindings): Findings: each a sampled task with its ``finding`` filled in (as
            ``POST …/audits``
            answers it) or a ``task_audited`` event; ``auditor`` names who audited where an item
            does not.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BatchResult | HTTPValidationError
     """


    return (await asyncio_detailed(
        agent_id=agent_id,
client=client,
body=body,

    )).parsed
