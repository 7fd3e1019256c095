from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.compare_in import CompareIn
from ...models.comparison import Comparison
from ...models.http_validation_error import HTTPValidationError
from ...models.several_comparison import SeveralComparison
from typing import cast



def _get_kwargs(
    *,
    body: CompareIn,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/eval-runs/compare",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Comparison | SeveralComparison | HTTPValidationError | None:
    if response.status_code == 200:
        def _parse_response_200(data: object) -> Comparison | SeveralComparison:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_200_type_0 = Comparison.from_dict(data)



                return response_200_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_200_type_1 = SeveralComparison.from_dict(data)



            return response_200_type_1

        response_200 = _parse_response_200(response.json())

        return response_200

    if response.status_code == 422:
        response_422 = HTTPValidationError.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Comparison | SeveralComparison | HTTPValidationError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CompareIn,

) -> Response[Comparison | SeveralComparison | HTTPValidationError]:
    """ Compare Eval Runs

     Compare a control with one or several treatments: PROGRESS, CAUTIOUS, REGRESS, NOISE or
    UNDERPOWERED, with each layer's CI and gates (the JSON of ``aaaf compare --json``).

    Args:
        body (CompareIn): ``aaaf compare``'s inputs and options (docs/scoring.md §5;
            docs/scoring.md §5 v1.0 options).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Comparison | SeveralComparison | HTTPValidationError]
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
    client: AuthenticatedClient,
    body: CompareIn,

) -> Comparison | SeveralComparison | HTTPValidationError | None:
    """ Compare Eval Runs

     Compare a control with one or several treatments: PROGRESS, CAUTIOUS, REGRESS, NOISE or
    UNDERPOWERED, with each layer's CI and gates (the JSON of ``aaaf compare --json``).

    Args:
        body (CompareIn): ``aaaf compare``'s inputs and options (docs/scoring.md §5;
            docs/scoring.md §5 v1.0 options).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Comparison | SeveralComparison | HTTPValidationError
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CompareIn,

) -> Response[Comparison | SeveralComparison | HTTPValidationError]:
    """ Compare Eval Runs

     Compare a control with one or several treatments: PROGRESS, CAUTIOUS, REGRESS, NOISE or
    UNDERPOWERED, with each layer's CI and gates (the JSON of ``aaaf compare --json``).

    Args:
        body (CompareIn): ``aaaf compare``'s inputs and options (docs/scoring.md §5;
            docs/scoring.md §5 v1.0 options).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Comparison | SeveralComparison | HTTPValidationError]
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
    client: AuthenticatedClient,
    body: CompareIn,

) -> Comparison | SeveralComparison | HTTPValidationError | None:
    """ Compare Eval Runs

     Compare a control with one or several treatments: PROGRESS, CAUTIOUS, REGRESS, NOISE or
    UNDERPOWERED, with each layer's CI and gates (the JSON of ``aaaf compare --json``).

    Args:
        body (CompareIn): ``aaaf compare``'s inputs and options (docs/scoring.md §5;
            docs/scoring.md §5 v1.0 options).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Comparison | SeveralComparison | HTTPValidationError
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
