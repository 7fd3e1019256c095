from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.config_weights import ConfigWeights
from ...models.http_validation_error import HTTPValidationError
from typing import cast



def _get_kwargs(
    org_id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/organizations/{org_id}/config/weights".format(org_id=quote(str(org_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ConfigWeights | HTTPValidationError | None:
    if response.status_code == 200:
        response_200 = ConfigWeights.from_dict(response.json())



        return response_200

    if response.status_code == 422:
        response_422 = HTTPValidationError.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ConfigWeights | HTTPValidationError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    org_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[ConfigWeights | HTTPValidationError]:
    """ Get Weights

    Args:
        org_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConfigWeights | HTTPValidationError]
     """


    kwargs = _get_kwargs(
        org_id=org_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    org_id: str,
    *,
    client: AuthenticatedClient,

) -> ConfigWeights | HTTPValidationError | None:
    """ Get Weights

    Args:
        org_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConfigWeights | HTTPValidationError
     """


    return sync_detailed(
        org_id=org_id,
client=client,

    ).parsed

async def asyncio_detailed(
    org_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[ConfigWeights | HTTPValidationError]:
    """ Get Weights

    Args:
        org_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConfigWeights | HTTPValidationError]
     """


    kwargs = _get_kwargs(
        org_id=org_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    org_id: str,
    *,
    client: AuthenticatedClient,

) -> ConfigWeights | HTTPValidationError | None:
    """ Get Weights

    Args:
        org_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConfigWeights | HTTPValidationError
     """


    return (await asyncio_detailed(
        org_id=org_id,
client=client,

    )).parsed
