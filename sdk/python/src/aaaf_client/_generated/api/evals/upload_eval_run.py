from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.eval_run_page import EvalRunPage
from ...models.http_validation_error import HTTPValidationError
from ...models.upload_eval_run_files_body import UploadEvalRunFilesBody
from ...models.upload_eval_run_json_body import UploadEvalRunJsonBody
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body:    UploadEvalRunJsonBody  |     UploadEvalRunFilesBody  | Unset = UNSET,
    from_: str | Unset = 'auto',

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    params: dict[str, Any] = {}

    params["from"] = from_


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/eval-runs",
        "params": params,
    }

    if isinstance(body, UploadEvalRunJsonBody):
        _kwargs["json"] = body.to_dict()

        headers["Content-Type"] = "application/json"
    if isinstance(body, UploadEvalRunFilesBody):
        _kwargs["files"] = body.to_multipart()

        headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> EvalRunPage | HTTPValidationError | None:
    if response.status_code == 201:
        response_201 = EvalRunPage.from_dict(response.json())



        return response_201

    if response.status_code == 422:
        response_422 = HTTPValidationError.from_dict(response.json())



        return response_422

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[EvalRunPage | HTTPValidationError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body:    UploadEvalRunJsonBody  |     UploadEvalRunFilesBody  | Unset = UNSET,
    from_: str | Unset = 'auto',

) -> Response[EvalRunPage | HTTPValidationError]:
    """ Upload Eval Run

     Store every run of an uploaded run file (one per promptfoo column).

    Args:
        from_ (str | Unset): auto (by content), aaaf, inspect_ai or promptfoo. Default: 'auto'.
        body (UploadEvalRunJsonBody):
        body (UploadEvalRunFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EvalRunPage | HTTPValidationError]
     """


    kwargs = _get_kwargs(
        body=body,
from_=from_,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body:    UploadEvalRunJsonBody  |     UploadEvalRunFilesBody  | Unset = UNSET,
    from_: str | Unset = 'auto',

) -> EvalRunPage | HTTPValidationError | None:
    """ Upload Eval Run

     Store every run of an uploaded run file (one per promptfoo column).

    Args:
        from_ (str | Unset): auto (by content), aaaf, inspect_ai or promptfoo. Default: 'auto'.
        body (UploadEvalRunJsonBody):
        body (UploadEvalRunFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EvalRunPage | HTTPValidationError
     """


    return sync_detailed(
        client=client,
body=body,
from_=from_,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body:    UploadEvalRunJsonBody  |     UploadEvalRunFilesBody  | Unset = UNSET,
    from_: str | Unset = 'auto',

) -> Response[EvalRunPage | HTTPValidationError]:
    """ Upload Eval Run

     Store every run of an uploaded run file (one per promptfoo column).

    Args:
        from_ (str | Unset): auto (by content), aaaf, inspect_ai or promptfoo. Default: 'auto'.
        body (UploadEvalRunJsonBody):
        body (UploadEvalRunFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EvalRunPage | HTTPValidationError]
     """


    kwargs = _get_kwargs(
        body=body,
from_=from_,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body:    UploadEvalRunJsonBody  |     UploadEvalRunFilesBody  | Unset = UNSET,
    from_: str | Unset = 'auto',

) -> EvalRunPage | HTTPValidationError | None:
    """ Upload Eval Run

     Store every run of an uploaded run file (one per promptfoo column).

    Args:
        from_ (str | Unset): auto (by content), aaaf, inspect_ai or promptfoo. Default: 'auto'.
        body (UploadEvalRunJsonBody):
        body (UploadEvalRunFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EvalRunPage | HTTPValidationError
     """


    return (await asyncio_detailed(
        client=client,
body=body,
from_=from_,

    )).parsed
