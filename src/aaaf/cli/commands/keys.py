"""`aaaf keys create|list|revoke`: an organization's API keys (SCORING.md §7 "Admin and keys").

Scopes: ``read``, ``events:write``, ``assessments:write``, ``auditor``, ``admin``.  A key is
printed once, when it is created; the store keeps only its SHA-256.  The organization is the
default one unless `--org NAME` (or `AAAF_ORG`) names another.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

import typer

from aaaf.cli.context import DbOption, JsonOption, console, handle_errors, open_session, print_json, split_csv
from aaaf.models.tenancy import ApiKey, ApiKeyPage, CreatedApiKey
from aaaf.services import keys as key_service

keys_app = typer.Typer(help="Create, list and revoke API keys.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(keys_app, name="keys")


@keys_app.command("create")
@handle_errors
def create(
    scopes: Annotated[
        str,
        typer.Option("--scopes", help=f"Comma-separated scopes of {', '.join(key_service.SCOPES)}."),
    ] = "read",
    name: Annotated[str | None, typer.Option("--name", help="A label for the key.")] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Create a key with the given scopes and print it once."""
    with open_session(db) as session:
        issued = key_service.create_key(
            session.store, session.organization.id, split_csv(scopes), name=name, now=datetime.now(UTC)
        )
    if as_json:
        print_json(CreatedApiKey(**issued.key.to_dict(), api_key=issued.secret))
        return
    console.print(
        f"API key {issued.key.id} ({', '.join(issued.key.scopes)}) for {session.organization.name}:"
    )
    console.print(issued.secret)
    console.print("shown once: only its hash is stored")


@keys_app.command("list")
@handle_errors
def list_keys(db: DbOption = None, as_json: JsonOption = False) -> None:
    """The organization's keys (prefix, scopes, created, revoked, last used) — never the keys."""
    with open_session(db) as session:
        keys = key_service.list_keys(session.store, session.organization.id)
    if as_json:
        print_json(ApiKeyPage(items=[ApiKey(**key.to_dict()) for key in keys], next_cursor=None))
        return
    for key in keys:
        data = key.to_dict()
        state = f"revoked {data['revoked_at']}" if key.revoked_at else "active"
        console.print(
            f"{key.id}  {key.prefix}…  {','.join(key.scopes)}  created {data['created_at']}  {state}"
        )


@keys_app.command("revoke")
@handle_errors
def revoke(
    key_id: Annotated[str, typer.Argument(help="The key's id (from `aaaf keys list`).")],
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Revoke a key: it never authenticates again (it stays on the record)."""
    with open_session(db) as session:
        key = key_service.revoke_key(session.store, session.organization.id, key_id, now=datetime.now(UTC))
    if as_json:
        print_json(ApiKey(**key.to_dict()))
        return
    console.print(f"revoked API key {key.id} ({key.prefix}…)")
