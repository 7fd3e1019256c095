"""OAuth 2.0 client credentials (RFC 6749 §4.4; issue 13 §3; SCORING.md §7 "Public routes").

``POST /oauth/token`` (public) takes ``grant_type=client_credentials`` and the client's
``client_id`` and ``client_secret`` — HTTP Basic (RFC 6749 §2.3.1) or the form body — and
an optional ``scope``, and answers RFC 6749 §5.1's ``{"access_token", "token_type",
"expires_in", "scope"}``: a signed JWT accepted wherever an API key is.  Its errors are
RFC 6749 §5.2's ``{"error", "error_description"}`` (``invalid_request``,
``invalid_client`` — 401 —, ``unsupported_grant_type``, ``invalid_scope``), not §6.4's.

Clients are managed under the organization with the ``admin`` scope:
``POST|GET /api/v1/organizations/{org_id}/oauth-clients`` and
``DELETE /api/v1/organizations/{org_id}/oauth-clients/{oauth_client_id}``.
"""

from __future__ import annotations

import base64
import binascii
from urllib.parse import parse_qs, unquote

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from aaaf.api.deps import Admin, NowDep, StoreDep, issue_token_limited
from aaaf.api.models import Page
from aaaf.api.models import Request as RequestBody
from aaaf.api.pagination import CursorQuery, LimitQuery, keyset_page, time_id_after, time_key
from aaaf.errors import AAAFError
from aaaf.models.tenancy import CreatedOAuthClient, OAuthClient
from aaaf.services import oauth as oauth_service
from aaaf.store import OrgStore

router = APIRouter(tags=["oauth"])

TOKEN_FORM = {
    "application/x-www-form-urlencoded": {
        "schema": {
            "type": "object",
            "required": ["grant_type"],
            "properties": {
                "grant_type": {"type": "string", "enum": ["client_credentials"]},
                "client_id": {"type": "string"},
                "client_secret": {"type": "string"},
                "scope": {
                    "type": "string",
                    "description": "Space-separated scopes (default: all the client's).",
                },
            },
        }
    }
}


class TokenAnswer(BaseModel):
    access_token: str
    token_type: str
    expires_in: int
    scope: str


class OAuthClientCreate(RequestBody):
    scopes: list[str] = Field(min_length=1)
    name: str | None = Field(default=None, max_length=200)


def _token_error(error: oauth_service.TokenError, *, basic: bool) -> JSONResponse:
    headers = {"Cache-Control": "no-store", "Pragma": "no-cache"}
    if error.status == 401:
        headers["WWW-Authenticate"] = 'Basic realm="aaaf"' if basic else 'Bearer realm="aaaf"'
    return JSONResponse(
        {"error": error.error, "error_description": error.description},
        status_code=error.status,
        headers=headers,
    )


