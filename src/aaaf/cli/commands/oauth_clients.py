"""`aaaf oauth-clients create|list|revoke`: an organization's OAuth 2.0 clients (issue 13 §3).

A client trades its ``client_id`` and secret at ``POST /oauth/token`` (client credentials,
RFC 6749 §4.4) for a short-lived access token holding the client's scopes.  The secret is
printed once, when the client is created; the store keeps only its SHA-256.  The
organization is the default one unless `--org NAME` (or `AAAF_ORG`) names another.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

import typer

from aaaf.cli.context import DbOption, JsonOption, console, handle_errors, open_session, print_json, split_csv
from aaaf.models.tenancy import CreatedOAuthClient, OAuthClient, OAuthClientPage
from aaaf.services import keys as key_service
from aaaf.services import oauth as oauth_service

oauth_clients_app = typer.Typer(help="Create, list and revoke OAuth 2.0 clients.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(oauth_clients_app, name="oauth-clients")


@oauth_clients_app.command("create")
@handle_errors
def create(
    scopes: Annotated[
        str,
        typer.Option("--scopes", help=f"Comma-separated scopes of {', '.join(key_service.SCOPES)}."),
    ] = "read",
    name: Annotated[str | None, typer.Option("--name", help="A label for the client.")] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Create a client with the given scopes and print its secret once."""
    with open_session(db) as session:
        issued = oauth_service.create_client(
            session.store, session.organization.id, split_csv(scopes), name=name, now=datetime.now(UTC)
        )
    if as_json:
        print_json(CreatedOAuthClient(**issued.client.to_dict(), client_secret=issued.secret))
        return
    console.print(f"OAuth client ({', '.join(issued.client.scopes)}) for {session.organization.name}:")
    console.print(f"client_id     {issued.client.client_id}")
    console.print(f"client_secret {issued.secret}")
    console.print("the secret is shown once: only its hash is stored")


@oauth_clients_app.command("list")
@handle_errors
def list_clients(db: DbOption = None, as_json: JsonOption = False) -> None:
    """The organization's clients (client_id, scopes, created, revoked) — never a secret."""
    with open_session(db) as session:
        clients = oauth_service.list_clients(session.store, session.organization.id)
    if as_json:
        print_json(OAuthClientPage(items=[OAuthClient(**c.to_dict()) for c in clients], next_cursor=None))
        return
    for client in clients:
        data = client.to_dict()
        state = f"revoked {data['revoked_at']}" if client.revoked_at else "active"
        console.print(f"{client.client_id}  {','.join(client.scopes)}  created {data['created_at']}  {state}")


@oauth_clients_app.command("revoke")
@handle_errors
def revoke(
    client: Annotated[str, typer.Argument(help="The client's client_id (or record id).")],
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Revoke a client: its secret and every token it was issued stop working."""
    with open_session(db) as session:
        revoked = oauth_service.revoke_client(
            session.store, session.organization.id, client, now=datetime.now(UTC)
        )
    if as_json:
        print_json(OAuthClient(**revoked.to_dict()))
        return
    console.print(f"revoked OAuth client {revoked.client_id}")
