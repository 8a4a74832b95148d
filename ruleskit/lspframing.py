"""The language server's input, checked message by message before pygls reads it.

pygls reads a message as header lines, a blank line, then as many bytes as `Content-Length` said. A header it
cannot read (`Content-Length: -1`, `Content-Length: ten`, none at all) was skipped without a word, so the body
that followed was read as headers and every later message was lost with it: the server stayed running and
answered nothing. A huge length made it wait for, and allocate, that many bytes; a body that is not JSON
was logged with a traceback and never answered. `CheckedInput` stands between stdin and pygls: it reads each
message whole, passes a well-formed one through unchanged, and hands pygls a `malformed` note in place of
any other (see `malformed_body`), which the server answers with an error. After a header it cannot read it
skips to the next `Content-Length` header, so one bad message costs only itself and the server keeps running.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any, BinaryIO, TextIO

from .limits import MAX_FILE_BYTES

MAX_MESSAGE_BYTES = 16 * MAX_FILE_BYTES
"""The longest message body taken: a pack file at its size limit, every character written as a JSON escape,
fits several times over."""
MAX_HEADER_BYTES = 1_000
"""The longest header line taken (`Content-Length: 16000000` and `Content-Type: ...` are a few dozen)."""
MALFORMED = "ruleskitMalformed"
"""The key of the note given to pygls for a message that could not be read: a JSON object without `jsonrpc`,
which pygls hands to the protocol as it is."""
SKIP_CHUNK = 1 << 20

_CONTENT_LENGTH = re.compile(rb"content-length:[ \t]*(.*?)[ \t]*\r?\n", re.IGNORECASE | re.DOTALL)
_LENGTH_ANYWHERE = re.compile(rb"content-length:", re.IGNORECASE)
_HEADER = re.compile(rb"[A-Za-z0-9_-]+:[^\r\n]*\r?\n")


class Malformed(Exception):
    """A message whose framing is not the protocol's; `resync` when its end is unknown."""

    def __init__(self, problem: str, resync: bool = True) -> None:
        super().__init__(problem)
        self.problem = problem
        self.resync = resync


def malformed_body(problem: str, message_id: Any = None) -> bytes:
    """The note pygls is given in place of a message that could not be read (its id, when one was read)."""
    return json.dumps({MALFORMED: {"problem": problem, "id": message_id}}).encode()


class CheckedInput:
    """A binary stream (`readline`, `read`) over `raw` that gives pygls whole, checked messages: each as one
    `Content-Length` header, a blank line and the body."""

    def __init__(self, raw: BinaryIO, errors: TextIO | None = None) -> None:
        self.raw = raw
        self.errors = errors if errors is not None else sys.stderr
        self.lines: list[bytes] = []  # header lines yet to give pygls
        self.body: bytes | None = None  # the body that follows them
        self.pending: bytes | None = None  # a header line found while skipping, the start of the next message

    def readline(self) -> bytes:
        if not self.lines and self.body is None:
            body = self._next_message()
            if body is None:
                return b""
            self.lines = [b"Content-Length: %d\r\n" % len(body), b"\r\n"]  # as pygls matches it: that spelling
            self.body = body
        return self.lines.pop(0) if self.lines else b""

    def read(self, size: int = -1) -> bytes:
        body, self.body = self.body, None
        if body is None or self.lines or size != len(body):  # pygls reads exactly the length it was given
            return b""
        return body

    def _next_message(self) -> bytes | None:
        """The next message's body, a `malformed_body` for one that could not be read, None at the end."""
        try:
            length = self._headers()
            if length is None:
                return None
            body = self.raw.read(length)
            if len(body) < length:
                self._say(f"the input ended inside a message body of {length:,} bytes")
                return None
        except Malformed as exc:
            if exc.resync:
                self._say(exc.problem + ": skipped to the next message")
                if not self._skip_to_next():
                    return None
            return malformed_body(exc.problem)
        return check_body(body)

    def _headers(self) -> int | None:
        """Read one message's headers; its body's length (None: the input ended between messages)."""
        length: int | None = None
        while True:
            line, self.pending = (self.pending, None) if self.pending is not None else \
                (self.raw.readline(MAX_HEADER_BYTES + 1), None)
            if not line:
                if length is not None:
                    self._say("the input ended inside a message's headers")
                return None
            if len(line) > MAX_HEADER_BYTES:
                raise Malformed(f"a header line longer than {MAX_HEADER_BYTES} bytes")
            if not line.strip():  # the blank line that ends the headers
                if length is None:
                    raise Malformed("a message with no Content-Length header")
                return length
            if not _HEADER.fullmatch(line):
                raise Malformed(f"a header line that is not 'Name: value': {_shown(line)}")
            found = _CONTENT_LENGTH.fullmatch(line)
            if found is None:
                continue
            digits = found.group(1)
            if not re.fullmatch(rb"\d{1,12}", digits):
                raise Malformed(f"Content-Length must be a number of bytes, not {_shown(digits)}")
            if length is not None:
                raise Malformed("two Content-Length headers in one message")
            length = int(digits)
            if length > MAX_MESSAGE_BYTES:
                problem = f"a message of {length:,} bytes, more than the {MAX_MESSAGE_BYTES:,} taken"
                self._say(problem + ": its bytes are passed over")
                self._discard_headers_and(length)
                raise Malformed(problem, resync=False)

    def _discard_headers_and(self, length: int) -> None:
        """Pass over the rest of a too-long message without keeping it: its headers, then `length` bytes."""
        while True:
            line = self.raw.readline(MAX_HEADER_BYTES + 1)
            if not line:
                return
            if not line.strip():
                break
        while length > 0:
            chunk = self.raw.read(min(length, SKIP_CHUNK))
            if not chunk:
                return
            length -= len(chunk)

    def _skip_to_next(self) -> bool:
        """Pass over input up to the next `Content-Length` header, kept in `pending` (a body has no line end
        of its own, so the next header may follow it on the same line). False at the end of the input."""
        while True:
            line = self.raw.readline(MAX_HEADER_BYTES + 1)
            if not line:
                return False
            found = _LENGTH_ANYWHERE.search(line)
            if found is not None and line.endswith(b"\n"):
                self.pending = line[found.start():]
                return True

    def _say(self, problem: str) -> None:
        print(f"ruleskit lsp: malformed input, {problem}", file=self.errors, flush=True)


def check_body(body: bytes) -> bytes:
    """`body` if it is a JSON object, else a `malformed_body` saying what it is."""
    try:
        data = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError, ValueError):
        # Not JSON, not UTF-8, nested past the parser's depth, or a number too long to read.
        return malformed_body("the message is not JSON")
    if not isinstance(data, dict):
        return malformed_body(f"the message is a JSON {type(data).__name__}, not an object")
    return body


def _shown(raw: bytes) -> str:
    text = raw.decode("utf-8", "replace").rstrip("\r\n")
    return repr(text if len(text) <= 60 else text[:60] + "...")
