"""Reading TOML files while keeping the line of every key.

The standard library parser does not report positions, so a light scan of the
text maps each key path (as a tuple) to the line where it is written. Errors
about a definition then point at the right line of the right file.
"""

from __future__ import annotations

import datetime
import os
import re
import stat
import sys
import tomllib
from pathlib import Path
from typing import Any

import attrs

from .errors import PackError
from .limits import MAX_FILE_BYTES, MAX_LINE_CHARS, MAX_NESTING
from .textlines import file_lines

# Every pattern here runs in time linear in the line: no two quantifiers compete for the same characters.
# A quoted part of a table's name may hold `]` (`[actions."x]y"]`): the header was not seen, and the keys under it
# were given to the table before.
_TABLE = re.compile(r"""^\s*+(\[\[?)((?:[^\]"']|"(?:[^"\\\n]|\\.)*+"|'[^'\n]*+')*+)\]\]?\s*+(#.*)?$""")
_KEY = re.compile(r"""^\s*((?:[A-Za-z0-9_\-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_\-]+|"[^"]*"|'[^']*'))*)\s*=""")
_INLINE_KEY = re.compile(r"""[{,]\s*+([A-Za-z0-9_\-]++|"[^"\n,{]*+")\s*+=""")
_MULTILINE_OPEN = re.compile(r"""^\s*(\"\"\"|''')""")


_KEY_PART = re.compile(r"""[A-Za-z0-9_\-]+|"(?:[^"\\\n]|\\.)*"|'[^'\n]*'""")


def _split_key(text: str) -> tuple[str, ...]:
    """The parts of a dotted key as TOML reads them: a quoted part with its escapes decoded (`"sc\\u006fre"`
    is `score`), so that its line is found under the name the pack's tables use."""
    return tuple(_key_part(part) for part in _KEY_PART.findall(text))


def _key_part(part: str) -> str:
    if part.startswith('"'):
        try:
            return str(tomllib.loads(f"k = {part}")["k"])
        except tomllib.TOMLDecodeError:  # not a valid string: the parse of the whole file reports it
            return part[1:-1]
    return part.strip("'")


@attrs.define
class TomlDoc:
    """A parsed TOML file with a map from key paths to lines."""

    path: str
    data: dict[str, Any]
    lines: dict[tuple[str, ...], int]
    text: str = ""
    # The text's lines, split once: split for each snippet, a 1 MB file of 25,000 one-word invariants took 2.5 ms
    # a snippet to load, 170 s in all.
    _text_lines: list[str] | None = attrs.field(default=None, init=False, repr=False, eq=False)

    def line_of(self, keypath: tuple[str, ...]) -> int | None:
        """The line of the longest known prefix of `keypath`."""
        for end in range(len(keypath), 0, -1):
            line = self.lines.get(tuple(keypath[:end]))
            if line is not None:
                return line
        # A table only ever written as part of dotted headers ([a.b]) has the line of its first child.
        size = len(keypath)
        inside = [line for path, line in self.lines.items() if size and path[:size] == tuple(keypath)]
        return min(inside) if inside else None

    def value_start(self, keypath: tuple[str, ...]) -> tuple[int | None, int, bool]:
        """Where the string written at `keypath` begins: line, column, and whether it is one line of the file.

        A one-line string may still hold escaped newlines, so every line of its text maps to the
        same line of the file. Falls back to the line of the closest key when the value cannot be
        found exactly.
        """
        line = self.line_of(keypath)
        if line is None or not keypath or self.lines.get(tuple(keypath)) != line:
            return line, 1, False
        if self._text_lines is None:
            self._text_lines = file_lines(self.text)
        lines = self._text_lines
        if line > len(lines):
            return line, 1, False
        raw = lines[line - 1]
        key = re.escape(keypath[-1])
        found = re.search(rf"""(?:^|[\s{{,.])["']?{key}["']?\s*=\s*""", raw)
        if found is None:
            return line, 1, False
        rest = raw[found.end():]
        for quote in ('"""', "'''"):
            if rest.startswith(quote):
                if not rest[3:].strip():  # the string starts on the next line
                    return line + 1, 1, False
                return line, found.end() + 4, False
        if rest[:1] in ('"', "'"):
            return line, found.end() + 2, True
        return line, 1, False

    def error(self, keypath: tuple[str, ...], message: str, hint: str | None = None) -> PackError:
        return PackError(message, file=self.path, line=self.line_of(keypath), hint=hint)


