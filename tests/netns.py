"""Hosts on one machine: Linux network namespaces joined by veth links (docs/scaling.md
"Across hosts").

A :class:`Network` is a bridge in the root namespace (where the test and its clients run)
and one namespace per host, each with an ``eth0`` whose peer is enslaved to the bridge; a
host may also get a *front* link, a point-to-point veth pair to the root namespace, so that
its bridge link can go down while clients still reach it.  Every name carries a random tag,
so two runs at once never collide, and :meth:`Network.destroy` removes what was made even
when a test failed half-way.  Needs root and iproute2's ``ip``.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import random
import shutil
import signal
import subprocess
import uuid
from dataclasses import dataclass


def netns_problem() -> str | None:
    """Why hosts cannot be built here, or ``None`` when they can."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    if shutil.which("ip") is None:
        return "iproute2's `ip` is not installed"
    return None


def _ip(*args: str) -> str:
    done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30)
    if done.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def _free_subnets(count: int) -> list[ipaddress.IPv4Network]:
    """``count`` /24s in 10.200.0.0/13 that no interface of the root namespace uses."""
    used = [
        ipaddress.ip_interface(word).network
        for line in _ip("-4", "-o", "addr").splitlines()
        for word in line.split()[3:4]
    ]
    found: list[ipaddress.IPv4Network] = []
    while len(found) < count:
        candidate = ipaddress.IPv4Network(f"10.{random.randint(200, 207)}.{random.randint(0, 255)}.0/24")
        if candidate not in found and not any(candidate.overlaps(other) for other in used):
            found.append(candidate)
    return found


@dataclass
class Host:
    """One namespace: its name, its address on the bridge, and the root side of its link."""

    name: str
    namespace: str
    address: str
    link: str  # the root namespace's end of the host's bridge link
    front: str | None = None  # its address on the front link, when it has one

    def command(self, *argv: str) -> list[str]:
        """``argv`` run inside this host."""
        return ["ip", "netns", "exec", self.namespace, *argv]

    def pids(self) -> list[int]:
        return [int(pid) for pid in _ip("netns", "pids", self.namespace).split()]


class Network:
    """A bridge, hosts on it (:meth:`add_host`), links up and down, and clean-up."""

    def __init__(self) -> None:
        self.tag = uuid.uuid4().hex[:6]
        self.hosts: dict[str, Host] = {}
        self._links: list[str] = []  # root-side interfaces, deleted by destroy()
        self.subnet, self._front_subnet = _free_subnets(2)
        self._addresses = iter(self.subnet.hosts())
        self._front_addresses = iter(self._front_subnet.hosts())
        self.bridge = f"aaafbr{self.tag}"
        self._links.append(self.bridge)
        _ip("link", "add", self.bridge, "type", "bridge")
        self.gateway = str(next(self._addresses))  # the root namespace's address on the bridge
        _ip("addr", "add", f"{self.gateway}/{self.subnet.prefixlen}", "dev", self.bridge)
        _ip("link", "set", self.bridge, "up")
        self._front_root = str(next(self._front_addresses))

    def add_host(self, name: str) -> Host:
        namespace = f"aaaf-{self.tag}-{name}"
        _ip("netns", "add", namespace)
        link = f"aaaf{self.tag}h{len(self.hosts)}"
        host = Host(name, namespace, str(next(self._addresses)), link)
        self.hosts[name] = host
        self._links.append(link)
        _ip("link", "add", link, "type", "veth", "peer", "name", "eth0", "netns", namespace)
        _ip("link", "set", link, "master", self.bridge)
        _ip("link", "set", link, "up")
        inside = ("netns", "exec", namespace, "ip")
        _ip(*inside, "addr", "add", f"{host.address}/{self.subnet.prefixlen}", "dev", "eth0")
        _ip(*inside, "link", "set", "eth0", "up")
        _ip(*inside, "link", "set", "lo", "up")
        return host

    def add_front(self, host: Host) -> str:
        """A second link from ``host`` straight to the root namespace; its address there."""
        link = f"aaaf{self.tag}f{list(self.hosts).index(host.name)}"
        self._links.append(link)
        _ip("link", "add", link, "type", "veth", "peer", "name", "front0", "netns", host.namespace)
        prefix = self._front_subnet.prefixlen
        # one root address on every front link; each link routes its own host's address
        _ip("addr", "add", f"{self._front_root}/32", "dev", link)
        _ip("link", "set", link, "up")
        host.front = str(next(self._front_addresses))
        inside = ("netns", "exec", host.namespace, "ip")
        _ip(*inside, "addr", "add", f"{host.front}/{prefix}", "dev", "front0")
        _ip(*inside, "link", "set", "front0", "up")
        _ip("route", "add", f"{host.front}/32", "dev", link)
        return host.front

    def set_link(self, host: Host, up: bool) -> None:
        """Bring ``host``'s bridge link up or down (at the root's end: the host sees no carrier)."""
        _ip("link", "set", host.link, "up" if up else "down")

    def kill_processes(self, host: Host) -> list[int]:
        """SIGKILL every process running inside ``host``; their ids."""
        pids = host.pids()
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        return pids

    def destroy(self) -> None:
        """Kill what still runs in the hosts, delete their namespaces and every link."""
        for host in self.hosts.values():
            with contextlib.suppress(RuntimeError):
                self.kill_processes(host)
            subprocess.run(["ip", "netns", "del", host.namespace], capture_output=True, timeout=30)
        for link in reversed(self._links):
            subprocess.run(["ip", "link", "del", link], capture_output=True, timeout=30)
