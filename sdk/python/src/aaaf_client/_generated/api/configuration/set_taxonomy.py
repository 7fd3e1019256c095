from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.http_validation_error import HTTPValidationError
from ...models.taxonomy import Taxonomy
from ...models.taxonomy_update import TaxonomyUpdate
from typing import cast



def _get_kwargs(
    org_id: str,
    *,
    body: TaxonomyUpdate,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/api/v1/organizations/{org_id}/config/taxonomy".format(org_id=quote(str(org_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> HTTPValidationError | Taxonomy | None:
    if response.status_code == 200:
        response_200 = Taxonomy.from_dict(response.json())



        return response_200

    if response.status_code == 422:
        response_422 = HTTPValidationError.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[HTTPValidationError | Taxonomy]:
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
    body: TaxonomyUpdate,

) -> Response[HTTPValidationError | Taxonomy]:
    """ Set Taxonomy

     Replace the domain taxonomy (docs/scoring.md §3.5 domain_breadth).

    Args:
        org_id (str):
        body (TaxonomyUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | Taxonomy]
     """


    kwargs = _get_kwargs(
        org_id=org_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    org_id: str,
    *,
    client: AuthenticatedClient,
    body: TaxonomyUpdate,

) -> HTTPValidationError | Taxonomy | None:
    """ Set Taxonomy

     Replace the domain taxonomy (docs/scoring.md §3.5 domain_breadth).

    Args:
        org_id (str):
        body (TaxonomyUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | Taxonomy
     """


    return sync_detailed(
        org_id=org_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    org_id: str,
    *,
    client: AuthenticatedClient,
    body: TaxonomyUpdate,

) -> Response[HTTPValidationError | Taxonomy]:
    """ Set Taxonomy

     Replace the domain taxonomy (docs/scoring.md §3.5 domain_breadth).

    Args:
        org_id (str):
        body (TaxonomyUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[HTTPValidationError | Taxonomy]
     """


    kwargs = _get_kwargs(
        org_id=org_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    org_id: str,
    *,
    client: AuthenticatedClient,
    body: TaxonomyUpdate,

) -> HTTPValidationError | Taxonomy | None:
    """ Set Taxonomy

     Replace the domain taxonomy (docs/scoring.md §3.5 domain_breadth).

    Args:
        org_id (str):
        body (TaxonomyUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        HTTPValidationError | Taxonomy
     """


    return (await asyncio_detailed(
        org_id=org_id,
client=client,
body=body,

    )).parsed
