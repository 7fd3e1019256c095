"""Where the server may send requests on a tenant's behalf (issue 14 §5: webhook targets;
also usable for any URL a tenant hands in, such as an agent's endpoint).

A tenant must not make the server call into its own network: a URL whose host resolves to a
private, loopback, link-local, multicast, reserved or unspecified address — IPv4 or IPv6,
IPv4-mapped IPv6 included, *every* address the name resolves to — is refused with 400
``INVALID_REQUEST``, unless ``AAAF_WEBHOOK_ALLOW_LOOPBACK=true`` (tests, single-machine
setups).  Only ``http`` and ``https`` URLs with a host are accepted.  The check runs when the
URL is registered and again before each delivery (a name may be re-pointed meanwhile), and
the connection itself goes to an address so checked (:mod:`aaaf.services.pinned_transport`).
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import SplitResult, urlsplit

from aaaf.errors import AAAFError
from aaaf.settings import Settings

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


def _refuse(url: str, reason: str) -> AAAFError:
    return AAAFError("INVALID_REQUEST", f"url {url!r} is refused: {reason}.", {"field": "url", "url": url})


def internal_address(address: IPAddress) -> bool:
    """Whether ``address`` is inside someone's network rather than on the public internet."""
    if isinstance(address, ipaddress.IPv6Address):
        mapped = address.ipv4_mapped or address.sixtofour
        if mapped is not None:
            return internal_address(mapped)
    return bool(
        address.is_private
        or address.is_loopback
        or address.is_link_local
        or address.is_multicast
        or address.is_reserved
        or address.is_unspecified
        or not address.is_global
    )


def resolve_host(host: str, port: int) -> list[IPAddress]:
    """Every address ``host`` resolves to (a literal address is itself)."""
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    found: list[IPAddress] = []
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])
        if address not in found:
            found.append(address)
    return found


def check_url_form(url: str) -> SplitResult:
    """``url``'s parts when its form may be called (http or https, a host, no credentials),
    else 400 ``INVALID_REQUEST`` saying why; where its host resolves is not looked at."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - a port out of range raises here
    except ValueError:
        raise _refuse(url, "not a valid URL") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise _refuse(url, "only http and https URLs with a host can be called")
    if parts.username is not None or parts.password is not None:
        raise _refuse(url, "credentials in the URL are not accepted")
    return parts


def check_outbound_url(url: str, settings: Settings) -> str:
    """``url`` when the server may send to it, else 400 ``INVALID_REQUEST`` saying why."""
    parts = check_url_form(url)
    if settings.webhook_allow_loopback or not parts.hostname:
        return url
    try:
        addresses = resolve_host(parts.hostname, parts.port or (443 if parts.scheme == "https" else 80))
    except (OSError, UnicodeError):
        raise _refuse(url, f"the host {parts.hostname} does not resolve") from None
    check_addresses(url, parts.hostname, addresses, settings)
    return url


def check_addresses(url: str, host: str, addresses: list[IPAddress], settings: Settings) -> None:
    """400 ``INVALID_REQUEST`` unless ``host`` resolved to addresses that are all public (any
    address with ``AAAF_WEBHOOK_ALLOW_LOOPBACK=true``)."""
    if not addresses:
        raise _refuse(url, f"the host {host} does not resolve")
    if settings.webhook_allow_loopback:
        return
    internal = [str(address) for address in addresses if internal_address(address)]
    if internal:
        raise _refuse(
            url,
            f"{host} resolves to a private, loopback or link-local address ({', '.join(internal)});"
            " set AAAF_WEBHOOK_ALLOW_LOOPBACK=true to allow it on a single-machine setup",
        )