def _scan_lines(text: str) -> dict[tuple[str, ...], int]:
    lines: dict[tuple[str, ...], int] = {}
    table: tuple[str, ...] = ()
    array_counts: dict[tuple[str, ...], int] = {}
    inside: str | None = None  # the delimiter of the multi-line string being skipped
    for number, raw in enumerate(file_lines(text), start=1):
        if inside is not None:
            if raw.count(inside) % 2 == 1:
                inside = None
            continue
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        header = _TABLE.match(raw)
        if header and not _KEY.match(raw):
            path = _split_key(header.group(2).strip())
            if header.group(1) == "[[":
                index = array_counts.get(path, 0)
                array_counts[path] = index + 1
                table = path + (str(index),)
                lines.setdefault(path, number)
            else:
                table = path
            lines.setdefault(table, number)
            continue
        key = _KEY.match(raw)
        if key:
            path = table + _split_key(key.group(1))
            lines.setdefault(path, number)
            rest = raw[key.end():]
            for inner in _INLINE_KEY.finditer(rest):
                lines.setdefault(path + _split_key(inner.group(1)), number)
            opening = _MULTILINE_OPEN.match(rest)
            if opening and rest.count(opening.group(1)) == 1:
                inside = opening.group(1)
    return lines


def read_toml(path: Path, display: str | None = None) -> TomlDoc:
    """Parse a TOML file; syntax errors become located PackErrors."""
    name = display or str(path)
    return parse_toml(read_text(path, name), name)


