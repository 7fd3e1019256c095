"""Which ``aaaf worker`` processes serve the assessments now (PostgreSQL; docs/jobs.md "Workers").

A run of an ``aaaf.assess`` job takes its share of the jobs due — those due divided by the
job slots serving the queue (:mod:`aaaf.jobs.assessment_batch`) — so it must know how many
there are.  procrastinate's ``procrastinate_workers`` cannot tell: each ``aaaf worker`` has
three or four rows there (the assessments, the sweep, the periodic duties, the stress runs),
without their queues.  So each ``aaaf worker`` holds, on a connection of its own that it keeps
while its workers run, one session-level advisory lock per job slot (``--concurrency``) in a
namespace of the schema's own (:data:`HOLD`); :data:`LIVE_SLOTS` counts them in ``pg_locks``.
The server releases a session's locks when its connection ends — the process stopped, was
killed (SIGKILL) or lost its database — so a dead worker is no longer counted, with no
heartbeat or table to clean.  The namespace is a hash of the schema's name: the workers of
another AAAF schema in the same database are not counted.  The count is a split, never a
correctness rule: a worker that counts wrongly takes too much or too little of a fleet, and
each job still runs exactly once.
"""

from __future__ import annotations

_NAMESPACE = "hashtext('aaaf worker ' || current_schema())"
"""The first key of every presence lock: this schema's (an int4, shown as an oid in ``pg_locks``)."""

SLOTS_PER_PROCESS = 256
"""The most job slots one process registers: the second key is ``backend pid × 256 + slot``
(an int4: Linux pids stay below 2²²), unique among the live sessions of the server."""

HOLD = f"""
SELECT pg_advisory_lock({_NAMESPACE}, pg_backend_pid() * {SLOTS_PER_PROCESS} + slot::int)
  FROM generate_series(0, least(%(slots)s::int, {SLOTS_PER_PROCESS}) - 1) AS slot
"""
"""Register ``slots`` job slots of this session's process (psycopg's parameter style): the
locks last as long as the session."""

LIVE_SLOTS = f"""
    SELECT count(*) FROM pg_locks
     WHERE locktype = 'advisory' AND granted AND objsubid = 2
       AND classid = ({_NAMESPACE})::oid
       AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
"""
"""The job slots the live ``aaaf worker`` processes of this schema registered (a query, to
run or to use as a subquery)."""
