"""What routes are handed (FastAPI dependencies): the store, the clock, the caller.

A caller is a :class:`~aaaf.services.keys.Principal`: the organization its API key belongs
to and the key's scopes (SCORING.md §7 "Admin and keys").  The key comes as
``Authorization: Bearer ak_…`` or ``X-API-Key: ak_…``; missing, unknown or revoked is 401
``UNAUTHORIZED``, a key without the route's scope is 403 ``FORBIDDEN``.  Every route but the
public ones gets an :class:`~aaaf.store.OrgStore` scoped to the caller's organization, so
another organization's resources answer 404 as if they did not exist.

A dependency that does no I/O is a coroutine: FastAPI runs it on the event loop, where a plain
function would be a dispatch to the thread pool and back (each waiting for the interpreter
lock while a request beside it validates a batch).  What may read the database or Redis (the
caller; an organization not named by the request's API key) runs in the thread pool.
"""

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request, Security
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool

from aaaf.api.rate_limit import RateLimiter
from aaaf.errors import AAAFError
from aaaf.services.context import ServiceContext
from aaaf.services.job_port import JobQueue, RunningQueue
from aaaf.services.keys import KEY_PREFIX_SHOWN, Principal, authenticate
from aaaf.store import OrgStore, Store

T = TypeVar("T")

bearer_scheme = HTTPBearer(auto_error=False, scheme_name="BearerKey", description="`Bearer ak_…`")
api_key_scheme = APIKeyHeader(
    name="X-API-Key", auto_error=False, scheme_name="ApiKeyHeader", description="`ak_…`"
)


async def get_store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def get_context(request: Request) -> ServiceContext:
    """The app's settings and clock (built once by ``create_app``)."""
    context: ServiceContext = request.app.state.context
    return context


async def get_now(request: Request) -> datetime:
    """The request's time by the app's clock (services take ``now``; they never read the
    clock themselves)."""
    return get_context(request).now()


StoreDep = Annotated[Store, Depends(get_store)]


def get_job_queue(request: Request) -> JobQueue:
    """The server's job queue, chosen by the command that started it."""
    running: RunningQueue | None = getattr(request.app.state, "job_queue", None)
    if running is None:
        raise AAAFError(
            "NOT_IMPLEMENTED",
            "This server was started without a job queue; run it with `aaaf serve`.",
            {"feature": "jobs"},
        )
    return running.queue


JobQueueDep = Annotated[JobQueue, Depends(get_job_queue)]
NowDep = Annotated[datetime, Depends(get_now)]
ContextDep = Annotated[ServiceContext, Depends(get_context)]


async def presented_key(
    bearer: Annotated[HTTPAuthorizationCredentials | None, Security(bearer_scheme)],
    header_key: Annotated[str | None, Security(api_key_scheme)],
) -> str | None:
    """The key the request presents (``Authorization: Bearer`` wins over ``X-API-Key``)."""
    if bearer is not None and bearer.credentials:
        return bearer.credentials
    return header_key or None


PresentedKey = Annotated[str | None, Depends(presented_key)]


def get_principal(request: Request, store: StoreDep, now: NowDep, key: PresentedKey) -> Principal:
    """The authenticated caller, counted against its key's rate limit (429 ``RATE_LIMITED``
    beyond it; :mod:`aaaf.api.rate_limit`) and in its organization's usage (:mod:`aaaf.api.usage`)."""
    from aaaf.api.rate_limit import DEFAULT_PER_MINUTE, STATE_KEY

    limiter = getattr(request.app.state, "rate_limiter", None)
    principal = authenticate_limited(request, store, key, now, limiter)
    if limiter is not None:
        cap = request.app.state.context.settings.max_rate_limit_per_minute  # the installation's
        per_minute = min(principal.rate_limit_per_minute or DEFAULT_PER_MINUTE, cap)
        decision = limiter.hit(principal.rate_limit_identity, per_minute, policy="per-key")
        setattr(request.state, STATE_KEY, decision)
        if not decision.allowed:
            raise AAAFError(*decision.error())
    meter = getattr(request.app.state, "usage_meter", None)
    if meter is not None:
        meter.add(principal.organization_id, now, "api_calls")
    return principal


def authenticate_limited(
    request: Request, store: Store, key: str | None, now: datetime, limiter: RateLimiter | None
) -> Principal:
    """:func:`authenticate`, refused with 429 once the client address or the key's prefix has
    failed ``AAAF_AUTH_FAILURES_PER_MINUTE`` times in a minute (docs/security.md "Keys"): a
    guessed key costs the guesser, not the database.  The dashboard's sign-in form counts the same
    way (:func:`aaaf.api.web.session.sign_in`)."""
    if limiter is None or key is None:
        return authenticate(store, key, now=now)
    return _limited(
        request,
        limiter,
        f"prefix:{key[:KEY_PREFIX_SHOWN]}",
        lambda: authenticate(store, key, now=now),
        lambda error: isinstance(error, AAAFError) and error.code == "UNAUTHORIZED",
    )


