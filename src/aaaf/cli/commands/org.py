"""`aaaf org create NAME` and `aaaf org list`: organizations (SCORING.md §7 "Admin and keys").

Creating an organization prints its first API key — holding every scope — once; only its
hash is stored.  Every other command acts on one organization: the default one, or the one
named by `--org NAME` (anywhere on the command line) or `AAAF_ORG`.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

import typer

from aaaf.cli.context import DbOption, JsonOption, console, err_console, handle_errors, print_json
from aaaf.models.tenancy import ApiKey, CreatedOrganization, Organization, OrganizationPage
from aaaf.services import keys as key_service

org_app = typer.Typer(help="Create and list organizations (tenants).", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(org_app, name="org")


@org_app.command("create")
@handle_errors
def create(
    name: Annotated[str, typer.Argument(help="The organization's name (unique).")],
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Create an organization; print its first API key (every scope) once."""
    from aaaf.cli.context import open_store_for

    with open_store_for(db) as store:
        organization, issued = key_service.create_organization(store, name, now=datetime.now(UTC))
    if as_json:
        print_json(
            CreatedOrganization(
                **organization.to_dict(), api_key=issued.secret, key=ApiKey(**issued.key.to_dict())
            )
        )
        return
    console.print(f"created organization {organization.name} ({organization.id})")
    console.print(f"API key (every scope; shown once, store it now): {issued.secret}")
    err_console.print(
        "use it with the service, or act on this organization here with --org " + organization.name
    )


@org_app.command("list")
@handle_errors
def list_organizations(db: DbOption = None, as_json: JsonOption = False) -> None:
    """Every organization, oldest first."""
    from aaaf.cli.context import open_store_for

    with open_store_for(db) as store:
        organizations = store.organizations()
    if as_json:
        print_json(
            OrganizationPage(items=[Organization(**o.to_dict()) for o in organizations], next_cursor=None)
        )
        return
    for organization in organizations:
        console.print(f"{organization.id}  {organization.name}  {organization.status}")
