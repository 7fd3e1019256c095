"""Scale-out you can watch, on one machine (docs/scaling.md "Across hosts"): PostgreSQL, the
API and two workers, each on a host of its own (a network namespace; tests/netns.py), the
test as the clients.  In order:

1. assessments triggered over HTTP all complete, each scored once, spread over both worker
   hosts (each host's worker log names the jobs it ran);
2. a worker host cut off mid-run (its link down, its processes SIGKILLed while it holds a
   job: its worker, restarted for the round, sleeps after each claim) loses nothing: the
   other host finishes every job, the cut-off one included;
3. the same work with one worker host, for the throughput beside 1's two;
4. the API host cut from the database (its link to it down) answers 503 with
   ``Retry-After``; nothing it answered 503 for is stored, everything it acknowledged is; it
   recovers by itself when the link returns;
5. every webhook event reached the receiver exactly once, whichever host sent it, signed.

``make test`` runs it at a small size; ``make soak`` (``AAAF_MULTIHOST_SCALE=soak``) with
more assessments per round and the cut repeated, bounded by ``AAAF_MULTIHOST_SOAK_SECONDS``.
Throughput is printed (``-s`` shows it), never asserted: on a machine of two cores a second
worker host adds distribution, not CPU.
"""

from __future__ import annotations

import os
import re
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from sqlalchemy import Engine, create_engine, func, select
from sqlalchemy.pool import NullPool
from standardwebhooks import Webhook

from aaaf.jobs.tasks import TEST_JOB_DELAY_ENV
from aaaf.store import tables as t
from tests.api.conftest import Org, agent_evidence, task_events
from tests.jobs.test_crash_safety import wait_for
from tests.multihost.conftest import Cluster

# procrastinate's lines: "Starting job aaaf.assess[14](assessment_id='…', …)" and
# "Job aaaf.assess[14](assessment_id='…', …) ended with status: Success, lasted 0.762 s"
_SUCCESS = re.compile(
    r"Job aaaf\.assess\[(\d+)\]\(assessment_id='([0-9a-f-]{36})'[^)]*\) ended with status: Success"
)
_STARTED = re.compile(r"Starting job aaaf\.assess\[(\d+)\]\(assessment_id='([0-9a-f-]{36})'")
# a job's run that took further due jobs (jobs/assessment_batch.py) names each of them
_TAKEN = re.compile(r"took aaaf\.assess\[(\d+)\] for assessment ([0-9a-f-]{36})")
_TAKEN_SUCCESS = re.compile(r"taken job aaaf\.assess\[(\d+)\] for assessment ([0-9a-f-]{36}) succeeded")
_NOTHING_TO_DO = re.compile(r"assessment ([0-9a-f-]{36}) is already completed: nothing to do")
EVENT_TYPES = ["assessment.started", "assessment.completed", "assessment.failed"]


@dataclass(frozen=True)
class Scale:
    per_round: int  # assessments triggered per round
    cuts: int  # worker-host cuts (each followed by the host's return)
    seconds: float  # the soak's bound; the short run ignores it


SHORT = Scale(per_round=8, cuts=1, seconds=0.0)
SOAK = Scale(per_round=60, cuts=4, seconds=float(os.environ.get("AAAF_MULTIHOST_SOAK_SECONDS", "600")))


def _scale() -> Scale:
    return SOAK if os.environ.get("AAAF_MULTIHOST_SCALE") == "soak" else SHORT


