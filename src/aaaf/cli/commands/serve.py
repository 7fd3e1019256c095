"""`aaaf serve`: the HTTP API (document 004 §6) under uvicorn.

The database is `--db` / `AAAF_DATABASE_URL`; `AAAF_ADMIN_KEY` lets `POST
/api/v1/organizations` create organizations; `AAAF_SECRET_KEY` is required with PostgreSQL
(SCORING.md §7 "Secrets").  Before it listens, the command opens the database (creating or
upgrading its schema) and checks the secret, so a misconfiguration is an error naming what
is missing (exit 2), not a server that fails its first request.

Triggered assessments and badges are jobs (issue 14): on PostgreSQL ``aaaf worker``
processes run them; on SQLite a thread of each server process does.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Annotated

import typer

from aaaf.cli.context import DbOption, console, database_url, handle_errors
from aaaf.errors import AAAFError


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)


@handle_errors
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port.", min=0, max=65535)] = 8000,
    workers: Annotated[
        int, typer.Option("--workers", help="Server processes (each with its own pool).", min=1)
    ] = 1,
    log_level: Annotated[str, typer.Option("--log-level", help="uvicorn's log level.")] = "info",
    print_openapi: Annotated[
        bool, typer.Option("--print-openapi", help="Print the OpenAPI document and exit.")
    ] = False,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            help="Addresses of the TLS proxy in front (comma-separated; '*' any): X-Forwarded-For and "
            'X-Forwarded-Proto are honoured only from them (docs/security.md "Behind a TLS proxy").',
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Run the AAAF service (REST API under /api/v1, reference at /docs)."""
    if print_openapi:
        from aaaf.api import openapi_document

        sys.stdout.write(json.dumps(openapi_document(), indent=2, ensure_ascii=False) + "\n")
        return
    import uvicorn

    from aaaf.services.issuer import secret_box
    from aaaf.store import open_store

    url = database_url(db)
    if url is not None:
        # the app factory reads it in every worker process
        os.environ["AAAF_DATABASE_URL"] = url
    from aaaf.settings import get_settings

    get_settings.cache_clear()
    settings = get_settings()
    _check_admin_key(settings.admin_key)
    from aaaf.api.http_protocol import DeadlineH11Protocol

    with open_store(url) as store:
        secret_box(store)  # SCORING.md §7: a server database needs AAAF_SECRET_KEY
        shown = store.url
    console.print(f"serving {shown} on http://{host}:{port} (docs at /docs)")
    if not shown.startswith("sqlite"):
        _warn_without_workers(url)
    uvicorn.run(
        "aaaf.cli.service_app:create_service_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level=log_level,
        # X-Forwarded-* only from the proxy named (else a client could claim https or any address)
        proxy_headers=forwarded_allow_ips is not None,
        forwarded_allow_ips=forwarded_allow_ips or "",
        # docs/security.md "Connections": a read deadline per request, idle connections closed
        # after 5 s, and a bound on connections and requests at once
        http=DeadlineH11Protocol,
        timeout_keep_alive=5,
        limit_concurrency=settings.http_max_connections,
        h11_max_incomplete_event_size=65_536,
        # with --workers N: how long a process may miss its health ping before it is restarted
        timeout_worker_healthcheck=settings.http_worker_healthcheck_seconds,
    )


MIN_ADMIN_KEY_CHARS = 32


def _check_admin_key(admin_key: str | None) -> None:
    """An admin key creates organizations: one short enough to guess is refused before the
    server listens (docs/security.md "Keys")."""
    if admin_key is not None and len(admin_key) < MIN_ADMIN_KEY_CHARS:
        raise AAAFError(
            "INVALID_REQUEST",
            f"AAAF_ADMIN_KEY is {len(admin_key)} characters long; it must be at least "
            f"{MIN_ADMIN_KEY_CHARS} (make one with: python -c 'import secrets; print(secrets.token_urlsafe(32))').",
            {"setting": "AAAF_ADMIN_KEY", "minimum_chars": MIN_ADMIN_KEY_CHARS},
        )


def _warn_without_workers(url: str | None) -> None:
    """On PostgreSQL the server never scores: ``aaaf worker`` processes do.  A thread of this
    process looks once, ``AAAF_JOBS_WORKER_WARNING_SECONDS`` (60) after the start, and says so on
    stderr when no worker beat in that time (docs/jobs.md "Is anybody working?")."""
    import threading

    from aaaf.services.context import default_context

    context = default_context()
    wait = context.settings.jobs_worker_warning_seconds

    def look() -> None:
        from aaaf.store import open_store
        from aaaf.store.queue_state import read_queue_state

        try:
            with open_store(url) as store:
                state = read_queue_state(store.engine, context.now())
        except Exception:  # a warning, never a reason to stop serving
            return
        if not state.worker_seen(wait):
            waiting = f"; {state.waiting} job(s) waiting" if state.waiting else ""
            sys.stderr.write(
                f"warning: no aaaf worker has beaten in the {wait:g} s since this server started{waiting}: "
                "assessments stay pending until one runs (start one with `aaaf worker`; GET /health "
                "says degraded while jobs wait)\n"
            )
            sys.stderr.flush()

    timer = threading.Timer(wait, look)
    timer.daemon = True
    timer.start()
