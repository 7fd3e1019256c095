"""Stress runs over HTTP are jobs (SCORING.md §7 "Stress runs" and "Secrets"; docs/jobs.md
"Stress runs").

* :func:`queue_stress_run` — the API's request: checks what can be checked at once (the agent
  URL like a webhook target, the chosen tasks, a sandbox for those that execute code), records
  the run ``queued`` with what its job needs — the :class:`StressRequest` and the agent's own
  key sealed with ``AAAF_SECRET_KEY`` — and queues its job in the same transaction.  Nothing
  runs in the API process.
* :func:`run_stress_job` — the job, idempotent: it claims the run (at most
  ``AAAF_STRESS_RUNS_PER_ORGANIZATION`` of an organization running at once; a run without a
  slot stays ``queued``), checks again what the worker's settings allow (the URL, the
  sandbox), opens the key, runs the suite under a lease it renews, and closes the run
  ``finished`` or ``failed`` with the reason.  A run already closed is left alone; a run whose
  lease lapsed (its worker or server died) starts over from scratch — what the interrupted
  attempt stored is discarded first, so nothing is doubled — at most :data:`MAX_ATTEMPTS`
  times, then it fails saying why.  When it ends it queues the organization's next waiting runs.
* :func:`requeue_stress_runs` — the sweep's half: runs waiting ``queued`` and runs whose lease
  lapsed get their job again (the queue ignores a duplicate).

The agent's key goes to the run's ``agent_url`` only (:func:`aaaf.stress.adapters.agent_credentials`),
is never returned, logged or put in a job's arguments, and is wiped from the row when the run
ends.  ``AAAF_AGENT_API_KEY`` is the CLI's and never read here.
"""

from __future__ import annotations

import contextlib
import logging
import tempfile
import threading
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aaaf.errors import AAAFError
from aaaf.secret_box import SecretBox
from aaaf.services.job_port import JobQueue
from aaaf.services.stress import check_agent_url, with_installed
from aaaf.settings import Settings
from aaaf.stress.sandbox import SandboxChoice

if TYPE_CHECKING:
    from aaaf.services.issuer import Database
    from aaaf.store.org_store import OrgStore
    from aaaf.store.records import Agent, Assessment
    from aaaf.store.repositories.stress_runs import StressRun
    from aaaf.store.store import Store
    from aaaf.stress.library import Library, LoadedTask

log = logging.getLogger(__name__)

KEY_PURPOSE = "stress run agent key"
"""The associated data the agent's key is sealed with (:class:`aaaf.secret_box.SecretBox`)."""
MAX_ATTEMPTS = 3
"""Starts of a run before one whose executor keeps dying is failed instead of resumed."""
ADAPTER = "chat_completions"


def log_dir() -> Path:
    """Where the jobs' inspect_ai logs go: a directory of the worker's own (never shown)."""
    return Path(tempfile.gettempdir()) / "aaaf-stress-logs"


@dataclass(frozen=True)
class StressRequest:
    """What a run requested over HTTP runs (stored with it as ``request``; the key apart)."""

    agent_url: str
    model: str
    dimension: str | None = None
    task_ids: tuple[str, ...] | None = None
    parallel: int = 4

    def to_dict(self) -> dict[str, object]:
        return {
            "agent_url": self.agent_url,
            "model": self.model,
            "dimension": self.dimension,
            "task_ids": None if self.task_ids is None else list(self.task_ids),
            "parallel": self.parallel,
        }

    @classmethod
    def from_dict(cls, stored: Mapping[str, Any]) -> StressRequest:
        task_ids = stored.get("task_ids")
        return cls(
            agent_url=str(stored["agent_url"]),
            model=str(stored["model"]),
            dimension=stored.get("dimension"),
            task_ids=None if task_ids is None else tuple(task_ids),
            parallel=int(stored.get("parallel") or 4),
        )


def chosen_tasks(org: OrgStore, request: StressRequest) -> tuple[Library, list[LoadedTask]]:
    """The library (the standard one and the organization's installed ones) and the tasks the
    request chooses; ``INVALID_REQUEST`` when it chooses none."""
    from aaaf.stress.library import load_library

    library = load_library(with_installed(org))
    chosen = library.select(dimension=request.dimension, task_ids=request.task_ids)
    if not chosen:
        field = "task_ids" if request.task_ids else "dimension"
        raise AAAFError("INVALID_REQUEST", "no stress task matches the selection", {"field": field})
    return library, chosen


