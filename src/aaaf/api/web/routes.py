"""The dashboard's routes, served by ``aaaf serve`` at ``/`` (issue 17).

Thin: each page authenticates the session (:mod:`aaaf.api.web.session`), scopes to the
caller's organization (:func:`~aaaf.services.org_session.org_session_by_id`, so another
organization's agent or assessment is a 404 like in the API), reads its records through
:mod:`aaaf.services.dashboard_pages`, shapes them with :mod:`aaaf.api.web.views` and renders a
Jinja2 template.  Writes (redeliver a webhook, change the configuration) are POSTed forms
carrying the session's CSRF token and need the scope the API route needs (``admin``).  None
of these routes is in ``openapi.json`` (``include_in_schema=False``).
"""

from __future__ import annotations

import secrets
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from aaaf.api.web import compare_pair, views
from aaaf.api.web.charts import contrast_text, legend
from aaaf.api.web.config_form import config_changes
from aaaf.api.web.session import COOKIE, Session, check_csrf, current_session, sign_in, sign_out
from aaaf.api.web.tiers import legend_rows, tier_class
from aaaf.errors import AAAFError
from aaaf.reports.markdown import AXIS_TITLES, ceil_display, format_value, need_text, title_of, trust_display
from aaaf.scoring.core import display
from aaaf.scoring.defaults import AXES, TIER_COLOURS
from aaaf.services import compare_reports, dashboard_pages
from aaaf.services.changes import author_of
from aaaf.services.configuration import change_config, config_of
from aaaf.services.eval_runs import list_runs, stored_summaries
from aaaf.services.org_session import org_session, org_session_by_id, page_reads
from aaaf.store import OrgStore

HERE = Path(__file__).parent
templates = Jinja2Templates(directory=str(HERE / "templates"))
templates.env.globals.update(
    display=display,
    trust_display=trust_display,
    format_value=format_value,
    ceil_display=ceil_display,
    need_text=need_text,
    title_of=title_of,
    axis_titles=AXIS_TITLES,
    axes=AXES,
    tier_colours=TIER_COLOURS,
    contrast_text=contrast_text,
    legend=legend,
    tier_class=tier_class,
    tier_legend_rows=legend_rows,
    type_words={
        "full": "records and stress tests",
        "passive_only": "records only",
        "stress_test_only": "stress tests only",
        "single_dimension": "one dimension",
    },
    status_words={
        "pending": "waiting",
        "in_progress": "running",
        "completed": "completed",
        "failed": "failed",
    },
)
router = APIRouter(include_in_schema=False)
LOGIN_CSRF = "aaaf_signin_csrf"
STATUS = {"NOT_FOUND": 404, "FORBIDDEN": 403, "UNAUTHORIZED": 401}


class _SignIn(Exception):
    """No valid session: the page redirects to the sign-in form."""


def _session(request: Request) -> Session:
    session = current_session(request)
    if session is None:
        raise _SignIn
    return session


def _org(request: Request, session: Session) -> OrgStore:
    return org_session_by_id(request.app.state.store, session.principal.organization_id).org


def _render(
    request: Request,
    name: str,
    session: Session | None,
    status: int = 200,
    org: OrgStore | None = None,
    **context: Any,
) -> Response:
    """The page ``name`` with ``context``; ``org``: the page's scope, when it has one (its
    organization is read through it, on the page's shared read connection)."""
    base: dict[str, Any] = {"session": session}
    if session is not None:
        base["csrf"] = session.csrf
        base["organization"] = (
            org_session(request.app.state.store, org)
            if org is not None
            else org_session_by_id(request.app.state.store, session.principal.organization_id)
        ).organization
        base["can"] = {scope: session.principal.holds(scope) for scope in ("read", "admin", "auditor")}
    return templates.TemplateResponse(request, name, {**base, **context}, status_code=status)


def _page(request: Request, build: Any, keep: tuple[str, Any] | None = None) -> Response:
    """Run a page: no session → the sign-in form; an ``AAAFError`` → an error page.

    ``keep`` is ``(form page, submitted form)`` for a POST whose values must survive an ended
    session: the sign-in form then carries them back to that page (:func:`_sign_in_keeping`)."""
    try:
        session = _session(request)
        return build(session)  # type: ignore[no-any-return]
    except _SignIn:
        if keep is not None:
            return _sign_in_keeping(request, *keep)
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        ended = "&error=session-ended" if COOKIE in request.cookies else ""
        return RedirectResponse(f"/sign-in?next={quote(target, safe='')}{ended}", status_code=303)
    except AAAFError as error:
        return _render(
            request,
            "dashboard/error.html",
            current_session(request),
            status=STATUS.get(error.code, 400),
            error=error,
        )


