"""The language server's input, checked message by message before pygls reads it.

pygls reads a message as header lines, a blank line, then as many bytes as `Content-Length` said. A header it
cannot read (`Content-Length: -1`, `Content-Length: ten`, none at all) was skipped without a word, so the body
that followed was read as headers and every later message was lost with it: the server stayed running and
answered nothing. A huge length made it wait for, and allocate, that many bytes. `CheckedInput` stands
between stdin and pygls: it passes well-formed messages through unchanged, and at the first malformed one it
says what was wrong on stderr and ends the input, so the server shuts down and the editor can restart it.
"""

from __future__ import annotations

import re
import sys
from typing import BinaryIO, TextIO

from .limits import MAX_FILE_BYTES

MAX_MESSAGE_BYTES = 16 * MAX_FILE_BYTES
"""The longest message body taken: a pack file at its size limit, every character written as a JSON escape,
fits several times over."""
MAX_HEADER_BYTES = 1_000
"""The longest header line taken (`Content-Length: 16000000` and `Content-Type: ...` are a few dozen)."""

_CONTENT_LENGTH = re.compile(rb"content-length:[ \t]*(.*?)[ \t]*\r?\n", re.IGNORECASE | re.DOTALL)
_HEADER = re.compile(rb"[A-Za-z0-9_-]+:[^\r\n]*\r?\n")


class CheckedInput:
    """A binary stream (`readline`, `read`) over `raw` that ends, after a line on `errors`, at the first
    message whose framing is not the language server protocol's."""

    def __init__(self, raw: BinaryIO, errors: TextIO | None = None) -> None:
        self.raw = raw
        self.errors = errors if errors is not None else sys.stderr
        self.length: int | None = None  # the body's length, once this message's header has given it
        self.ended = False

    def readline(self) -> bytes:
        if self.ended:
            return b""
        line = self.raw.readline(MAX_HEADER_BYTES + 1)
        if not line:
            return b""
        if len(line) > MAX_HEADER_BYTES:
            return self._end(f"a header line longer than {MAX_HEADER_BYTES} bytes")
        if not line.strip():  # the blank line that ends the headers
            if self.length is None:
                return self._end("a message with no Content-Length header")
            return line
        if not _HEADER.fullmatch(line):
            return self._end(f"a header line that is not 'Name: value': {_shown(line)}")
        length = _CONTENT_LENGTH.fullmatch(line)
        if length is not None:
            digits = length.group(1)
            if not re.fullmatch(rb"\d{1,12}", digits):
                return self._end(f"Content-Length must be a number of bytes, not {_shown(digits)}")
            if int(digits) > MAX_MESSAGE_BYTES:
                return self._end(f"a message of {int(digits):,} bytes, more than the {MAX_MESSAGE_BYTES:,} taken")
            if self.length is not None:
                return self._end("two Content-Length headers in one message")
            self.length = int(digits)
            return b"Content-Length: %d\r\n" % self.length  # as pygls matches it: that spelling exactly
        return line

    def read(self, size: int = -1) -> bytes:
        if self.ended:
            return b""
        if self.length is None or size != self.length:  # pygls reads exactly the length it was given
            return self._end("a message body read without its Content-Length")
        self.length = None
        body = self.raw.read(size)
        if len(body) < size:
            return self._end(f"the input ended inside a message body of {size:,} bytes")
        return body

    def _end(self, problem: str) -> bytes:
        self.ended = True
        print(f"ruleskit lsp: malformed input, {problem}: the server stops", file=self.errors, flush=True)
        return b""


def _shown(raw: bytes) -> str:
    text = raw.decode("utf-8", "replace").rstrip("\r\n")
    return repr(text if len(text) <= 60 else text[:60] + "...")
