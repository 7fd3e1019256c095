"""An httpx transport that connects to the very address it checked (docs/security.md
"Outbound requests").

Checking a URL's host and then letting httpx resolve it again to connect leaves a gap: a
name can answer a public address to the check and 127.0.0.1 to the connection (DNS
rebinding).  :class:`PinnedTransport` closes it.  For every request it resolves the host
once, checks every address (:func:`aaaf.services.outbound_url.check_addresses`: none
private, loopback, link-local or reserved unless ``AAAF_WEBHOOK_ALLOW_LOOPBACK=true``), and
sends the request to the first of those addresses — the ``Host`` header and, for https, the
TLS server name and certificate check still use the host name.  With ``pin_per_host`` the
transport resolves and checks each host (and port) once, on its first request, and sends
every later request to it to that same checked address: one lookup per host for a webhook
delivery round rather than one per delivery, and still no request to an address unchecked.

Its connection pool is httpcore's, over :class:`SocketStream`\\ s: httpcore checks every pooled
connection before and after each request (has the server closed it?), and anyio's stream
answers that by building all its socket attributes, a ``getpeername`` system call included,
each time: 39 000 of them for 2 000 webhook deliveries, over half of the time httpcore spent
assigning requests to connections.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import select
import socket
import ssl
from collections.abc import Iterable
from typing import Protocol

import httpcore
import httpx

from aaaf.errors import AAAFError
from aaaf.services.outbound_url import IPAddress, check_addresses
from aaaf.settings import Settings

# httpx's own default limits (httpx.AsyncHTTPTransport's)
DEFAULT_LIMITS = httpx.Limits(max_connections=100, max_keepalive_connections=20)


async def resolve(host: str, port: int) -> list[IPAddress]:
    """Every address ``host`` resolves to, without blocking the loop (a literal is itself)."""
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    found: list[IPAddress] = []
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])
        if address not in found:
            found.append(address)
    return found


@functools.cache
def tls_context() -> ssl.SSLContext:
    """httpx's default TLS context (system or certifi CAs), built once per process: loading the
    CA file took 16 % of a webhook round's time on a loaded machine when each client built it."""
    return httpx.create_ssl_context()


class HasFileno(Protocol):
    def fileno(self) -> int: ...


def socket_readable(sock: HasFileno) -> bool:
    """Whether ``sock`` has something to read (for an idle connection: the server closed it),
    without waiting; a closed socket counts as readable (its next read ends)."""
    fd = sock.fileno()
    if fd < 0:
        return True
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(0))


class SocketStream(httpcore.AsyncNetworkStream):
    """An httpcore network stream that keeps its socket at hand: the pool's "is it readable?"
    asks it directly instead of through anyio's attributes (one ``getpeername`` each)."""

    def __init__(self, stream: httpcore.AsyncNetworkStream) -> None:
        self._stream = stream
        # a socket.socket, or on asyncio the transport's TransportSocket (its fileno is enough)
        self._socket: HasFileno | None = stream.get_extra_info("socket")

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return await self._stream.read(max_bytes, timeout)

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        await self._stream.write(buffer, timeout)

    async def aclose(self) -> None:
        await self._stream.aclose()

    async def start_tls(
        self, ssl_context: ssl.SSLContext, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.AsyncNetworkStream:
        return SocketStream(await self._stream.start_tls(ssl_context, server_hostname, timeout))

    def get_extra_info(self, info: str) -> object:
        if info == "is_readable" and self._socket is not None:
            return socket_readable(self._socket)
        return self._stream.get_extra_info(info)


class SocketBackend(httpcore.AsyncNetworkBackend):
    """httpcore's anyio backend, its streams :class:`SocketStream`\\ s."""

    def __init__(self) -> None:
        self._backend = httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        stream = await self._backend.connect_tcp(host, port, timeout, local_address, socket_options)
        return SocketStream(stream)

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        return SocketStream(await self._backend.connect_unix_socket(path, timeout, socket_options))

    async def sleep(self, seconds: float) -> None:
        await self._backend.sleep(seconds)


class _Pool(httpcore.AsyncConnectionPool):
    """httpcore's pool, minus the cancel-shield it builds to close no connection at all (twice a
    request: as it is assigned a connection and as its answer is closed).  A webhook delivery:
    3.74-3.79 -> 3.58 M instructions (benchmarks/count_webhook_work.py under callgrind)."""

    async def _close_connections(self, closing: list[httpcore.AsyncConnectionInterface]) -> None:
        if closing:  # nothing awaited when empty: nothing to shield from cancellation
            await super()._close_connections(closing)


class PinnedTransport(httpx.AsyncHTTPTransport):
    """:class:`httpx.AsyncHTTPTransport` that resolves, checks and pins each request's host."""

    def __init__(
        self,
        settings: Settings,
        *,
        refusal_as_connect_error: bool = False,
        pin_per_host: bool = False,
        limits: httpx.Limits = DEFAULT_LIMITS,
    ) -> None:
        """``refusal_as_connect_error``: a refused address raises ``httpx.ConnectError`` (what a
        client retries as an unreachable host) instead of the check's ``AAAFError``.
        ``pin_per_host``: each host is resolved and checked once, for the transport's life."""
        super().__init__(verify=tls_context(), limits=limits)
        # the same pool httpx builds, over streams that answer "readable?" from their socket
        self._pool = _Pool(
            ssl_context=tls_context(),
            max_connections=limits.max_connections,
            max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=limits.keepalive_expiry,
            network_backend=SocketBackend(),
        )
        self._settings = settings
        self._refusal_as_connect_error = refusal_as_connect_error
        self._pinned: dict[tuple[str, int], IPAddress] | None = {} if pin_per_host else None

    async def _checked_address(self, request: httpx.Request) -> IPAddress:
        url = request.url
        host, port = url.host, url.port or (443 if url.scheme == "https" else 80)
        if self._pinned is not None and (host, port) in self._pinned:
            return self._pinned[host, port]
        try:
            addresses = await resolve(host, port)
        except (OSError, UnicodeError) as error:
            raise httpx.ConnectError(f"{host} does not resolve ({error})", request=request) from None
        try:
            check_addresses(str(url), host, addresses, self._settings)
        except AAAFError as error:
            if not self._refusal_as_connect_error:
                raise
            raise httpx.ConnectError(error.message, request=request) from None
        if self._pinned is not None:
            self._pinned[host, port] = addresses[0]
        return addresses[0]

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        url = request.url
        host = url.host
        pinned = await self._checked_address(request)
        if str(pinned) != host:
            request.url = url.copy_with(host=str(pinned))
            request.headers["Host"] = url.netloc.decode("ascii")
            if url.scheme == "https":
                request.extensions = {**request.extensions, "sni_hostname": host}
        return await super().handle_async_request(request)