def render_error(request: Request, error: Any, status: int) -> Response:
    """The error page (``error.code``, ``error.message``) with the caller's session, if any."""
    try:
        session = current_session(request)
    except Exception:  # an error page never fails on the session it cannot read
        session = None
    return _render(request, "dashboard/error.html", session, status=status, error=error)


KEPT = "kept"  # the query flag of a form page re-shown with the values an ended session kept


def _sign_in_keeping(request: Request, form_page: str, form: Any) -> Response:
    """The sign-in form (401) for a POST whose session has ended, saying that what was
    submitted is kept: signing in leads back to ``form_page`` with the submitted values in
    its query (never the stale CSRF token), where the form is shown filled in again."""
    fields = [(key, str(value)) for key, value in form.multi_items() if key != "csrf_token"]
    token = secrets.token_urlsafe(32)
    target = f"{form_page}?{urlencode([(KEPT, '1'), *fields])}"
    response = _render(
        request,
        "dashboard/sign_in.html",
        None,
        status=401,
        next=target,
        login_csrf=token,
        error=(
            "Your session ended before your change was saved. Sign in again: the form comes back "
            "with what you entered, for you to check and save."
        ),
    )
    response.set_cookie(
        LOGIN_CSRF, token, max_age=3600, httponly=True, samesite="lax", secure=request.url.scheme == "https"
    )
    return response


def _safe_next(target: str | None) -> str:
    return target if target and target.startswith("/") and not target.startswith("//") else "/"


# ------------------------------------------------------------------------------- sign-in
SIGN_IN_MESSAGES = {"session-ended": "Your session has ended; sign in again."}


@router.get("/sign-in", response_class=HTMLResponse)
def sign_in_form(request: Request, next: str | None = None, error: str | None = None) -> Response:
    """The public sign-in page (SCORING.md §7 lists it among the public routes).  ``error`` is
    a code of :data:`SIGN_IN_MESSAGES`; the page shows only its own words, never the query's."""
    token = secrets.token_urlsafe(32)
    message = SIGN_IN_MESSAGES.get(error or "")
    response = _render(
        request, "dashboard/sign_in.html", None, next=_safe_next(next), login_csrf=token, error=message
    )
    response.set_cookie(
        LOGIN_CSRF, token, max_age=3600, httponly=True, samesite="lax", secure=request.url.scheme == "https"
    )
    return response


@router.post("/sign-in")
def sign_in_submit(
    request: Request,
    csrf_token: str = Form(""),
    api_key: str = Form(""),
    client_id: str = Form(""),
    client_secret: str = Form(""),
    next: str = Form("/"),
) -> Response:
    expected = request.cookies.get(LOGIN_CSRF) or ""
    if not csrf_token or not secrets.compare_digest(csrf_token.encode(), expected.encode()):
        return _render(
            request,
            "dashboard/sign_in.html",
            None,
            status=403,
            next=_safe_next(next),
            login_csrf=expected,
            error="The form's CSRF token is missing or wrong; reload the page.",
        )
    response = RedirectResponse(_safe_next(next), status_code=303)
    try:
        credential = api_key.strip()
        if not credential and client_id.strip():
            from aaaf.api.deps import issue_token_limited
            from aaaf.services.oauth import TokenError

            try:  # a wrong secret counts like a wrong key (docs/security.md "Keys")
                token = issue_token_limited(request, client_id.strip(), client_secret, None)
            except TokenError as error:  # RFC 6749 §5.2: shown as the sign-in's error
                raise AAAFError("UNAUTHORIZED", error.description, {}) from None
            credential = token["access_token"]
        if not credential:
            raise AAAFError("UNAUTHORIZED", "Give an API key, or an OAuth client id and secret.", {})
        sign_in(request, response, credential)
    except AAAFError as error:
        return _render(
            request,
            "dashboard/sign_in.html",
            None,
            status=429 if error.code == "RATE_LIMITED" else 401,
            next=_safe_next(next),
            login_csrf=expected,
            error=error.message,
        )
    response.delete_cookie(LOGIN_CSRF)
    return response