def issue_token_limited(
    request: Request, client_id: str | None, client_secret: str | None, scope: str | None
) -> dict[str, Any]:
    """:func:`aaaf.services.oauth.issue_token` (``POST /oauth/token``, the dashboard's sign-in
    with a client id and secret), limited like a key: a wrong secret counts against the client
    address and the client id, and past ``AAAF_AUTH_FAILURES_PER_MINUTE`` of them in a minute the
    attempt is 429 ``RATE_LIMITED`` without a look at the secret (docs/security.md "Keys")."""
    from aaaf.services.oauth import TokenError, issue_token

    store: Store = request.app.state.store

    def attempt() -> dict[str, Any]:
        return issue_token(store, client_id, client_secret, scope, now=request.app.state.context.now())

    limiter = getattr(request.app.state, "rate_limiter", None)
    if limiter is None or not client_id:
        return attempt()
    return _limited(
        request,
        limiter,
        f"client:{client_id}",
        attempt,
        lambda error: isinstance(error, TokenError) and error.error == "invalid_client",
    )


def _limited(
    request: Request,
    limiter: RateLimiter,
    credential: str,
    attempt: Callable[[], T],
    failed: Callable[[Exception], bool],
) -> T:
    """``attempt()``, unless the client address or ``credential`` (what names the credential
    tried) failed too often in the last minute; an exception ``failed`` recognises counts
    against both."""
    per_minute = request.app.state.context.settings.auth_failures_per_minute
    who = [f"ip:{request.client.host if request.client else 'unknown'}", credential]
    if limiter.failing(who, per_minute):
        raise AAAFError(
            "RATE_LIMITED",
            f"Too many failed authentications from this address or with this key prefix or client id (more than "
            f"{per_minute} a minute); retry in a minute.",
            {"limit": per_minute, "window_seconds": 60, "retry_after": 60},
        )
    try:
        return attempt()
    except Exception as error:
        if failed(error):
            limiter.failed(who, per_minute)
        raise


# the caller itself (authenticated once per request: FastAPI caches ``get_principal``), for a
# route that also checks a scope on part of what it is sent
CallerDep = Annotated[Principal, Depends(get_principal)]


def caller(scope: str) -> Callable[..., Awaitable[Principal]]:
    """A dependency: the authenticated caller, who must hold ``scope`` (403 otherwise)."""

    async def dependency(principal: Annotated[Principal, Depends(get_principal)]) -> Principal:
        principal.require(scope)
        return principal

    dependency.__name__ = f"caller_with_{scope.replace(':', '_')}"
    return dependency


def org_store(scope: str) -> Callable[..., Awaitable[OrgStore]]:
    """A dependency: the store scoped to the caller's organization (caller needs ``scope``)."""

    async def dependency(
        store: StoreDep, principal: Annotated[Principal, Depends(caller(scope))]
    ) -> OrgStore:
        if principal.key_id is not None:
            # an API key's row, read for this request, names an existing organization: no second
            # read, no I/O (so not a dispatch to the thread pool)
            return store.scope(principal.organization_id, exists=True)
        return await run_in_threadpool(store.scope, principal.organization_id)

    dependency.__name__ = f"org_store_with_{scope.replace(':', '_')}"
    return dependency


Reader = Annotated[OrgStore, Depends(org_store("read"))]
EventWriter = Annotated[OrgStore, Depends(org_store("events:write"))]
AssessmentWriter = Annotated[OrgStore, Depends(org_store("assessments:write"))]
Auditor = Annotated[OrgStore, Depends(org_store("auditor"))]
Admin = Annotated[OrgStore, Depends(org_store("admin"))]
AdminCaller = Annotated[Principal, Depends(caller("admin"))]


def require_admin_key(request: Request, key: PresentedKey) -> None:
    """The installation's ``AAAF_ADMIN_KEY`` (creating organizations): 403 ``FORBIDDEN`` when
    it is unset, 401 ``UNAUTHORIZED`` when the request does not present it."""
    import hmac

    expected: str | None = request.app.state.admin_key
    if not expected:
        raise AAAFError(
            "FORBIDDEN",
            "Creating organizations over HTTP is disabled: AAAF_ADMIN_KEY is not set on the server.",
            {"setting": "AAAF_ADMIN_KEY"},
        )
    if key is None or not hmac.compare_digest(key.encode(), expected.encode()):
        raise AAAFError("UNAUTHORIZED", "Missing or invalid admin key.", {})


def not_found_unless(found: Any, kind: str, ref: object) -> Any:
    if found is None:
        raise AAAFError("NOT_FOUND", f"{kind} {ref} not found.", {"resource": kind.lower(), "id": str(ref)})
    return found
