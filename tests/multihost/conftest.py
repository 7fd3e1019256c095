"""A service spread over hosts on one machine (docs/scaling.md "Across hosts"): PostgreSQL of
the test's own on host ``db``, ``aaaf serve`` on host ``api`` (which clients reach over a
front link of its own), ``aaaf worker`` on hosts ``worker-1`` and ``worker-2``; the test and
its webhook receiver in the root namespace.  Everything is torn down even when a test fails.

Skipped without root or iproute2, except under ``CI=true``, where that is a failure.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api.conftest import LiveServer, Server, start_server, start_worker
from tests.jobs.test_crash_safety import FAST_SWEEP
from tests.netns import Host, Network, netns_problem
from tests.webhook_receiver import WebhookReceiver

PG_BIN = Path("/usr/lib/postgresql/15/bin")


def _require_hosts() -> None:
    problem = netns_problem() or (None if (PG_BIN / "initdb").exists() else f"no PostgreSQL 15 in {PG_BIN}")
    if problem is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"the multi-host test must run in CI: {problem}")
    pytest.skip(problem)


class HostedPostgres:
    """A cluster of its own (``initdb``, then ``pg_ctl start`` inside ``host``), run as the
    ``postgres`` user, listening on the host's bridge address."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.directory = Path(tempfile.mkdtemp(prefix="aaaf-netns-pg-"))
        self.data = self.directory / "data"
        self.log_path = self.directory / "postgres.log"
        shutil.chown(self.directory, "postgres", "postgres")
        self._as_postgres(
            [str(PG_BIN / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync"]
        )
        with (self.data / "pg_hba.conf").open("a") as hba:
            hba.write("host all all 0.0.0.0/0 trust\n")
        options = f"-h {host.address} -p 5432 -k {self.directory} -c fsync=off -c max_connections=200"
        self._as_postgres(
            host.command(
                "runuser", "-u", "postgres", "--", str(PG_BIN / "pg_ctl"), "-D", str(self.data),
                "-l", str(self.log_path), "-w", "-t", "120", "-o", options, "start",
            ),
            wrap=False,
        )  # fmt: skip
        self.url = f"postgresql+psycopg://postgres@{host.address}:5432/postgres"

    @staticmethod
    def _as_postgres(argv: list[str], *, wrap: bool = True) -> None:
        command = ["runuser", "-u", "postgres", "--", *argv] if wrap else argv
        done = subprocess.run(command, capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)}:\n{done.stdout}\n{done.stderr}")

    def destroy(self) -> None:
        subprocess.run(
            [
                "runuser",
                "-u",
                "postgres",
                "--",
                str(PG_BIN / "pg_ctl"),
                "-D",
                str(self.data),
                "-m",
                "immediate",
                "stop",
            ],
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(self.directory, ignore_errors=True)


class Cluster:
    """The hosts, the processes on them, and the receiver their webhooks go to."""

    def __init__(self, network: Network, log_dir: Path) -> None:
        self.network = network
        self.log_dir = log_dir
        self.db = network.add_host("db")
        self.api = network.add_host("api")
        network.add_front(self.api)
        self.worker_hosts = [network.add_host("worker-1"), network.add_host("worker-2")]
        self.receiver = WebhookReceiver(host=network.gateway)
        self._receiving = False
        self.postgres: HostedPostgres | None = None
        self.server: Server | None = None
        self.live: LiveServer | None = None
        self.workers: dict[str, Server] = {}
        self.worker_logs: dict[str, list[Path]] = {}  # per host, every worker's log, killed ones too
        self._worker_env: dict[str, str] = {}

    def start(self) -> None:
        from aaaf.store import open_store

        self.receiver.__enter__()
        self._receiving = True
        self.postgres = HostedPostgres(self.db)
        open_store(self.postgres.url).close()  # migrated to head from here (the root namespace)
        shared = {"AAAF_WEBHOOK_ALLOW_LOOPBACK": "true", "AAAF_BACKGROUND_INTERVAL_SECONDS": "0.5"}
        self.server = start_server(
            self.postgres.url,
            self.log_dir,
            host=str(self.api.front),
            command_prefix=tuple(self.api.command()),
            extra_env=shared,
        )
        self.live = LiveServer(self.server, "postgresql", self.postgres.url)
        self._worker_env = {**FAST_SWEEP, **shared, "AAAF_PUBLIC_BASE_URL": self.server.base_url}
        threads = [threading.Thread(target=self.start_worker, args=(host,)) for host in self.worker_hosts]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        missing = [host.name for host in self.worker_hosts if host.name not in self.workers]
        assert not missing, f"workers that did not start: {missing}"

    def start_worker(self, host: Host, *, extra_env: dict[str, str] | None = None) -> Server:
        """``aaaf worker`` on ``host``; its log is where the host's jobs are recorded."""
        assert self.postgres is not None
        worker = start_worker(
            self.postgres.url,
            self.log_dir,
            env={**self._worker_env, **(extra_env or {})},
            command_prefix=tuple(host.command()),
        )
        self.workers[host.name] = worker
        self.worker_logs.setdefault(host.name, []).append(worker.log_path)
        return worker

    def stop_worker(self, host: Host) -> None:
        """Stop ``host``'s worker the ordinary way (SIGTERM: it finishes its job first)."""
        self.workers.pop(host.name).stop()

    def cut_off(self, host: Host) -> list[int]:
        """``host`` off the network (its link down) and every process on it SIGKILLed."""
        self.network.set_link(host, False)
        killed = self.network.kill_processes(host)
        worker = self.workers.pop(host.name, None)
        if worker is not None:
            worker.process.wait(30)
        return killed

    def destroy(self) -> None:
        if self.live is not None:
            self.live.close()
        for process in [*self.workers.values(), *([self.server] if self.server else [])]:
            process.stop()
        if self.postgres is not None:
            self.postgres.destroy()
        self.network.destroy()
        if self._receiving:
            self.receiver.__exit__(None, None, None)


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    """Four hosts running PostgreSQL, the API and two workers; gone afterwards."""
    _require_hosts()
    network = Network()
    built: Any = None
    try:
        built = Cluster(network, tmp_path)
        built.start()
        yield built
    finally:
        if built is not None:
            built.destroy()
        else:
            network.destroy()