class _Run:
    """The organization, its agents and what the test learns while it drives the cluster."""

    def __init__(self, cluster: Cluster) -> None:
        assert cluster.live is not None and cluster.postgres is not None
        self.cluster = cluster
        self.org: Org = cluster.live.organization(minimum_tasks_performance=6, minimum_tasks_capability=6)
        self.engine: Engine = create_engine(cluster.postgres.url, poolclass=NullPool)
        hook = self.org.client.post(
            "/api/v1/webhooks",
            json={"url": cluster.receiver.url("/hook"), "event_types": EVENT_TYPES},
        )
        assert hook.status_code == 201, hook.text
        self.secret = hook.json()["secret"]
        self.triggered: list[str] = []

    def agents(self, count: int) -> list[str]:
        """``count`` new agents with enough evidence to be assessed."""
        ids = [
            self.org.client.post("/api/v1/agents", json={"name": f"a-{uuid.uuid4().hex[:10]}"}).json()["id"]
            for _ in range(count)
        ]
        events = [e for agent_id in ids for e in agent_evidence(agent_id, 6)]
        for start in range(0, len(events), 1000):
            stored = self.org.client.post(
                "/api/v1/events/batch", json={"events": events[start : start + 1000]}
            )
            assert stored.status_code == 201, stored.text
        return ids

    def trigger(self, agent_ids: list[str]) -> list[str]:
        ids = []
        for agent_id in agent_ids:
            response = self.org.client.post("/api/v1/assessments", json={"agent_id": agent_id})
            assert response.status_code == 202, response.text
            ids.append(response.json()["id"])
        self.triggered += ids
        return ids

    def statuses(self, ids: list[str]) -> dict[str, str]:
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(t.assessments.c.id, t.assessments.c.status).where(
                    t.assessments.c.id.in_([uuid.UUID(i) for i in ids])
                )
            ).all()
        return {str(row[0]): row[1] for row in rows}

    def wait_finished(self, ids: list[str], *, timeout: float = 240.0) -> dict[str, str]:
        def finished() -> dict[str, str] | None:
            found = self.statuses(ids)
            return None if any(s in ("pending", "in_progress") for s in found.values()) else found

        done: dict[str, str] = wait_for(
            finished, timeout=timeout, what=f"{len(ids)} assessments:\n{self.logs()}"
        )
        return done

    def logs(self) -> str:
        return "\n".join(
            f"--- {name}\n{worker.log()[-1500:]}" for name, worker in self.cluster.workers.items()
        )

    def ran_on(self) -> dict[str, set[str]]:
        """Per worker host, the assessments its jobs scored: ended there with success, less
        those it found done already (a job the sweep ran again because its first worker, slow
        on a loaded machine, missed heartbeats: the second run changes nothing)."""
        ran = {}
        for host in self.cluster.worker_hosts:
            text = self._log_text(host.name)
            succeeded = {m[1] for m in _SUCCESS.findall(text) + _TAKEN_SUCCESS.findall(text)}
            ran[host.name] = succeeded - set(_NOTHING_TO_DO.findall(text))
        return ran

    def reruns(self) -> int:
        """Jobs that found their assessment finished already (see :meth:`ran_on`)."""
        return sum(len(_NOTHING_TO_DO.findall(self._log_text(h.name))) for h in self.cluster.worker_hosts)

    def running_on(self, host: str) -> set[str]:
        """The assessments whose job started on ``host`` and has not ended there."""
        text = self._log_text(host)
        started = {m[1] for m in _STARTED.findall(text) + _TAKEN.findall(text)}
        return started - {m[1] for m in _SUCCESS.findall(text) + _TAKEN_SUCCESS.findall(text)}

    def _log_text(self, host: str) -> str:
        # every worker this host ran, the killed ones included
        paths = self.cluster.worker_logs.get(host, [])
        return "".join(path.read_text(errors="replace") for path in paths)

    def scored_once(self, ids: list[str]) -> None:
        """Each of ``ids`` completed, with one set of dimension scores and one
        ``assessment.completed`` event."""
        wanted = [uuid.UUID(i) for i in ids]
        with self.engine.connect() as connection:
            dimensions: dict[uuid.UUID, int] = dict(
                connection.execute(
                    select(t.dimension_scores.c.assessment_id, func.count())
                    .where(t.dimension_scores.c.assessment_id.in_(wanted))
                    .group_by(t.dimension_scores.c.assessment_id)
                ).all()
            )
            completed = Counter(
                connection.execute(
                    select(t.webhook_events.c.payload).where(
                        t.webhook_events.c.type == "assessment.completed",
                        t.webhook_events.c.organization_id == uuid.UUID(self.org.id),
                    )
                ).scalars()
            )
        assert set(self.statuses(ids).values()) == {"completed"}
        assert set(dimensions) == set(wanted)
        assert len(set(dimensions.values())) == 1  # every assessment scored once: the same count
        per_assessment = Counter(i for payload in completed for i in ids if i in payload)
        assert per_assessment == dict.fromkeys(ids, 1), per_assessment


