"""An httpx transport that connects to the very address it checked (docs/security.md
"Outbound requests").

Checking a URL's host and then letting httpx resolve it again to connect leaves a gap: a
name can answer a public address to the check and 127.0.0.1 to the connection (DNS
rebinding).  :class:`PinnedTransport` closes it.  For every request it resolves the host
once, checks every address (:func:`aaaf.services.outbound_url.check_addresses`: none
private, loopback, link-local or reserved unless ``AAAF_WEBHOOK_ALLOW_LOOPBACK=true``), and
sends the request to the first of those addresses — the ``Host`` header and, for https, the
TLS server name and certificate check still use the host name.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import socket
import ssl

import httpx

from aaaf.errors import AAAFError
from aaaf.services.outbound_url import IPAddress, check_addresses
from aaaf.settings import Settings


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


class PinnedTransport(httpx.AsyncHTTPTransport):
    """:class:`httpx.AsyncHTTPTransport` that resolves, checks and pins each request's host."""

    def __init__(
        self, settings: Settings, *, refusal_as_connect_error: bool = False, **kwargs: object
    ) -> None:
        """``refusal_as_connect_error``: a refused address raises ``httpx.ConnectError`` (what a
        client retries as an unreachable host) instead of the check's ``AAAFError``."""
        kwargs.setdefault("verify", tls_context())
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._settings = settings
        self._refusal_as_connect_error = refusal_as_connect_error

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        url = request.url
        host = url.host
        try:
            addresses = await resolve(host, url.port or (443 if url.scheme == "https" else 80))
        except (OSError, UnicodeError) as error:
            raise httpx.ConnectError(f"{host} does not resolve ({error})", request=request) from None
        try:
            check_addresses(str(url), host, addresses, self._settings)
        except AAAFError as error:
            if not self._refusal_as_connect_error:
                raise
            raise httpx.ConnectError(error.message, request=request) from None
        pinned = addresses[0]
        if str(pinned) != host:
            request.url = url.copy_with(host=str(pinned))
            request.headers["Host"] = url.netloc.decode("ascii")
            if url.scheme == "https":
                request.extensions = {**request.extensions, "sni_hostname": host}
        return await super().handle_async_request(request)