@router.post("/sign-out")
def sign_out_submit(request: Request, csrf_token: str = Form("")) -> Response:
    def build(session: Session) -> Response:
        check_csrf(session, csrf_token)
        response = RedirectResponse("/sign-in", status_code=303)
        sign_out(request, response, session)
        return response

    return _page(request, build)


# ------------------------------------------------------------------------------- pages
@router.get("/", response_class=HTMLResponse)
def overview(
    request: Request,
    page: int = 1,
    flag: str | None = None,
    tier: str | None = None,
    sort: str | None = None,
) -> Response:
    def build(session: Session) -> Response:
        with page_reads(_org(request, session)) as org:
            now = request.app.state.context.now()
            shown_flag, shown_sort = views.fleet_query(flag, sort)
            reads = dashboard_pages.overview_reads(
                org,
                now=now,
                with_webhooks=session.principal.holds("admin"),
                flag=shown_flag,
                tier=tier or None,
                sort=shown_sort,
                page=page,
                size=views.FLEET_PAGE,
            )
            data = views.overview(reads, now=now, flag=shown_flag, tier=tier, sort=shown_sort)
            config = config_of(org)
            return _render(
                request,
                "dashboard/overview.html",
                session,
                org=org,
                **data,
                base_url=str(request.base_url).rstrip("/"),
                minimum=max(config.minimum_tasks_performance, config.minimum_tasks_capability),
                window_days=config.assessment_window_days,
            )

    return _page(request, build)


@router.get("/agents/{agent_ref}", response_class=HTMLResponse)
def agent(request: Request, agent_ref: str) -> Response:
    def build(session: Session) -> Response:
        with page_reads(_org(request, session)) as org:
            now = request.app.state.context.now()
            data = views.agent_page(dashboard_pages.agent_page_reads(org, agent_ref, now=now))
            return _render(request, "dashboard/agent.html", session, org=org, **data)

    return _page(request, build)


@router.get("/assessments/{assessment_id}", response_class=HTMLResponse)
def assessment(request: Request, assessment_id: str, reviewed: str | None = None) -> Response:
    def build(session: Session) -> Response:
        with page_reads(_org(request, session)) as org:
            data = views.assessment_page(dashboard_pages.assessment_page_reads(org, assessment_id))
            return _render(request, "dashboard/assessment.html", session, org=org, reviewed=reviewed, **data)

    return _page(request, build)


@router.post("/assessments/{assessment_id}/review")
def review(
    request: Request,
    assessment_id: str,
    csrf_token: str = Form(""),
    decision: str = Form(""),
    reviewer: str = Form(""),
) -> Response:
    """Approve (the badge is issued) or reject (it never is) a held badge, as
    ``POST /api/v1/badges/{id}/review`` does, for a key holding the ``auditor`` scope."""

    def build(session: Session) -> Response:
        from aaaf.services import badges as badge_service
        from aaaf.services.assessment_jobs import issue_badge_of

        check_csrf(session, csrf_token)
        session.principal.require("auditor")
        if decision not in ("approve", "reject"):
            raise AAAFError("INVALID_REQUEST", "Choose approve or reject.", {"field": "decision"})
        store = request.app.state.store
        org = _org(request, session)
        now = request.app.state.context.now()
        decided = badge_service.review(
            org_session(store, org),
            assessment_id,
            approve=decision == "approve",
            reviewer=reviewer.strip() or None,
            now=now,
        )
        if decided.review_state == "approved":
            issue_badge_of(store, org.organization_id, decided.id, now=now)
        return RedirectResponse(f"/assessments/{decided.id}?reviewed={decided.review_state}", status_code=303)

    return _page(request, build)


@router.get("/webhooks", response_class=HTMLResponse)
def webhooks(request: Request, redelivered: str | None = None) -> Response:
    def build(session: Session) -> Response:
        session.principal.require("admin")  # as GET /api/v1/webhooks
        hooks = dashboard_pages.webhook_logs(_org(request, session))
        return _render(request, "dashboard/webhooks.html", session, hooks=hooks, redelivered=redelivered)

    return _page(request, build)


