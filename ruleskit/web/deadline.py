"""A deadline for a request's headers on `ruleskit serve`'s connections.

uvicorn times out a connection only while it waits between two requests; a client that opens a connection and
sends a request's headers a byte now and then (or sends nothing) held it for as long as it liked, each such
connection a file descriptor and a task of the server's. `HeaderDeadline` is uvicorn's HTTP/1.1 protocol with one
more rule: from a connection's opening, and from the first byte of each later request, the whole of the
request's headers must arrive within `HEADER_SECONDS`, or the connection is closed. The body has its own limit
(`app.read_body`).
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = 20.0


class HeaderDeadline(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request headers do not all arrive in time."""

    seconds = HEADER_SECONDS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._deadline: asyncio.TimerHandle | None = None
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._deadline is None and self.conn.their_state is h11.IDLE:
            self._arm()  # the first byte of a later request on a kept connection
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._disarm()  # the headers are in: the body's own limit takes over

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._deadline = self.loop.call_later(self.seconds, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        if self.conn.their_state is h11.IDLE:  # still waiting for the headers
            self.transport.close()


def server_config(app: Any) -> Any:
    """uvicorn's configuration for serving `app` with the header deadline."""
    import uvicorn

    return uvicorn.Config(app, log_level="warning", http=HeaderDeadline)
