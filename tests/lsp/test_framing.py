"""The language server's input framing: a malformed message stops the server with a message on stderr, where
pygls alone skipped it and read every later message as headers (the server ran on, answering nothing)."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

pytest.importorskip("pygls")

from ruleskit.lspframing import MAX_MESSAGE_BYTES, CheckedInput  # noqa: E402


def framed(message: dict, header: bytes | None = None) -> bytes:
    body = json.dumps(message).encode()
    return (header if header is not None else b"Content-Length: %d\r\n" % len(body)) + b"\r\n" + body


INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
SHUTDOWN = {"jsonrpc": "2.0", "id": 2, "method": "shutdown"}


def read_messages(stream: CheckedInput) -> list[bytes]:
    """What pygls' loop reads: headers up to a blank line after a length, then the body."""
    bodies = []
    while True:
        length = None
        while True:
            line = stream.readline()
            if not line:
                return bodies
            if line.startswith(b"Content-Length: "):
                length = int(line[16:])
            elif not line.strip() and length is not None:
                break
        body = stream.read(length)
        if not body:
            return bodies
        bodies.append(body)


def test_well_formed_messages_pass_unchanged() -> None:
    data = framed(INITIALIZE) + framed(SHUTDOWN, b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"
                                       b"Content-Length: %d\r\n" % len(json.dumps(SHUTDOWN)))
    errors = io.StringIO()
    assert read_messages(CheckedInput(io.BytesIO(data), errors)) == [json.dumps(INITIALIZE).encode(),
                                                                   json.dumps(SHUTDOWN).encode()]
    assert errors.getvalue() == ""


def test_a_length_spelled_otherwise_is_given_to_pygls_as_it_reads_it() -> None:
    body = json.dumps(SHUTDOWN).encode()
    stream = CheckedInput(io.BytesIO(b"content-length:   %d\n\r\n" % len(body) + body), io.StringIO())
    assert stream.readline() == b"Content-Length: %d\r\n" % len(body)


@pytest.mark.parametrize(("header", "said"), [
    (b"Content-Length: -5\r\n", "must be a number of bytes, not '-5'"),
    (b"Content-Length: ten\r\n", "must be a number of bytes, not 'ten'"),
    (b"Content-Length: %d\r\n" % (MAX_MESSAGE_BYTES + 1), "more than the"),
    (b"Content-Length: 99999999999999999999\r\n", "must be a number of bytes"),
    (b"", "no Content-Length header"),
    (b"{\"jsonrpc\": \"2.0\"}\r\n", "not 'Name: value'"),
    (b"X-Padding: " + b"a" * 5000 + b"\r\n", "longer than"),
    (b"Content-Length: 2\r\nContent-Length: 3\r\n", "two Content-Length headers"),
])
def test_a_malformed_header_ends_the_input_with_a_message(header: bytes, said: str) -> None:
    data = framed(INITIALIZE) + framed(SHUTDOWN, header) + framed(SHUTDOWN)
    errors = io.StringIO()
    assert read_messages(CheckedInput(io.BytesIO(data), errors)) == [json.dumps(INITIALIZE).encode()]
    assert said in errors.getvalue() and "the server stops" in errors.getvalue()


def test_input_ending_inside_a_body_is_said() -> None:
    errors = io.StringIO()
    stream = CheckedInput(io.BytesIO(b"Content-Length: 100\r\n\r\n{}"), errors)
    assert read_messages(stream) == []
    assert "ended inside a message body of 100 bytes" in errors.getvalue()


@pytest.mark.parametrize("header", [b"Content-Length: -1\r\n", b"Content-Length: 10000000000\r\n", b""])
def test_the_server_answers_then_stops_at_a_malformed_message(header: bytes) -> None:
    """Before, the server answered the first message and then ran on, reading every later message as headers
    and answering none, for as long as the editor kept its input open."""
    server = subprocess.Popen([sys.executable, "-m", "ruleskit.cli", "lsp"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert server.stdin is not None
        server.stdin.write(framed(INITIALIZE) + framed(SHUTDOWN, header) + framed(SHUTDOWN))
        server.stdin.flush()  # and left open, as an editor leaves it
        server.wait(timeout=60)
    finally:
        server.kill()
        out, err = server.communicate()
    assert b'"id": 1' in out and b'"capabilities"' in out  # the initialize was answered
    assert b'"id": 2' not in out
    assert b"malformed input" in err
