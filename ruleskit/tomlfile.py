"""Reading TOML files while keeping the line of every key.

The standard library parser does not report positions, so a light scan of the
text maps each key path (as a tuple) to the line where it is written. Errors
about a definition then point at the right line of the right file.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import attrs

from .errors import PackError

_TABLE = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"""^\s*((?:[A-Za-z0-9_\-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_\-]+|"[^"]*"|'[^']*'))*)\s*=""")
_INLINE_KEY = re.compile(r"""[{,]\s*([A-Za-z0-9_\-]+|"[^"]*")\s*=""")


def _split_key(text: str) -> tuple[str, ...]:
    parts = re.findall(r"""[A-Za-z0-9_\-]+|"[^"]*"|'[^']*'""", text)
    return tuple(p.strip("\"'") for p in parts)


@attrs.define
class TomlDoc:
    """A parsed TOML file with a map from key paths to lines."""

    path: str
    data: dict[str, Any]
    lines: dict[tuple[str, ...], int]
    text: str = ""

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
        lines = self.text.splitlines()
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
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        header = _TABLE.match(raw)
        if header and not _KEY.match(raw):
            path = _split_key(header.group(2))
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
    return lines


def read_toml(path: Path, display: str | None = None) -> TomlDoc:
    """Parse a TOML file; syntax errors become located PackErrors."""
    name = display or str(path)
    return parse_toml(read_text(path, name), name)


def read_text(path: Path, name: str) -> str:
    """A pack file's text; a missing file or bytes that are not UTF-8 are located errors."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise PackError("file not found", file=name) from None
    except OSError as exc:
        raise PackError(f"cannot read file: {exc.strerror}", file=name) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise PackError(f"not UTF-8 text: byte {raw[exc.start]:#04x} cannot be decoded", file=name, line=line,
                        column=column) from None


def parse_toml(text: str, name: str) -> TomlDoc:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        line = column = None
        found = re.search(r"\(at line (\d+), column (\d+)\)", message)
        if found:
            line, column = int(found.group(1)), int(found.group(2))
            message = message[: found.start()].strip()
        raise PackError(f"TOML syntax error: {message}", file=name, line=line, column=column) from None
    return TomlDoc(name, data, _scan_lines(text), text)
