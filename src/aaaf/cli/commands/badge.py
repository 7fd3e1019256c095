"""`aaaf badge`, `aaaf badge revoke`, `aaaf badge status-list`, `aaaf issuer key`, `aaaf verify` (issue 7).

``aaaf badge ASSESSMENT_ID --format svg,png,json,jwt,md --output DIR`` writes
``DIR/<assessment_id>.<ext>``; ``aaaf badge --all`` does so for every agent's latest
completed assessment.  ``aaaf verify FILE`` works offline with the issuer's public key and
exits 0 only for a valid credential, naming the failed check otherwise.
"""

from __future__ import annotations

import ipaddress
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlparse

import httpx
import typer
from typer.core import TyperGroup

from aaaf.badges.data import parse_datetime
from aaaf.badges.keys import jwks, parse_public_keys
from aaaf.badges.verify import VerificationResult, verify
from aaaf.cli.context import (
    DbOption,
    JsonOption,
    bad_input,
    console,
    database_url,
    err_console,
    handle_errors,
    open_session,
    print_json,
    split_csv,
)
from aaaf.errors import AAAFError
from aaaf.services import badges as badge_service

ALL_FORMATS = ",".join(badge_service.FORMATS)


class _BadgeGroup(TyperGroup):
    """``aaaf badge ID …`` is ``aaaf badge issue ID …``; named subcommands stay subcommands."""

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:  # type: ignore[override]
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            args = ["issue", *args]
        return super().parse_args(ctx, args)


