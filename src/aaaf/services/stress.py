"""Running the stress-test suite against an agent and storing what it shows (issue 15).

:func:`run_stress_test` records a stress run (SCORING.md §7 "Stress runs"), runs the chosen
tasks with inspect_ai (:mod:`aaaf.stress.runner`), turns the log into the standard events
(:mod:`aaaf.evals.importers.inspect_stress`, marked as stress-test evidence) and collects
them for the agent through the same path as any other evidence, stores one
``stress_test_results`` row per task, and closes the run.  An agent that crashes or hangs
yields rejected tasks and a finished run; only a failure of the harness itself fails it.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict, Unpack

from aaaf.errors import AAAFError
from aaaf.models.stress_run import StressRun as StressRunOut
from aaaf.models.stress_run import StressRunWithResults
from aaaf.services.context import system_clock
from aaaf.services.outbound_url import check_outbound_url
from aaaf.settings import Settings, get_settings
from aaaf.stress import model_grading
from aaaf.stress.sandbox import SandboxChoice, require_sandbox

if TYPE_CHECKING:
    import httpx

    from aaaf.graders.judge import Judge
    from aaaf.store.org_store import OrgStore
    from aaaf.store.records import Agent
    from aaaf.store.repositories.stress_runs import StressRun
    from aaaf.stress.library import Library
    from aaaf.stress.runner import AgentSpec

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]
"""The time a run's dates are read from: the caller's (its service context's clock); the
system clock when none is given."""

OUTCOMES = {"accepted": "pass", "partial": "partial", "rejected": "fail"}
"""Grade → document 004 §7.2 ``stress_test_results.outcome``."""


def _agent(org: OrgStore, name: str) -> Agent:
    try:
        return org.get_agent(name)
    except AAAFError as error:
        if error.code != "NOT_FOUND":
            raise
        return org.enroll_agent(name, description="enrolled by aaaf stress-test")


def summarise(records: Sequence[dict[str, Any]]) -> dict[str, object]:
    """A run's summary.  Tasks whose provider kept failing are counted apart
    (``infrastructure_failed``): they are neither graded statuses nor credit — never the
    agent's rejected tasks."""
    infrastructure = sorted(r["task_id"] for r in records if r.get("infrastructure_failed"))
    scored = [r for r in records if not r.get("infrastructure_failed")]
    statuses = Counter(r["grade"]["status"] if not r.get("missing") else "rejected" for r in scored)
    by_type: dict[str, Counter[str]] = {}
    for record in scored:
        if record.get("missing"):
            continue
        by_type.setdefault(record["task_type"], Counter())[record["grade"]["status"]] += 1
    credit = [r["grade"]["credit"] for r in scored if not r.get("missing")]
    return {
        "tasks": len(records),
        "statuses": dict(sorted(statuses.items())),
        "infrastructure_failed": {"tasks": len(infrastructure), "task_ids": infrastructure},
        "provider_retries": sum(int(r.get("provider_retries") or 0) for r in records),
        "by_task_type": {k: dict(sorted(v.items())) for k, v in sorted(by_type.items())},
        "mean_credit": sum(credit) / len(scored) if scored else None,
        "failures": sorted({r["failure"].split(":")[0] for r in records if r.get("failure")}),
        # the sandbox its tool calls and graders ran in, and the limits the agent ran into
        "sandbox": ", ".join(sorted({str(r["sandbox"]) for r in records if r.get("sandbox")})) or None,
        "limits_hit": dict(
            sorted(
                Counter(
                    limit for r in records for limit in (r.get("tools") or {}).get("limits_hit", [])
                ).items()
            )
        ),
        "model_graded": model_grading.summary(records),
    }


def stress_judges(settings: Settings | None) -> dict[str, Judge] | None:
    """The configured judge, one per model-graded rubric (None when no judge is configured)."""
    from aaaf.graders.judge import Judge

    if settings is None or not settings.judge_base_url or not settings.judge_model:
        return None
    return {rubric: Judge.from_settings(rubric, settings=settings) for rubric in model_grading.RUBRICS}


def _shown(run: StressRun) -> dict[str, object]:
    """A run as the API shows it: everything but ``log_path`` (a path on the server that ran
    it; the CLI shows it) — and never the agent's key, which is not part of a run record."""
    shown: dict[str, object] = run.to_dict()
    shown.pop("log_path", None)
    return shown


def stress_run_model(run: StressRun) -> StressRunOut:
    """A run as the API shows it (:func:`_shown`)."""
    return StressRunOut.model_validate(_shown(run))


def stress_run_with_results(org: OrgStore, run_id: str) -> StressRunWithResults:
    """One run of the organization (as :func:`_shown`) and its per-task results, in execution order."""
    run = org.get_stress_run(run_id)
    return StressRunWithResults.model_validate({**_shown(run), "results": org.stress_run_results(run.id)})


def check_agent_url(url: str, settings: Settings) -> str:
    """An agent endpoint reached from the server is checked like a webhook target (issue 15
    §5, :func:`aaaf.services.outbound_url.check_outbound_url`: http(s) only, no credentials,
    no private, loopback, link-local or reserved address unless
    ``AAAF_WEBHOOK_ALLOW_LOOPBACK=true``); the error names the ``agent_url`` field."""
    try:
        return check_outbound_url(url, settings)
    except AAAFError as error:
        raise AAAFError(
            "INVALID_REQUEST", f"agent_url: {error.message}", {"field": "agent_url", "url": url}
        ) from None


def with_installed(org: OrgStore, library_dirs: Sequence[str] = ()) -> list[str]:
    """``library_dirs`` and a directory per library the organization installed (issue 20 §3):
    an installed library's tasks are added as ``--library DIR`` tasks are."""
    from aaaf.services.stress_libraries import installed_library_dirs

    return list(dict.fromkeys([*library_dirs, *installed_library_dirs(org)]))


def start_stress_run(
    org: OrgStore,
    agent_name: str,
    agent_spec: AgentSpec,
    *,
    library_dirs: Sequence[str] = (),
    clock: Clock = system_clock,
) -> tuple[StressRun, Library]:
    """Validate the libraries (``library_dirs`` and the installed ones) and record the run
    ``running``; (the run, the library)."""
    from aaaf.stress.library import load_library

    library = load_library(with_installed(org, library_dirs))
    agent = _agent(org, agent_name)
    run = org.create_stress_run(
        agent.id,
        adapter=agent_spec.adapter,
        agent_reference=agent_spec.reference,
        library=", ".join(s["name"] for s in library.sources),
        library_version=library.version,
        started_at=clock(),
    )
    return run, library


class StressOptions(TypedDict, total=False):
    """The options of :func:`execute_stress_run` that :func:`run_stress_test` (and the agent
    gate) pass on to it, each as it documents."""

    dimension: str | None
    task_ids: Sequence[str] | None
    parallel: int
    log_dir: str | Path
    turn_timeout: float
    task_timeout: float
    on_task: Callable[[dict[str, object]], None] | None
    settings: Settings | None
    sandbox: SandboxChoice | None
    pin_agent_url: bool


def run_stress_test(
    org: OrgStore,
    agent_name: str,
    agent_spec: AgentSpec,
    *,
    library_dirs: Sequence[str] = (),
    clock: Clock = system_clock,
    **options: Unpack[StressOptions],
) -> tuple[StressRun, list[dict[str, object]]]:
    """Run the suite against ``agent_spec`` (a :class:`aaaf.stress.runner.AgentSpec`) for the
    agent named ``agent_name`` (enrolled when unknown); the finished run and its records."""
    run, library = start_stress_run(org, agent_name, agent_spec, library_dirs=library_dirs, clock=clock)
    return execute_stress_run(
        org, run, library, agent_spec, library_dirs=library_dirs, clock=clock, **options
    )


def execute_stress_run(
    org: OrgStore,
    run: StressRun,
    library: Library,
    agent_spec: AgentSpec,
    *,
    library_dirs: Sequence[str] = (),
    dimension: str | None = None,
    task_ids: Sequence[str] | None = None,
    parallel: int = 4,
    log_dir: str | Path = "stress-logs",
    turn_timeout: float = 30.0,
    task_timeout: float = 120.0,
    on_task: Callable[[dict[str, object]], None] | None = None,
    settings: Settings | None = None,
    sandbox: SandboxChoice | None = None,
    pin_agent_url: bool = False,
    clock: Clock = system_clock,
) -> tuple[StressRun, list[dict[str, object]]]:
    """Run a recorded run's tasks, collect its evidence, store its results and close it.

    Every tool call and code grader runs in ``sandbox``; without one, the sandbox of
    ``AAAF_SANDBOX`` as the service chooses it (never the host for a task that runs code),
    checked before any task runs — ``SANDBOX_UNAVAILABLE`` fails the run with that reason.
    The model-graded sub-scores use the judge of ``settings`` when one is configured and are
    null, said so in the run's summary, when not (:mod:`aaaf.stress.model_grading`).
    ``pin_agent_url`` (the service's runs, whose endpoint is a tenant's): every request to the
    agent endpoint is checked and pinned to its checked address (:func:`_pinned_agent_transport`)."""
    from aaaf.stress.adapters import agent_credentials, agent_transport
    from aaaf.stress.runner import run_suite

    library_dirs = with_installed(org, library_dirs)
    try:
        if sandbox is None:
            chosen = library.select(dimension=dimension, task_ids=task_ids)
            sandbox = require_sandbox(
                [loaded.task for loaded in chosen], settings or get_settings(), service=True
            )
        pinned = _pinned_agent_transport(settings or get_settings()) if pin_agent_url else None
        with (
            agent_credentials(agent_spec.url, agent_spec.api_key),  # sent to agent_spec.url only
            agent_transport(pinned),
        ):
            suite = run_suite(
                agent_spec,
                library_dirs=library_dirs,
                dimension=dimension,
                task_ids=task_ids,
                parallel=parallel,
                log_dir=log_dir,
                turn_timeout=turn_timeout,
                task_timeout=task_timeout,
                on_task=on_task,
                sandbox=sandbox,
            )
    except Exception as error:
        _fail(org, run, f"{type(error).__name__}: {error}", now=clock())
        raise
    return record_stress_evidence(
        org,
        run,
        library,
        suite.records,
        log_path=suite.log_path,
        eval_id=suite.eval_id,
        settings=settings,
        clock=clock,
    )


def _pinned_agent_transport(settings: Settings) -> Callable[[], httpx.AsyncBaseTransport]:
    """A tenant's agent endpoint is reached like a webhook target: every request resolves the
    host once, checks each address and connects to the one it checked (no DNS rebinding to
    the server's own network between the check at creation and the run's requests).  A
    refused address is a connection error to the chat adapter: retried, then the task is
    infrastructure-failed — nothing is sent."""
    from aaaf.services.pinned_transport import PinnedTransport

    return lambda: PinnedTransport(settings, refusal_as_connect_error=True)


def _fail(org: OrgStore, run: StressRun, message: str, *, now: datetime) -> None:
    org.finish_stress_run(
        run.id,
        status="failed",
        finished_at=now,
        log_path=None,
        summary={"error": message},
        results=[],
    )


def record_stress_evidence(
    org: OrgStore,
    run: StressRun,
    library: Library,
    records: list[dict[str, Any]],
    *,
    log_path: str,
    eval_id: str | None = None,
    settings: Settings | None = None,
    notes: Sequence[str] = (),
    clock: Clock = system_clock,
) -> tuple[StressRun, list[dict[str, Any]]]:
    """The one path from an inspect log's stress records to evidence (issue 15 §4), for the
    harness's own runs and for a user's imported log: model-graded sub-scores, the standard
    events collected for the run's agent, one ``stress_test_results`` row per task, the run
    closed ``finished`` with its summary.

    Provenance (docs/stress-tests.md "Provenance"): a run this installation's harness executed
    stores its events as stress-test evidence of that run — the one door
    :func:`aaaf.services.collect.collect` opens for them (``stress_run``); an imported log's
    are stored as reported by the organization (``reported_stress_test``), through the door
    every other event takes."""
    from aaaf.evals.importers.inspect_stress import evidence_task_id, stress_events
    from aaaf.scoring.evidence_sources import REPORTED_STRESS_SOURCE, STRESS_SOURCE
    from aaaf.services.collect import collect
    from aaaf.services.provenance import is_harness_run
    from aaaf.store.repositories.stress_runs import StressResultRow

    own = {loaded.task.id for loaded in library.tasks if loaded.library != "aaaf-standard"}
    agent = org.get_agent(str(run.agent_id))
    judges = stress_judges(settings)
    try:
        model_grading.model_grade(records, library, judges)
    finally:
        for judge in (judges or {}).values():
            judge.close()
    harness = is_harness_run(run)
    source = STRESS_SOURCE if harness else REPORTED_STRESS_SOURCE
    events = stress_events(records, run_id=str(run.id), source=source)
    report = collect(
        org,
        [(None, event) for event in events],
        now=clock(),
        default_agent=str(agent.id),
        stress_run=run.id if harness else None,
    )
    if report.rejected:
        log.warning("stress run %s: %d event(s) rejected: %s", run.id, report.rejected, report.errors[:3])
    rows = []
    for record in records:
        if record.get("infrastructure_failed"):
            continue  # the provider's failure, not a result of the agent's (the summary counts it)
        loaded = library.get(record["task_id"])
        definition = loaded.task.model_dump(mode="json", by_alias=True, exclude={"reference"})
        digest = library.version
        graded = record.get("grade") or {"status": "rejected", "credit": 0.0}
        rows.append(
            StressResultRow(
                task_key=f"{loaded.library}:{loaded.task.id}@{digest}",
                own=loaded.task.id in own,
                dimension=loaded.task.dimensions[0],
                complexity_level=loaded.task.complexity_level,
                domain=loaded.task.domain,
                task_definition=definition,
                outcome=OUTCOMES[graded["status"]],
                score=float(graded["credit"]),
                details={
                    "evidence_source": source,
                    "evidence_task_id": evidence_task_id(str(run.id), loaded.task.id),
                    "task_type": loaded.task.task_type,
                    "milestones": graded.get("milestones", []),
                    "errors": graded.get("errors", []),
                    "failure": record.get("failure"),
                    "elapsed_seconds": record.get("elapsed_seconds"),
                    "tool_calls": len((record.get("tools") or {}).get("calls", [])),
                    "model_graded": record.get("model_graded"),
                },
                executed_at=(
                    datetime.fromisoformat(record["finished_at"]) if record.get("finished_at") else clock()
                ),
            )
        )
    summary = summarise(records)
    summary["events"] = {"accepted": report.accepted, "rejected": report.rejected}
    summary["provenance"] = "stress_tested" if harness else "reported"
    if eval_id:
        summary["inspect_eval_id"] = eval_id
    if notes:
        summary["notes"] = list(notes)
    finished = org.finish_stress_run(
        run.id,
        status="finished",
        finished_at=clock(),
        log_path=log_path,
        summary=summary,
        results=rows,
    )
    return finished, records


def import_inspect_log(
    org: OrgStore,
    agent_name: str,
    path: str | Path,
    *,
    library_dirs: Sequence[str] = (),
    enroll: bool = False,
    settings: Settings | None = None,
    clock: Clock = system_clock,
) -> tuple[StressRun, list[dict[str, object]]]:
    """A user's own inspect_ai log of the stress tasks (``inspect eval ...@stress_suite``) as
    evidence of the agent, by the same path as the harness's runs (issue 15 "Build on
    inspect_ai": "one path for both").  The log is a run of its own (adapter ``inspect_log``);
    its tasks must be in the library (the standard one and ``library_dirs``); a log already
    stored — imported before, or written by ``aaaf stress-test`` — is refused (``CONFLICT``),
    so its evidence is never counted twice.  ``NOT_FOUND`` for an unknown agent unless
    ``enroll``.

    This installation did not run it: its evidence is stored as reported by the organization
    (``reported_stress_test``), which ``full`` and ``passive_only`` assessments score and a
    ``stress_test_only`` one does not (docs/stress-tests.md "Provenance")."""
    from aaaf.evals.importers.inspect_stress import read_stress_log
    from aaaf.services.provenance import IMPORTED_LOG_ADAPTER
    from aaaf.stress.library import load_library

    file = Path(path).resolve()
    header, records = read_stress_log(file)
    library = load_library(library_dirs)
    for record in records:
        library.get(record["task_id"])  # NOT_FOUND names a task this library does not have
    eval_id = header.get("eval_id")
    for earlier in org.stress_runs() if eval_id else []:  # any agent of the organization
        if earlier.summary.get("inspect_eval_id") == eval_id:
            raise AAAFError(
                "CONFLICT",
                f"{file.name}: this inspect log (eval {eval_id}) is already stored as stress run {earlier.id}.",
                {"field": "log", "stress_run_id": str(earlier.id), "eval_id": eval_id},
            )
    agent = _agent(org, agent_name) if enroll else org.get_agent(agent_name)  # nothing refused it
    logged_version = (header.get("metadata") or {}).get("library_version")
    notes = (
        [
            f"the log ran library {logged_version}; its tasks are stored with the definitions of {library.version}"
        ]
        if logged_version and logged_version != library.version
        else []
    )
    run = org.create_stress_run(
        agent.id,
        adapter=IMPORTED_LOG_ADAPTER,
        agent_reference=str(file),
        library=", ".join(source["name"] for source in library.sources),
        library_version=library.version,
        started_at=clock(),
    )
    return record_stress_evidence(
        org,
        run,
        library,
        records,
        log_path=str(file),
        eval_id=eval_id,
        settings=settings,
        notes=notes,
        clock=clock,
    )
