"""Jobs off the request path (issue 14; document 004 §5.1 step 6, §5.2 steps 5-6, §8 phase 2).

* :mod:`aaaf.jobs.blueprint` — every job declared once: the procrastinate tasks (queue,
  priority, locks, retry strategy) and the periodic schedule, taking their resources from
  their job's context (issue 31 §6).
* :mod:`aaaf.jobs.tasks` — the job functions: score a triggered assessment, issue its badge,
  the sweep; each calls the services (the only door) and is idempotent.
* :mod:`aaaf.jobs.periodic` — the periodic duties (retention, SCORING.md §6; the place the
  webhook duties join).
* :mod:`aaaf.jobs.queue` — the PostgreSQL queue (procrastinate): jobs deferred on the
  transaction that records their assessment, ``aaaf worker`` processes on any machine, a
  periodic sweep retrying the jobs of workers that stopped beating.
* :mod:`aaaf.jobs.inprocess` — the embedded SQLite default: a thin adapter running the same
  tasks on threads of the server process, on the same schedule.

Above the services and beside the API in the layers: the API reaches jobs only through the
services' :class:`aaaf.services.job_port.JobQueue`; the commands (``aaaf serve``,
``aaaf worker``) choose the queue.
"""
