"""The language server's input framing: a malformed message is given to pygls as a note the server answers
with an error, with a line on stderr, and the input is read on from the next message; pygls alone skipped
it and read every later message as headers (the server ran on, answering nothing)."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

pytest.importorskip("pygls")

from ruleskit.lspframing import MALFORMED, MAX_MESSAGE_BYTES, CheckedInput  # noqa: E402


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


def problems(bodies: list[bytes]) -> list[str]:
    """The problems of the notes given in place of malformed messages."""
    return [json.loads(body)[MALFORMED]["problem"] for body in bodies if MALFORMED.encode() in body]


@pytest.mark.parametrize(("header", "said"), [
    (b"Content-Length: -5\r\n", "must be a number of bytes, not '-5'"),
    (b"Content-Length: ten\r\n", "must be a number of bytes, not 'ten'"),
    (b"Content-Length: 99999999999999999999\r\n", "must be a number of bytes"),
    (b"", "no Content-Length header"),
    (b"{\"jsonrpc\": \"2.0\"}\r\n", "not 'Name: value'"),
    (b"X-Padding: " + b"a" * 5000 + b"\r\n", "longer than"),
    (b"Content-Length: 2\r\nContent-Length: 3\r\n", "two Content-Length headers"),
])
def test_a_malformed_header_is_noted_and_the_next_message_read(header: bytes, said: str) -> None:
    data = framed(INITIALIZE) + framed(SHUTDOWN, header) + framed(SHUTDOWN)
    errors = io.StringIO()
    bodies = read_messages(CheckedInput(io.BytesIO(data), errors))
    assert bodies[0] == json.dumps(INITIALIZE).encode() and bodies[-1] == json.dumps(SHUTDOWN).encode()
    assert len(bodies) == 3 and said in problems(bodies)[0]
    assert said in errors.getvalue() and "skipped to the next message" in errors.getvalue()


def test_a_message_longer_than_taken_is_passed_over_unkept() -> None:
    body = b"x" * (MAX_MESSAGE_BYTES + 1)
    data = framed(INITIALIZE) + b"Content-Length: %d\r\n\r\n" % len(body) + body + framed(SHUTDOWN)
    errors = io.StringIO()
    bodies = read_messages(CheckedInput(io.BytesIO(data), errors))
    assert bodies[0] == json.dumps(INITIALIZE).encode() and bodies[-1] == json.dumps(SHUTDOWN).encode()
    assert "more than the" in problems(bodies)[0] and "passed over" in errors.getvalue()


def test_input_ending_inside_a_body_is_said() -> None:
    errors = io.StringIO()
    stream = CheckedInput(io.BytesIO(b"Content-Length: 100\r\n\r\n{}"), errors)
    assert read_messages(stream) == []
    assert "ended inside a message body of 100 bytes" in errors.getvalue()


@pytest.mark.parametrize("header", [b"Content-Length: -1\r\n", b""])
def test_the_server_answers_a_malformed_message_and_runs_on(header: bytes) -> None:
    """Before, the server answered the first message and then ran on, reading every later message as headers
    and answering none, for as long as the editor kept its input open; then it stopped at the first
    malformed message, and the editor had to restart it."""
    server = subprocess.Popen([sys.executable, "-m", "ruleskit.cli", "lsp"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert server.stdin is not None
        exit_message = {"jsonrpc": "2.0", "method": "exit"}
        server.stdin.write(framed(INITIALIZE) + framed(SHUTDOWN, header) + framed(SHUTDOWN) + framed(exit_message))
        server.stdin.flush()  # and left open, as an editor leaves it: the exit ends the server
        server.wait(timeout=60)
    finally:
        server.kill()
        out, err = server.communicate()
    assert b'"id": 1' in out and b'"capabilities"' in out  # the initialize was answered
    assert b'"code": -32700' in out  # the malformed message, with an error
    assert b'"id": 2' in out  # the shutdown after it
    assert b"malformed input" in err