def read_bytes(path: Path, name: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; anything else is a located error.

    The file is opened without blocking and checked once open, so a FIFO, a
    device such as /dev/zero or a file swapped in after a check is refused
    rather than read forever.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise PackError("file not found", file=name) from None
    except (OSError, ValueError) as exc:
        raise PackError(f"cannot read file: {getattr(exc, 'strerror', None) or exc}", file=name) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise PackError("not a regular file (a folder, a device or a pipe cannot be read)", file=name)
        if info.st_size > limit:
            raise PackError(f"file too large: {info.st_size} bytes (at most {limit})", file=name)
        with os.fdopen(fd, "rb", closefd=False) as stream:
            raw = stream.read(limit + 1)
        if len(raw) > limit:
            raise PackError(f"file too large: more than {limit} bytes", file=name)
        return raw
    except OSError as exc:
        raise PackError(f"cannot read file: {exc.strerror}", file=name) from None
    finally:
        os.close(fd)


BYTE_ORDER_MARK = "\ufeff"


def decode_text(raw: bytes, name: str) -> str:
    """UTF-8 text with lines of bounded length; other bytes or a longer line are located errors."""
    if raw[:2] == b"\x1f\x8b":
        raise PackError("a gzip-compressed file, not text: decompress it first", file=name, line=1)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise PackError(f"not UTF-8 text: byte {raw[exc.start]:#04x} cannot be decoded", file=name, line=line,
                        column=column) from None
    if text.startswith(BYTE_ORDER_MARK):  # written by some editors (Notepad) before UTF-8 text, and invisible in them
        text = text[1:]
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise PackError("a NUL byte: this is a binary file, not text", file=name, line=line)
    if len(text) > MAX_LINE_CHARS:
        for number, line_text in enumerate(file_lines(text), start=1):
            if len(line_text) > MAX_LINE_CHARS:
                raise PackError(f"line too long: {len(line_text)} characters (at most {MAX_LINE_CHARS})",
                                file=name, line=number)
    return text


def read_text(path: Path, name: str, limit: int = MAX_FILE_BYTES) -> str:
    """A pack file's text; a missing, special or oversized file, bytes that are not UTF-8 or an overlong
    line are located errors."""
    return decode_text(read_bytes(path, name, limit), name)


def nesting_line(text: str, limit: int = MAX_NESTING) -> int | None:
    """The line where arrays and inline tables first nest deeper than `limit`, if they do.

    Brackets inside strings and comments do not count; a table header such as
    `[a.b]` opens and closes on its line.
    """
    depth = 0
    line = 1
    index = 0
    size = len(text)
    while index < size:
        char = text[index]
        if char == "\n":
            line += 1
        elif char == "#":
            end = text.find("\n", index)
            index = size if end < 0 else end
            continue
        elif char in "\"'":
            quote = text[index: index + 3] if text.startswith(char * 3, index) else char
            end = index + len(quote)
            while True:
                end = text.find(quote, end)
                if end < 0 or quote == "'" or quote == "'''" or text[end - 1] != "\\":
                    break
                end += 1
            if end < 0:
                return None  # unterminated: the parser reports it
            line += text.count("\n", index, end)
            index = end + len(quote)
            continue
        elif char in "[{":
            depth += 1
            if depth > limit:
                return line
        elif char in "]}":
            depth = max(0, depth - 1)
        index += 1
    return None


def parse_toml(text: str, name: str) -> TomlDoc:
    try:
        data = tomllib.loads(text)
    except RecursionError:
        data = None
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        line = column = None
        found = re.search(r"\(at line (\d+), column (\d+)\)", message)
        if found:
            line, column = int(found.group(1)), int(found.group(2))
            message = message[: found.start()].strip()
        elif message.endswith("(at end of document)"):
            line = max(1, len(file_lines(text)))
            message = message.removesuffix("(at end of document)").strip()
        raise PackError(f"TOML syntax error: {message}", file=name, line=line, column=column) from None
    except ValueError:  # an integer of more digits than Python converts (4,300): tomllib's own error escaped
        line = long_number_line(text)
        raise PackError(f"a number of more than {sys.get_int_max_str_digits():,} digits", file=name,
                        line=line) from None
    if data is None or depth_of(data) > MAX_NESTING:
        raise PackError(f"arrays or tables nested more than {MAX_NESTING} deep", file=name,
                        line=nesting_line(text) or 1)
    doc = TomlDoc(name, data, _scan_lines(text), text)
    when = _first_date(data, ())
    if when is not None:
        raise doc.error(when, f"'{'.'.join(when)}' is a TOML date or time; ruleskit values are numbers, "
                        "strings, true/false, lists and tables (write a date as a string)")
    return doc


def long_number_line(text: str) -> int | None:
    """The line of the first run of more digits than Python converts to an integer (TOML's `_` separators
    counted out), if any."""
    most = sys.get_int_max_str_digits()
    for found in re.finditer(rf"[0-9_]{{{most + 1},}}", text):
        if len(found.group().replace("_", "")) > most:
            return text.count("\n", 0, found.start()) + 1
    return None


def _first_date(value: Any, keypath: tuple[str, ...]) -> tuple[str, ...] | None:
    """The key path of the first date, time or date-time in `value` (they have no JSON form)."""
    if isinstance(value, datetime.date | datetime.time):
        return keypath
    if isinstance(value, dict):
        items: Any = ((str(k), v) for k, v in value.items())
    elif isinstance(value, list):
        items = ((str(i), v) for i, v in enumerate(value))
    else:
        return None
    for key, item in items:
        found = _first_date(item, keypath + (key,))
        if found is not None:
            return found
    return None


def depth_of(value: Any, limit: int = MAX_NESTING) -> int:
    """How deeply lists and tables nest in `value`, counting no further than `limit + 1`."""
    if limit < 0 or not isinstance(value, dict | list):
        return 0
    items = value.values() if isinstance(value, dict) else value
    return 1 + max((depth_of(item, limit - 1) for item in items), default=0)
