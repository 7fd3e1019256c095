from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.http_validation_error import HTTPValidationError
from ...models.stress_library import StressLibrary
from typing import cast



def _get_kwargs(
    name: str,
    version: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/stress-libraries/{name}/{version}/install".format(name=quote(str(name), safe=""),version=quote(str(version), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> HTTPValidationError | StressLibrary | None:
    if response.status_code == 200:
        response_200 = StressLibrary.from_dict(response.json())



        return response_200

    if response.status_code == 422:
        response_422 = HTTPValidationError.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[HTTPValidationError | StressLibrary]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    name: str,
    version: str,
    *,
    client: AuthenticatedClient,

) -> Response[HTTPValidationError | StressLibrary]:
    """ Install Stress Library

     Install a library (the organization's own or a shared one); its tasks join the organization's stress
    runs.

    Args:
        name (str):
        version (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | StressLibrary]
     """


    kwargs = _get_kwargs(
        name=name,
version=version,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    name: str,
    version: str,
    *,
    client: AuthenticatedClient,

) -> HTTPValidationError | StressLibrary | None:
    """ Install Stress Library

     Install a library (the organization's own or a shared one); its tasks join the organization's stress
    runs.

    Args:
        name (str):
        version (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | StressLibrary
     """


    return sync_detailed(
        name=name,
version=version,
client=client,

    ).parsed

async def asyncio_detailed(
    name: str,
    version: str,
    *,
    client: AuthenticatedClient,

) -> Response[HTTPValidationError | StressLibrary]:
    """ Install Stress Library

     Install a library (the organization's own or a shared one); its tasks join the organization's stress
    runs.

    Args:
        name (str):
        version (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | StressLibrary]
     """


    kwargs = _get_kwargs(
        name=name,
version=version,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    name: str,
    version: str,
    *,
    client: AuthenticatedClient,

) -> HTTPValidationError | StressLibrary | None:
    """ Install Stress Library

     Install a library (the organization's own or a shared one); its tasks join the organization's stress
    runs.

    Args:
        name (str):
        version (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | StressLibrary
     """


    return (await asyncio_detailed(
        name=name,
version=version,
client=client,

    )).parsed