def _check_runnable(
    org: OrgStore, request: StressRequest, settings: Settings
) -> tuple[Library, SandboxChoice]:
    """The checks made when the run is requested and again when its job starts (the worker's
    settings may differ, the URL may resolve elsewhere by then): the URL like a webhook
    target, the tasks, and a sandbox for the tasks that execute code ("no sandbox, no code");
    the library and the sandbox the run's code runs in."""
    from aaaf.stress.sandbox import require_sandbox

    check_agent_url(request.agent_url, settings)
    library, chosen = chosen_tasks(org, request)
    return library, require_sandbox([loaded.task for loaded in chosen], settings, service=True)


def queue_stress_run(
    org: OrgStore,
    agent: Agent,
    queue: JobQueue,
    box: SecretBox,
    request: StressRequest,
    *,
    api_key: str | None,
    settings: Settings,
    now: datetime,
) -> StressRun:
    """Check, record ``queued`` and queue a stress run of ``agent``, in one transaction."""
    library, _ = _check_runnable(org, request, settings)
    sealed = None if not api_key else box.seal(api_key.encode("utf-8"), purpose=KEY_PURPOSE)
    with org.unit_of_work() as uow:
        run = uow.create_stress_run(
            agent.id,
            adapter=ADAPTER,
            agent_reference=f"{request.agent_url} ({request.model})",
            library=", ".join(source["name"] for source in library.sources),
            library_version=library.version,
            started_at=now,
            queued=True,
            request=request.to_dict(),
            agent_api_key_sealed=sealed,
        )
        uow.in_transaction(lambda connection: queue.defer_stress_run(connection, org.organization_id, run.id))
    return run


def queue_assessment_stress_run(
    org: OrgStore,
    database: Database,
    assessment_id: str,
    queue: JobQueue,
    request: StressRequest,
    *,
    api_key: str | None,
    settings: Settings,
    now: datetime,
) -> tuple[Assessment, StressRun]:
    """:func:`queue_stress_run` against the agent of an assessment (``NOT_FOUND`` for another
    organization's), its key sealed with the installation's secret; the assessment and the run."""
    from aaaf.services.issuer import secret_box

    assessment = org.get_assessment(assessment_id)
    agent = org.get_agent(str(assessment.agent_id))
    box = secret_box(database, settings)
    run = queue_stress_run(org, agent, queue, box, request, api_key=api_key, settings=settings, now=now)
    return assessment, run


def _evidence_prefix(run_id: uuid.UUID) -> str:
    """The ``task_id`` prefix of every event a run stores (``stress-<run id>-<task>``)."""
    from aaaf.evals.importers.inspect_stress import evidence_task_id

    return evidence_task_id(str(run_id), "")


def _fail(org: OrgStore, run_id: uuid.UUID, reason: str, now: datetime) -> StressRun:
    """Close a run ``failed`` with ``reason``, keeping none of its evidence."""
    org.discard_stress_run_evidence(run_id, _evidence_prefix(run_id))
    log.warning("stress run %s failed: %s", run_id, reason)
    return org.finish_stress_run(
        run_id, status="failed", finished_at=now, log_path=None, summary={"error": reason}, results=[]
    )


