"""``aaaf serve --workers N``: N server processes, each accepting on a listening socket of its own
(docs/api.md "Running it").

uvicorn's own supervisor hands every process one shared listening socket.  The process that
wakes first accepts every connection waiting, so a few keep-alive clients — or the few pooled
connections of a load balancer — end up on one process while the others idle: with 4 clients on 2
processes, one process held all 4 connections in 119 of 129 samples of ``benchmarks/bench_api.py``.

Here each process slot has a socket of its own, all bound with ``SO_REUSEPORT`` to the same
address, and the kernel spreads new connections over them by a hash of the client's address and
port.  The supervisor keeps every socket open for its whole life: connections that arrive while a
slot's process is being restarted wait in that socket's queue for the replacement, none is refused.
Only the sockets differ from uvicorn's ``Multiprocess``: its health pings, the restart of a dead or
hung process, and its signals (``SIGHUP`` restarts every process, ``SIGTTIN``/``SIGTTOU`` add or
remove one) are kept.
"""

from __future__ import annotations

import logging
import socket

from uvicorn.config import STARTUP_FAILURE, Config
from uvicorn.supervisors.multiprocess import Multiprocess, Process

from aaaf.errors import AAAFError

logger = logging.getLogger("uvicorn.error")


def bind_reuse_port(host: str, port: int) -> socket.socket:
    """A socket bound to ``(host, port)`` with ``SO_REUSEPORT`` (not yet listening: each server
    process listens on its own)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        raise _address_error(host, port, error) from error
    sock.set_inheritable(True)
    return sock


def _refuse_taken_port(host: str, port: int) -> None:
    """``SO_REUSEPORT`` would let a second server of the same user share a port silently; a
    plain bind first makes a taken port the error it always was."""
    if port == 0:
        return
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            raise _address_error(host, port, error) from error


def _address_error(host: str, port: int, error: OSError) -> AAAFError:
    return AAAFError(
        "INVALID_REQUEST",
        f"Cannot listen on {host}:{port}: {error.strerror or error}.",
        {"host": host, "port": port},
    )


class ReusePortSupervisor(Multiprocess):
    """uvicorn's ``Multiprocess`` with one ``SO_REUSEPORT`` listening socket per process slot
    (the module docstring)."""

    def __init__(self, config: Config) -> None:
        super().__init__(config, sockets=[])
        _refuse_taken_port(config.host, config.port)
        first = bind_reuse_port(config.host, config.port)
        self.port = int(first.getsockname()[1])  # the kernel's choice for --port 0
        self.sockets = [first] + [bind_reuse_port(config.host, self.port) for _ in range(config.workers - 1)]
        shown = f"[{config.host}]" if ":" in config.host else config.host
        logger.info(f"Uvicorn running on http://{shown}:{self.port} (Press CTRL+C to quit)")

    def _spawn(self, slot: int) -> Process:
        process = Process(self.config, [self.sockets[slot]])
        process.start()
        return process

    def init_processes(self) -> None:
        self.processes = [self._spawn(slot) for slot in range(self.processes_num)]

    def keep_subprocess_alive(self) -> None:
        """A dead or hung process is killed and its slot's socket given to a new one (uvicorn's
        rule: a process that failed before it started serving stops the server instead)."""
        for slot, process in enumerate(self.processes):
            if self.should_exit.is_set():
                return
            if process.is_alive(timeout=self.config.timeout_worker_healthcheck):
                continue
            process.kill()
            process.join()
            if process.exitcode == STARTUP_FAILURE:
                logger.error(f"Child process [{process.pid}] failed to start, stopping the parent process.")
                self.should_exit.set()
                return
            logger.info(f"Child process [{process.pid}] died")
            self.processes[slot] = self._spawn(slot)

    def restart_all(self) -> None:
        """``SIGHUP``: each process replaced by a new one on the same socket (what arrives in
        between waits in the socket's queue)."""
        for slot, old in enumerate(self.processes):
            if self.should_exit.is_set():
                return
            self.processes[slot] = self._spawn(slot)
            old.terminate()
            old.join()

    def handle_ttin(self) -> None:
        logger.info("Received SIGTTIN, increasing the number of processes.")
        self.sockets.append(bind_reuse_port(self.config.host, self.port))
        self.processes_num += 1
        self.processes.append(self._spawn(len(self.processes)))

    def handle_ttou(self) -> None:
        logger.info("Received SIGTTOU, decreasing the number of processes.")
        if self.processes_num <= 1:
            logger.info("Already reached one process, cannot decrease the number of processes anymore.")
            return
        self.processes_num -= 1
        process = self.processes.pop()
        process.terminate()
        process.join()
        self.sockets.pop().close()  # connections still queued on it are reset

    def run(self) -> None:
        try:
            super().run()
        finally:
            for sock in self.sockets:
                sock.close()