badge_app = typer.Typer(
    cls=_BadgeGroup,
    help="Issue badges (SVG, PNG, JSON, JWT, Markdown), revoke them, publish the status list.",
    no_args_is_help=True,
)
issuer_app = typer.Typer(help="The organization's issuer key.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(badge_app, name="badge")
    app.add_typer(issuer_app, name="issuer")
    app.command("verify")(verify_command)


def _now(at: str | None) -> datetime:
    if at is None:
        return datetime.now(UTC)
    try:
        return parse_datetime(at)
    except ValueError:
        bad_input(f"--at must be an RFC 3339 timestamp with a time zone, got {at!r}", field="at")


@badge_app.command("issue")
@handle_errors
def issue_command(
    assessment_id: Annotated[str | None, typer.Argument(help="The assessment whose badge to issue.")] = None,
    all_agents: Annotated[
        bool, typer.Option("--all", help="Every agent's latest completed assessment.")
    ] = False,
    formats: Annotated[str, typer.Option("--format", help=f"Comma-separated: {ALL_FORMATS}.")] = ALL_FORMATS,
    output: Annotated[
        Path, typer.Option("--output", help="Directory to write <assessment_id>.<ext> into.")
    ] = Path("."),
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Issue an assessment's badge: `aaaf badge ASSESSMENT_ID --format svg,png,json,jwt,md --output DIR`."""
    if (assessment_id is None) == (not all_agents):
        bad_input("give an ASSESSMENT_ID or --all (not both)")
    chosen = badge_service.parse_formats(split_csv(formats))
    now = datetime.now(UTC)
    with open_session(db) as session:
        if assessment_id is not None:
            paths = badge_service.issue_badge(session, assessment_id, chosen, output, now)
            if as_json:
                print_json({"assessment_id": assessment_id, "files": [str(p) for p in paths]})
            else:
                for path in paths:
                    console.print(f"wrote {path}")
            return
        outcomes = badge_service.issue_all(session, chosen, output, now)
    if as_json:
        print_json([o.to_dict() for o in outcomes])
        return
    issued = [o for o in outcomes if o.error is None]
    for outcome in outcomes:
        if outcome.error is None:
            console.print(
                f"{outcome.agent}: {len(outcome.paths)} file(s) for assessment {outcome.assessment_id}"
            )
        else:
            err_console.print(f"{outcome.agent}: no badge — [{outcome.error.code}] {outcome.error.message}")
    console.print(f"{len(issued)} badge(s) written to {output}")


@badge_app.command("revoke")
@handle_errors
def revoke_command(
    assessment_id: Annotated[str, typer.Argument(help="The assessment whose badge to revoke.")],
    reason: Annotated[str, typer.Option("--reason", help="Why (recorded and published in the status list).")],
    output: Annotated[
        Path | None,
        typer.Option("--output", help="Status list file to rewrite (default: beside the issuer key)."),
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Revoke a badge: flip its status-list bit, record the reason, rewrite the status list."""
    with open_session(db) as session:
        badge, path = badge_service.revoke(
            session, assessment_id, reason=reason, now=datetime.now(UTC), status_list_output=output
        )
    if as_json:
        print_json({"badge": _badge_summary(badge), "status_list": str(path)})
    else:
        console.print(
            f"revoked the badge of assessment {badge.assessment_id} (status bit {badge.status_index}) "
            f"on {badge.revoked_at:%Y-%m-%d %H:%M:%SZ}: {badge.revoke_reason}"
        )
        console.print(f"status list rewritten: {path}")


def _badge_summary(badge: Any) -> dict[str, Any]:
    summary = badge.to_dict()
    summary.pop("json_data", None)
    summary.pop("credential_jwt", None)
    return dict(summary)


@badge_app.command("status-list")
@handle_errors
def status_list_command(
    output: Annotated[
        Path | None, typer.Option("--output", help="Where to write it (default: beside the issuer key).")
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Write the organization's signed revocation list (a Bitstring Status List VC-JWT)."""
    with open_session(db) as session:
        path = badge_service.write_status_list(session, output, datetime.now(UTC))
        revoked = sum(1 for b in session.org.badges() if b.revoked)
    if as_json:
        print_json({"status_list": str(path), "revoked": revoked})
    else:
        console.print(f"wrote {path} ({revoked} revoked badge(s))")


@issuer_app.command("key")
@handle_errors
def issuer_key_command(
    pem: Annotated[bool, typer.Option("--pem", help="The public key as PEM (the default).")] = False,
    as_jwks: Annotated[bool, typer.Option("--jwks", help="The public key as a JWKS.")] = False,
    db: DbOption = None,
) -> None:
    """Print the issuer's public key (the private key is never printed); created on first use."""
    if pem and as_jwks:
        bad_input("choose --pem or --jwks, not both")
    with open_session(db) as session:
        key = badge_service.issuer_key(session.store)
    if as_jwks:
        print_json(jwks([key.public]))
    else:
        typer.echo(key.public.pem(), nl=False)


def _is_loopback(host: str | None) -> bool:
    if not host:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _read_status_list(source: str) -> bytes:
    """A status list from a file, or from an https URL (http only on loopback)."""
    parsed = urlparse(source)
    if parsed.scheme in ("http", "https"):
        if parsed.scheme == "http" and not _is_loopback(parsed.hostname):
            bad_input("a status list URL must be https (plain http only on loopback)", status_list=source)
        try:
            response = httpx.get(source, timeout=10.0, follow_redirects=False)
            response.raise_for_status()
        except httpx.HTTPError as error:
            raise AAAFError(
                "INVALID_REQUEST", f"Could not fetch the status list {source}: {error}."
            ) from error
        return response.content
    return Path(source).read_bytes()


def _print_result(result: VerificationResult, path: Path) -> None:
    for check in result.checks:
        mark = "-" if check.skipped else ("[green]✓[/]" if check.ok else "[red]✗[/]")
        console.print(f"  {mark} {check.name}: {check.reason}", markup=True)
    if result.valid:
        console.print(f"[bold green]VALID[/] {path}", markup=True)
    elif result.revoked:
        console.print(f"[bold red]REVOKED[/] {path}: {result.reason}", markup=True)
    elif result.expired:
        console.print(f"[bold red]EXPIRED[/] {path}: {result.reason}", markup=True)
    else:
        console.print(f"[bold red]INVALID[/] {path}: {result.reason}", markup=True)


@handle_errors
def verify_command(
    file: Annotated[Path, typer.Argument(help="A badge: .png, .svg, .json or .jwt.")],
    key: Annotated[
        Path | None,
        typer.Option("--key", help="The issuer's public key, PEM or JWKS (default: the local issuer)."),
    ] = None,
    status_list: Annotated[
        str | None, typer.Option("--status-list", help="The issuer's status list: a file or URL.")
    ] = None,
    at: Annotated[
        str | None, typer.Option("--at", help="Verify as of this RFC 3339 time (default now).")
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Verify a badge offline: signature, claims, dates and (with --status-list) revocation.

    Exits 0 only for a valid credential; 1 when it is not valid (the failed check is named); 2 on bad input.
    """
    now = _now(at)
    content = file.read_bytes()
    keys = (
        parse_public_keys(key.read_bytes())
        if key is not None
        else badge_service.local_public_keys(database_url(db))
    )
    status = _read_status_list(status_list) if status_list is not None else None
    result = verify(content, keys, now=now, status_list=status)
    if as_json:
        print_json(result.to_dict())
    else:
        _print_result(result, file)
    if not result.valid:
        raise typer.Exit(1)
