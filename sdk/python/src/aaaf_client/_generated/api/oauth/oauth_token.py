from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.oauth_token_body import OauthTokenBody
from ...models.token_answer import TokenAnswer
from typing import cast



def _get_kwargs(
    *,
    body: OauthTokenBody,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/oauth/token",
    }

    _kwargs["data"] = body.to_dict()
    headers["Content-Type"] = "application/x-www-form-urlencoded"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | TokenAnswer | None:
    if response.status_code == 200:
        response_200 = TokenAnswer.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = cast(Any, None)
        return response_400

    if response.status_code == 401:
        response_401 = cast(Any, None)
        return response_401

    if response.status_code == 429:
        response_429 = cast(Any, None)
        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | TokenAnswer]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: OauthTokenBody,

) -> Response[Any | TokenAnswer]:
    """ Oauth Token

     Client-credentials grant (public): a short-lived access token for ``Authorization: Bearer``.
    Wrong secrets are limited like wrong keys (429 ``RATE_LIMITED``; docs/security.md "Keys").

    Args:
        body (OauthTokenBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | TokenAnswer]
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
    client: AuthenticatedClient | Client,
    body: OauthTokenBody,

) -> Any | TokenAnswer | None:
    """ Oauth Token

     Client-credentials grant (public): a short-lived access token for ``Authorization: Bearer``.
    Wrong secrets are limited like wrong keys (429 ``RATE_LIMITED``; docs/security.md "Keys").

    Args:
        body (OauthTokenBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | TokenAnswer
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: OauthTokenBody,

) -> Response[Any | TokenAnswer]:
    """ Oauth Token

     Client-credentials grant (public): a short-lived access token for ``Authorization: Bearer``.
    Wrong secrets are limited like wrong keys (429 ``RATE_LIMITED``; docs/security.md "Keys").

    Args:
        body (OauthTokenBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | TokenAnswer]
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
    client: AuthenticatedClient | Client,
    body: OauthTokenBody,

) -> Any | TokenAnswer | None:
    """ Oauth Token

     Client-credentials grant (public): a short-lived access token for ``Authorization: Bearer``.
    Wrong secrets are limited like wrong keys (429 ``RATE_LIMITED``; docs/security.md "Keys").

    Args:
        body (OauthTokenBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | TokenAnswer
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