@router.post("/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver")
def redeliver(request: Request, webhook_id: str, delivery_id: str, csrf_token: str = Form("")) -> Response:
    def build(session: Session) -> Response:
        from aaaf.services import webhooks as webhook_service

        check_csrf(session, csrf_token)
        session.principal.require("admin")
        now = request.app.state.context.now()
        webhook_service.redeliver(_org(request, session), webhook_id, delivery_id, now=now)
        return RedirectResponse(f"/webhooks?redelivered={quote(delivery_id)}", status_code=303)

    return _page(request, build)


def _config_page(request: Request, session: Session, status: int = 200, **extra: Any) -> Response:
    config = config_of(_org(request, session))
    extra.setdefault("submitted", None)
    extra.setdefault("error_part", None)
    return _render(request, "dashboard/config.html", session, status=status, config=config, **extra)


@router.get("/config", response_class=HTMLResponse)
def config(request: Request, saved: str | None = None) -> Response:
    query = request.query_params
    if query.get(KEPT) == "1":  # back from a sign-in that kept an unsaved change (_sign_in_keeping)
        kept = {key: value for key, value in query.items() if key != KEPT}
        return _page(
            request,
            lambda session: _config_page(
                request, session, kept=True, submitted=kept, error_part=kept.get("part")
            ),
        )
    return _page(request, lambda session: _config_page(request, session, saved=saved))


@router.post("/config")
async def config_submit(request: Request) -> Response:
    """One form per part (weights of an axis, taxonomy, window); the store validates every
    change as ``PATCH …/config`` does (``WEIGHT_SUM_INVALID`` names the sum)."""
    form = await request.form()

    def build(session: Session) -> Response:
        check_csrf(session, str(form.get("csrf_token") or ""))
        session.principal.require("admin")
        part = str(form.get("part") or "")
        try:
            changes = config_changes(part, form)
            change_config(_org(request, session), changes, changed_by=author_of(session.principal))
        except AAAFError as error:
            return _config_page(
                request, session, status=422, error=error, error_part=part, submitted=dict(form)
            )
        return RedirectResponse(f"/config?saved={quote(part)}", status_code=303)

    return _page(request, build, keep=("/config", form))


def install_dashboard(app: Any) -> None:
    """Mount the pages and their static files (htmx, CSS) on ``app`` — not in the OpenAPI."""
    from fastapi.staticfiles import StaticFiles

    app.include_router(router)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")


# ------------------------------------------------------------------------------- compare
DEFAULT_RESAMPLES = 10_000  # as POST /api/v1/eval-runs/compare


@router.get("/compare", response_class=HTMLResponse)
def compare(request: Request) -> Response:
    """Pick a control and one or several treatments among the organization's eval runs (the
    ones a sign-in kept, when a session ended under the form, pre-selected again)."""

    def build(session: Session) -> Response:
        runs = [run.summary() for run in list_runs(_org(request, session))]
        control, treatment = compare_pair.defaults(runs)
        query = request.query_params
        kept = query.get(KEPT) == "1"
        return _render(
            request,
            "dashboard/compare.html",
            session,
            runs=runs,
            resamples=query.get("resamples") if kept else DEFAULT_RESAMPLES,
            default_control=query.get("control") if kept else control,
            default_treatments=query.getlist("treatment") if kept else [treatment],
            kept=kept,
            direct_limit=compare_reports.DIRECT_LIMIT,
        )

    return _page(request, build)


def _checked_pair(org: OrgStore, control: str, treatments: list[str], raw: str) -> tuple[int, str | None]:
    """The resamples asked for and the warning about the pair (a run against itself refused)."""
    resamples = compare_reports.check_request(control, treatments, raw)
    control_run, *treatment_runs = stored_summaries(org, [control, *treatments])
    warning = compare_pair.check_pair(control_run, treatment_runs)
    return resamples, warning


def _with_warning(html: str, warning: str | None) -> str:
    if not warning:
        return html
    banner = (  # above the report, where it is read first
        '<p role="alert" data-warning="swapped" style="border:2px solid #9b1c1c;'
        'padding:8px 12px;color:#7a1414;background:#fff7f5;font-weight:600">'
        f"{escape(warning)}</p>"
    )
    return html.replace("<main>", "<main>\n" + banner, 1)