def _basic_credentials(request: Request) -> tuple[str, str] | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "basic":
        return None
    try:
        decoded = base64.b64decode(value.strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        raise oauth_service.TokenError("invalid_client", "Malformed HTTP Basic credentials.", 401) from None
    client_id, separator, secret = decoded.partition(":")
    if not separator:
        raise oauth_service.TokenError("invalid_client", "Malformed HTTP Basic credentials.", 401)
    # RFC 6749 §2.3.1: both are form-urlencoded before being put in the header
    return unquote(client_id.replace("+", " ")), unquote(secret.replace("+", " "))


@router.post(
    "/oauth/token",
    operation_id="oauth_token",
    response_model=TokenAnswer,
    openapi_extra={"requestBody": {"required": True, "content": TOKEN_FORM}},
    responses={
        400: {
            "description": "RFC 6749 §5.2 error (`invalid_request`, `unsupported_grant_type`, `invalid_scope`)"
        },
        401: {"description": "RFC 6749 §5.2 `invalid_client`"},
        429: {"description": "Too many failed authentications from this address or for this client"},
    },
)
async def oauth_token(request: Request) -> JSONResponse:
    """Client-credentials grant (public): a short-lived access token for ``Authorization: Bearer``.
    Wrong secrets are limited like wrong keys (429 ``RATE_LIMITED``; docs/security.md "Keys")."""
    basic = request.headers.get("authorization", "").lower().startswith("basic ")
    try:
        content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if content_type != "application/x-www-form-urlencoded":
            raise oauth_service.TokenError(
                "invalid_request", "The body must be application/x-www-form-urlencoded (RFC 6749 §4.4.2)."
            )
        try:
            form = parse_qs(
                (await request.body()).decode("utf-8"), keep_blank_values=True, strict_parsing=False
            )
        except UnicodeDecodeError:
            raise oauth_service.TokenError("invalid_request", "The body is not UTF-8.") from None
        repeated = sorted(name for name, values in form.items() if len(values) > 1)
        if repeated:
            raise oauth_service.TokenError(
                "invalid_request", f"Parameter(s) sent more than once: {', '.join(repeated)}."
            )
        fields = {name: values[0] for name, values in form.items()}
        grant_type = fields.get("grant_type")
        if not grant_type:
            raise oauth_service.TokenError("invalid_request", "grant_type is required.")
        if grant_type != "client_credentials":
            raise oauth_service.TokenError(
                "unsupported_grant_type",
                f"Unsupported grant_type {grant_type!r}; this server issues client_credentials.",
            )
        credentials = _basic_credentials(request)
        if credentials is not None and ("client_secret" in fields):
            raise oauth_service.TokenError(
                "invalid_request", "Authenticate the client one way only (Basic or body)."
            )
        client_id, secret = credentials or (fields.get("client_id"), fields.get("client_secret"))
        answer = issue_token_limited(request, client_id, secret, fields.get("scope"))
    except oauth_service.TokenError as error:
        return _token_error(error, basic=basic)
    return JSONResponse(answer, headers={"Cache-Control": "no-store", "Pragma": "no-cache"})


def _own(org: OrgStore, org_id: str) -> OrgStore:
    if org_id != str(org.organization_id):
        raise AAAFError(
            "NOT_FOUND", f"Organization {org_id} not found.", {"resource": "organization", "id": org_id}
        )
    return org


CLIENTS = "/api/v1/organizations/{org_id}/oauth-clients"


@router.post(CLIENTS, status_code=201, response_model=CreatedOAuthClient, operation_id="create_oauth_client")
def create_oauth_client(
    org_id: str, body: OAuthClientCreate, org: Admin, store: StoreDep, now: NowDep
) -> CreatedOAuthClient:
    """A new OAuth client of the organization with these scopes (``admin``); the secret is shown once."""
    issued = oauth_service.create_client(
        store, _own(org, org_id).organization_id, body.scopes, name=body.name, now=now
    )
    return CreatedOAuthClient(**issued.client.to_dict(), client_secret=issued.secret)


@router.get(CLIENTS, response_model=Page[OAuthClient], operation_id="list_oauth_clients")
def list_oauth_clients(
    org_id: str, org: Admin, store: StoreDep, cursor: CursorQuery = None, limit: LimitQuery = 100
) -> Page[OAuthClient]:
    """The organization's OAuth clients, oldest first, revoked ones included (never a secret)."""
    rows = oauth_service.list_clients(
        store, _own(org, org_id).organization_id, after=time_id_after(cursor), limit=limit + 1
    )
    return keyset_page(
        rows,
        limit=limit,
        key=lambda c: [time_key(c.created_at), str(c.id)],
        render=lambda c: c.to_dict(),
        page=Page[OAuthClient],
    )


@router.delete(
    f"{CLIENTS}/{{oauth_client_id}}", response_model=OAuthClient, operation_id="revoke_oauth_client"
)
def revoke_oauth_client(
    org_id: str, oauth_client_id: str, org: Admin, store: StoreDep, now: NowDep
) -> OAuthClient:
    """Revoke a client (by its record id or its ``client_id``): its tokens stop working at once."""
    organization = _own(org, org_id).organization_id
    return OAuthClient(**oauth_service.revoke_client(store, organization, oauth_client_id, now=now).to_dict())
