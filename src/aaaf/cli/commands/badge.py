"""`aaaf badge`, `aaaf badge revoke`, `aaaf badge status-list`, `aaaf issuer key`, `aaaf verify` (issue 7).

``aaaf badge ASSESSMENT_ID --format svg,png,json,jwt,md --output DIR`` writes
``DIR/<assessment_id>.<ext>``; ``aaaf badge --all`` does so for every agent's latest
completed assessment.  ``aaaf verify FILE`` works offline with the issuer's public key,
says what the badge says (agent, organization, assessment, tiers and scores, issued,
valid until), checks revocation by default — in this installation's database when the
badge's key is the local issuer's, else from ``--status-list FILE|URL`` — and exits 0 only
for a valid credential, naming the failed check otherwise (issue 21).  A file that holds
no credential (the ``.md`` badge, anything else) is bad input: exit 2.

Commands that write badges warn once on stderr when badges would link to a loopback
address (``AAAF_PUBLIC_BASE_URL`` unset).
"""

from __future__ import annotations

import functools
import ipaddress
import re
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlparse

import httpx
import typer
from rich.markup import escape
from typer.core import TyperGroup

from aaaf.badges.data import parse_datetime
from aaaf.badges.keys import jwks, parse_public_keys
from aaaf.badges.status_check import first_answer
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
    service_context,
    split_csv,
)
from aaaf.errors import AAAFError
from aaaf.models import IssuedBadge, StatusListWritten
from aaaf.models.badge import BadgeIssueOutcome, BadgeRecord, BadgeRevoked
from aaaf.scoring.core import display
from aaaf.scoring.evidence_sources import provenance_lines
from aaaf.services import badge_revocation as revocation
from aaaf.services import badges as badge_service
from aaaf.services import issuer as issuer_service
from aaaf.services.badge_status import live_status_source, local_status_source
from aaaf.services.status_list_file import refresh_status_list

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
    # `aaaf badge verify FILE` is what many type first: without this it read as issuing a badge
    # to an agent named "verify" ("unexpected extra argument"); it is `aaaf verify FILE`
    badge_app.command("verify", hidden=True)(verify_command)


_BARE_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _now(at: str | None) -> datetime:
    """``--at``: an RFC 3339 timestamp with a time zone, or a bare date meaning midnight UTC."""
    if at is None:
        return datetime.now(UTC)
    try:
        if _BARE_DATE.match(at.strip()):
            day = date.fromisoformat(at.strip())
            return datetime(day.year, day.month, day.day, tzinfo=UTC)
        return parse_datetime(at)
    except ValueError:
        bad_input(
            f"--at must be a date (YYYY-MM-DD, midnight UTC) or an RFC 3339 timestamp with a time zone, "
            f"got {at!r}",
            field="at",
        )


@functools.cache
def warn_if_local_base_url() -> None:
    """Once per process: badges about to carry a loopback URL nobody else can open."""
    url = revocation.base_url(service_context())
    if _is_loopback(urlparse(url).hostname):
        err_console.print(
            f"[yellow]warning[/] badges link to {url}, which only this machine can open; set "
            "AAAF_PUBLIC_BASE_URL to the address your AAAF server is reached at (e.g. "
            "https://assess.example.com) before handing badges out.",
            markup=True,
        )