@router.post("/compare/report")
async def compare_submit(request: Request) -> Response:
    """The compare form: a comparison of at most ``DIRECT_LIMIT`` resamples × treatments is
    shown at once (``GET /compare/report``); a larger one is queued as a job and its page
    (``/compare/reports/{id}``) shows its progress, then the report."""
    form = await request.form()

    def build(session: Session) -> Response:
        from aaaf.api.deps import get_job_queue

        check_csrf(session, str(form.get("csrf_token") or ""))
        control = str(form.get("control") or "")
        treatments = [str(ref) for ref in form.getlist("treatment") if ref]
        raw = str(form.get("resamples") or DEFAULT_RESAMPLES).strip()
        resamples, _ = _checked_pair(_org(request, session), control, treatments, raw)
        if not compare_reports.runs_as_job(resamples, len(treatments)):
            query = urlencode(
                [("control", control), *(("treatment", ref) for ref in treatments), ("resamples", raw)]
            )
            return RedirectResponse(f"/compare/report?{query}", status_code=303)
        report_id = compare_reports.queue_report(
            request.app.state.store,
            get_job_queue(request),
            session.principal.organization_id,
            control,
            treatments,
            resamples,
            now=request.app.state.context.now(),
        )
        return RedirectResponse(f"/compare/reports/{report_id}", status_code=303)

    return _page(request, build, keep=("/compare", form))


@router.get("/compare/report", response_class=HTMLResponse)
def compare_report(request: Request) -> Response:
    """The HTML compare report (:mod:`aaaf.reports.compare_html`) of a small comparison of
    stored runs, rendered at once by the service the API uses; a larger one is refused here
    (the form runs it as a job)."""

    def build(session: Session) -> Response:
        query = request.query_params
        control = query.get("control") or ""
        treatments = [t for t in query.getlist("treatment") if t]
        org = _org(request, session)
        resamples, warning = _checked_pair(
            org, control, treatments, query.get("resamples") or str(DEFAULT_RESAMPLES)
        )
        if compare_reports.runs_as_job(resamples, len(treatments)):
            raise AAAFError(
                "INVALID_REQUEST",
                f"{resamples} resamples × {len(treatments)} treatment(s) is more than "
                f"{compare_reports.DIRECT_LIMIT}: a report this long runs as a job. Start it from the compare form.",
                {"field": "resamples", "limit": compare_reports.DIRECT_LIMIT},
            )
        html = compare_reports.render_report(org, control, treatments, resamples)
        return HTMLResponse(_with_warning(html, warning))

    return _page(request, build)


@router.get("/compare/reports/{report_id}", response_class=HTMLResponse)
def compare_job(request: Request, report_id: str) -> Response:
    """A compare report run as a job: the report once it is done, else its progress (which
    the page polls, then reloads itself into the report)."""

    def build(session: Session) -> Response:
        report = compare_reports.report_of(
            request.app.state.store, session.principal.organization_id, report_id
        )
        if report.status == "done" and report.html is not None:
            org = _org(request, session)
            _, warning = _checked_pair(org, report.control, report.treatments, str(report.resamples))
            return HTMLResponse(_with_warning(report.html, warning))
        return _render(request, "dashboard/compare_job.html", session, **_progress(request, report))

    return _page(request, build)


@router.get("/compare/reports/{report_id}/progress", response_class=HTMLResponse)
def compare_job_progress(request: Request, report_id: str) -> Response:
    """The progress fragment the job's page polls; once the report is done it answers
    ``HX-Refresh`` so that the page reloads into the report."""

    def build(session: Session) -> Response:
        report = compare_reports.report_of(
            request.app.state.store, session.principal.organization_id, report_id
        )
        response = templates.TemplateResponse(
            request, "dashboard/compare_progress.html", _progress(request, report)
        )
        if report.status == "done":
            response.headers["HX-Refresh"] = "true"
        return response

    return _page(request, build)


def _progress(request: Request, report: Any) -> dict[str, Any]:
    now = request.app.state.context.now()
    since = report.started_at or report.created_at
    until = report.finished_at or now
    return {
        "report": report,
        "elapsed": max(0.0, (until - since).total_seconds()),
        "waited": report.started_at is None,
    }