@contextlib.contextmanager
def _lease(org: OrgStore, run_id: uuid.UUID, every: float, clock: Callable[[], datetime]) -> Iterator[None]:
    """Renew the run's lease every ``every`` seconds while the block runs (a thread: the run
    itself is busy in inspect_ai); a lease that stops being renewed tells the sweep that the
    run's executor died."""
    stop = threading.Event()

    def renew() -> None:
        while not stop.wait(every):
            try:
                if not org.renew_stress_run_lease(run_id, clock()):
                    return
            except Exception:  # a missed renewal is retried; the lease is several beats long
                log.warning("stress run %s: could not renew its lease", run_id, exc_info=True)

    thread = threading.Thread(target=renew, name=f"aaaf-stress-lease-{run_id}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=every + 30)


def start_waiting_runs(org: OrgStore, queue: JobQueue, settings: Settings) -> list[uuid.UUID]:
    """Queue the jobs of the organization's oldest waiting runs (as many as it may run)."""
    waiting = [run.id for run in org.queued_stress_runs(settings.stress_runs_per_organization)]
    for run_id in waiting:
        queue.defer_stress_run(None, org.organization_id, run_id)
    return waiting


def run_stress_job(
    store: Store,
    queue: JobQueue,
    organization_id: uuid.UUID,
    run_id: uuid.UUID,
    *,
    settings: Settings,
    clock: Callable[[], datetime],
    box: Callable[[], SecretBox],
    logs: Path | None = None,
) -> StressRun:
    """Run a queued stress run once (module docstring); the run as stored afterwards.

    Never raises for what the run meets: a refused URL or sandbox, an unreadable key, the
    harness failing — each closes the run ``failed`` with the reason."""
    org = store.scope(organization_id)
    now = clock()
    claim = org.claim_stress_run(
        run_id,
        now=now,
        running_limit=settings.stress_runs_per_organization,
        lease_lapsed_before=now - timedelta(seconds=settings.jobs_stalled_after_seconds),
        max_attempts=MAX_ATTEMPTS,
    )
    if claim.outcome == "exhausted":
        failed = _fail(
            org,
            run_id,
            f"interrupted {claim.run.attempts} times (its worker or server stopped mid-run); "
            "not started again",
            now,
        )
        start_waiting_runs(org, queue, settings)
        return failed
    if not claim.runs_it:
        log.info("stress run %s: %s, nothing to do", run_id, claim.outcome)
        return claim.run
    run = claim.run
    try:
        with _lease(org, run.id, settings.jobs_heartbeat_seconds, clock):
            if claim.outcome == "resumed":
                discarded = org.discard_stress_run_evidence(run.id, _evidence_prefix(run.id))
                log.warning(
                    "stress run %s: its executor stopped; starting over (attempt %d, %d event(s) "
                    "of the interrupted attempt discarded)",
                    run.id,
                    run.attempts,
                    discarded,
                )
            return _execute(org, run, settings, box, logs or log_dir(), clock)
    finally:
        start_waiting_runs(org, queue, settings)


def _execute(
    org: OrgStore,
    run: StressRun,
    settings: Settings,
    box: Callable[[], SecretBox],
    logs: Path,
    clock: Callable[[], datetime],
) -> StressRun:
    from aaaf.services import stress as stress_service
    from aaaf.stress.runner import AgentSpec

    request = StressRequest.from_dict(run.request or {})
    try:
        library, sandbox = _check_runnable(org, request, settings)
        sealed = org.stress_run_sealed_key(run.id)
        api_key = None if sealed is None else box().open(sealed, purpose=KEY_PURPOSE).decode("utf-8")
    except AAAFError as error:
        return _fail(org, run.id, f"{error.code}: {error.message}", clock())
    except Exception as error:  # never left running for an error that would only come again
        log.exception("stress run %s could not start", run.id)
        return _fail(org, run.id, f"{type(error).__name__}: {error}", clock())
    spec = AgentSpec(url=request.agent_url, model=request.model, api_key=api_key)
    try:
        finished, _ = stress_service.execute_stress_run(
            org,
            run,
            library,
            spec,
            dimension=request.dimension,
            task_ids=list(request.task_ids) if request.task_ids is not None else None,
            parallel=request.parallel,
            log_dir=logs,
            settings=settings,  # the judge of the model-graded sub-scores, if one is configured
            sandbox=sandbox,
            pin_agent_url=True,  # a tenant's endpoint: checked and pinned on every request
        )
        return finished
    except Exception as error:  # the harness failed: the run says so, the job is done
        log.exception("stress run %s failed", run.id)
        current = org.get_stress_run(run.id)
        if current.status == "running":
            return _fail(org, run.id, f"{type(error).__name__}: {error}", clock())
        if current.status == "failed":  # execute_stress_run closed it; keep nothing of it
            org.discard_stress_run_evidence(run.id, _evidence_prefix(run.id))
        return current


def requeue_stress_runs(
    store: Store, queue: JobQueue, *, now: datetime, grace: timedelta, lease: timedelta
) -> list[uuid.UUID]:
    """Queue again the job of every run waiting ``queued`` for ``grace`` and of every
    ``running`` run whose lease lapsed ``lease`` ago; their ids."""
    from aaaf.store.job_state import stress_runs_to_sweep

    swept = []
    for organization_id, run_id in stress_runs_to_sweep(
        store.engine, queued_before=now - grace, lease_lapsed_before=now - lease
    ):
        queue.defer_stress_run(None, organization_id, run_id)
        swept.append(run_id)
    return swept
