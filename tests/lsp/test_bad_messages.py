"""A message the language server cannot use is answered with a JSON-RPC error and the server keeps running:
before, a malformed frame stopped it (the editor had to restart it), and a body that was not JSON, a request
whose fields were not its method's, or one sent after `shutdown` was never answered (the editor waited on it)
while a traceback went to stderr; a request before `initialize` was answered with a traceback, and one
document opened under an address with a NUL byte failed every later request."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls")

RULES = Path(__file__).resolve().parents[1] / "packs" / "dice_race" / "rules.rk"
URI = RULES.as_uri()


def frame(message: dict[str, Any] | bytes) -> bytes:
    body = message if isinstance(message, bytes) else json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def request(number: int, method: str, params: Any = None) -> bytes:
    return frame({"jsonrpc": "2.0", "id": number, "method": method, "params": params})


def notify(method: str, params: Any) -> bytes:
    return frame({"jsonrpc": "2.0", "method": method, "params": params})


INITIALIZE = request(1, "initialize", {"capabilities": {}, "processId": None, "rootUri": None}) + \
    notify("initialized", {})
HOVER = {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}}
END = request(100, "shutdown") + notify("exit", None)


def converse(data: bytes) -> tuple[dict[Any, dict[str, Any]], list[dict[str, Any]], str]:
    """Send `data` and close the input; the answers by id, those without an id, and stderr."""
    server = subprocess.run([sys.executable, "-m", "ruleskit.cli", "lsp"], input=data, capture_output=True,
                            timeout=120)
    answers: dict[Any, dict[str, Any]] = {}
    unnumbered: list[dict[str, Any]] = []
    for body in re.split(rb"Content-Length: \d+\r\n(?:Content-Type: [^\r\n]*\r\n)?\r\n", server.stdout)[1:]:
        message = json.loads(body)
        if message.get("id") is None and "error" in message:
            unnumbered.append(message)
        elif "id" in message:
            answers[message["id"]] = message
    return answers, unnumbered, server.stderr.decode()


@pytest.mark.parametrize("bad, said", [
    (b"Content-Length: ten\r\n\r\n{}", "Content-Length must be a number of bytes"),
    (b"\r\n{}", "no Content-Length header"),
    (b"Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}", "two Content-Length headers"),
    (b"X-Padding: " + b"a" * 5000 + b"\r\n\r\n{}", "longer than"),
    (frame(b"{not json"), "the message is not JSON"),
    (frame(b"\xff\xfe"), "the message is not JSON"),
    (frame(b"[" * 100_000 + b"]" * 100_000), "the message is not JSON"),
    (frame(b"[1, 2]"), "a JSON list, not an object"),
])
def test_a_malformed_message_is_answered_and_the_next_one_read(bad: bytes, said: str) -> None:
    answers, unnumbered, err = converse(INITIALIZE + bad + request(2, "textDocument/hover", HOVER) + END)
    assert [message["error"]["message"] for message in unnumbered if said in message["error"]["message"]]
    assert "result" in answers[2] and "result" in answers[100]
    assert "Traceback" not in err


@pytest.mark.parametrize("params", [
    {"textDocument": 3},
    {"textDocument": {"uri": URI}, "position": {"line": -1, "character": 0}},
    {"textDocument": {"uri": URI}, "position": {"line": 10**12, "character": 10**12}},
])
def test_a_request_with_wrong_fields_is_answered_with_invalid_params(params: Any) -> None:
    answers, _, err = converse(INITIALIZE + request(2, "textDocument/hover", params) +
                               request(3, "textDocument/hover", HOVER) + END)
    assert answers[2]["error"]["code"] == -32602 and "textDocument/hover" in answers[2]["error"]["message"]
    assert "result" in answers[3]
    assert "Traceback" not in err


def test_a_request_before_initialize_is_refused_as_not_initialized() -> None:
    answers, _, err = converse(request(2, "textDocument/hover", HOVER) + INITIALIZE +
                               request(3, "textDocument/hover", HOVER) + END)
    assert answers[2]["error"]["code"] == -32002 and "not initialized" in answers[2]["error"]["message"]
    assert "result" in answers[3]
    assert "Traceback" not in err


def test_a_request_after_shutdown_is_answered() -> None:
    answers, _, _ = converse(INITIALIZE + request(100, "shutdown") + request(2, "textDocument/hover", HOVER) +
                             notify("exit", None))
    assert answers[2]["error"]["code"] == -32600 and "shut down" in answers[2]["error"]["message"]


@pytest.mark.parametrize("address", ["file:///tmp/a%00b/rules.rk", "file:///tmp/" + "a" * 5000 + "/rules.rk"])
def test_a_document_at_an_unusable_address_leaves_the_others_working(address: str) -> None:
    opened = {"textDocument": {"uri": address, "languageId": "ruleskit", "version": 1, "text": "x"}}
    hover_there = {"textDocument": {"uri": address}, "position": {"line": 0, "character": 0}}
    answers, _, err = converse(INITIALIZE + notify("textDocument/didOpen", opened) +
                               request(2, "textDocument/hover", hover_there) +
                               request(3, "textDocument/hover", HOVER) + END)
    assert answers[2].get("result") is None and "error" not in answers[2]
    assert "result" in answers[3] and "error" not in answers[3]
    assert "Traceback" not in err
