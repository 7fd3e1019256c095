"""Process settings, read from ``AAAF_*`` environment variables (DESIGN.md 'Configuration').

Only what a process needs to start lives here: where the database, Redis, the model
judge and the issuer key are, and the public base URL badges link to.  Scoring defaults
live in :mod:`aaaf.scoring.defaults` and org overrides in the database.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

if TYPE_CHECKING:
    from aaaf.evidence.limits import EventLimits


class Settings(BaseSettings):
    """One settings object; every field can be set as ``AAAF_<FIELD_NAME>``.

    ``issuer_key_path`` None means "beside the SQLite database file" (the badges package
    resolves it); ``redis_url`` None means in-memory rate limits.
    """

    model_config = SettingsConfigDict(env_prefix="AAAF_", extra="ignore")

    database_url: str = "sqlite:///./aaaf.db"
    redis_url: str | None = None
    judge_base_url: str | None = None
    judge_model: str | None = None
    judge_api_key: str | None = None
    issuer_key_path: str | None = None
    # SCORING.md §7 "Secrets": base64 of >= 32 random bytes; None = the file beside a SQLite
    # database (generated once), and an error with a server database
    secret_key: str | None = None
    public_base_url: str = "http://localhost:8000"
    # how long a signed status list stays valid (its validUntil; docs/security.md "Badges"):
    # a verifier refuses an older one, so a revocation reaches every verifier within this time
    status_list_valid_hours: float = Field(default=24.0, gt=0, le=24 * 366)
    # what one event may hold (aaaf.evidence.limits; docs/cli.md "Limits"), the same on
    # SQLite and PostgreSQL: a task-log line, an id / agent name / task_id, any string
    event_max_line_bytes: int = Field(default=1_048_576, ge=1)
    event_max_id_chars: int = Field(default=256, ge=1)
    event_max_string_bytes: int = Field(default=65_536, ge=1)

    def event_limits(self) -> EventLimits:
        """The ``event_max_*`` settings as the evidence package's ``EventLimits``."""
        from aaaf.evidence.limits import EventLimits

        return EventLimits(
            line_bytes=self.event_max_line_bytes,
            id_chars=self.event_max_id_chars,
            string_bytes=self.event_max_string_bytes,
        )

    # SCORING.md §7 "Admin and keys": sent as a Bearer key, it creates organizations over
    # HTTP; unset, POST /api/v1/organizations answers 403 FORBIDDEN
    admin_key: str | None = None
    # `aaaf serve` (docs/security.md "Connections"): a request (headers and body) must arrive
    # whole within this time of its first byte; at most this many connections and requests
    # at once (more are answered 503)
    http_read_timeout_seconds: float = Field(default=30.0, gt=0)
    http_max_connections: int = Field(default=1000, ge=1)
    # `aaaf serve --workers N` (docs/api.md): uvicorn's supervisor restarts a server process that
    # does not answer its health ping within this time; uvicorn's 5 s restarts busy, healthy
    # processes mid-request on a loaded host
    http_worker_healthcheck_seconds: int = Field(default=30, ge=1)
    # installation limits an organization cannot raise (docs/security.md "Limits"): its
    # rate_limit_per_minute, its active API keys, and what one comparison may cost
    max_rate_limit_per_minute: int = Field(default=6000, ge=1)
    # failed authentications a minute per client address and per key prefix before 429
    auth_failures_per_minute: int = Field(default=30, ge=1)
    max_keys_per_organization: int = Field(default=100, ge=1)
    max_compare_resamples: int = Field(default=20_000, ge=1)
    max_compare_treatments: int = Field(default=10, ge=1)
    max_concurrent_compares: int = Field(default=2, ge=1)
    # issue 13 §4 (aaaf.api.rate_limit): Redis keys are "<prefix>:ratelimit…" (AAAF_REDIS_URL set);
    # requests no key is counted for (public routes) are limited per client address
    rate_limit_prefix: str = "aaaf"
    # every Redis call's timeout (connect and answer), milliseconds: a hung Redis delays a
    # request by at most this much, then the request is let through (aaaf.api.rate_limit)
    redis_timeout_ms: int = Field(default=200, ge=1)
    public_rate_limit_per_minute: int = Field(default=600, ge=1)

    # issue 14 §5 (docs/webhooks.md): webhook targets on private, loopback or link-local
    # addresses are refused unless this is true (tests, single-machine setups)
    webhook_allow_loopback: bool = False
    # one delivery attempt's timeout (connect + send + answer), seconds
    webhook_timeout_seconds: float = Field(default=10.0, gt=0)
    # a claimed delivery is leased for twice the timeout plus this margin (a slot may be waited
    # for); a sender that dies mid-attempt leaves its delivery due again when the lease runs out
    webhook_lease_margin_seconds: float = Field(default=30.0, ge=0)
    # deliveries sent at once by one sender, and per round
    webhook_concurrency: int = Field(default=16, ge=1)
    # ... and at most this many of them to one endpoint (scheme, host, port): a slow endpoint
    # holds its own slots, never every one
    webhook_concurrency_per_endpoint: int = Field(default=8, ge=1)
    webhook_batch_size: int = Field(default=200, ge=1)
    # ``aaaf serve``'s delivery loop (aaaf.api.background): sends due webhook deliveries every
    # ``background_interval_seconds`` (0 turns the loop off); the duties are the job queue's
    background_interval_seconds: float = Field(default=2.0, ge=0)

    # the job queue (issue 14, aaaf.jobs): how often the sweep runs (stalled jobs of dead
    # workers retried, lost pending assessments queued again), after how long without a
    # heartbeat a worker counts as dead, how often a worker beats, and how long a pending
    # assessment may wait for its job before the sweep queues it again
    jobs_sweep_seconds: int = Field(default=30, ge=1, le=59)
    jobs_stalled_after_seconds: float = Field(default=30.0, gt=0)
    jobs_heartbeat_seconds: float = Field(default=10.0, gt=0)
    jobs_requeue_after_seconds: float = Field(default=120.0, ge=0)
    # how many triggered assessments one job run of ``aaaf worker`` scores at most: its own
    # and the due ones it takes with it (aaaf.jobs.assessment_batch; docs/jobs.md)
    jobs_assessments_at_once: int = Field(default=32, ge=1)
    # a worker that cannot reach its database keeps trying (docs/jobs.md "When the database
    # goes away") for this long, then exits with status 75 (EX_TEMPFAIL) for its supervisor
    jobs_database_outage_seconds: float = Field(default=300.0, gt=0)
    # how long the queue's pool waits for a connection before the worker counts its database as
    # gone and starts its queue again (aaaf.jobs.queue)
    jobs_pool_timeout_seconds: float = Field(default=10.0, gt=0)
    # stress runs over HTTP are jobs too (aaaf.services.stress_jobs; docs/jobs.md "Stress runs"):
    # at most this many of one organization run at once, the rest wait ``queued``
    stress_runs_per_organization: int = Field(default=2, ge=1)
    # "is anybody working?" (aaaf.services.queue_health; docs/jobs.md): /health answers
    # ``degraded`` when jobs wait and no worker beat within jobs_stalled_after_seconds — with
    # HTTP 200 by default, 503 when this is 503 (for a load balancer that should take the
    # server out); ``aaaf serve`` on PostgreSQL warns when no worker beat within this many seconds
    health_degraded_status: int = Field(default=200, ge=200, le=503)
    jobs_worker_warning_seconds: float = Field(default=60.0, gt=0)

    # the sandbox of stress tests (aaaf.stress.sandbox; docs/stress-tests.md "Sandbox"): the
    # inspect_ai sandbox provider every tool call and code grader runs in — "bubblewrap"
    # (ours), "docker", "k8s" or any provider registered with inspect_ai, or "none" (the CLI
    # only, on the user's own machine: code then runs on the host); its configuration file
    # for providers that take one (docker: a compose file), and the bubblewrap limits
    sandbox: str = "bubblewrap"
    sandbox_config: str | None = None
    sandbox_memory_mib: int = Field(default=1024, ge=64)
    sandbox_processes: int = Field(default=64, ge=4)
    sandbox_disk_mib: int = Field(default=64, ge=1)
    sandbox_file_mib: int = Field(default=16, ge=1)
    sandbox_open_files: int = Field(default=256, ge=16)
    # the host user the sandbox's processes run as when the server runs as root (never root
    # itself); as any other user they keep that user's id outside their user namespace
    sandbox_uid: int = Field(default=65534, ge=1)


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process's settings, read once (``get_settings.cache_clear()`` re-reads them)."""
    return Settings()