def _rate(run: _Run, agent_ids: list[str]) -> float:
    """Assessments per second from the first trigger to the last completion."""
    started = time.monotonic()
    ids = run.trigger(agent_ids)
    run.wait_finished(ids)
    elapsed = time.monotonic() - started
    run.scored_once(ids)
    return len(ids) / elapsed


def _spread(run: _Run, ids: list[str]) -> dict[str, int]:
    ran = run.ran_on()
    return {host: len(done & set(ids)) for host, done in ran.items()}


def _cut_a_worker_host_mid_run(run: _Run, size: int, victim_index: int, *, restore: bool) -> dict[str, Any]:
    cluster = run.cluster
    victim = cluster.worker_hosts[victim_index]
    survivor = cluster.worker_hosts[1 - victim_index]
    # the victim's worker holds each job it claims for a while (the test hook of tests/jobs),
    # so that the cut lands mid-job however fast a job is on this machine
    cluster.stop_worker(victim)
    cluster.start_worker(victim, extra_env={TEST_JOB_DELAY_ENV: "5"})
    ids = run.trigger(run.agents(size))
    wait_for(
        lambda: run.running_on(victim.name) & set(ids),
        timeout=120,
        what=f"a job of this round on {victim.name}:\n{run.logs()}",
    )
    killed = cluster.cut_off(victim)
    held = run.running_on(victim.name) & set(ids)  # its log is final: the jobs it never ended
    assert held
    finished = run.wait_finished(ids)
    assert set(finished.values()) == {"completed"}, finished
    run.scored_once(ids)
    ran = run.ran_on()
    assert held & ran[survivor.name] == held  # the survivor finished what the cut-off host held
    assert not held & ran[victim.name]
    if restore:  # the host comes back: link up, a fresh worker
        cluster.network.set_link(victim, True)
        cluster.start_worker(victim)
    return {"killed_processes": len(killed), "jobs_cut_off": len(held), "assessments": len(ids)}


