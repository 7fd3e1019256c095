"""uvicorn's HTTP/1.1 protocol with a read deadline (docs/security.md "Connections").

uvicorn closes a connection idle *between* requests (``timeout_keep_alive``) but gives a
request being received all the time it wants: a client sending a byte every few seconds
holds a connection for ever, and a few hundred of them exhaust the file descriptors
("slowloris").  :class:`DeadlineH11Protocol` gives each request — its headers and its
body — ``AAAF_HTTP_READ_TIMEOUT_SECONDS`` from its first byte (or from the connection's
opening) to arrive whole, and closes the connection otherwise.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from aaaf.settings import get_settings

_INCOMPLETE = (h11.IDLE, h11.SEND_BODY)


class DeadlineH11Protocol(H11Protocol):
    """:class:`H11Protocol` closing a connection whose request does not arrive in time."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._read_timeout = get_settings().http_read_timeout_seconds
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._deadline is None and self.conn.their_state is h11.IDLE:
            self._arm()  # the first byte of the next request on a kept-alive connection
        super().data_received(data)
        if self.conn.their_state not in _INCOMPLETE:
            self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self._read_timeout, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        if self.conn.their_state in _INCOMPLETE and not self.transport.is_closing():
            self.transport.close()
