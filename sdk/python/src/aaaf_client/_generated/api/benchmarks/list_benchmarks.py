from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.benchmark_table import BenchmarkTable
from ...models.http_validation_error import HTTPValidationError
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    domain: None | str | Unset = UNSET,
    dimension: None | str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_domain: None | str | Unset
    if isinstance(domain, Unset):
        json_domain = UNSET
    else:
        json_domain = domain
    params["domain"] = json_domain

    json_dimension: None | str | Unset
    if isinstance(dimension, Unset):
        json_dimension = UNSET
    else:
        json_dimension = dimension
    params["dimension"] = json_dimension


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/benchmarks",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> BenchmarkTable | HTTPValidationError | None:
    if response.status_code == 200:
        response_200 = BenchmarkTable.from_dict(response.json())



        return response_200

    if response.status_code == 422:
        response_422 = HTTPValidationError.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[BenchmarkTable | HTTPValidationError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    domain: None | str | Unset = UNSET,
    dimension: None | str | Unset = UNSET,

) -> Response[BenchmarkTable | HTTPValidationError]:
    """ List Benchmarks

     The published benchmark cells (deciles; k-anonymous: >= 5 organizations, >= 20 agents).

    Args:
        domain (None | str | Unset): Only this domain's cells (`all`: every agent).
        dimension (None | str | Unset): Only this dimension's cells.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BenchmarkTable | HTTPValidationError]
     """


    kwargs = _get_kwargs(
        domain=domain,
dimension=dimension,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    domain: None | str | Unset = UNSET,
    dimension: None | str | Unset = UNSET,

) -> BenchmarkTable | HTTPValidationError | None:
    """ List Benchmarks

     The published benchmark cells (deciles; k-anonymous: >= 5 organizations, >= 20 agents).

    Args:
        domain (None | str | Unset): Only this domain's cells (`all`: every agent).
        dimension (None | str | Unset): Only this dimension's cells.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BenchmarkTable | HTTPValidationError
     """


    return sync_detailed(
        client=client,
domain=domain,
dimension=dimension,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    domain: None | str | Unset = UNSET,
    dimension: None | str | Unset = UNSET,

) -> Response[BenchmarkTable | HTTPValidationError]:
    """ List Benchmarks

     The published benchmark cells (deciles; k-anonymous: >= 5 organizations, >= 20 agents).

    Args:
        domain (None | str | Unset): Only this domain's cells (`all`: every agent).
        dimension (None | str | Unset): Only this dimension's cells.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BenchmarkTable | HTTPValidationError]
     """


    kwargs = _get_kwargs(
        domain=domain,
dimension=dimension,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    domain: None | str | Unset = UNSET,
    dimension: None | str | Unset = UNSET,

) -> BenchmarkTable | HTTPValidationError | None:
    """ List Benchmarks

     The published benchmark cells (deciles; k-anonymous: >= 5 organizations, >= 20 agents).

    Args:
        domain (None | str | Unset): Only this domain's cells (`all`: every agent).
        dimension (None | str | Unset): Only this dimension's cells.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BenchmarkTable | HTTPValidationError
     """


    return (await asyncio_detailed(
        client=client,
domain=domain,
dimension=dimension,

    )).parsed
