"""A connection whose request headers do not all arrive in time is closed: uvicorn held a connection sending its
headers a byte now and then, or nothing at all, for as long as the client kept it open."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("uvicorn")

import uvicorn  # noqa: E402

from ruleskit.web.deadline import HeaderDeadline, server_config  # noqa: E402

SECONDS = 0.5


async def hello(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"hi"})


@pytest.fixture()
def port(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    monkeypatch.setattr(HeaderDeadline, "seconds", SECONDS)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(server_config(hello))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    yield sock.getsockname()[1]
    server.should_exit = True
    thread.join(10)


def closed_within(conn: socket.socket, seconds: float) -> bool:
    """Whether the server closes `conn` within `seconds` (what it sent before is read and dropped)."""
    conn.settimeout(seconds)
    try:
        while conn.recv(1024):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True
    return True


def test_a_connection_that_sends_nothing_is_closed(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port)) as conn:
        assert closed_within(conn, SECONDS * 8)


def test_headers_sent_a_byte_at_a_time_are_cut_off_at_the_deadline(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port)) as conn:
        started = time.monotonic()
        for byte in b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100:
            try:
                conn.sendall(bytes([byte]))
            except OSError:
                break
            time.sleep(SECONDS / 10)
            if time.monotonic() - started > SECONDS * 8:
                break
        assert closed_within(conn, SECONDS * 8)
        assert time.monotonic() - started < SECONDS * 8


def test_requests_whose_headers_arrive_in_time_are_answered_on_one_connection(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port)) as conn:
        conn.settimeout(5)
        for _ in range(3):
            time.sleep(SECONDS * 0.6)  # each request within its own deadline, the three together past one
            conn.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            answer = b""
            while not answer.endswith(b"hi"):
                answer += conn.recv(1024)
            assert answer.startswith(b"HTTP/1.1 200")
