"""The dashboard's sign-in session and CSRF tokens (issue 17 §1; SCORING.md §7 "Secrets").

A signed-in browser holds one cookie, ``aaaf_session``: the API key (or OAuth access token)
it signed in with, a CSRF token and the time it was issued, sealed with AES-256-GCM under a
key derived from ``AAAF_SECRET_KEY`` (:meth:`aaaf.secret_box.SecretBox.seal`, purpose
``dashboard session``) — authenticated, so a changed cookie is refused, and encrypted, so the
key it carries is not readable from the cookie.  The cookie is HttpOnly, SameSite=Lax and
Secure when the request came over TLS; it lasts :data:`SESSION_MAX_AGE_S`.  Every request
authenticates the carried key again (:func:`aaaf.services.keys.authenticate`), so a revoked
key signs the browser out at once and its scopes apply exactly as in the API.  The session is
also recorded server-side (:mod:`aaaf.store.dashboard_sessions`; the cookie names its row), so
signing out ends it at once: a copy of the cookie taken before signs nobody in after
(docs/security.md "Sessions").

CSRF: every form carries the session's token in a hidden ``csrf_token`` field; a POST whose
field does not match (constant-time) is refused with 403 before anything is changed.
"""

from __future__ import annotations

import hmac
import json
import secrets
import time
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from fastapi import Request, Response

from aaaf.errors import AAAFError
from aaaf.services.issuer import secret_box
from aaaf.services.keys import Principal, authenticate
from aaaf.store import Store
from aaaf.store.dashboard_sessions import end_session, session_is_live, start_session

COOKIE = "aaaf_session"
PURPOSE = "dashboard session"
SESSION_MAX_AGE_S = 12 * 3600


@dataclass(frozen=True)
class Session:
    """A signed-in browser: the credential it presents, its CSRF token, who it acts as."""

    credential: str
    csrf: str
    issued: float
    principal: Principal
    session_id: uuid.UUID


def _box(request: Request) -> Any:
    cached = getattr(request.app.state, "dashboard_box", None)
    if cached is None:
        cached = secret_box(request.app.state.store, request.app.state.context.settings)
        request.app.state.dashboard_box = cached
    return cached


def sign_in(request: Request, response: Response, credential: str) -> Principal:
    """Authenticate ``credential`` (an API key or OAuth token) and set the session cookie."""
    store: Store = request.app.state.store
    now = request.app.state.context.now()
    from aaaf.api.deps import authenticate_limited  # a guessed key counts as on the API

    limiter = getattr(request.app.state, "rate_limiter", None)
    principal = authenticate_limited(request, store, credential, now, limiter)
    session_id = start_session(
        store.engine, principal.organization_id, at=now, expires_at=now + timedelta(seconds=SESSION_MAX_AGE_S)
    )
    payload = {"k": credential, "c": secrets.token_urlsafe(32), "t": time.time(), "s": str(session_id)}
    sealed = _box(request).seal(json.dumps(payload).encode(), purpose=PURPOSE)
    response.set_cookie(
        COOKIE,
        sealed,
        max_age=SESSION_MAX_AGE_S,
        httponly=True,
        secure=request.url.scheme == "https",
        samesite="lax",
        path="/",
    )
    return principal


def sign_out(request: Request, response: Response, session: Session) -> None:
    """End ``session`` server-side and drop its cookie."""
    end_session(request.app.state.store.engine, session.session_id, at=request.app.state.context.now())
    response.delete_cookie(COOKIE, path="/")


def current_session(request: Request) -> Session | None:
    """The request's session, or None (no cookie, tampered, expired, or its key revoked)."""
    sealed = request.cookies.get(COOKIE)
    if not sealed:
        return None
    try:
        payload = json.loads(_box(request).open(sealed, purpose=PURPOSE))
        issued = float(payload["t"])
        credential, csrf = str(payload["k"]), str(payload["c"])
        session_id = uuid.UUID(str(payload["s"]))
    except (AAAFError, ValueError, KeyError, TypeError):
        return None
    if time.time() - issued > SESSION_MAX_AGE_S:
        return None
    if not session_is_live(request.app.state.store.engine, session_id, now=request.app.state.context.now()):
        return None  # signed out (or never recorded)
    try:
        principal = authenticate(request.app.state.store, credential, now=request.app.state.context.now())
    except AAAFError:
        return None
    return Session(credential, csrf, issued, principal, session_id)


def check_csrf(session: Session, submitted: str | None) -> None:
    """403 ``FORBIDDEN`` unless the form's token is the session's (constant-time)."""
    if not submitted or not hmac.compare_digest(submitted.encode(), session.csrf.encode()):
        raise AAAFError(
            "FORBIDDEN", "The form's CSRF token is missing or wrong; reload the page and try again.", {}
        )
