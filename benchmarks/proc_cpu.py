"""CPU seconds of processes on this machine, read from ``/proc`` (counted by the kernel, not
timed), for the ingest benchmarks (:mod:`bench_api`, :mod:`count_ingest_work`): a server's
processes (it and its children) and the PostgreSQL backends that serve a set of processes'
connections (found by their client ports, when the database runs on this machine).

Clock ticks are 10 ms: count work of a second or more.
"""

from __future__ import annotations

import os
from pathlib import Path


def cpu_ticks(pids: list[int]) -> dict[int, int]:
    """utime + stime of each of ``pids`` still alive, in clock ticks (/proc/<pid>/stat)."""
    ticks = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks[pid] = int(fields[11]) + int(fields[12])
    return ticks


def cpu_seconds_between(before: dict[int, int], after: dict[int, int]) -> float:
    """CPU seconds spent between two :func:`cpu_ticks` readings (a process first seen in
    ``after`` counts from its start)."""
    ticks = sum(value - before.get(pid, 0) for pid, value in after.items())
    return ticks / os.sysconf("SC_CLK_TCK")


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants (a server and its worker processes)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry.name))
    tree, pending = [], [pid]
    while pending:
        current = pending.pop()
        tree.append(current)
        pending.extend(children.get(current, []))
    return tree


def backend_pids(url: str, clients: list[int] | None = None) -> list[int]:
    """The PostgreSQL backends serving the connections of the processes ``clients`` (default:
    this one), found by their client ports; none when the server runs on another machine."""
    import psycopg
    from sqlalchemy.engine import make_url

    sockets = set()
    for pid in clients or [os.getpid()]:
        try:
            descriptors = list(Path(f"/proc/{pid}/fd").iterdir())
        except OSError:
            continue
        for fd in descriptors:
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:["):
                sockets.add(target[len("socket:[") : -1])
    server_port = make_url(url).port or 5432
    ports = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[9] in sockets and int(fields[2].rsplit(":", 1)[1], 16) == server_port:
                ports.append(int(fields[1].rsplit(":", 1)[1], 16))
    conninfo = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(conninfo) as connection:
        pids = [
            int(row[0])
            for row in connection.execute(
                "SELECT pid FROM pg_stat_activity WHERE client_port = ANY(%s) AND pid <> pg_backend_pid()",
                (ports,),
            )
        ]
    return [pid for pid in pids if Path(f"/proc/{pid}/stat").exists()]