@badge_app.command("issue")
@handle_errors
def issue_command(
    assessment_id: Annotated[
        str | None,
        typer.Argument(
            metavar="AGENT|ASSESSMENT_ID",
            help="An agent's name (its latest completed assessment) or an assessment id.",
        ),
    ] = None,
    all_agents: Annotated[
        bool, typer.Option("--all", help="Every agent's latest completed assessment.")
    ] = False,
    formats: Annotated[str, typer.Option("--format", help=f"Comma-separated: {ALL_FORMATS}.")] = ALL_FORMATS,
    output: Annotated[
        Path, typer.Option("--output", help="Directory to write <agent>.<ext> into (one set per agent).")
    ] = Path("."),
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Issue a badge: `aaaf badge AGENT --format svg,png,json,jwt,md --output DIR` writes DIR/AGENT.svg, ….

    AGENT may also be an assessment id.  The Markdown file starts with the line a README embeds:
    the agent's badge picture from its stable URL (always its current badge), linking the
    verification page."""
    if (assessment_id is None) == (not all_agents):
        bad_input("give an AGENT (or an ASSESSMENT_ID) or --all (not both)")
    chosen = badge_service.parse_formats(split_csv(formats))
    warn_if_local_base_url()
    with open_session(db) as session:
        now = session.context.now()
        # the list the new badges name is published beside them: re-signed when due
        refresh_status_list(session, now)
        if assessment_id is not None:
            from aaaf.services.agent_badges import assessment_for

            resolved = str(assessment_for(session.org, assessment_id))
            paths = badge_service.issue_badge(session, resolved, chosen, output, now)
            if as_json:
                print_json(IssuedBadge(assessment_id=resolved, files=[str(p) for p in paths]))
            else:
                for path in paths:
                    console.print(f"wrote {path}")
            return
        outcomes = badge_service.issue_all(session, chosen, output, now)
    if as_json:
        print_json([BadgeIssueOutcome(**o.to_dict()) for o in outcomes])
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
    warn_if_local_base_url()
    with open_session(db) as session:
        badge, path = revocation.revoke(
            session, assessment_id, reason=reason, now=session.context.now(), status_list_output=output
        )
    if as_json:
        print_json(BadgeRevoked(badge=BadgeRecord(**_badge_summary(badge)), status_list=str(path)))
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
    if_due: Annotated[
        bool,
        typer.Option(
            "--if-due",
            help="Sign it anew only when it is missing, expired or in the last quarter of its validity "
            "(run it from a scheduler, hourly).",
        ),
    ] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Write the organization's signed revocation list (a Bitstring Status List VC-JWT).

    A list is valid for AAAF_STATUS_LIST_VALID_HOURS (24); verifiers refuse it afterwards
    (docs/security.md "Badges"), so whoever publishes the file keeps it current: `aaaf badge`
    re-signs it when due, and so does this command with `--if-due`."""
    warn_if_local_base_url()
    with open_session(db) as session:
        now = session.context.now()
        written = refresh_status_list(session, now, output, create=True, force=not if_due)
        assert written is not None  # create=True: there is always a file
        revoked = sum(1 for b in session.org.badges() if b.revoked)
    if as_json:
        print_json(
            StatusListWritten(
                status_list=str(written.path),
                revoked=revoked,
                signed_now=written.refreshed,
                valid_until=written.valid_until,
            )
        )
    elif written.refreshed:
        console.print(f"wrote {written.path} ({revoked} revoked badge(s), valid until {written.valid_until})")
    else:
        console.print(f"{written.path} is valid until {written.valid_until}; left as it is")


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
        key = revocation.issuer_key(session.store, context=session.context)
    if as_jwks:
        from aaaf.models.badge import Jwks

        print_json(Jwks.model_validate(jwks([key.public])))
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
            raise AAAFError(
                "INVALID_REQUEST",
                "A status list URL must be https (plain http only on loopback).",
                {"status_list": source},
            )
        try:
            response = httpx.get(source, timeout=10.0, follow_redirects=False)
            response.raise_for_status()
        except httpx.HTTPError as error:
            raise AAAFError(
                "INVALID_REQUEST", f"Could not fetch the status list {source}: {error}."
            ) from error
        return response.content
    return Path(source).read_bytes()


def _scores(axis: dict[str, Any]) -> str:
    tier = axis.get("tier") or "not rated"
    score = axis.get("score")
    text = tier if score is None else f"{tier} {display(score)}"
    probability = axis.get("tier_probability")
    if probability is not None:  # SCORING.md §2.5
        text += f" (P = {display(probability)}{', borderline' if axis.get('borderline') else ''})"
    return text


def _print_subject(subject: dict[str, Any]) -> None:
    """What the credential says; its texts are the issuer's, printed as they are (no markup)."""
    agent, org = subject["agent"], subject["organization"]
    lines = [
        f"  agent:        {agent['name']} ({agent['id']})",
        f"  organization: {org['name']} ({org['id']})",
        f"  assessment:   {subject['assessment_id']}",
        f"  performance:  {_scores(subject['performance'])}    capability: {_scores(subject['capability'])}",
        f"  issued:       {subject['issued']}    valid until: {subject['valid_until']}",
    ]
    # where each axis's evidence came from (docs/stress-tests.md "Provenance")
    lines += [f"  evidence:     {line}" for line in provenance_lines(subject.get("evidence_sources"))]
    for line in lines:
        console.print(line, markup=False)


def _print_result(result: VerificationResult, path: Path) -> None:
    subject = result.subject
    if subject is not None:
        console.print("The credential says:")
        _print_subject(subject)
    console.print("Checks:")
    for check in result.checks:
        mark = "-" if check.skipped else ("[green]✓[/]" if check.ok else "[red]✗[/]")
        console.print(f"  {mark} {check.name}: {escape(check.reason)}", markup=True)
    if result.valid:
        note = "" if result.revocation_checked else " (revocation not checked)"
        console.print(f"[bold green]VALID[/]{note} {escape(str(path))}", markup=True)
    elif result.revoked:
        console.print(f"[bold red]REVOKED[/] {escape(str(path))}: {escape(result.reason)}", markup=True)
    elif result.expired:
        console.print(f"[bold red]EXPIRED[/] {escape(str(path))}: {escape(result.reason)}", markup=True)
    else:
        console.print(f"[bold red]INVALID[/] {escape(str(path))}: {escape(result.reason)}", markup=True)
    if not result.revocation_checked:
        console.print(f"revocation: {result.revocation}", markup=False)


@handle_errors
def verify_command(
    file: Annotated[Path, typer.Argument(help="A badge: .png, .svg, .json or .jwt.")],
    key: Annotated[
        Path | None,
        typer.Option("--key", help="The issuer's public key, PEM or JWKS (default: the local issuer)."),
    ] = None,
    status_list: Annotated[
        str | None,
        typer.Option(
            "--status-list",
            help="The issuer's status list, a file or URL (default: this installation's database "
            "for the badges it issued).",
        ),
    ] = None,
    require_status: Annotated[
        bool,
        typer.Option("--require-status", help="Fail when revocation cannot be checked."),
    ] = False,
    at: Annotated[
        str | None,
        typer.Option(
            "--at", help="Verify as of this time: RFC 3339, or a date meaning midnight UTC (default now)."
        ),
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Verify a badge offline: what it says, signature, claims, picture, dates and revocation.

    Exits 0 only for a valid credential; 1 when it is not valid (the failed check is named); 2 on bad
    input (including a file that carries no credential, such as the .md badge).
    """
    now = _now(at)
    content = file.read_bytes()
    store_url = database_url(db)
    # the store is opened once: its keys verify the signature unless --key is given, and tell
    # whether the badge was issued here (then its revocation is read from this database)
    found = issuer_service.local_public_keys(store_url, required=key is None, context=service_context())
    local = found[0] if found else None
    keys = parse_public_keys(key.read_bytes()) if key is not None else found
    status = _read_status_list(status_list) if status_list is not None else None
    # the issuer's own answer first (its database here, else its live list); a list given can
    # only add a revocation (docs/security.md "Badges")
    source = first_answer(
        local_status_source(store_url, local, context=service_context()),
        live_status_source(keys, now, _read_status_list),
    )
    result = verify(
        content, keys, now=now, status_list=status, status_source=source, require_status=require_status
    )
    if result.kind is None and result.failed and result.failed[0].name == "format":
        raise AAAFError(
            "INVALID_REQUEST",
            f"{file} is not a badge aaaf verify can read: {result.failed[0].reason}. Verify the badge's "
            ".png, .svg, .json or .jwt file (a .md badge carries no credential).",
            {"file": str(file)},
        )
    if as_json:
        print_json(result.to_model())
    else:
        _print_result(result, file)
    if not result.valid:
        raise typer.Exit(1)