def _cut_the_api_from_the_database(run: _Run) -> dict[str, Any]:
    cluster = run.cluster
    agent_id = run.agents(1)[0]
    now = datetime.now(UTC)
    answers: list[tuple[int, dict[str, str], dict[str, Any], list[str]]] = []
    lock = threading.Lock()
    stop = threading.Event()

    def post(thread: int) -> None:
        with httpx.Client(
            base_url=run.org.client.base_url, headers=run.org.client.headers, timeout=60
        ) as client:
            round_ = 0
            while not stop.is_set():
                events = [
                    e
                    for i in range(5)
                    for e in task_events(agent_id, f"cut-{thread}-{round_}-{i}", now - timedelta(hours=i + 1))
                ]
                response = client.post("/api/v1/events/batch", json={"events": events})
                with lock:
                    answers.append(
                        (
                            response.status_code,
                            dict(response.headers),
                            response.json(),
                            [e["id"] for e in events],
                        )
                    )
                round_ += 1

    threads = [threading.Thread(target=post, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    try:
        wait_for(lambda: any(a[0] == 201 for a in answers), timeout=60, what="an acknowledged batch")
        cut_at = len(answers)
        cluster.network.set_link(cluster.api, False)
        wait_for(
            lambda: sum(a[0] == 503 for a in answers) >= 2, timeout=120, what="503 answers while cut off"
        )
        trigger = run.org.client.post("/api/v1/assessments", json={"agent_id": agent_id}, timeout=120)
        cluster.network.set_link(cluster.api, True)
        healed_at = time.monotonic()
        wait_for(
            lambda: answers[-1][0] == 201 and sum(a[0] == 201 for a in answers[cut_at:]) > 0,
            timeout=120,
            what="acknowledged batches again",
        )
        recovered_after = time.monotonic() - healed_at
    finally:
        stop.set()
        for thread in threads:
            thread.join(120)
    assert trigger.status_code == 503, trigger.text
    assert {a[0] for a in answers} <= {201, 503}, Counter(a[0] for a in answers)
    refused = [a for a in answers if a[0] == 503]
    for _, headers, body, _ids in refused:
        assert int(headers.get("retry-after", 0)) >= 1, (headers, body)
        assert body["error"]["code"] == "SERVICE_UNAVAILABLE", body
    acknowledged = {i for a in answers if a[0] == 201 for i in a[3]}
    not_stored = {i for a in refused if a[2]["error"]["details"].get("outcome") == "not_stored" for i in a[3]}
    with run.engine.connect() as connection:
        stored = set(
            connection.execute(
                select(t.events.c.idempotency_key).where(
                    t.events.c.idempotency_key.in_(sorted(acknowledged | not_stored))
                )
            ).scalars()
        )
    assert acknowledged <= stored  # everything acknowledged is stored
    assert not (not_stored - acknowledged) & stored  # nothing answered "not stored" is
    return {
        "answers": dict(Counter(a[0] for a in answers)),
        "recovered_after_s": round(recovered_after, 1),
    }


def _webhooks_exactly_once(run: _Run) -> dict[str, Any]:
    with run.engine.connect() as connection:
        events = [
            f"msg_{event_id.hex}"
            for event_id in connection.execute(
                select(t.webhook_events.c.id).where(
                    t.webhook_events.c.organization_id == uuid.UUID(run.org.id),
                    t.webhook_events.c.type.in_(EVENT_TYPES),
                )
            ).scalars()
        ]
    received = run.cluster.receiver.wait_for("/hook", len(events), timeout=180)
    time.sleep(2)  # a duplicate sent late would arrive now
    received = run.cluster.receiver.received("/hook")
    per_id = Counter(r.headers["webhook-id"] for r in received)
    assert set(per_id) == set(events)
    assert set(per_id.values()) == {1}, [i for i, n in per_id.items() if n > 1]
    signer = Webhook(run.secret)  # checked against each request's own timestamp: a soak outlasts
    for request in received:  # the library's 5-minute tolerance for "now"
        moment = datetime.fromtimestamp(int(request.headers["webhook-timestamp"]), UTC)
        expected = signer.sign(request.headers["webhook-id"], moment, request.body.decode())
        assert expected in request.headers["webhook-signature"].split(), request.headers
    names = {host.address: host.name for host in run.cluster.network.hosts.values()}
    return {"events": len(events), "senders": dict(Counter(names.get(r.client, r.client) for r in received))}


def test_assessments_webhooks_and_outages_across_hosts(cluster: Cluster) -> None:
    scale = _scale()
    deadline = time.monotonic() + scale.seconds
    run = _Run(cluster)
    report: dict[str, Any] = {}
    began = time.monotonic()

    # 1. two worker hosts
    agents = run.agents(scale.per_round)
    two_hosts = _rate(run, agents)
    spread = _spread(run, run.triggered)
    assert all(count > 0 for count in spread.values()), spread
    assert sum(spread.values()) == len(agents)  # each assessment scored by one host
    report["two hosts"] = {"per_second": round(two_hosts, 1), "spread": spread}

    # 2. a worker host cut off mid-run (back again before the next cut), the last one stays off
    report["cuts"] = []
    for cut in range(scale.cuts):
        last = cut == scale.cuts - 1 or time.monotonic() > deadline
        report["cuts"].append(_cut_a_worker_host_mid_run(run, scale.per_round, cut % 2, restore=not last))
        if last:
            break

    # 3. one worker host: the one left
    assert len(cluster.workers) == 1
    one_host = _rate(run, run.agents(scale.per_round))
    report["one host"] = {"per_second": round(one_host, 1)}

    # 4. the API host cut from the database
    report["api cut"] = _cut_the_api_from_the_database(run)

    # every assessment triggered over the run finished once
    run.wait_finished(run.triggered)
    run.scored_once(run.triggered)

    # 5. webhooks
    report["webhooks"] = _webhooks_exactly_once(run)
    report["jobs run again, nothing to do"] = run.reruns()
    report["seconds"] = round(time.monotonic() - began, 1)
    print(f"\nmulti-host ({'soak' if scale is SOAK else 'short'}): {report}")
